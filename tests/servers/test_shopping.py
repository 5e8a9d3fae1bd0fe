"""shopping domain rules: stock, coupons, checkout, cancellation, returns, reviews."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest

from servers.core import money
from servers.core.runtime import Runtime
from servers.core.world import make_world
from servers.shopping import DOMAIN
from servers.shopping.data import RETURN_DAYS, TODAY
from tests.servers import money_ops
from tests.servers.common import (
    assert_world_varies,
    fails,
    ok,
    row_where,
    rows_where,
    runtime_fixture,
    state,
)
from tests.servers.money_ops import SEEDS
from tests.servers.shopping_rows import method_id, stock_of

rt = runtime_fixture(DOMAIN)


def _price(rt: Runtime, item_id: str) -> int:
    return rt.session(None).state["variants"].get(item_id)["price"]


def _minor(x: float) -> int:
    return money_ops.minor(x, "EUR")


def _address(rt: Runtime, label: str) -> str:
    return row_where(rt, "addresses", label=label)["address_id"]


def _category(rt: Runtime, item_id: str) -> str:
    s = rt.session(None).state
    return s["products"].get(s["variants"].get(item_id)["product_id"])["category"]


def _items(rt: Runtime, test: Callable[[dict], bool]) -> list[str]:
    """Ids of the variants outside the seeded cart that pass `test`."""
    s = rt.session(None).state
    return [v["item_id"] for v in s["variants"].rows()
            if s["cart"].find(v["item_id"]) is None and test(v)]


def _usd(amount: float) -> int:
    """A USD-like amount in the seed-0 world's minor units (EUR)."""
    return money.seed(amount, "EUR")


def test_checkout_moves_stock_into_an_order_and_cancel_puts_it_back(rt):
    # three units over the free-shipping line, one unit under it
    item = _items(rt, lambda v: v["stock"] >= 3 and _usd(50) / 3 <= v["price"] < _usd(50))[0]
    work, home, visa = _address(rt, "Work"), _address(rt, "Home"), method_id(state(rt), "Visa")
    assert rt.call("clear_cart", {}).ok
    assert rt.call("add_to_cart", {"item_id": item, "quantity": 3}).ok
    cart = rt.call("view_cart", {}).payload
    price = _price(rt, item)
    assert _minor(cart["subtotal"]) == 3 * price
    assert cart["total"] == cart["subtotal"] and cart["shipping_fee"] == 0  # free over 45 EUR
    before = stock_of(rt, item)
    order = rt.call("checkout", {"address_id": work, "payment_method_id": visa})
    assert order.ok and order.payload["status"] == "pending"
    assert order.payload["total"] == cart["total"]
    assert order.payload["shipping_address"]["address_id"] == work
    assert stock_of(rt, item) == before - 3
    assert rt.call("view_cart", {}).payload["lines"] == []
    oid = order.payload["order_id"]
    assert rt.call("list_orders", {"status": "pending"}).payload["orders"][0]["order_id"] == oid
    cancelled = rt.call("cancel_order", {"order_id": oid, "reason": "found a better price"})
    assert cancelled.ok and cancelled.payload["refund_amount"] == cart["total"]
    assert stock_of(rt, item) == before
    fails(rt, "cancel_order", {"order_id": oid, "reason": "other"}, "already cancelled")
    fails(rt, "checkout", {"address_id": home, "payment_method_id": visa}, "cart is empty")


def test_cart_respects_stock(rt):
    few = _items(rt, lambda v: 0 < v["stock"] < 10)[0]
    stock = stock_of(rt, few)
    fails(rt, "add_to_cart", {"item_id": few, "quantity": stock + 1}, f"only {stock} unit(s)")
    fails(rt, "add_to_cart", {"item_id": _items(rt, lambda v: v["stock"] == 0)[0]},
          "out of stock")
    assert rt.call("add_to_cart", {"item_id": few, "quantity": stock}).ok
    fails(rt, "add_to_cart", {"item_id": few}, f"only {stock} unit(s)")
    fails(rt, "update_cart_item", {"item_id": _items(rt, lambda v: True)[0], "quantity": 1},
          "not in the cart")


def _two_lines_over(rt: Runtime, spend: int) -> tuple[str, str]:
    """Two in-stock non-electronics items, each under `spend` and together over it."""
    cheap = _items(rt, lambda v: v["stock"] and v["price"] < spend)
    cheap = [i for i in cheap if _category(rt, i) != "electronics"]
    return next((a, b) for a in cheap for b in cheap
                if a != b and _price(rt, a) + _price(rt, b) >= spend)


def test_coupon_rules(rt):
    fails(rt, "apply_coupon", {"code": "SPRING25"}, "expired on 2026-05-31")
    fails(rt, "apply_coupon", {"code": "WELCOME10"}, "already used")
    ok(rt, "clear_cart", {})
    first, second = _two_lines_over(rt, _usd(150))
    ok(rt, "add_to_cart", {"item_id": first})
    ok(rt, "add_to_cart", {"item_id": second})
    fails(rt, "apply_coupon", {"code": "TECH50"}, "only to electronics")
    fails(rt, "apply_coupon", {"code": "NOPE99"}, "no coupon")
    cart = rt.call("apply_coupon", {"code": "save20"}).payload  # the cart is over $150
    assert cart["coupon_code"] == "SAVE20" and cart["discount"] == 18.0  # 20 USD-like in EUR
    assert _minor(cart["total"]) == _minor(cart["subtotal"]) - 1800
    # dropping below the $150 minimum removes the coupon and says why
    out = rt.call("remove_from_cart", {"item_id": second}).payload
    assert out["coupon_code"] is None and out["discount"] == 0.0
    assert "removed" in out["notice"]


def _units_over(rt: Runtime, spend: int, units: int) -> str:
    """An item of which `units` units are in stock and cost at least `spend`."""
    return _items(rt, lambda v: v["stock"] >= units and v["price"] * units >= spend)[0]


def test_cancelling_an_order_gives_its_single_use_coupon_back(rt):
    # VIP30 is single-use, 30% off over $300 (food_delivery gives promo codes back the same way)
    s = state(rt)
    item = _units_over(rt, s["coupons"].get("VIP30")["min_spend"], 5)
    ok(rt, "clear_cart", {})
    ok(rt, "add_to_cart", {"item_id": item, "quantity": 5})
    ok(rt, "apply_coupon", {"code": "VIP30"})
    order = ok(rt, "checkout", {"address_id": _address(rt, "Home"),
                                "payment_method_id": method_id(s, "Visa")})
    assert order["coupon_code"] == "VIP30" and order["discount"] > 0
    ok(rt, "add_to_cart", {"item_id": item, "quantity": 5})  # over the minimum again
    fails(rt, "apply_coupon", {"code": "VIP30"}, "already used")
    oid = order["order_id"]
    ok(rt, "cancel_order", {"order_id": oid, "reason": "other"})
    assert ok(rt, "apply_coupon", {"code": "VIP30"})["coupon_code"] == "VIP30"


def test_payment_method_rules(rt):
    s, home = state(rt), _address(rt, "Home")
    gift = method_id(s, "Gift card")
    balance = s["payment_methods"].get(gift)["balance"]
    fails(rt, "checkout", {"address_id": home, "payment_method_id": method_id(s, "Mastercard")},
          "expired")
    ok(rt, "clear_cart", {})
    ok(rt, "add_to_cart", {"item_id": _items(rt, lambda v: v["stock"] and v["price"] > balance
                                             )[0]})
    fails(rt, "checkout", {"address_id": home, "payment_method_id": gift}, "gift card balance")
    ok(rt, "clear_cart", {})
    fee = _usd(5.99)  # under the free-shipping line the fee is added
    cheap = _items(rt, lambda v: v["stock"] and v["price"] + fee <= balance)[0]
    assert rt.call("add_to_cart", {"item_id": cheap}).ok
    order = rt.call("checkout", {"address_id": home, "payment_method_id": gift})
    assert order.ok and order.payload["shipping_fee"] == 5.39  # 5.99 USD-like in EUR
    assert _minor(order.payload["total"]) == _price(rt, cheap) + 539
    assert s["payment_methods"].get(gift)["balance"] == balance - _minor(
        order.payload["total"])
    rt.call("cancel_order", {"order_id": order.payload["order_id"], "reason": "other"})
    assert s["payment_methods"].get(gift)["balance"] == balance


def _delivered(rt: Runtime, in_window: bool) -> list[dict]:
    """Delivered orders with no return yet, inside or past the 30-day return window."""
    returned = {r["order_id"] for r in rows_where(rt, "returns")}
    limit = (TODAY - dt.timedelta(days=RETURN_DAYS)).isoformat()
    return [o for o in rows_where(rt, "orders", status="delivered")
            if o["order_id"] not in returned and (o["delivered_at"][:10] >= limit) == in_window]


def test_return_rules(rt):
    old = _delivered(rt, in_window=False)[0]
    fails(rt, "request_return", {"order_id": old["order_id"],
                                 "item_ids": [old["items"][0]["item_id"]],
                                 "reason": "size or fit"}, "return window")
    shipped = row_where(rt, "orders", status="shipped")
    fails(rt, "request_return", {"order_id": shipped["order_id"],
                                 "item_ids": [shipped["items"][0]["item_id"]],
                                 "reason": "wrong item"}, "only delivered orders")
    recent = next(o for o in _delivered(rt, in_window=True)
                  if len(o["items"]) >= 2 and not o["discount"])
    oid, lines = recent["order_id"], [it["item_id"] for it in recent["items"]]
    stranger = _items(rt, lambda v: v["item_id"] not in lines)[0]
    fails(rt, "request_return", {"order_id": oid, "item_ids": [stranger],
                                 "reason": "wrong item"}, f"not in order {oid}")
    back = lines[1]
    out = rt.call("request_return", {"order_id": oid, "item_ids": [back],
                                     "reason": "damaged or defective"})
    item = recent["items"][1]
    assert out.ok and _minor(out.payload["refund_amount"]) == item["unit_price"] * item[
        "quantity"]  # the order had no discount: the whole line comes back
    order = rt.call("get_order", {"order_id": oid}).payload
    assert out.payload["return_id"] in order["return_ids"]
    assert [it["returned"] for it in order["items"]] == [i == back for i in lines]
    fails(rt, "request_return", {"order_id": oid, "item_ids": [back],
                                 "reason": "wrong item"}, "already returned")
    fails(rt, "cancel_order", {"order_id": oid, "reason": "other"}, "use request_return")


def test_reviews_need_a_delivered_purchase_and_count_in_the_rating(rt):
    s, user = state(rt), state(rt).var("user")["user_id"]
    received = {it["product_id"] for o in rows_where(rt, "orders", status="delivered")
                for it in o["items"]}
    mine = {r["product_id"] for r in rows_where(rt, "reviews", author_id=user)}
    never = next(p for p in s["products"].ids() if p not in received)
    fails(rt, "write_review", {"product_id": never, "rating": 5, "title": "x", "body": "y"},
          "no delivered order")
    fails(rt, "write_review", {"product_id": sorted(mine)[0], "rating": 5, "title": "x",
                               "body": "y"}, "already reviewed")
    product = sorted(received - mine)[0]
    before = rt.call("get_product_reviews", {"product_id": product}).payload
    assert rt.call("write_review", {"product_id": product, "rating": 1, "title": "Bad",
                                    "body": "Fell apart."}).ok
    after = rt.call("get_product_reviews", {"product_id": product, "sort": "lowest"}).payload
    assert after["review_count"] == before["review_count"] + 1
    assert after["reviews"][0]["title"] == "Bad" and after["average_rating"] < before[
        "average_rating"]


def test_tracking_and_wishlist(rt):
    fails(rt, "track_shipment", {"order_id": row_where(rt, "orders", status="pending")[
        "order_id"]}, "no shipment")
    delivered = row_where(rt, "orders", status="delivered")["order_id"]
    tracking = rt.call("track_shipment", {"order_id": delivered}).payload
    assert tracking["status"] == "delivered" and tracking["events"][-1]["description"].startswith(
        "Delivered")
    saved = [w["product_id"] for w in rows_where(rt, "wishlist")]
    other = next(p for p in state(rt)["products"].ids() if p not in saved)
    fails(rt, "add_to_wishlist", {"product_id": saved[0]}, "already in the wishlist")
    fails(rt, "remove_from_wishlist", {"product_id": other}, "not in the wishlist")
    assert rt.call("add_to_wishlist", {"product_id": other}).payload["total"] == len(saved) + 1


def test_world_varies_by_seed():
    assert_world_varies("shopping", {"products": None, "variants": None, "orders": "status",
                                     "reviews": None})


# ------------------------------------------------------------------ exact money


def test_a_jpy_world_sells_in_whole_yen():
    rt = Runtime(DOMAIN, default_seed=10)
    found = ok(rt, "search_products", {"limit": 20})["products"]
    assert all(isinstance(p["price_min"], int) and p["currency"] == "JPY" for p in found)
    fails(rt, "search_products", {"max_price": 99.5}, "max_price 99.5",
          "more decimals than JPY allows (0)")
    coupons = rt.session(None).state["coupons"]
    assert coupons.get("SAVE20")["value"] == 3000
    assert coupons.get("TECH50")["description"] == "7500 JPY off electronics over 60000 JPY"


def test_percent_coupons_round_half_to_even(rt):
    coupon = state(rt)["coupons"].get("SUMMER15")
    item = _items(rt, lambda v: v["stock"] >= 6 and coupon["min_spend"] <= 6 * v["price"]
                  and 6 * v["price"] * 15 / 100 < coupon["max_discount"])[0]  # under the cap
    ok(rt, "clear_cart", {})
    ok(rt, "add_to_cart", {"item_id": item, "quantity": 6})
    cart = ok(rt, "apply_coupon", {"code": "SUMMER15"})
    exact = 6 * _price(rt, item) * 15 / 100  # minor units, before rounding
    assert abs(_minor(cart["discount"]) - exact) <= 0.5


def _makers() -> dict:
    def add(rng, s):
        item = rng.choice([v for v in s["variants"].rows() if v["stock"]] or s["variants"].rows())
        return {"item_id": item["item_id"], "quantity": rng.randint(1, 2)}

    def order(rng, s):
        return rng.choice(s["orders"].ids())

    return {
        "add_to_cart": add,
        "clear_cart": lambda rng, s: {},
        "apply_coupon": lambda rng, s: {"code": rng.choice(s["coupons"].ids())},
        "checkout": lambda rng, s: {"address_id": s["addresses"].ids()[0],
                                    "payment_method_id": method_id(s, rng.choice(
                                        ["Visa", "Gift card", "Gift card", "PayPal"]))},
        "cancel_order": lambda rng, s: {"order_id": order(rng, s), "reason": "other"},
        "update_order": lambda rng, s: {
            "order_id": (o := order(rng, s)), "quantity": rng.randint(0, 3),
            "item_id": rng.choice(s["orders"].get(o)["items"])["item_id"]},
        "request_return": lambda rng, s: {
            "order_id": (o := order(rng, s)),
            "item_ids": [s["orders"].get(o)["items"][0]["item_id"]], "reason": "wrong item"},
    }


@pytest.mark.parametrize("seed", SEEDS)
def test_gift_card_and_orders_reconcile_after_1000_random_operations(seed):
    rt = Runtime(DOMAIN, default_seed=seed)
    s, cur = rt.session(None).state, make_world(seed).currency
    gift = method_id(s, "Gift card")
    opening = s["payment_methods"].get(gift)["balance"]
    seeded = set(s["orders"].ids())
    done, failed = money_ops.run_ops(rt, _makers(), 1000, seed)
    assert len(done) > 200 and failed > 20
    spent = 0
    for o in s["orders"].rows():
        lines = sum(it["unit_price"] * it["quantity"] for it in o["items"])
        assert o["subtotal"] == lines
        assert o["total"] == o["subtotal"] - o["discount"] + o["shipping_fee"]
        if o["order_id"] not in seeded and o["payment_method_id"] == gift \
                and o["status"] != "cancelled":
            spent += o["total"]
    # the gift card paid for exactly its live session orders (cancellations gave money back)
    assert s["payment_methods"].get(gift)["balance"] == opening - spent >= 0
    for r in s["returns"].rows():
        assert r["refund_amount"] == sum(i["refund"] for i in r["items"])
    # each order's total is what the last call that set it (checkout or update_order) showed
    last: dict[str, float] = {}
    for tool, _args, result in done:
        if tool == "checkout":
            last[result["order_id"]] = result["total"]
        elif tool == "update_order":
            last[result["order"]["order_id"]] = result["order"]["total"]
    assert any(tool == "update_order" for tool, _a, _r in done)
    for oid, total in last.items():
        assert money_ops.minor(total, cur) == s["orders"].get(oid)["total"]
