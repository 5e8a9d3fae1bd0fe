"""Shared pieces of the marketplace server: the domain, the checks on the user's own listings,
the declining of pending offers, city matching and the argument types used by several tool
modules."""

from __future__ import annotations

from typing import Annotated

from servers.core import money
from servers.core.domain import Domain
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State
from servers.core.world import CITIES
from servers.marketplace import views as v
from servers.marketplace.generate import build

DOMAIN = Domain("marketplace", "Second-hand marketplace: listings, offers, messages, reviews.",
                build)
# fields stamped from the session clock: left out of clock-free state comparisons
DOMAIN.clock_fields = {"listings": ("created_at", "updated_at"),
                        "offers": ("created_at", "responded_at"),
                        "messages": ("sent_at",), "conversations": ("last_message_at",),
                        "reviews": ("created_at",)}
CITY_NAMES = [c[0] for c in CITIES]


# ----------------------------------------------------------------------------- helpers
def own_active(s: State, listing_id: str, action: str) -> Row:
    """The user's own active listing, or an error saying why `action` is not possible."""
    row = s["listings"].get(listing_id)
    if row["seller_id"] != v.user_id(s):
        raise ToolError(f"listing {listing_id} is {v.name(s, row['seller_id'])}'s, not yours; "
                        f"you can only {action} your own listings (see list_my_listings)")
    if row["status"] != "active":
        raise ToolError(f"listing {listing_id} is already {row['status']}; only active "
                        f"listings can be changed (list_my_listings with status 'active')")
    return row


def decline_pending(s: State, listing_id: str, except_id: str | None = None) -> list[str]:
    when = v.now(s)
    ids = [o["offer_id"] for o in s["offers"].rows(
        lambda o: o["listing_id"] == listing_id and o["status"] == "pending"
        and o["offer_id"] != except_id)]
    for offer_id in ids:
        s["offers"].update(offer_id, status="declined", responded_at=when)
    return ids


def match_city(city: str) -> str:
    match = next((c for c in CITY_NAMES if c.lower() == city.strip().lower()), None)
    if match is None:
        raise ToolError(f"unknown city {city!r}; the marketplace operates in: "
                        + ", ".join(CITY_NAMES))
    return match


ListingId = Annotated[str, Arg("Listing id, e.g. 'lst_yuaj7b' (from search_listings)")]
SellerId = Annotated[str, Arg("Seller (person) id, e.g. 'p_vvarbw' (from get_listing)")]
Title = Annotated[str, Arg("Listing title", min_length=3, max_length=80)]
Description = Annotated[str, Arg("What is for sale, its state, pick-up details",
                                 min_length=1, max_length=1000)]
MAX_PRICE_USD = 100000  # caps in USD-like units, scaled to the world's currency
Price = Annotated[float, Arg(
    "Asking price in the world's currency (see any listing's `currency`), with at most its "
    "decimals (2 for EUR/USD, 0 for JPY)", minimum=0.01)]


def price_in(s: State, value: float, arg: str) -> int:
    """An input price -> minor units: the currency's precision, above zero, within the cap."""
    minor = money.amount_in(s, value, arg)
    cap, cur = money.limit(s, MAX_PRICE_USD), money.currency_of(s)
    if not 0 < minor <= cap:
        raise ToolError(f"{arg} {value} is out of range; use more than 0 and at most "
                        f"{money.fmt(cap, cur)}")
    return minor
