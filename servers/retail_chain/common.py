"""Shared pieces of the retail_chain server: the domain, the write clock, opening hours, the
output shapers for stores, products and reservations, stock lookups and the argument types used
by several tool modules."""

from __future__ import annotations

import datetime as dt
import math
from typing import Annotated, Literal

from servers.core import clock, money
from servers.core.domain import Domain
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State
from servers.retail_chain.data import build, stock_key
from servers.retail_chain.models import Hours, Product, Reservation, StoreSummary, Voucher

Department = Literal["books", "electronics", "grocery", "outdoor_apparel"]
ResStatus = Literal["confirmed", "ready", "in_transit", "picked_up", "cancelled", "expired"]
ACTIVE = ("confirmed", "ready", "in_transit")


DOMAIN = Domain("retail_chain", "A store chain: store finder and hours, per-store stock, click & "
                "collect reservations, store transfers, loyalty points and vouchers.", build)
# fields stamped from the session clock: left out of clock-free state comparisons
DOMAIN.clock_fields = {"reservations": ("created_at",), "vouchers": ("issued_at",),
                        "points_activity": ("date",)}


# ----------------------------------------------------------------------------- helpers
def now(s: State) -> str:
    """The world clock, one minute further per state-changing call."""
    return clock.tick(s)


def in_days(s: State, days: int) -> str:
    return (clock.today(s) + dt.timedelta(days=days)).isoformat()


def hours_on(store: Row, when: dt.datetime) -> Hours:
    """The store's hours on the day `when` falls on in the store's own zone."""
    return store["hours"][when.astimezone(clock.city_zone(store["city"])).weekday()]


def is_open(store: Row, when: dt.datetime) -> bool:
    """Is the store open at the instant `when` (its hours are local to its city)?"""
    local = when.astimezone(clock.city_zone(store["city"])).strftime("%H:%M")
    h = hours_on(store, when)
    return h["opens"] is not None and h["opens"] <= local < h["closes"]


def hours_text(store: Row, when: dt.datetime) -> str:
    h = hours_on(store, when)
    return "closed" if h["opens"] is None else f"{h['opens']}-{h['closes']}"


def as_summary(s: State, store: Row, when: dt.datetime | None) -> StoreSummary:
    current = clock.now(s)
    return {"store_id": store["store_id"], "name": store["name"], "format": store["format"],
            "city": store["city"], "address": store["address"],
            "pickup_available": store["pickup_available"],
            "hours_today": hours_text(store, current), "open_now": is_open(store, current),
            "open_at_requested_time": None if when is None else is_open(store, when)}


def match_city(s: State, city: str) -> str:
    """The chain's spelling of a city, or an error listing the cities with stores."""
    cities = sorted({r["city"] for r in s["stores"].rows()})
    match = next((c for c in cities if c.lower() == city.strip().lower()), None)
    if match is None:
        raise ToolError(f"no stores in city {city!r}; the chain has stores in: "
                        + ", ".join(cities))
    return match


def available(row: Row) -> int:
    return row["on_hand"] - row["reserved"]


def stock_at(s: State, store_id: str, product_id: str) -> Row | None:
    return s["inventory"].find(stock_key(store_id, product_id))


def km(a: Row, b: Row) -> float:
    """Great-circle distance between two stores."""
    la1, lo1, la2, lo2 = map(math.radians, (a["lat"], a["lon"], b["lat"], b["lon"]))
    h = (math.sin((la2 - la1) / 2) ** 2
         + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2)
    return round(2 * 6371 * math.asin(math.sqrt(h)), 1)


def as_product(s: State, row: Row) -> Product:
    n = len(s["inventory"].rows(lambda r: r["product_id"] == row["product_id"]
                                and available(r) > 0))
    return {**row, "price": money.amount_out(s, row["price"]),
            "currency": money.currency_of(s), "stores_in_stock": n}


def as_reservation(s: State, row: Row) -> Reservation:
    return {**row, "store_name": s["stores"].get(row["store_id"])["name"],
            "product_name": s["products"].get(row["product_id"])["name"],
            "unit_price": money.amount_out(s, row["unit_price"]),
            "total": money.amount_out(s, row["unit_price"] * row["quantity"]),
            "currency": money.currency_of(s)}


def as_voucher(s: State, row: Row) -> Voucher:
    return {**row, "value": money.amount_out(s, row["value"]),
            "currency": money.currency_of(s)}


def new_reservation(s: State, store_id: str, product_id: str, quantity: int, status: str,
                     hold_days: int, source_store_id: str | None) -> Reservation:
    rid = s.next_id("res")
    n = s.var("__seq_res")
    row = s["reservations"].insert({
        "reservation_id": rid, "store_id": store_id, "product_id": product_id,
        "quantity": quantity, "unit_price": s["products"].get(product_id)["price"],
        "status": status, "created_at": now(s), "hold_until": in_days(s, hold_days),
        "pickup_code": f"{100000 + (n * 7919) % 900000}", "source_store_id": source_store_id})
    return as_reservation(s, row)


def loyalty_account(s: State) -> Row:
    return s["loyalty_accounts"].rows()[0]


StoreId = Annotated[str, Arg("Store id, e.g. 'pl_yxgy2t' (from find_stores)")]
ProductId = Annotated[str, Arg("Product id, e.g. 'sku_w29rgs' (from search_catalog)")]
Quantity = Annotated[int, Arg("Number of units", minimum=1, maximum=5)]
City = Annotated[str | None, Arg("City name, e.g. 'Berlin'", min_length=1)]
