"""Browsing tools: search active listings, look at one, look at a seller."""

from __future__ import annotations

from typing import Annotated, Literal

from servers.core import money, paging
from servers.core.schema import Arg
from servers.core.state import State
from servers.marketplace import views as v
from servers.marketplace.common import DOMAIN, ListingId, SellerId, match_city
from servers.marketplace.schemas import Category, Condition, Listing, ListingList, SellerProfile


@DOMAIN.tool(read_only=True)
def search_listings(
        s: State,
        query: Annotated[str | None, Arg("Words in the title or description (case-insensitive)",
                                         min_length=1)] = None,
        category: Annotated[Category | None, Arg("Only this category")] = None,
        city: Annotated[str | None, Arg("Only listings in this city, e.g. 'Lisbon'")] = None,
        max_price: Annotated[float | None, Arg(
            "Highest asking price in the world's currency", minimum=0)] = None,
        condition: Annotated[Condition | None, Arg("Only items in this condition")] = None,
        sort: Annotated[Literal["newest", "price_low", "price_high"], Arg(
            "Order of results")] = "newest",
        limit: paging.Limit = 20,
        cursor: paging.Cursor = None,
) -> ListingList:
    """Search active listings by keywords, category, city, condition and maximum price."""
    hi = None if max_price is None else money.amount_in(s, max_price, "max_price")
    where = match_city(city) if city is not None else None
    words = (query or "").lower().split()
    rows = [r for r in s["listings"].rows()
            if r["status"] == "active"
            and all(w in f"{r['title']} {r['description']}".lower() for w in words)
            and (category is None or r["category"] == category)
            and (where is None or r["city"] == where)
            and (hi is None or r["price"] <= hi)
            and (condition is None or r["condition"] == condition)]
    if sort == "newest":
        rows.sort(key=lambda r: (r["created_at"], r["listing_id"]), reverse=True)
    else:
        rows.sort(key=lambda r: (r["price"], r["listing_id"]), reverse=sort == "price_high")
    pg = paging.page(rows, limit, cursor, key="listing_id")
    return {"listings": [v.summary(s, r) for r in pg.rows], "total": len(rows),
            "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=True)
def get_listing(s: State, listing_id: ListingId) -> Listing:
    """Get one listing's full details: description, seller and rating, status, open offers."""
    return v.listing(s, s["listings"].get(listing_id))


@DOMAIN.tool(read_only=True)
def get_seller_profile(s: State, seller_id: SellerId) -> SellerProfile:
    """Show a seller's profile: city, member since, rating, active listings, recent reviews."""
    seller = s["sellers"].get(seller_id)
    rating, count = v.rating(s, seller_id)
    own = s["listings"].rows(lambda r: r["seller_id"] == seller_id)
    reviews = s["reviews"].rows(lambda r: r["seller_id"] == seller_id)
    reviews.sort(key=lambda r: (r["created_at"], r["review_id"]), reverse=True)
    return {**seller, "rating": rating, "review_count": count,
            "sold_count": sum(r["status"] == "sold" for r in own),
            "active_listings": [v.summary(s, r) for r in own if r["status"] == "active"],
            "recent_reviews": [v.review(s, r) for r in reviews[:5]]}
