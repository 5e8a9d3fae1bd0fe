"""Offer tools: make offers, list those made and received, accept or decline them."""

from __future__ import annotations

from typing import Annotated, Literal

from servers.core import money, paging
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State
from servers.marketplace import views as v
from servers.marketplace.common import DOMAIN, ListingId, decline_pending, price_in
from servers.marketplace.schemas import Offer, OfferList, OfferResponse, OfferStatus


@DOMAIN.tool(read_only=False)
def make_offer(
        s: State, listing_id: ListingId,
        amount: Annotated[float, Arg(
            "Offered price in the listing's currency, with at most its decimals (at most the "
            "asking price)", minimum=0.01)],
        message: Annotated[str, Arg("Optional note to the seller", max_length=500)] = "",
) -> Offer:
    """Offer to buy another person's active listing; the seller accepts or declines it."""
    row = s["listings"].get(listing_id)
    me = v.user_id(s)
    if row["seller_id"] == me:
        raise ToolError(f"listing {listing_id} is your own; you cannot make an offer on it")
    if row["status"] != "active":
        raise ToolError(f"listing {listing_id} is {row['status']} and takes no offers; "
                        "use search_listings to find active ones")
    cur, minor = money.currency_of(s), price_in(s, amount, "amount")
    if minor > row["price"]:
        raise ToolError(f"offer {money.fmt(minor, cur)} is above the asking price "
                        f"{money.fmt(row['price'], cur)}; offer at most the asking price")
    mine = s["offers"].rows(lambda o: o["listing_id"] == listing_id and o["buyer_id"] == me
                            and o["status"] == "pending")
    if mine:
        raise ToolError(f"you already have a pending offer {mine[0]['offer_id']} of "
                        f"{money.fmt(mine[0]['amount'], cur)} on listing {listing_id}; wait "
                        "for the seller to answer it")
    offer = s["offers"].insert({
        "offer_id": s.next_id("off"), "listing_id": listing_id, "buyer_id": me,
        "seller_id": row["seller_id"], "amount": minor, "message": message,
        "status": "pending", "created_at": v.tick(s), "responded_at": None})
    return v.offer(s, offer)


@DOMAIN.tool(read_only=True)
def list_offers(
        s: State,
        direction: Annotated[Literal["made", "received", "all"], Arg(
            "made: offers the user made; received: offers on the user's listings")] = "all",
        status: Annotated[OfferStatus | None, Arg("Only offers with this status")] = None,
        listing_id: Annotated[str | None, Arg("Only offers on this listing")] = None,
        limit: paging.Limit = 20,
        cursor: paging.Cursor = None,
) -> OfferList:
    """List offers the user made or received, newest first."""
    if listing_id is not None:
        s["listings"].get(listing_id)
    me = v.user_id(s)
    rows = [o for o in s["offers"].rows()
            if (o["buyer_id"] == me and direction in ("made", "all"))
            or (o["seller_id"] == me and direction in ("received", "all"))]
    rows = [o for o in rows if (status is None or o["status"] == status)
            and (listing_id is None or o["listing_id"] == listing_id)]
    rows.sort(key=lambda o: (o["created_at"], o["offer_id"]), reverse=True)
    pg = paging.page(rows, limit, cursor, key="offer_id")
    return {"offers": [v.offer(s, o) for o in pg.rows], "total": len(rows),
            "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=False)
def respond_to_offer(
        s: State, offer_id: Annotated[str, Arg(
            "Id of a pending offer on one of the user's listings (from list_offers)")],
        action: Annotated[Literal["accept", "decline"], Arg(
            "accept sells the item at the offered price; decline rejects the offer")],
) -> OfferResponse:
    """Accept or decline an offer someone made on the user's listing. Accepting marks the
    listing sold to that buyer and declines every other pending offer on it."""
    offer = s["offers"].get(offer_id)
    if offer["seller_id"] != v.user_id(s):
        raise ToolError(f"offer {offer_id} is one you made; only the seller "
                        f"({v.name(s, offer['seller_id'])}) can accept or decline it")
    if offer["status"] != "pending":
        raise ToolError(f"offer {offer_id} was already {offer['status']}")
    listing_id = offer["listing_id"]
    when = v.tick(s)
    declined: list[str] = []
    offer = s["offers"].update(offer_id, responded_at=when,
                               status="accepted" if action == "accept" else "declined")
    if action == "accept":
        declined = decline_pending(s, listing_id, except_id=offer_id)
        s["listings"].update(listing_id, status="sold", buyer_id=offer["buyer_id"],
                             sold_price=offer["amount"], updated_at=when)
    return {"offer": v.offer(s, offer), "declined_offer_ids": declined,
            "listing_status": s["listings"].get(listing_id)["status"]}
