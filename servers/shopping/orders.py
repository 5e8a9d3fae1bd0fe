"""shopping tools: order history, cancellation, returns, shipment tracking and reviews."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal, get_args

from servers.core import money, paging
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State
from servers.shopping.common import (
    DOMAIN,
    OrderId,
    ProductId,
    now,
    order_out,
    out,
    return_out,
    returns_of,
)
from servers.shopping.data import CANCEL_REASONS, RETURN_DAYS, TODAY
from servers.shopping.models import (
    CancelOut,
    Order,
    OrderList,
    Return,
    Review,
    Tracking,
)

OrderStatus = Literal["pending", "processing", "shipped", "delivered", "cancelled"]
CancelReason = Literal["no longer needed", "ordered by mistake", "found a better price",
                       "delivery too slow", "other"]
ReturnReason = Literal["damaged or defective", "wrong item", "not as described", "size or fit",
                       "no longer needed"]
assert list(get_args(CancelReason)) == CANCEL_REASONS  # data and schema share one list


@DOMAIN.tool(read_only=True)
def list_orders(
        s: State,
        status: Annotated[OrderStatus | None, Arg("Only orders with this status")] = None,
        limit: paging.Limit = 20, cursor: paging.Cursor = None) -> OrderList:
    """List the user's orders, most recent first."""
    rows = [o for o in s["orders"].rows() if status is None or o["status"] == status]
    rows.sort(key=lambda o: (o["placed_at"], o["order_id"]), reverse=True)
    pg = paging.page(rows, limit, cursor, key="order_id")
    return {"orders": [{"order_id": o["order_id"], "status": o["status"],
                        "placed_at": o["placed_at"],
                        "item_count": sum(it["quantity"] for it in o["items"]),
                        "item_names": [it["name"] for it in o["items"]],
                        "total": out(s, o["total"]), "currency": money.currency_of(s)}
                       for o in pg.rows], "total": len(rows), "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=True)
def get_order(s: State, order_id: OrderId) -> Order:
    """Get an order: items, amounts, address, payment, shipment, returns and return window."""
    return order_out(s, s["orders"].get(order_id))


@DOMAIN.tool(read_only=False)
def cancel_order(s: State, order_id: OrderId,
                 reason: Annotated[CancelReason, Arg("Why the order is cancelled")]
                 ) -> CancelOut:
    """Cancel an order that has not shipped yet (pending or processing); it is fully refunded
    and a single-use coupon it used can be used again."""
    order = s["orders"].get(order_id)
    status = order["status"]
    if status == "cancelled":
        raise ToolError(f"order {order_id} is already cancelled")
    if status not in ("pending", "processing"):
        raise ToolError(f"order {order_id} is {status}; only pending or processing orders can "
                        "be cancelled; " + ("use request_return once it is delivered"
                                            if status == "shipped"
                                            else "use request_return to send items back"))
    for item in order["items"]:
        v = s["variants"].get(item["item_id"])
        s["variants"].update(v["item_id"], stock=v["stock"] + item["quantity"])
    code = order["coupon_code"]
    if code and s["coupons"].get(code)["single_use"]:
        s["coupons"].update(code, used=False)  # a cancelled order gives it back
    method = s["payment_methods"].get(order["payment_method_id"])
    if method["kind"] == "gift_card":  # cards and PayPal are refunded by the provider
        s["payment_methods"].update(method["payment_method_id"],
                                    balance=method["balance"] + order["total"])
    order = s["orders"].update(order_id, status="cancelled", cancelled_at=now(s),
                               cancel_reason=reason)
    return {"order": order_out(s, order), "refund_amount": out(s, order["total"]),
            "currency": money.currency_of(s),
            "refunded_to": order["payment_method_id"]}


@DOMAIN.tool(read_only=False)
def request_return(
        s: State, order_id: OrderId,
        item_ids: Annotated[list[str], Arg(
            "Item ids of the order's items to send back (from get_order)", min_length=1)],
        reason: Annotated[ReturnReason, Arg("Why the items are returned")]) -> Return:
    """Return items of a delivered order within 30 days of delivery; refund to the payment."""
    order = s["orders"].get(order_id)
    if order["status"] != "delivered":
        raise ToolError(f"order {order_id} is {order['status']}; only delivered orders can be "
                        "returned" + ("; use cancel_order instead" if order["status"] in
                                      ("pending", "processing") else ""))
    delivered = dt.date.fromisoformat(order["delivered_at"][:10])
    closes = delivered + dt.timedelta(days=RETURN_DAYS)
    if closes < TODAY:
        raise ToolError(f"the return window for order {order_id} closed on {closes} "
                        f"({RETURN_DAYS} days after delivery on {delivered})")
    if len(set(item_ids)) != len(item_ids):
        raise ToolError("item_ids lists the same item twice; list each item once")
    by_id = {it["item_id"]: it for it in order["items"]}
    returned = {it["item_id"] for r in returns_of(s, order_id) for it in r["items"]}
    items = []
    for item_id in item_ids:
        if item_id not in by_id:
            raise ToolError(f"item {item_id!r} is not in order {order_id}; its items are "
                            + ", ".join(by_id))
        if item_id in returned:
            raise ToolError(f"item {item_id} of order {order_id} was already returned")
        it = by_id[item_id]
        # a share of the order discount stays with the kept items: the line's part of the
        # discount, rounded half to even, is not refunded
        line = it["unit_price"] * it["quantity"]
        kept = money.divide(line * order["discount"], order["subtotal"]) if order["subtotal"] \
            else 0
        items.append({"item_id": item_id, "name": it["name"], "quantity": it["quantity"],
                      "refund": line - kept})
    rid = s.next_id("ret")
    n = int(rid.split("_")[1])
    row = s["returns"].insert({
        "return_id": rid, "order_id": order_id, "items": items, "reason": reason,
        "status": "requested", "refund_amount": sum(i["refund"] for i in items),
        "refund_to": order["payment_method_id"], "created_at": now(s),
        "rma_code": f"RMA-{100000 + (n * 7919) % 900000}"})
    return return_out(s, row)


@DOMAIN.tool(read_only=True)
def track_shipment(s: State, order_id: OrderId) -> Tracking:
    """Track an order's parcel: carrier, tracking number, status and scan events."""
    order = s["orders"].get(order_id)
    if order["shipment_id"] is None:
        raise ToolError(f"order {order_id} is {order['status']} and has no shipment to track"
                        + ("; it ships once processed" if order["status"] in
                           ("pending", "processing") else ""))
    sh = s["shipments"].get(order["shipment_id"])
    return {k: sh[k] for k in ("shipment_id", "order_id", "carrier", "tracking_number",
                               "status", "estimated_delivery", "delivered_at", "events")}


@DOMAIN.tool(read_only=False)
def write_review(
        s: State, product_id: ProductId,
        rating: Annotated[int, Arg("Stars, 1 (worst) to 5 (best)", minimum=1, maximum=5)],
        title: Annotated[str, Arg("Headline of the review", min_length=1, max_length=120)],
        body: Annotated[str, Arg("The review text", min_length=1, max_length=2000)]) -> Review:
    """Review a product the user has received (one review per product)."""
    p = s["products"].get(product_id)
    user = s.var("user")
    delivered = [o for o in s["orders"].rows() if o["status"] == "delivered"
                 and any(it["product_id"] == product_id for it in o["items"])]
    if not delivered:
        raise ToolError(f"only products from a delivered order can be reviewed, and no "
                        f"delivered order contains {p['name']} ({product_id})")
    mine = s["reviews"].rows(lambda r: r["product_id"] == product_id
                             and r["author_id"] == user["user_id"])
    if mine:
        raise ToolError(f"the user already reviewed {product_id} ({mine[0]['review_id']})")
    row = s["reviews"].insert({
        "review_id": s.next_id("rev"), "product_id": product_id,
        "author_id": user["user_id"], "author_name": user["name"], "rating": rating,
        "title": title.strip(), "body": body.strip(), "created_at": now(s),
        "verified_purchase": True, "helpful_votes": 0})
    return {k: v for k, v in row.items() if k != "author_id"}
