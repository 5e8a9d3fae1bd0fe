"""Selling tools: create, edit and remove the user's listings, and list them."""

from __future__ import annotations

from typing import Annotated

from servers.core import money
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State
from servers.marketplace import views as v
from servers.marketplace.common import (
    DOMAIN,
    Description,
    Price,
    Title,
    decline_pending,
    match_city,
    own_active,
    price_in,
)
from servers.marketplace.schemas import (
    Category,
    Condition,
    Listing,
    ListingStatus,
    MyListings,
    RemovedListing,
)


@DOMAIN.tool(read_only=False)
def create_listing(
        s: State, title: Title, description: Description,
        category: Annotated[Category, Arg("Category of the item")],
        condition: Annotated[Condition, Arg("State of the item")], price: Price,
        city: Annotated[str | None, Arg(
            "City where the item can be picked up (default: the user's city)")] = None,
) -> Listing:
    """Put an item up for sale; the new listing is active at once."""
    me = v.user_id(s)
    where = match_city(city) if city is not None else s["sellers"].get(me)["city"]
    dup = s["listings"].rows(lambda r: r["seller_id"] == me and r["status"] == "active"
                             and r["title"].lower() == title.strip().lower())
    if dup:
        raise ToolError(f"you already have an active listing titled {dup[0]['title']!r} "
                        f"({dup[0]['listing_id']}); change it with update_listing instead")
    when = v.tick(s)
    row = s["listings"].insert({
        "listing_id": s.next_id("lst"), "title": title.strip(), "description": description,
        "category": category, "condition": condition, "price": price_in(s, price, "price"),
        "city": where,
        "seller_id": me, "status": "active", "buyer_id": None, "sold_price": None,
        "created_at": when, "updated_at": when})
    return v.listing(s, row)


@DOMAIN.tool(read_only=False)
def update_listing(
        s: State, listing_id: Annotated[str, Arg("Id of one of the user's active listings "
                                                 "(from list_my_listings)")],
        price: Annotated[float | None, Arg(
            "New asking price in the world's currency, with at most its decimals",
            minimum=0.01)] = None,
        title: Annotated[str | None, Arg("New title", min_length=3, max_length=80)] = None,
        description: Annotated[str | None, Arg("New description", min_length=1,
                                               max_length=1000)] = None) -> Listing:
    """Change the price, title or description of one of the user's active listings. The price
    cannot go below a pending offer; answer such offers first (respond_to_offer)."""
    row = own_active(s, listing_id, "edit")
    changes = {k: v for k, v in (("price", None if price is None else price_in(s, price, "price")),
                                 ("title", title), ("description", description))
               if v is not None}
    if not changes:
        raise ToolError("nothing to update; give a new price, title or description")
    if "price" in changes:
        _check_no_offer_above(s, listing_id, changes["price"])
    return v.listing(s, s["listings"].update(row["listing_id"], **changes,
                                            updated_at=v.tick(s)))


def _check_no_offer_above(s: State, listing_id: str, price: int) -> None:
    """An offer may not exceed the asking price (make_offer), so the price cannot drop below a
    pending offer: the seller answers such offers first rather than have them silently
    declined or left above the price."""
    above = sorted(s["offers"].rows(lambda o: o["listing_id"] == listing_id
                                    and o["status"] == "pending" and o["amount"] > price),
                   key=lambda o: (-o["amount"], o["offer_id"]))
    if above:
        cur = money.currency_of(s)
        named = ", ".join(f"{o['offer_id']} of {money.fmt(o['amount'], cur)}" for o in above)
        raise ToolError(f"listing {listing_id} has pending offer(s) above the new price "
                        f"{money.fmt(price, cur)}: {named}; accept or decline them with "
                        f"respond_to_offer first, or ask at least "
                        f"{money.fmt(above[0]['amount'], cur)}")


@DOMAIN.tool(read_only=False)
def remove_listing(s: State, listing_id: Annotated[str, Arg(
        "Id of one of the user's active listings (from list_my_listings)")]) -> RemovedListing:
    """Take down one of the user's active listings; its pending offers are declined."""
    row = own_active(s, listing_id, "remove")
    when = v.tick(s)
    declined = decline_pending(s, listing_id)
    row = s["listings"].update(row["listing_id"], status="removed", updated_at=when)
    return {"listing": v.listing(s, row), "declined_offer_ids": declined}


@DOMAIN.tool(read_only=True)
def list_my_listings(s: State, status: Annotated[ListingStatus | None, Arg(
        "Only listings with this status (default: all)")] = None) -> MyListings:
    """List the items the user is selling or has sold, newest first, with pending offers."""
    rows = s["listings"].rows(lambda r: r["seller_id"] == v.user_id(s)
                              and (status is None or r["status"] == status))
    rows.sort(key=lambda r: (r["created_at"], r["listing_id"]), reverse=True)
    return {"listings": [v.listing(s, r) for r in rows], "total": len(rows)}
