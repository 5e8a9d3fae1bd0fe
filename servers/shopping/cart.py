"""shopping tools: the cart, coupons, the user's addresses and payment methods, checkout."""

from __future__ import annotations

from typing import Annotated

from servers.core import money
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State
from servers.shopping.common import (
    DOMAIN,
    ItemId,
    cart_out,
    cart_state,
    check_quantity,
    coupon_problem,
    method_out,
    now,
    order_out,
    recheck_coupon,
)
from servers.shopping.data import MAX_PER_LINE
from servers.shopping.models import Address, AddressList, Cart, Order, PaymentMethodList

Quantity = Annotated[int, Arg("Number of units", minimum=1, maximum=MAX_PER_LINE)]
MAX_ADDRESSES = 10


def _in_cart(s: State, item_id: str) -> dict:
    s["variants"].get(item_id)
    row = s["cart"].find(item_id)
    if row is None:
        raise ToolError(f"item {item_id} is not in the cart; use view_cart to see cart items "
                        "(or add_to_cart to add it)")
    return row


@DOMAIN.tool(read_only=False)
def add_to_cart(s: State, item_id: ItemId, quantity: Quantity = 1) -> Cart:
    """Add units of a product variant to the cart (adds to any units already there)."""
    line = s["cart"].find(item_id)
    have = line["quantity"] if line else 0
    if have + quantity > MAX_PER_LINE:
        raise ToolError(f"at most {MAX_PER_LINE} units of one item per order; the cart already "
                        f"has {have} of {item_id}")
    check_quantity(s, item_id, have + quantity)
    if line:
        s["cart"].update(item_id, quantity=have + quantity)
    else:
        s["cart"].insert({"item_id": item_id, "quantity": quantity, "added_at": now(s)})
    return cart_out(s, recheck_coupon(s))


@DOMAIN.tool(read_only=True)
def view_cart(s: State) -> Cart:
    """Show the cart: lines, subtotal, applied coupon, discount, shipping and total."""
    return cart_out(s)


@DOMAIN.tool(read_only=False)
def update_cart_item(s: State, item_id: Annotated[str, Arg(
        "Item id of a line in the cart (from view_cart)")], quantity: Quantity) -> Cart:
    """Set the quantity of an item already in the cart."""
    _in_cart(s, item_id)
    check_quantity(s, item_id, quantity)
    s["cart"].update(item_id, quantity=quantity)
    return cart_out(s, recheck_coupon(s))


@DOMAIN.tool(read_only=False)
def remove_from_cart(s: State, item_id: Annotated[str, Arg(
        "Item id of a line in the cart (from view_cart)")]) -> Cart:
    """Remove an item from the cart."""
    _in_cart(s, item_id)
    s["cart"].delete(item_id)
    return cart_out(s, recheck_coupon(s))


@DOMAIN.tool(read_only=False)
def clear_cart(s: State) -> Cart:
    """Remove every item (and any applied coupon) from the cart."""
    if not s["cart"].ids():
        raise ToolError("the cart is already empty")
    for item_id in s["cart"].ids():
        s["cart"].delete(item_id)
    s.set_var("coupon_code", None)
    return cart_out(s)


@DOMAIN.tool(read_only=False, requires=("add_to_cart",))
def apply_coupon(s: State, code: Annotated[str, Arg(
        "Coupon code, e.g. 'SUMMER15' (case-insensitive)", min_length=3, max_length=20)]
                 ) -> Cart:
    """Apply a coupon to the cart (replaces any coupon already applied)."""
    key = code.strip().upper()
    coupon = s["coupons"].find(key)
    if coupon is None:
        raise ToolError(f"no coupon with code {code!r}; check the spelling of the code")
    cart = cart_state(s)
    if not cart["lines"]:
        raise ToolError("the cart is empty; add items with add_to_cart before applying a "
                        "coupon")
    problem = coupon_problem(s, coupon, cart["lines"])
    if problem:
        raise ToolError(problem)
    s.set_var("coupon_code", key)
    return cart_out(s)


# ----------------------------------------------------------------------------- account
@DOMAIN.tool(read_only=True)
def list_addresses(s: State) -> AddressList:
    """List the user's saved shipping addresses."""
    return {"addresses": s["addresses"].rows()}


@DOMAIN.tool(read_only=False)
def add_address(
        s: State,
        label: Annotated[str, Arg("Short name, e.g. 'Home' or 'Office'", min_length=1,
                                  max_length=30)],
        recipient_name: Annotated[str, Arg("Who receives the parcel", min_length=1,
                                           max_length=80)],
        line1: Annotated[str, Arg("Street and number", min_length=3, max_length=100)],
        city: Annotated[str, Arg("City", min_length=2, max_length=60)],
        postal_code: Annotated[str, Arg("Postal code", pattern=r"[A-Za-z0-9][A-Za-z0-9 -]{2,9}")],
        country: Annotated[str, Arg("Country", min_length=2, max_length=60)],
        line2: Annotated[str | None, Arg("Apartment, floor, company", max_length=100)] = None,
        phone: Annotated[str | None, Arg("Phone for the courier", max_length=30)] = None,
        set_default: Annotated[bool, Arg("Make it the default address")] = False) -> Address:
    """Save a new shipping address."""
    rows = s["addresses"].rows()
    if len(rows) >= MAX_ADDRESSES:
        raise ToolError(f"at most {MAX_ADDRESSES} addresses can be saved")
    for row in rows:
        if (row["line1"].lower() == line1.strip().lower() and row["city"].lower()
                == city.strip().lower() and row["postal_code"] == postal_code.strip()):
            raise ToolError(f"this address is already saved as {row['address_id']} "
                            f"({row['label']})")
    if set_default:
        for row in rows:
            if row["is_default"]:
                s["addresses"].update(row["address_id"], is_default=False)
    return s["addresses"].insert({
        "address_id": s.next_id("addr"), "label": label.strip(),
        "recipient_name": recipient_name.strip(), "line1": line1.strip(), "line2": line2,
        "city": city.strip(), "postal_code": postal_code.strip(), "country": country.strip(),
        "phone": phone, "is_default": set_default})


@DOMAIN.tool(read_only=True)
def list_payment_methods(s: State) -> PaymentMethodList:
    """List the user's saved payment methods (cards, PayPal, gift card balance)."""
    return {"payment_methods": [method_out(s, r) for r in s["payment_methods"].rows()]}


@DOMAIN.tool(read_only=False, requires=("add_to_cart",))
def checkout(
        s: State,
        address_id: Annotated[str, Arg("Shipping address id (from list_addresses)")],
        payment_method_id: Annotated[str, Arg("Payment method id (from list_payment_methods)")],
) -> Order:
    """Place an order for everything in the cart; stock is reserved and the cart emptied."""
    address = s["addresses"].get(address_id)
    method = s["payment_methods"].get(payment_method_id)
    expired = method_out(s, method)["expired"]
    cart, cur = cart_state(s), money.currency_of(s)
    if not cart["lines"]:
        raise ToolError("the cart is empty; add items with add_to_cart before checking out")
    if expired:
        raise ToolError(f"{method['label']} ending {method['last4']} expired in "
                        f"{method['expires']}; pay with another method from "
                        "list_payment_methods")
    for line in cart["lines"]:
        check_quantity(s, line["item_id"], line["quantity"])
    if method["kind"] == "gift_card":
        if method["balance"] < cart["total"]:
            raise ToolError(f"the gift card balance ({money.fmt(method['balance'], cur)}) does "
                            f"not cover the total ({money.fmt(cart['total'], cur)}); pay with "
                            "another method")
        s["payment_methods"].update(payment_method_id,
                                    balance=method["balance"] - cart["total"])
    for line in cart["lines"]:
        v = s["variants"].get(line["item_id"])
        s["variants"].update(v["item_id"], stock=v["stock"] - line["quantity"])
        s["cart"].delete(line["item_id"])
    if cart["coupon_code"]:
        s["coupons"].update(cart["coupon_code"], used=True)
        s.set_var("coupon_code", None)
    order = s["orders"].insert({
        "order_id": s.next_id("ord"), "status": "pending", "placed_at": now(s),
        "items": [{k: line[k] for k in ("item_id", "product_id", "name", "options",
                                        "quantity", "unit_price")} for line in cart["lines"]],
        "subtotal": cart["subtotal"], "discount": cart["discount"],
        "coupon_code": cart["coupon_code"], "shipping_fee": cart["shipping_fee"],
        "total": cart["total"], "address": address, "payment_method_id": payment_method_id,
        "shipment_id": None, "delivered_at": None, "cancelled_at": None,
        "cancel_reason": None})
    return order_out(s, order)
