"""shopping tools: order history, edits and cancellation of pending orders, returns, shipment
tracking and reviews."""

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
    discount_for,
    eligible_spend,
    now,
    order_out,
    out,
    return_out,
    returns_of,
)
from servers.shopping.data import (
    CANCEL_REASONS,
    MAX_PER_LINE,
    RETURN_DAYS,
    TODAY,
    order_totals,
)
from servers.shopping.models import (
    CancelOut,
    Order,
    OrderEdit,
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
def update_order(
        s: State, order_id: OrderId,
        item_id: Annotated[str | None, Arg(
            "Item id of a line in the order whose quantity to change (from get_order)")] = None,
        quantity: Annotated[int | None, Arg(
            "New number of units of that item; 0 removes it from the order", minimum=0,
            maximum=MAX_PER_LINE)] = None,
        address_id: Annotated[str | None, Arg(
            "Ship to this saved address instead (from list_addresses)")] = None) -> OrderEdit:
    """Change a pending order before it is processed: set one item's quantity (0 removes it)
    and/or the shipping address. Totals are recomputed at the prices paid, and the difference
    is charged to or refunded to the order's payment method."""
    order = s["orders"].get(order_id)
    address = s["addresses"].get(address_id) if address_id is not None else None
    if order["status"] != "pending":
        raise ToolError(f"order {order_id} is {order['status']}; only pending orders can be "
                        "changed" + _too_late(order["status"]))
    if item_id is None and quantity is None and address is None:
        raise ToolError("nothing to change; pass item_id with quantity, address_id, or both")
    if (item_id is None) != (quantity is None):
        raise ToolError("item_id and quantity go together: name the order's item and its new "
                        "quantity (0 removes it)")
    items = order["items"]
    if item_id is not None:
        items = _requantify(s, order, item_id, quantity)
    if (address is not None and item_id is None
            and address["address_id"] == order["address"]["address_id"]):
        raise ToolError(f"order {order_id} already ships to {address_id} "
                        f"({address['label']}); nothing changed")
    totals = _totals(s, order, items)
    diff = totals["total"] - order["total"]
    method = s["payment_methods"].get(order["payment_method_id"])
    if method["kind"] == "gift_card":  # cards and PayPal are charged/refunded by the provider
        if diff > method["balance"]:
            cur = money.currency_of(s)
            raise ToolError(f"the gift card balance ({money.fmt(method['balance'], cur)}) does "
                            f"not cover the extra {money.fmt(diff, cur)}; order fewer units")
        s["payment_methods"].update(method["payment_method_id"],
                                    balance=method["balance"] - diff)
    order = s["orders"].update(order_id, items=items, **totals,
                               address=address or order["address"])
    return {"order": order_out(s, order), "total_change": out(s, diff),
            "currency": money.currency_of(s), "charged_to": order["payment_method_id"]}


def _too_late(status: str) -> str:
    return {"processing": "; it is being packed, but cancel_order still works until it ships",
            "shipped": "; use request_return once it is delivered",
            "delivered": "; use request_return to send items back",
            "cancelled": "; it was cancelled, so place a new order"}.get(status, "")


def _requantify(s: State, order: dict, item_id: str, quantity: int) -> list[dict]:
    """The order's items with `item_id` at `quantity`; stock follows the change."""
    by_id = {it["item_id"]: it for it in order["items"]}
    if item_id not in by_id:
        raise ToolError(f"item {item_id!r} is not in order {order['order_id']}; its items are "
                        + ", ".join(by_id))
    have = by_id[item_id]["quantity"]
    if quantity == have:
        raise ToolError(f"order {order['order_id']} already has {have} of {item_id}")
    if quantity == 0 and len(by_id) == 1:
        raise ToolError(f"{item_id} is the only item of order {order['order_id']}; cancel the "
                        "order with cancel_order instead")
    v = s["variants"].get(item_id)
    if quantity - have > v["stock"]:
        raise ToolError(f"only {v['stock']} more unit(s) of item {item_id} are in stock; ask "
                        f"for at most {have + v['stock']}")
    s["variants"].update(item_id, stock=v["stock"] - (quantity - have))
    return [{**it, "quantity": quantity} if it["item_id"] == item_id else it
            for it in order["items"] if it["item_id"] != item_id or quantity]


def _totals(s: State, order: dict, items: list[dict]) -> dict[str, int]:
    """Subtotal, discount, shipping fee and total (minor units) of the order with `items`; its
    coupon must still qualify."""
    lines = [{"product_id": it["product_id"], "line_total": it["unit_price"] * it["quantity"]}
             for it in items]
    subtotal, discount, free = sum(line["line_total"] for line in lines), 0, False
    if order["coupon_code"]:
        coupon = s["coupons"].get(order["coupon_code"])
        spend = eligible_spend(s, coupon, lines)
        if spend < coupon["min_spend"] or (coupon["category"] and spend == 0):
            raise ToolError(f"the change takes order {order['order_id']} below what coupon "
                            f"{coupon['code']} needs ({money.fmt(spend, money.currency_of(s))} "
                            "eligible); keep more items, or cancel the order and order again")
        discount, free = discount_for(s, coupon, lines), coupon["kind"] == "free_shipping"
    fee, total = order_totals(subtotal, discount, free, money.currency_of(s))
    return {"subtotal": subtotal, "discount": discount, "shipping_fee": fee, "total": total}


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
    n = s.var("__seq_ret")
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
