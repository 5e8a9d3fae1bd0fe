"""marketplace: the session clock and the rows-to-output shapes shared by the tools."""

from __future__ import annotations

from servers.core import clock, money
from servers.core.state import Row, State
from servers.marketplace.schemas import (
    Conversation,
    Listing,
    ListingSummary,
    Message,
    Offer,
    Review,
)


def now(s: State) -> str:
    """The world clock's current minute (the last change's stamp)."""
    return clock.now_stamp(s)


def tick(s: State) -> str:
    """The world clock, one minute further per change; it never stops or wraps (the old
    private clock stopped at 23:59, so later changes shared one minute)."""
    return clock.tick(s)


def user_id(s: State) -> str:
    return s.var("user_id")


def name(s: State, person_id: str) -> str:
    return s["sellers"].get(person_id)["name"]


def rating(s: State, seller_id: str) -> tuple[float | None, int]:
    marks = [r["rating"] for r in s["reviews"].rows(lambda r: r["seller_id"] == seller_id)]
    return (round(sum(marks) / len(marks), 2) if marks else None), len(marks)


def out(s: State, minor: int | None) -> int | float | None:
    """Minor units -> a JSON number in major units (None stays None)."""
    return None if minor is None else money.amount_out(s, minor)


def summary(s: State, row: Row) -> ListingSummary:
    return {k: row[k] for k in ("listing_id", "title", "category", "condition",
                                "city", "seller_id", "status", "created_at")} | {
        "price": out(s, row["price"]), "currency": money.currency_of(s),
        "seller_name": name(s, row["seller_id"])}


def listing(s: State, row: Row) -> Listing:
    pending = s["offers"].rows(lambda o: o["listing_id"] == row["listing_id"]
                               and o["status"] == "pending")
    return {**row, "price": out(s, row["price"]), "sold_price": out(s, row["sold_price"]),
            "currency": money.currency_of(s), "seller_name": name(s, row["seller_id"]),
            "seller_rating": rating(s, row["seller_id"])[0],
            "is_mine": row["seller_id"] == user_id(s), "pending_offers": len(pending)}


def offer(s: State, row: Row) -> Offer:
    listing = s["listings"].get(row["listing_id"])
    return {**row, "listing_title": listing["title"], "amount": out(s, row["amount"]),
            "asking_price": out(s, listing["price"]), "currency": money.currency_of(s),
            "direction": "made" if row["buyer_id"] == user_id(s) else "received",
            "buyer_name": name(s, row["buyer_id"]), "seller_name": name(s, row["seller_id"])}


def review(s: State, row: Row) -> Review:
    return {**row, "reviewer_name": name(s, row["reviewer_id"])}


def message(s: State, row: Row) -> Message:
    return {"message_id": row["message_id"], "sender_id": row["sender_id"],
            "sender_name": name(s, row["sender_id"]), "text": row["text"],
            "sent_at": row["sent_at"]}


def conversation(s: State, row: Row) -> Conversation:
    me = user_id(s)
    other = row["seller_id"] if row["buyer_id"] == me else row["buyer_id"]
    msgs = s["messages"].rows(lambda m: m["conversation_id"] == row["conversation_id"])
    msgs.sort(key=lambda m: (m["sent_at"], m["message_id"]))
    return {"conversation_id": row["conversation_id"], "listing_id": row["listing_id"],
            "listing_title": s["listings"].get(row["listing_id"])["title"],
            "my_role": "buyer" if row["buyer_id"] == me else "seller",
            "other_party_id": other, "other_party_name": name(s, other),
            "unread": row["unread"], "last_message_at": row["last_message_at"],
            "messages": [message(s, m) for m in msgs]}
