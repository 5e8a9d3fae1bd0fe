"""Store finder tools: find stores by city, format, opening time or stock; store details."""

from __future__ import annotations

from typing import Annotated

from servers.core import clock, paging
from servers.core.schema import Arg
from servers.core.state import State
from servers.retail_chain.common import (
    DOMAIN,
    City,
    Department,
    StoreId,
    as_summary,
    available,
    hours_text,
    is_open,
    match_city,
    stock_at,
)
from servers.retail_chain.models import StoreDetail, StoreList


@DOMAIN.tool(read_only=True)
def find_stores(
        s: State, city: City = None,
        format: Annotated[Department | None, Arg("Only stores of this format")] = None,
        open_at: Annotated[str | None, Arg(
            "Date and time 'YYYY-MM-DDTHH:MM' (your local time, or with a 'Z' or '+hh:mm' "
            "offset); only stores open then, by each store's own local hours")] = None,
        product_id: Annotated[str | None, Arg(
            "Only stores with this product available now (from search_catalog)")] = None,
        pickup_only: Annotated[bool, Arg("Only stores offering click & collect")] = False,
        limit: paging.Limit = 20,
        cursor: paging.Cursor = None,
) -> StoreList:
    """Find the chain's stores by city, format, opening time or stock of a product."""
    if product_id is not None:
        s["products"].get(product_id)
    match = match_city(s, city) if city is not None else None
    when = clock.parse_when(open_at, "open_at", clock.zone(s)) if open_at is not None else None
    found = []
    for store in s["stores"].rows():
        if ((match and store["city"] != match) or (format and store["format"] != format)
                or (pickup_only and not store["pickup_available"])
                or (when and not is_open(store, when))):
            continue
        if product_id is not None:
            stock = stock_at(s, store["store_id"], product_id)
            if stock is None or available(stock) <= 0:
                continue
        found.append(as_summary(s, store, when))
    pg = paging.page(found, limit, cursor, key="store_id")
    return {"stores": pg.rows, "total": len(found), "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=True)
def get_store(s: State, store_id: StoreId) -> StoreDetail:
    """Get a store's address, phone, services and weekly opening hours."""
    store = s["stores"].get(store_id)
    keys = ("store_id", "name", "format", "city", "country", "address", "phone", "lat", "lon",
            "rating", "pickup_available", "services", "hours")
    current = clock.now(s)
    return {**{k: store[k] for k in keys}, "hours_today": hours_text(store, current),
            "open_now": is_open(store, current)}
