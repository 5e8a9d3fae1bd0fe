"""marketplace: a second-hand classifieds app (listings, offers, chats with sellers, reviews).

Sellers are the world's people in their world cities; the user (the world's principal) buys
through offers that sellers accept, sells their own listings, and reviews sellers they bought
from.
"""

from __future__ import annotations

from typing import Annotated, Literal

from servers.core.domain import Domain
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State
from servers.core.world import CITIES
from servers.marketplace import views as v
from servers.marketplace.generate import build
from servers.marketplace.schemas import (
    Category,
    Condition,
    ConversationList,
    Listing,
    ListingList,
    ListingStatus,
    MyListings,
    Offer,
    OfferList,
    OfferResponse,
    OfferStatus,
    RemovedListing,
    Review,
    SellerProfile,
    SentMessage,
)

DOMAIN = Domain("marketplace", "Second-hand marketplace: listings, offers, messages, reviews.",
                build)
CITY_NAMES = [c[0] for c in CITIES]


# ----------------------------------------------------------------------------- helpers
def _own_active(s: State, listing_id: str, action: str) -> Row:
    """The user's own active listing, or an error saying why `action` is not possible."""
    row = s["listings"].get(listing_id)
    if row["seller_id"] != v.user_id(s):
        raise ToolError(f"listing {listing_id} is {v.name(s, row['seller_id'])}'s, not yours; "
                        f"you can only {action} your own listings (see list_my_listings)")
    if row["status"] != "active":
        raise ToolError(f"listing {listing_id} is already {row['status']}; only active "
                        f"listings can be changed (list_my_listings with status 'active')")
    return row


def _decline_pending(s: State, listing_id: str, except_id: str | None = None) -> list[str]:
    when = v.now(s)
    ids = [o["offer_id"] for o in s["offers"].rows(
        lambda o: o["listing_id"] == listing_id and o["status"] == "pending"
        and o["offer_id"] != except_id)]
    for offer_id in ids:
        s["offers"].update(offer_id, status="declined", responded_at=when)
    return ids


def _city(city: str) -> str:
    match = next((c for c in CITY_NAMES if c.lower() == city.strip().lower()), None)
    if match is None:
        raise ToolError(f"unknown city {city!r}; the marketplace operates in: "
                        + ", ".join(CITY_NAMES))
    return match


ListingId = Annotated[str, Arg("Listing id, e.g. 'lst_0007' (from search_listings)")]
SellerId = Annotated[str, Arg("Seller (person) id, e.g. 'p_014' (from get_listing)")]
Title = Annotated[str, Arg("Listing title", min_length=3, max_length=80)]
Description = Annotated[str, Arg("What is for sale, its state, pick-up details",
                                 min_length=1, max_length=1000)]
Price = Annotated[float, Arg("Asking price in USD", minimum=1, maximum=100000)]


# ----------------------------------------------------------------------------- tools
@DOMAIN.tool(read_only=True)
def search_listings(
        s: State,
        query: Annotated[str | None, Arg("Words in the title or description (case-insensitive)",
                                         min_length=1)] = None,
        category: Annotated[Category | None, Arg("Only this category")] = None,
        city: Annotated[str | None, Arg("Only listings in this city, e.g. 'Lisbon'")] = None,
        max_price: Annotated[float | None, Arg("Highest asking price in USD", minimum=0)] = None,
        condition: Annotated[Condition | None, Arg("Only items in this condition")] = None,
        sort: Annotated[Literal["newest", "price_low", "price_high"], Arg(
            "Order of results")] = "newest",
        limit: Annotated[int, Arg("At most this many results", minimum=1, maximum=50)] = 20,
) -> ListingList:
    """Search active listings by keywords, category, city, condition and maximum price."""
    where = _city(city) if city is not None else None
    words = (query or "").lower().split()
    rows = [r for r in s["listings"].rows()
            if r["status"] == "active"
            and all(w in f"{r['title']} {r['description']}".lower() for w in words)
            and (category is None or r["category"] == category)
            and (where is None or r["city"] == where)
            and (max_price is None or r["price"] <= max_price)
            and (condition is None or r["condition"] == condition)]
    if sort == "newest":
        rows.sort(key=lambda r: (r["created_at"], r["listing_id"]), reverse=True)
    else:
        rows.sort(key=lambda r: (r["price"], r["listing_id"]), reverse=sort == "price_high")
    return {"listings": [v.summary(s, r) for r in rows[:limit]], "total": len(rows)}


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
    where = _city(city) if city is not None else s["sellers"].get(me)["city"]
    dup = s["listings"].rows(lambda r: r["seller_id"] == me and r["status"] == "active"
                             and r["title"].lower() == title.strip().lower())
    if dup:
        raise ToolError(f"you already have an active listing titled {dup[0]['title']!r} "
                        f"({dup[0]['listing_id']}); change it with update_listing instead")
    when = v.tick(s)
    row = s["listings"].insert({
        "listing_id": s.next_id("lst"), "title": title.strip(), "description": description,
        "category": category, "condition": condition, "price": float(round(price, 2)),
        "city": where,
        "seller_id": me, "status": "active", "buyer_id": None, "sold_price": None,
        "created_at": when, "updated_at": when})
    return v.listing(s, row)


@DOMAIN.tool(read_only=False)
def update_listing(
        s: State, listing_id: Annotated[str, Arg("Id of one of the user's active listings "
                                                 "(from list_my_listings)")],
        price: Annotated[float | None, Arg("New asking price in USD", minimum=1,
                                           maximum=100000)] = None,
        title: Annotated[str | None, Arg("New title", min_length=3, max_length=80)] = None,
        description: Annotated[str | None, Arg("New description", min_length=1,
                                               max_length=1000)] = None) -> Listing:
    """Change the price, title or description of one of the user's active listings."""
    row = _own_active(s, listing_id, "edit")
    changes = {k: v for k, v in (("price", None if price is None else float(round(price, 2))),
                                 ("title", title), ("description", description))
               if v is not None}
    if not changes:
        raise ToolError("nothing to update; give a new price, title or description")
    return v.listing(s, s["listings"].update(row["listing_id"], **changes,
                                            updated_at=v.tick(s)))


@DOMAIN.tool(read_only=False)
def remove_listing(s: State, listing_id: Annotated[str, Arg(
        "Id of one of the user's active listings (from list_my_listings)")]) -> RemovedListing:
    """Take down one of the user's active listings; its pending offers are declined."""
    row = _own_active(s, listing_id, "remove")
    when = v.tick(s)
    declined = _decline_pending(s, listing_id)
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


@DOMAIN.tool(read_only=False)
def make_offer(
        s: State, listing_id: ListingId,
        amount: Annotated[float, Arg("Offered price in USD (at most the asking price)",
                                     minimum=0.01, maximum=100000)],
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
    if amount > row["price"]:
        raise ToolError(f"offer {amount:.2f} is above the asking price {row['price']:.2f}; "
                        "offer at most the asking price")
    mine = s["offers"].rows(lambda o: o["listing_id"] == listing_id and o["buyer_id"] == me
                            and o["status"] == "pending")
    if mine:
        raise ToolError(f"you already have a pending offer {mine[0]['offer_id']} of "
                        f"{mine[0]['amount']:.2f} on listing {listing_id}; wait for the "
                        "seller to answer it")
    offer = s["offers"].insert({
        "offer_id": s.next_id("off"), "listing_id": listing_id, "buyer_id": me,
        "seller_id": row["seller_id"], "amount": float(round(amount, 2)), "message": message,
        "status": "pending", "created_at": v.tick(s), "responded_at": None})
    return v.offer(s, offer)


@DOMAIN.tool(read_only=True)
def list_offers(
        s: State,
        direction: Annotated[Literal["made", "received", "all"], Arg(
            "made: offers the user made; received: offers on the user's listings")] = "all",
        status: Annotated[OfferStatus | None, Arg("Only offers with this status")] = None,
        listing_id: Annotated[str | None, Arg("Only offers on this listing")] = None,
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
    return {"offers": [v.offer(s, o) for o in rows], "total": len(rows)}


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
        declined = _decline_pending(s, listing_id, except_id=offer_id)
        s["listings"].update(listing_id, status="sold", buyer_id=offer["buyer_id"],
                             sold_price=offer["amount"], updated_at=when)
    return {"offer": v.offer(s, offer), "declined_offer_ids": declined,
            "listing_status": s["listings"].get(listing_id)["status"]}


@DOMAIN.tool(read_only=False)
def send_message(
        s: State, text: Annotated[str, Arg("Message text", min_length=1, max_length=1000)],
        listing_id: Annotated[str | None, Arg(
            "Message the seller of this listing (starts or continues that chat)")] = None,
        conversation_id: Annotated[str | None, Arg(
            "Reply in this conversation (from list_conversations)")] = None) -> SentMessage:
    """Message a seller about a listing, or reply in an existing conversation. Give exactly
    one of listing_id or conversation_id."""
    me = v.user_id(s)
    if (listing_id is None) == (conversation_id is None):
        raise ToolError("give exactly one of listing_id (to message a seller) or "
                        "conversation_id (to reply in a chat from list_conversations)")
    new = False
    if conversation_id is not None:
        conv = s["conversations"].get(conversation_id)
    else:
        listing = s["listings"].get(listing_id)
        if listing["seller_id"] == me:
            raise ToolError(f"listing {listing_id} is your own; to answer a buyer, reply with "
                            "the conversation_id from list_conversations")
        if listing["status"] == "removed" or (listing["status"] == "sold"
                                              and listing["buyer_id"] != me):
            raise ToolError(f"listing {listing_id} is {listing['status']}; its seller no "
                            "longer takes messages about it")
        conv = next((c for c in s["conversations"].rows()
                     if c["listing_id"] == listing_id and c["buyer_id"] == me), None)
        if conv is None:
            new = True
            conv = s["conversations"].insert({
                "conversation_id": s.next_id("conv"), "listing_id": listing_id,
                "buyer_id": me, "seller_id": listing["seller_id"], "unread": 0,
                "last_message_at": ""})
    when = v.tick(s)
    msg = s["messages"].insert({"message_id": s.next_id("msg", 5),
                                "conversation_id": conv["conversation_id"], "sender_id": me,
                                "text": text, "sent_at": when})
    s["conversations"].update(conv["conversation_id"], unread=0, last_message_at=when)
    return {"conversation_id": conv["conversation_id"], "new_conversation": new,
            "message": v.message(s, msg)}


@DOMAIN.tool(read_only=True)
def list_conversations(
        s: State,
        listing_id: Annotated[str | None, Arg("Only chats about this listing")] = None,
        unread_only: Annotated[bool, Arg("Only chats with unread messages")] = False,
) -> ConversationList:
    """List the user's chats with buyers and sellers, most recent first, with their messages."""
    if listing_id is not None:
        s["listings"].get(listing_id)
    rows = [c for c in s["conversations"].rows()
            if (listing_id is None or c["listing_id"] == listing_id)
            and (not unread_only or c["unread"] > 0)]
    rows.sort(key=lambda c: (c["last_message_at"], c["conversation_id"]), reverse=True)
    return {"conversations": [v.conversation(s, c) for c in rows], "total": len(rows)}


@DOMAIN.tool(read_only=False)
def leave_review(
        s: State, seller_id: SellerId,
        rating: Annotated[int, Arg("Stars from 1 (bad) to 5 (great)", minimum=1, maximum=5)],
        comment: Annotated[str, Arg("What went well or badly", min_length=1, max_length=1000)],
        listing_id: Annotated[str | None, Arg(
            "The purchase being reviewed (default: the latest unreviewed one from this "
            "seller)")] = None) -> Review:
    """Review a seller the user bought from; one review per purchase."""
    me = v.user_id(s)
    name = v.name(s, seller_id)
    if seller_id == me:
        raise ToolError("you cannot review yourself")
    if listing_id is not None:
        s["listings"].get(listing_id)
    bought = s["listings"].rows(lambda r: r["seller_id"] == seller_id and r["buyer_id"] == me
                                and r["status"] == "sold")
    if not bought:
        raise ToolError(f"you have not bought anything from {name} ({seller_id}); reviews "
                        "are only for sellers you bought from (see list_offers with status "
                        "'accepted')")
    done = {r["listing_id"] for r in s["reviews"].rows(lambda r: r["reviewer_id"] == me)}
    if listing_id is not None:
        target = next((r for r in bought if r["listing_id"] == listing_id), None)
        if target is None:
            raise ToolError(f"listing {listing_id} is not something you bought from {name}; "
                            "your purchases from them: "
                            + ", ".join(r["listing_id"] for r in bought))
        if listing_id in done:
            raise ToolError(f"you already reviewed your purchase of {target['title']!r} "
                            f"({listing_id})")
    else:
        todo = sorted((r for r in bought if r["listing_id"] not in done),
                      key=lambda r: (r["updated_at"], r["listing_id"]), reverse=True)
        if not todo:
            raise ToolError(f"you already reviewed every purchase from {name}")
        target = todo[0]
    row = s["reviews"].insert({
        "review_id": s.next_id("rev"), "seller_id": seller_id, "reviewer_id": me,
        "listing_id": target["listing_id"], "rating": rating, "comment": comment,
        "created_at": v.tick(s)})
    return v.review(s, row)


# Calls that succeed in this order on a fresh session (seed 0): used by the contract tests and
# as documentation of each tool's use.
EXAMPLES: list[tuple[str, dict]] = [
    ("search_listings", {"query": "bike", "max_price": 800}),
    ("search_listings", {"category": "electronics", "city": "Singapore", "sort": "price_low"}),
    ("get_listing", {"listing_id": "lst_0022"}),
    ("get_seller_profile", {"seller_id": "p_022"}),
    ("list_my_listings", {"status": "active"}),
    ("create_listing", {"title": "Bosch cordless drill", "description": "18V, two batteries "
                        "and a charger. Pick-up in Kreuzberg.", "category": "home",
                        "condition": "good", "price": 60}),
    ("update_listing", {"listing_id": "lst_0018", "price": 115}),
    ("list_offers", {"direction": "received", "status": "pending"}),
    ("respond_to_offer", {"offer_id": "off_0016", "action": "accept"}),
    ("make_offer", {"listing_id": "lst_0033", "amount": 1100,
                    "message": "Could pick it up on Saturday."}),
    ("send_message", {"listing_id": "lst_0033", "text": "Hi! Does the watch come with its "
                      "papers?"}),
    ("send_message", {"conversation_id": "conv_0016", "text": "Yes, still available."}),
    ("list_conversations", {"unread_only": True}),
    ("list_conversations", {"listing_id": "lst_0018"}),
    ("remove_listing", {"listing_id": "lst_0032"}),
    ("leave_review", {"seller_id": "p_022", "rating": 4, "listing_id": "lst_0014",
                      "comment": "Stroller as described, friendly hand-over."}),
    ("list_offers", {"listing_id": "lst_0018"}),
]
