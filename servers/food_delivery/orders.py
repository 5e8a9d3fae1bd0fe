"""food_delivery tools: order history, tracking, cancellation, ratings and reorders."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from servers.core import money, paging
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State
from servers.food_delivery.cart import put_in_cart, switch_restaurant
from servers.food_delivery.common import (
    DOMAIN,
    OrderId,
    address_text,
    cart_out,
    clock,
    order_out,
    recheck_promo,
    tick,
)
from servers.food_delivery.models import Cart, Order, OrderList, Tracking

OrderStatus = Literal["placed", "preparing", "on_the_way", "delivered", "cancelled"]
RATE_WITHIN_DAYS = 30


@DOMAIN.tool(read_only=True)
def list_orders(
        s: State,
        status: Annotated[OrderStatus | None, Arg("Only orders with this status")] = None,
        restaurant_id: Annotated[str | None, Arg("Only orders from this restaurant")] = None,
        limit: paging.Limit = 20, cursor: paging.Cursor = None) -> OrderList:
    """The user's order history, most recent first."""
    if restaurant_id is not None:
        s["restaurants"].get(restaurant_id)
    rows = [o for o in s["orders"].rows()
            if (status is None or o["status"] == status)
            and (restaurant_id is None or o["restaurant_id"] == restaurant_id)]
    rows.sort(key=lambda o: (o["placed_at"], o["order_id"]), reverse=True)
    pg = paging.page(rows, limit, cursor, key="order_id")
    return {"orders": [{"order_id": o["order_id"], "restaurant_id": o["restaurant_id"],
                        "restaurant_name": o["restaurant_name"], "status": o["status"],
                        "placed_at": o["placed_at"],
                        "item_count": sum(ln["quantity"] for ln in o["lines"]),
                        "total": money.amount_out(s, o["total"]),
                        "currency": money.currency_of(s), "rating": o["rating"]}
                       for o in pg.rows],
            "total": len(rows), "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=True)
def get_order(s: State, order_id: OrderId) -> Order:
    """Full receipt of one order: items with options, fees, discount, tip, address, payment,
    rating and any refund."""
    return order_out(s, s["orders"].get(order_id))


@DOMAIN.tool(read_only=True)
def track_order(s: State, order_id: OrderId) -> Tracking:
    """Live tracking of an order: status history, courier and estimated delivery time."""
    o = s["orders"].get(order_id)
    active = o["status"] not in ("delivered", "cancelled")
    return {"order_id": order_id, "status": o["status"],
            "restaurant_name": o["restaurant_name"], "history": o["history"],
            "estimated_delivery_at": o["estimated_delivery_at"] if active else None,
            "courier_name": o["courier_name"],
            "delivery_address": address_text(s, o["address_id"]),
            "can_cancel": o["status"] == "placed"}


@DOMAIN.tool(read_only=False)
def cancel_order(
        s: State, order_id: OrderId,
        reason: Annotated[Literal["ordered by mistake", "took too long", "changed my mind",
                                  "wrong address", "other"], Arg("Why the order is cancelled")]
) -> Order:
    """Cancel an order the restaurant has not started preparing yet (status 'placed'); the
    full amount is refunded to the payment method."""
    o = s["orders"].get(order_id)
    if o["status"] in ("preparing", "on_the_way"):
        raise ToolError(f"order {order_id} is {o['status'].replace('_', ' ')}; the restaurant "
                        "has already started it, so it can no longer be cancelled")
    if o["status"] != "placed":
        raise ToolError(f"order {order_id} is already {o['status']}; only placed orders can be "
                        "cancelled")
    if o["promo_code"] and s["promos"].get(o["promo_code"])["single_use"]:
        s["promos"].update(o["promo_code"], used=False)  # a cancelled order gives it back
    stamp = tick(s)
    o = s["orders"].update(order_id, status="cancelled", cancel_reason=reason,
                           refund_amount=o["total"],
                           history=[*o["history"], {"status": "cancelled", "at": stamp}])
    return order_out(s, o)


@DOMAIN.tool(read_only=False)
def rate_order(
        s: State, order_id: OrderId,
        rating: Annotated[int, Arg("Stars from 1 to 5", minimum=1, maximum=5)],
        comment: Annotated[str, Arg("Optional review text", max_length=500)] = "") -> Order:
    """Rate a delivered order (once, within 30 days of delivery)."""
    o = s["orders"].get(order_id)
    if o["status"] != "delivered":
        raise ToolError(f"order {order_id} is {o['status']}; only delivered orders can be "
                        "rated")
    if o["rating"] is not None:
        raise ToolError(f"order {order_id} was already rated {o['rating']} stars")
    delivered = dt.datetime.fromisoformat(o["history"][-1]["at"])
    if clock(s) - delivered > dt.timedelta(days=RATE_WITHIN_DAYS):
        raise ToolError(f"order {order_id} was delivered on {delivered.date()}; orders can be "
                        f"rated only within {RATE_WITHIN_DAYS} days of delivery")
    tick(s)
    return order_out(s, s["orders"].update(order_id, rating=rating, review=comment or None))


@DOMAIN.tool(read_only=False)
def reorder(
        s: State, order_id: OrderId,
        replace_cart: Annotated[bool, Arg(
            "If the cart holds another restaurant's items, empty it first")] = False) -> Cart:
    """Put the items of a past order back in the cart (sold-out items are skipped); then
    checkout."""
    o = s["orders"].get(order_id)
    if o["status"] not in ("delivered", "cancelled"):
        raise ToolError(f"order {order_id} is still {o['status'].replace('_', ' ')}; reorder "
                        "works on delivered or cancelled orders")
    items = [(s["menu_items"].find(ln["item_id"]), ln) for ln in o["lines"]]
    skipped = [ln["name"] for item, ln in items if item is None or not item["available"]]
    if len(skipped) == len(items):
        raise ToolError(f"none of the items of order {order_id} are available now "
                        f"({', '.join(skipped)}); pick other dishes with get_menu")
    notices = [switch_restaurant(s, o["restaurant_id"], replace_cart)]
    for item, ln in items:
        if item is not None and item["available"]:
            put_in_cart(s, item, ln["quantity"], ln["options"])
    if skipped:
        notices.append("sold out, not added: " + ", ".join(skipped))
    notices.append(recheck_promo(s))
    tick(s)
    return cart_out(s, "; ".join(n for n in notices if n) or None)
