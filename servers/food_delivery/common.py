"""food_delivery: the domain object, argument types and helpers shared by the tool modules."""

from __future__ import annotations

import datetime as dt
from typing import Annotated

from servers.core import clock as world_clock
from servers.core import hours, money
from servers.core.domain import Domain
from servers.core.schema import Arg
from servers.core.state import Row, State
from servers.food_delivery.data import build, is_open, service_fee
from servers.food_delivery.models import Cart, MenuItem, Order, RestaurantSummary

DOMAIN = Domain("food_delivery", "Food delivery from restaurants and cafes: search, menus, "
                "cart, promo codes, checkout, order tracking, cancellation, ratings, reorders "
                "and saved addresses.", build)
# fields stamped from the session clock: left out of clock-free state comparisons
DOMAIN.clock_fields = {"orders": ("placed_at", "estimated_delivery_at", "history.at")}

OrderId = Annotated[str, Arg("Order id, e.g. 'ord_re6rc8' (from list_orders)")]


def clock(s: State) -> dt.datetime:
    """The world clock's current instant (aware, in the world's zone)."""
    return world_clock.now(s)


def tick(s: State) -> str:
    """The world clock, one minute further per state-changing call."""
    return world_clock.tick(s)


def restaurant_out(s: State, r: Row) -> RestaurantSummary:
    return {"restaurant_id": r["restaurant_id"], "place_id": r["place_id"], "name": r["name"],
            "kind": r["kind"], "cuisine": r["cuisine"], "city": r["city"],
            "address": r["address"], "rating": r["rating"], "review_count": r["review_count"],
            "price_level": r["price_level"], "delivery_fee": out(s, r["delivery_fee"]),
            "min_order": out(s, r["min_order"]), "currency": money.currency_of(s),
            "delivery_min": r["delivery_min"],
            "open_now": is_open(r, clock(s)), "hours": hours.summary(r["opening_hours"]),
            "opening_hours": r["opening_hours"],
            "accepts_cash": r["accepts_cash"]}


def out(s: State, minor: int | None) -> int | float | None:
    """Minor units -> a JSON number in major units (None stays None)."""
    return None if minor is None else money.amount_out(s, minor)


def menu_item_out(s: State, item: Row) -> MenuItem:
    cur = money.currency_of(s)
    keep = ("item_id", "name", "category", "description", "vegetarian", "available")
    return {**{k: item[k] for k in keep}, "price": out(s, item["price"]), "currency": cur,
            "option_groups": [{**g, "choices": [{**c, "price": out(s, c["price"]),
                                                 "currency": cur} for c in g["choices"]]}
                              for g in item["option_groups"]]}


def unit_price(item: Row, options: list[str]) -> int:
    extra = sum(c["price"] for g in item["option_groups"] for c in g["choices"]
                if c["name"] in options)
    return item["price"] + extra


def cart_lines(s: State) -> list[Row]:
    """The cart's lines with prices in minor units (cart_out shows them)."""
    out = []
    for row in sorted(s["cart"].rows(), key=lambda r: r["line_id"]):
        item = s["menu_items"].get(row["item_id"])
        price = unit_price(item, row["options"])
        out.append({"line_id": row["line_id"], "item_id": item["item_id"],
                    "name": item["name"], "options": row["options"], "unit_price": price,
                    "quantity": row["quantity"],
                    "line_total": price * row["quantity"]})
    return out


def promo_problem(s: State, promo: Row, subtotal: int) -> str | None:
    """Why the promo cannot apply to the current cart (None when it can)."""
    code = promo["code"]
    if promo["expires"] < clock(s).date().isoformat():
        return f"promo code {code} expired on {promo['expires']}"
    if promo["single_use"] and promo["used"]:
        return f"promo code {code} is single-use and you already used it"
    rid = s.var("cart_restaurant_id")
    if promo["cuisine"] and rid and s["restaurants"].get(rid)["cuisine"] != promo["cuisine"]:
        return f"promo code {code} is only valid at {promo['cuisine']} restaurants"
    if subtotal < promo["min_subtotal"]:
        cur = money.currency_of(s)
        return (f"promo code {code} needs a subtotal of at least "
                f"{money.fmt(promo['min_subtotal'], cur)}; the cart has "
                f"{money.fmt(subtotal, cur)}")
    return None


def discount_for(promo: Row, subtotal: int) -> int:
    """The promo's discount in minor units; a percentage rounds half to even."""
    if promo["kind"] == "percent":
        off = money.percent(subtotal, promo["value"])
        return min(off, promo["max_discount"]) if promo["max_discount"] else off
    if promo["kind"] == "fixed":
        return min(promo["value"], subtotal)
    return 0  # free delivery


def subtotal_of(lines: list[Row]) -> int:
    return sum(ln["line_total"] for ln in lines)


def recheck_promo(s: State) -> str | None:
    """Drop the applied promo if the cart no longer qualifies; say so."""
    code = s.var("promo_code")
    if code is None:
        return None
    problem = promo_problem(s, s["promos"].get(code), subtotal_of(cart_lines(s)))
    if problem is None:
        return None
    s.set_var("promo_code", None)
    return f"{problem}, so it was removed from the cart"


def cart_state(s: State) -> Row:
    """The cart with every amount in minor units (cart_out shows it)."""
    lines = cart_lines(s)
    rid = s.var("cart_restaurant_id")
    rest = s["restaurants"].get(rid) if rid else None
    subtotal = subtotal_of(lines)
    code = s.var("promo_code")
    promo = s["promos"].get(code) if code else None
    discount = discount_for(promo, subtotal) if promo else 0
    fee = 0 if not lines or (promo and promo["kind"] == "free_delivery") else (
        rest["delivery_fee"])
    svc = service_fee(subtotal, money.currency_of(s)) if lines else 0
    total = subtotal - discount + fee + svc if lines else 0
    return {"restaurant_id": rid, "restaurant_name": rest["name"] if rest else None,
            "lines": lines, "subtotal": subtotal, "promo_code": code, "discount": discount,
            "delivery_fee": fee, "service_fee": svc, "total": total,
            "min_order": rest["min_order"] if rest else None}


def _lines_out(s: State, lines: list[Row]) -> list:
    cur = money.currency_of(s)
    return [{**ln, "unit_price": out(s, ln["unit_price"]),
             "line_total": out(s, ln["line_total"]), "currency": cur} for ln in lines]


def cart_out(s: State, notice: str | None = None) -> Cart:
    cart = cart_state(s)
    money_keys = ("subtotal", "discount", "delivery_fee", "service_fee", "total", "min_order")
    return {**cart, **{k: out(s, cart[k]) for k in money_keys},
            "lines": _lines_out(s, cart["lines"]),
            "item_count": sum(ln["quantity"] for ln in cart["lines"]),
            "currency": money.currency_of(s), "notice": notice}


def address_text(s: State, address_id: str) -> str:
    a = s["addresses"].get(address_id)
    return f"{a['street']}, {a['postal_code']} {a['city']}"


def order_out(s: State, row: Row) -> Order:
    keep = ("order_id", "restaurant_id", "restaurant_name", "city", "status", "placed_at",
            "lines", "subtotal", "promo_code", "discount", "delivery_fee", "service_fee", "tip",
            "total", "address_id", "payment_method_id", "instructions", "rating", "review",
            "cancel_reason", "refund_amount")
    shown = {k: row[k] for k in keep}
    money_keys = ("subtotal", "discount", "delivery_fee", "service_fee", "tip", "total",
                  "refund_amount")
    return {**shown, **{k: out(s, row[k]) for k in money_keys},
            "lines": _lines_out(s, row["lines"]), "currency": money.currency_of(s),
            "delivery_address": address_text(s, row["address_id"])}
