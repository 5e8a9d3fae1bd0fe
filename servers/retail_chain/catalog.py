"""Catalog tools: search the product catalog and check per-store stock."""

from __future__ import annotations

from typing import Annotated

from servers.core import money, paging
from servers.core.schema import Arg
from servers.core.state import State
from servers.retail_chain.common import (
    DOMAIN,
    City,
    Department,
    ProductId,
    as_product,
    available,
    km,
    match_city,
    stock_at,
)
from servers.retail_chain.models import InventoryOut, ProductList, StockAtStore


@DOMAIN.tool(read_only=True)
def search_catalog(
        s: State,
        query: Annotated[str | None, Arg(
            "Words that must all appear in the name, brand or description", min_length=1)
        ] = None,
        department: Annotated[Department | None, Arg("Only this department")] = None,
        max_price: Annotated[float | None, Arg(
            "Highest price in the world's currency (see any product's `currency`)",
            minimum=0)] = None,
        in_stock_only: Annotated[bool, Arg("Only products available in some store")] = False,
        limit: paging.Limit = 20,
        cursor: paging.Cursor = None,
) -> ProductList:
    """Search the chain's product catalog (prices are the same in every store)."""
    words = query.lower().split() if query else []
    hi = None if max_price is None else money.amount_in(s, max_price, "max_price")
    found = []
    for row in s["products"].rows():
        text = f"{row['name']} {row['brand']} {row['description']} {row['department']}".lower()
        if (any(w not in text for w in words) or (department and row["department"] !=
                                                   department)
                or (hi is not None and row["price"] > hi)):
            continue
        product = as_product(s, row)
        if not in_stock_only or product["stores_in_stock"] > 0:
            found.append(product)
    pg = paging.page(found, limit, cursor, key="product_id")
    return {"products": pg.rows, "total": len(found), "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=True)
def check_inventory(
        s: State, product_id: ProductId,
        store_id: Annotated[str | None, Arg(
            "A store to check (the other stores in its city are listed after it, nearest "
            "first)")] = None,
        city: City = None) -> InventoryOut:
    """Check how many units of a product are available to buy or reserve, per store."""
    product = s["products"].get(product_id)
    origin = s["stores"].get(store_id) if store_id is not None else None
    match = match_city(s, city) if city is not None else None
    if origin is not None:
        match = origin["city"]
    out: list[StockAtStore] = []
    for store in s["stores"].rows():
        if match and store["city"] != match:
            continue
        stock = stock_at(s, store["store_id"], product_id)
        if stock is None and store["store_id"] != store_id:
            continue
        n = 0 if stock is None else max(available(stock), 0)
        status = ("not_carried" if stock is None else "out_of_stock" if n == 0
                  else "low_stock" if n <= 3 else "in_stock")
        out.append({"store_id": store["store_id"], "store_name": store["name"],
                    "city": store["city"], "available": n, "status": status,
                    "aisle": stock["aisle"] if stock else None,
                    "distance_km": km(origin, store) if origin is not None else None})
    if origin is not None:
        out.sort(key=lambda r: r["distance_km"] or 0.0)
    else:
        out.sort(key=lambda r: (-r["available"], r["store_id"]))
    return {"product_id": product_id, "product_name": product["name"],
            "price": money.amount_out(s, product["price"]), "currency": money.currency_of(s),
            "stores": out,
            "total_available": sum(r["available"] for r in out)}
