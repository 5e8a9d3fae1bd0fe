"""shopping: the domain object, argument types and helpers shared by the tool modules."""

from __future__ import annotations

import datetime as dt
from typing import Annotated

from servers.core import clock, money
from servers.core.domain import Domain
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State
from servers.shopping.data import RETURN_DAYS, TODAY, build, order_totals
from servers.shopping.models import (
    Cart,
    CartLine,
    Order,
    PaymentMethod,
    ProductSummary,
    Return,
)

DOMAIN = Domain("shopping", "An online store: catalog, reviews, cart, coupons, checkout, orders, "
                "shipment tracking, returns and a wishlist.", build)
# fields stamped from the session clock: left out of clock-free state comparisons
DOMAIN.clock_fields = {"cart": ("added_at",), "wishlist": ("added_at",), "returns": ("created_at",),
                        "reviews": ("created_at",), "orders": ("placed_at", "cancelled_at")}

ProductId = Annotated[str, Arg("Product id, e.g. 'prd_fzeqsg' (from search_products)")]
ItemId = Annotated[str, Arg(
    "Item id of one product variant, e.g. 'itm_xdjuvx' (from get_product's variants)")]
OrderId = Annotated[str, Arg("Order id, e.g. 'ord_re6rc8' (from list_orders)")]


def now(s: State) -> str:
    """The world clock, one minute further per state-changing call."""
    return clock.tick(s)


def variants_of(s: State, product_id: str) -> list[Row]:
    return s["variants"].rows(lambda v: v["product_id"] == product_id)


def rating_of(s: State, product_id: str) -> tuple[float | None, int]:
    ratings = [r["rating"] for r in s["reviews"].rows(lambda r: r["product_id"] == product_id)]
    return (round(sum(ratings) / len(ratings), 1) if ratings else None), len(ratings)


def out(s: State, minor: int | None) -> int | float | None:
    """Minor units -> a JSON number in major units (None stays None)."""
    return None if minor is None else money.amount_out(s, minor)


def product_summary(s: State, p: Row) -> ProductSummary:
    prices = [v["price"] for v in variants_of(s, p["product_id"])]
    rating, count = rating_of(s, p["product_id"])
    return {"product_id": p["product_id"], "name": p["name"], "brand": p["brand"],
            "category": p["category"], "price_min": out(s, min(prices)),
            "price_max": out(s, max(prices)), "currency": money.currency_of(s),
            "rating": rating, "review_count": count,
            "in_stock": any(v["stock"] > 0 for v in variants_of(s, p["product_id"]))}


def method_out(s: State, row: Row) -> PaymentMethod:
    expired = row["expires"] is not None and row["expires"] < TODAY.isoformat()[:7]
    return {**row, "balance": out(s, row["balance"]), "currency": money.currency_of(s),
            "expired": expired}


# ----------------------------------------------------------------------------- cart & coupons
def cart_lines(s: State) -> list[Row]:
    """The cart's lines with prices in minor units (cart_out shows them)."""
    lines = []
    for row in sorted(s["cart"].rows(), key=lambda r: (r["added_at"], r["item_id"])):
        v = s["variants"].get(row["item_id"])
        p = s["products"].get(v["product_id"])
        lines.append({"item_id": v["item_id"], "product_id": p["product_id"], "name": p["name"],
                      "options": v["options"], "unit_price": v["price"],
                      "quantity": row["quantity"],
                      "line_total": v["price"] * row["quantity"],
                      "stock": v["stock"]})
    return lines


def coupon_problem(s: State, coupon: Row, lines: list[Row]) -> str | None:
    """Why the coupon cannot apply to these cart lines (None when it can)."""
    if coupon["expires_at"] < TODAY.isoformat():
        return f"coupon {coupon['code']} expired on {coupon['expires_at']}"
    if coupon["single_use"] and coupon["used"]:
        return f"coupon {coupon['code']} is single-use and was already used"
    eligible = eligible_spend(s, coupon, lines)
    if coupon["category"] and eligible == 0:
        return (f"coupon {coupon['code']} applies only to {coupon['category']} items and the "
                "cart has none")
    if eligible < coupon["min_spend"]:
        cur = money.currency_of(s)
        return (f"coupon {coupon['code']} needs a spend of at least "
                f"{money.fmt(coupon['min_spend'], cur)}"
                f"{' on ' + coupon['category'] + ' items' if coupon['category'] else ''}; "
                f"the cart has {money.fmt(eligible, cur)}")
    return None


def eligible_spend(s: State, coupon: Row, lines: list[Row]) -> int:
    """What the lines spend on the coupon's category (on everything without one)."""
    return sum(line["line_total"] for line in lines
               if coupon["category"] is None
               or s["products"].get(line["product_id"])["category"] == coupon["category"])


def discount_for(s: State, coupon: Row, lines: list[Row]) -> int:
    """The coupon's discount in minor units; a percentage rounds half to even."""
    eligible = eligible_spend(s, coupon, lines)
    if coupon["kind"] == "percent":
        off = money.percent(eligible, coupon["value"])
        return min(off, coupon["max_discount"]) if coupon["max_discount"] else off
    if coupon["kind"] == "fixed":
        return min(coupon["value"], eligible)
    return 0  # free shipping


def recheck_coupon(s: State) -> str | None:
    """Drop the applied coupon if the cart no longer qualifies; say so."""
    code = s.var("coupon_code")
    if code is None:
        return None
    problem = coupon_problem(s, s["coupons"].get(code), cart_lines(s))
    if problem is None:
        return None
    s.set_var("coupon_code", None)
    return f"{problem}, so it was removed from the cart"


def cart_state(s: State) -> Row:
    """The cart with every amount in minor units: lines, subtotal, discount, fee, total."""
    lines = cart_lines(s)
    subtotal = sum(line["line_total"] for line in lines)
    code = s.var("coupon_code")
    coupon = s["coupons"].get(code) if code else None
    discount = discount_for(s, coupon, lines) if coupon else 0
    free = coupon is not None and coupon["kind"] == "free_shipping"
    fee, total = (order_totals(subtotal, discount, free, money.currency_of(s)) if lines
                  else (0, 0))
    return {"lines": lines, "subtotal": subtotal, "coupon_code": code, "discount": discount,
            "shipping_fee": fee, "total": total}


def cart_out(s: State, notice: str | None = None) -> Cart:
    cart, cur = cart_state(s), money.currency_of(s)
    lines: list[CartLine] = [
        {**line, "unit_price": out(s, line["unit_price"]),
         "line_total": out(s, line["line_total"]), "currency": cur} for line in cart["lines"]]
    return {"lines": lines, "item_count": sum(line["quantity"] for line in lines),
            "subtotal": out(s, cart["subtotal"]), "coupon_code": cart["coupon_code"],
            "discount": out(s, cart["discount"]), "shipping_fee": out(s, cart["shipping_fee"]),
            "total": out(s, cart["total"]), "currency": cur, "notice": notice}


def check_quantity(s: State, item_id: str, quantity: int) -> None:
    v = s["variants"].get(item_id)
    if v["stock"] == 0:
        raise ToolError(f"item {item_id} is out of stock; use get_product with product_id "
                        f"{v['product_id']} to pick another variant")
    if quantity > v["stock"]:
        raise ToolError(f"only {v['stock']} unit(s) of item {item_id} are in stock; ask for at "
                        f"most {v['stock']}")


# ----------------------------------------------------------------------------- orders
def order_out(s: State, row: Row) -> Order:
    returned = {it["item_id"] for r in returns_of(s, row["order_id"]) for it in r["items"]}
    shipment = None
    if row["shipment_id"] is not None:
        sh = s["shipments"].get(row["shipment_id"])
        shipment = {k: sh[k] for k in ("shipment_id", "carrier", "tracking_number", "status",
                                       "estimated_delivery")}
    window = None
    if row["delivered_at"] is not None:
        delivered = dt.date.fromisoformat(row["delivered_at"][:10])
        window = (delivered + dt.timedelta(days=RETURN_DAYS)).isoformat()
    method, cur = s["payment_methods"].get(row["payment_method_id"]), money.currency_of(s)
    return {"order_id": row["order_id"], "status": row["status"],
            "placed_at": row["placed_at"],
            "items": [{**it, "unit_price": out(s, it["unit_price"]), "currency": cur,
                       "returned": it["item_id"] in returned} for it in row["items"]],
            "subtotal": out(s, row["subtotal"]), "coupon_code": row["coupon_code"],
            "discount": out(s, row["discount"]), "shipping_fee": out(s, row["shipping_fee"]),
            "total": out(s, row["total"]), "currency": cur,
            "shipping_address": row["address"],
            "payment_method_id": row["payment_method_id"],
            "payment_label": method["label"] + (f" ending {method['last4']}"
                                                if method["last4"] else ""),
            "shipment": shipment, "delivered_at": row["delivered_at"],
            "return_window_ends": window, "cancelled_at": row["cancelled_at"],
            "cancel_reason": row["cancel_reason"],
            "return_ids": [r["return_id"] for r in returns_of(s, row["order_id"])]}


def return_out(s: State, row: Row) -> Return:
    cur = money.currency_of(s)
    return {**row, "items": [{**it, "refund": out(s, it["refund"]), "currency": cur}
                             for it in row["items"]],
            "refund_amount": out(s, row["refund_amount"]), "currency": cur}


def returns_of(s: State, order_id: str) -> list[Row]:
    return sorted(s["returns"].rows(lambda r: r["order_id"] == order_id),
                  key=lambda r: r["created_at"])  # ids are opaque: in the order requested
