"""food_delivery tools: the cart (one restaurant at a time), promo codes, saved addresses,
payment methods and checkout."""

from __future__ import annotations

import datetime as dt
from typing import Annotated

from servers.core import money
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State
from servers.food_delivery.common import (
    DOMAIN,
    cart_lines,
    cart_out,
    cart_state,
    clock,
    order_out,
    promo_problem,
    recheck_promo,
    subtotal_of,
    tick,
)
from servers.food_delivery.data import hours_today, is_open
from servers.food_delivery.models import Address, AddressList, Cart, Order, PaymentMethodList
from servers.food_delivery.restaurants import check_city

MAX_PER_LINE = 20
MAX_ADDRESSES = 10
Quantity = Annotated[int, Arg("Number of portions", minimum=1, maximum=MAX_PER_LINE)]
LineId = Annotated[str, Arg("Cart line id, e.g. 'ln_xg6ngc' (from view_cart)")]


def resolve_options(item: Row, options: list[str]) -> tuple[list[str], list[str]]:
    """(canonical chosen option names, defaults filled in) or a ToolError naming valid ones."""
    wanted = [o.strip().lower() for o in options]
    chosen, defaults = [], []
    for group in item["option_groups"]:
        names = [c["name"] for c in group["choices"]]
        picked = [n for n in names if n.lower() in wanted]
        if len(picked) > 1 and not group["multi"]:
            raise ToolError(f"choose only one {group['name']} for {item['name']}, got "
                            f"{', '.join(picked)}")
        if not picked and group["required"]:
            picked = [names[0]]
            defaults.append(f"{group['name']}: {names[0]}")
        chosen += picked
    known = {c["name"].lower() for g in item["option_groups"] for c in g["choices"]}
    unknown = [o for o, w in zip(options, wanted, strict=True) if w not in known]
    if unknown:
        valid = "; ".join(f"{g['name']}: " + ", ".join(c["name"] for c in g["choices"])
                          for g in item["option_groups"]) or "none"
        raise ToolError(f"{item['name']} has no option {unknown[0]!r}; valid options: {valid}")
    return chosen, defaults


def _empty_cart(s: State) -> None:
    for line_id in s["cart"].ids():
        s["cart"].delete(line_id)
    s.set_var("cart_restaurant_id", None)
    s.set_var("promo_code", None)


def put_in_cart(s: State, item: Row, quantity: int, options: list[str]) -> None:
    """Add portions to the cart, merging with a line of the same item and options."""
    same = [ln for ln in s["cart"].rows()
            if ln["item_id"] == item["item_id"] and ln["options"] == options]
    have = same[0]["quantity"] if same else 0
    if have + quantity > MAX_PER_LINE:
        raise ToolError(f"at most {MAX_PER_LINE} portions of one item per order; the cart "
                        f"already has {have} of {item['name']}")
    if same:
        s["cart"].update(same[0]["line_id"], quantity=have + quantity)
    else:
        s["cart"].insert({"line_id": s.next_id("ln"), "item_id": item["item_id"],
                          "options": options, "quantity": quantity})
    s.set_var("cart_restaurant_id", item["restaurant_id"])


def switch_restaurant(s: State, restaurant_id: str, replace_cart: bool) -> str | None:
    """Enforce one restaurant per cart; empty it first when the caller asked to."""
    current = s.var("cart_restaurant_id")
    if current is None or current == restaurant_id or not s["cart"].ids():
        return None
    name = s["restaurants"].get(current)["name"]
    if not replace_cart:
        raise ToolError(f"your cart has items from {name} ({current}); a cart holds one "
                        "restaurant's items. Check out first, or pass replace_cart=true to "
                        "empty it and start a new cart")
    _empty_cart(s)
    return f"emptied the cart of items from {name}"


MAX_TIP_USD = 50  # the most a tip may be, scaled to the world's currency


@DOMAIN.tool(read_only=False)
def add_to_cart(
        s: State,
        item_id: Annotated[str, Arg("Menu item id, e.g. 'itm_rzrmxm' (from get_menu)")],
        quantity: Quantity = 1,
        options: Annotated[list[str] | None, Arg(
            "Option choices by name, e.g. ['large', 'oat milk']; required groups left out get "
            "their first choice", max_length=10)] = None,
        replace_cart: Annotated[bool, Arg(
            "If the cart holds another restaurant's items, empty it first")] = False) -> Cart:
    """Add a menu item (with options) to the cart. A cart holds one restaurant's items."""
    item = s["menu_items"].get(item_id)
    rest = s["restaurants"].get(item["restaurant_id"])
    if not item["available"]:
        raise ToolError(f"{item['name']} is sold out at {rest['name']}; pick another item "
                        f"from get_menu for {rest['restaurant_id']}")
    chosen, defaults = resolve_options(item, options or [])
    notices = [switch_restaurant(s, item["restaurant_id"], replace_cart)]
    put_in_cart(s, item, quantity, chosen)
    if defaults:
        notices.append("defaults used: " + "; ".join(defaults))
    if not is_open(rest, clock(s)):
        notices.append(f"{rest['name']} is closed right now ({hours_today(rest, clock(s))}); "
                       "checkout works once it opens")
    notices.append(recheck_promo(s))
    tick(s)
    return cart_out(s, "; ".join(n for n in notices if n) or None)


@DOMAIN.tool(read_only=True)
def view_cart(s: State) -> Cart:
    """Show the cart: restaurant, lines, subtotal, promo discount, fees and total."""
    return cart_out(s)


@DOMAIN.tool(read_only=False)
def update_cart_item(s: State, line_id: LineId, quantity: Quantity) -> Cart:
    """Change the number of portions on a cart line."""
    s["cart"].get(line_id)
    s["cart"].update(line_id, quantity=quantity)
    notice = recheck_promo(s)
    tick(s)
    return cart_out(s, notice)


@DOMAIN.tool(read_only=False)
def remove_from_cart(s: State, line_id: LineId) -> Cart:
    """Remove a line from the cart (an emptied cart forgets its restaurant and promo)."""
    s["cart"].get(line_id)
    s["cart"].delete(line_id)
    notice = None
    if not s["cart"].ids():
        _empty_cart(s)
    else:
        notice = recheck_promo(s)
    tick(s)
    return cart_out(s, notice)


@DOMAIN.tool(read_only=False)
def apply_promo_code(s: State, code: Annotated[str, Arg(
        "Promo code, e.g. 'SAVE15' (case-insensitive)", min_length=1, max_length=20)]) -> Cart:
    """Apply a promo code to the cart (replaces any code already applied)."""
    promo = s["promos"].find(code.strip().upper())
    if promo is None:
        raise ToolError(f"promo code {code!r} does not exist; check the spelling")
    if not s["cart"].ids():
        raise ToolError("the cart is empty; add_to_cart before applying a promo code")
    problem = promo_problem(s, promo, subtotal_of(cart_lines(s)))
    if problem:
        raise ToolError(problem)
    s.set_var("promo_code", promo["code"])
    tick(s)
    return cart_out(s, f"applied {promo['code']}: {promo['description']}")


@DOMAIN.tool(read_only=True)
def list_saved_addresses(s: State) -> AddressList:
    """List the user's saved delivery addresses."""
    return {"addresses": s["addresses"].rows()}


@DOMAIN.tool(read_only=False)
def add_address(
        s: State,
        label: Annotated[str, Arg("Name for the address, e.g. 'Gym'", min_length=1,
                                  max_length=30)],
        street: Annotated[str, Arg("Street and number (plus flat or floor)", min_length=3,
                                   max_length=120)],
        city: Annotated[str, Arg("City (must be a city the service delivers in)")],
        postal_code: Annotated[str, Arg("Postal code", min_length=3, max_length=12)],
        instructions: Annotated[str, Arg("Notes for the courier", max_length=200)] = "",
        make_default: Annotated[bool, Arg("Use it as the default address")] = False
) -> Address:
    """Save a new delivery address."""
    town = check_city(s, city)
    rows = s["addresses"].rows()
    if len(rows) >= MAX_ADDRESSES:
        raise ToolError(f"at most {MAX_ADDRESSES} saved addresses")
    if any(a["label"].lower() == label.strip().lower() for a in rows):
        raise ToolError(f"you already have an address labelled {label!r}; choose another "
                        "label (see list_saved_addresses)")
    if make_default:
        for a in rows:
            if a["is_default"]:
                s["addresses"].update(a["address_id"], is_default=False)
    tick(s)
    return s["addresses"].insert({
        "address_id": s.next_id("addr"), "label": label.strip(), "street": street,
        "city": town, "postal_code": postal_code, "instructions": instructions,
        "is_default": make_default})


def _expired(s: State, m: Row) -> bool:
    return m["expires"] is not None and m["expires"] < clock(s).date().isoformat()[:7]


@DOMAIN.tool(read_only=True)
def list_payment_methods(s: State) -> PaymentMethodList:
    """List the user's payment methods (cards, PayPal, cash on delivery)."""
    return {"payment_methods": [{**m, "expired": _expired(s, m)}
                                for m in s["payment_methods"].rows()]}


@DOMAIN.tool(read_only=False, requires=("add_to_cart",))
def checkout(
        s: State,
        address_id: Annotated[str, Arg("Delivery address id, e.g. 'addr_gc2akf' (from "
                                       "list_saved_addresses)")],
        payment_method_id: Annotated[str, Arg("Payment method id, e.g. 'pm_etab2s' (from "
                                              "list_payment_methods)")],
        tip: Annotated[float, Arg(
            "Courier tip in the world's currency (see the cart's `currency`), with at most "
            "its decimals; at most 50 USD-like units", minimum=0)] = 0,
        instructions: Annotated[str, Arg("Notes for the restaurant or courier",
                                         max_length=200)] = "") -> Order:
    """Place the order in the cart: delivered to a saved address in the restaurant's city,
    paid with a payment method; the restaurant must be open and the minimum order met."""
    address = s["addresses"].get(address_id)
    method = s["payment_methods"].get(payment_method_id)
    cart, cur = cart_state(s), money.currency_of(s)
    tip_minor = money.amount_in(s, tip, "tip")
    if tip_minor > money.limit(s, MAX_TIP_USD):
        raise ToolError(f"tip {tip} is above the most a tip may be "
                        f"({money.fmt(money.limit(s, MAX_TIP_USD), cur)})")
    if not cart["lines"]:
        raise ToolError("the cart is empty; add_to_cart first")
    rest = s["restaurants"].get(cart["restaurant_id"])
    if address["city"] != rest["city"]:
        raise ToolError(f"{rest['name']} delivers only within {rest['city']}; address "
                        f"{address_id} ({address['label']}) is in {address['city']}")
    if _expired(s, method):
        raise ToolError(f"{method['label']} ending {method['last4']} expired "
                        f"{method['expires']}; choose another payment method")
    if method["kind"] == "cash" and not rest["accepts_cash"]:
        raise ToolError(f"{rest['name']} does not accept cash; pay by card or PayPal")
    when = clock(s)
    if not is_open(rest, when):
        raise ToolError(f"{rest['name']} is closed right now ({hours_today(rest, when)}); "
                        "order from a restaurant "
                        "that is open (search_restaurants with open_now=true)")
    if cart["subtotal"] < rest["min_order"]:
        raise ToolError(f"{rest['name']} has a {money.fmt(rest['min_order'], cur)} minimum "
                        f"order; the subtotal is {money.fmt(cart['subtotal'], cur)}, add "
                        f"{money.fmt(rest['min_order'] - cart['subtotal'], cur)} more")
    stamp = tick(s)
    eta = dt.datetime.fromisoformat(stamp) + dt.timedelta(minutes=rest["delivery_min"])
    code = cart["promo_code"]
    if code and s["promos"].get(code)["single_use"]:
        s["promos"].update(code, used=True)
    order = s["orders"].insert({
        "order_id": s.next_id("ord"), "restaurant_id": rest["restaurant_id"],
        "restaurant_name": rest["name"], "city": rest["city"],
        "lines": [{k: ln[k] for k in ("item_id", "name", "options", "unit_price", "quantity",
                                      "line_total")} for ln in cart["lines"]],
        "subtotal": cart["subtotal"], "promo_code": code, "discount": cart["discount"],
        "delivery_fee": cart["delivery_fee"], "service_fee": cart["service_fee"],
        "tip": tip_minor, "total": cart["total"] + tip_minor,
        "address_id": address_id, "payment_method_id": payment_method_id, "status": "placed",
        "placed_at": stamp, "estimated_delivery_at": eta.isoformat(timespec="minutes"),
        "courier_name": None, "history": [{"status": "placed", "at": stamp}], "rating": None,
        "review": None, "instructions": instructions or address["instructions"],
        "cancel_reason": None, "refund_amount": 0})
    _empty_cart(s)
    return order_out(s, order)

