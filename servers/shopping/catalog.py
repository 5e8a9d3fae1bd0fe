"""shopping tools: browsing the catalog, reviews and the wishlist."""

from __future__ import annotations

from typing import Annotated, Literal

from servers.core import money, paging
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State
from servers.shopping.common import (
    DOMAIN,
    ProductId,
    now,
    product_summary,
    rating_of,
    variants_of,
)
from servers.shopping.models import (
    ProductDetail,
    ProductList,
    ReviewList,
    Wishlist,
)

CategoryName = Literal["electronics", "home_kitchen", "clothing", "shoes", "sports_outdoors",
                       "books", "beauty", "toys_games"]
REVIEW_KEYS = ("review_id", "product_id", "author_name", "rating", "title", "body",
               "created_at", "verified_purchase", "helpful_votes")


@DOMAIN.tool(read_only=True)
def search_products(
        s: State,
        query: Annotated[str | None, Arg(
            "Words that must all appear in the name, brand, description or options",
            min_length=1)] = None,
        category: Annotated[CategoryName | None, Arg("Only this category")] = None,
        min_price: Annotated[float | None, Arg(
            "Lowest price in the world's currency (see any product's `currency`)",
            minimum=0)] = None,
        max_price: Annotated[float | None, Arg(
            "Highest price in the world's currency", minimum=0)] = None,
        min_rating: Annotated[float | None, Arg("Lowest average rating", minimum=1,
                                                maximum=5)] = None,
        in_stock_only: Annotated[bool, Arg("Only products with a variant in stock")] = False,
        sort: Annotated[Literal["relevance", "price_asc", "price_desc", "rating"], Arg(
            "Result order")] = "relevance",
        limit: paging.Limit = 20,
        cursor: paging.Cursor = None,
) -> ProductList:
    """Search the catalog; a product matches when some variant's price is in the range."""
    if min_price is not None and max_price is not None and min_price > max_price:
        raise ToolError(f"min_price ({min_price}) is above max_price ({max_price})")
    lo = None if min_price is None else money.amount_in(s, min_price, "min_price")
    hi = None if max_price is None else money.amount_in(s, max_price, "max_price")
    words = query.lower().split() if query else []
    scored = []
    for p in s["products"].rows():
        variants = variants_of(s, p["product_id"])
        options = " ".join(str(o) for v in variants for o in v["options"].values())
        text = f"{p['name']} {p['brand']} {p['description']} {p['category']} {options}".lower()
        if any(w not in text for w in words) or (category and p["category"] != category):
            continue
        if not any((lo is None or v["price"] >= lo) and (hi is None or v["price"] <= hi)
                   for v in variants):
            continue
        summary = product_summary(s, p)
        if ((min_rating is not None and (summary["rating"] or 0) < min_rating)
                or (in_stock_only and not summary["in_stock"])):
            continue
        hits = sum(w in p["name"].lower() for w in words)
        scored.append((hits, summary))
    if sort == "relevance":
        scored.sort(key=lambda x: (-x[0], x[1]["product_id"]))
    elif sort == "rating":
        scored.sort(key=lambda x: (-(x[1]["rating"] or 0), -x[1]["review_count"]))
    else:
        scored.sort(key=lambda x: x[1]["price_min"], reverse=sort == "price_desc")
    pg = paging.page([x[1] for x in scored], limit, cursor, key="product_id")
    return {"products": pg.rows, "total": len(scored), "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=True)
def get_product(s: State, product_id: ProductId) -> ProductDetail:
    """Get a product's details and its variants (item ids, options, prices, stock)."""
    p = s["products"].get(product_id)
    rating, count = rating_of(s, product_id)
    return {"product_id": product_id, "name": p["name"], "brand": p["brand"],
            "category": p["category"], "description": p["description"],
            "options": p["options"], "rating": rating, "review_count": count,
            "variants": [{"item_id": v["item_id"], "options": v["options"],
                          "price": money.amount_out(s, v["price"]),
                          "currency": money.currency_of(s), "stock": v["stock"],
                          "available": v["stock"] > 0} for v in variants_of(s, product_id)]}


@DOMAIN.tool(read_only=True)
def get_product_reviews(
        s: State, product_id: ProductId,
        min_rating: Annotated[int | None, Arg("Only reviews with at least this many stars",
                                              minimum=1, maximum=5)] = None,
        sort: Annotated[Literal["most_helpful", "newest", "highest", "lowest"], Arg(
            "Review order")] = "most_helpful",
        limit: Annotated[int, Arg("At most this many reviews", minimum=1, maximum=50)] = 10,
) -> ReviewList:
    """Read customer reviews of a product, with its average rating."""
    s["products"].get(product_id)
    rows = [r for r in s["reviews"].rows(lambda r: r["product_id"] == product_id)
            if min_rating is None or r["rating"] >= min_rating]
    keys = {"most_helpful": lambda r: (-r["helpful_votes"], r["review_id"]),
            "newest": lambda r: (r["created_at"], r["review_id"]),
            "highest": lambda r: (-r["rating"], r["review_id"]),
            "lowest": lambda r: (r["rating"], r["review_id"])}
    rows.sort(key=keys[sort], reverse=sort == "newest")
    rating, count = rating_of(s, product_id)
    return {"product_id": product_id, "average_rating": rating, "review_count": count,
            "reviews": [{k: r[k] for k in REVIEW_KEYS} for r in rows[:limit]]}


# ----------------------------------------------------------------------------- wishlist
def _wishlist(s: State) -> Wishlist:
    items = []
    for row in sorted(s["wishlist"].rows(), key=lambda r: (r["added_at"], r["product_id"])):
        summary = product_summary(s, s["products"].get(row["product_id"]))
        items.append({"product_id": row["product_id"], "name": summary["name"],
                      "price_min": summary["price_min"], "currency": summary["currency"],
                      "in_stock": summary["in_stock"],
                      "added_at": row["added_at"]})
    return {"items": items, "total": len(items)}


@DOMAIN.tool(read_only=False)
def add_to_wishlist(s: State, product_id: ProductId) -> Wishlist:
    """Save a product to the user's wishlist."""
    p = s["products"].get(product_id)
    if product_id in s["wishlist"]:
        raise ToolError(f"{p['name']} ({product_id}) is already in the wishlist")
    s["wishlist"].insert({"product_id": product_id, "added_at": now(s)})
    return _wishlist(s)


@DOMAIN.tool(read_only=True)
def view_wishlist(s: State) -> Wishlist:
    """Show the products saved in the user's wishlist, oldest first."""
    return _wishlist(s)


@DOMAIN.tool(read_only=False)
def remove_from_wishlist(s: State, product_id: ProductId) -> Wishlist:
    """Remove a product from the user's wishlist."""
    s["products"].get(product_id)
    if product_id not in s["wishlist"]:
        raise ToolError(f"product {product_id} is not in the wishlist; use view_wishlist to "
                        "see saved products")
    s["wishlist"].delete(product_id)
    return _wishlist(s)
