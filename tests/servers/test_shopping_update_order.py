"""shopping's update_order: quantities move stock and settle the difference on the order's
payment method, the shipping address changes, and everything past pending is refused."""

from __future__ import annotations

import pytest

from servers.core.runtime import Runtime
from servers.core.world import make_world
from servers.shopping import DOMAIN
from tests.servers import money_ops
from tests.servers.common import fails, ok
from tests.servers.money_ops import SEEDS
from tests.servers.shopping_rows import method_id, stock_of


def _new_order(rt: Runtime, method: str = "Visa", n: int = 2) -> dict:
    """A fresh pending order of one unit each of the n cheapest in-stock items, paid with the
    payment method labelled `method`."""
    s = rt.session(None).state
    if s["cart"].ids():
        ok(rt, "clear_cart", {})  # the seeded cart's lines would join the order
    cheap = sorted((v for v in s["variants"].rows() if v["stock"] >= 5),
                   key=lambda v: (v["price"], v["item_id"]))[:n]
    for v in cheap:
        ok(rt, "add_to_cart", {"item_id": v["item_id"]})
    address = ok(rt, "list_addresses", {})["addresses"][0]["address_id"]
    return ok(rt, "checkout", {"address_id": address,
                               "payment_method_id": method_id(s, method)})


def _lines(order: dict) -> dict[str, int]:
    return {it["item_id"]: it["quantity"] for it in order["items"]}


@pytest.mark.parametrize("seed", SEEDS)
def test_update_order_changes_a_quantity_moves_stock_and_settles_the_difference(seed):
    rt = Runtime(DOMAIN, default_seed=seed)
    s, cur = rt.session(None).state, make_world(seed).currency
    order = _new_order(rt)
    oid, (first, second) = order["order_id"], list(_lines(order))
    gift = method_id(s, "Gift card")
    card0, stock0 = s["payment_methods"].get(gift)["balance"], stock_of(rt, first)
    out = ok(rt, "update_order", {"order_id": oid, "item_id": first, "quantity": 2})
    assert _lines(out["order"]) == {first: 2, second: 1} == _lines(ok(
        rt, "get_order", {"order_id": oid}))
    assert stock_of(rt, first) == stock0 - 1
    row = s["orders"].get(oid)
    assert row["subtotal"] == sum(it["unit_price"] * it["quantity"] for it in row["items"])
    assert row["total"] == row["subtotal"] - row["discount"] + row["shipping_fee"]
    change = money_ops.minor(out["total_change"], cur)
    assert change == row["total"] - money_ops.minor(order["total"], cur) > 0
    assert s["payment_methods"].get(gift)["balance"] == card0  # the Visa was charged
    # removing a line puts its units back in stock and lowers the total
    before = s["orders"].get(oid)["total"]
    stock2 = stock_of(rt, second)
    out = ok(rt, "update_order", {"order_id": oid, "item_id": second, "quantity": 0})
    assert _lines(out["order"]) == {first: 2} and stock_of(rt, second) == stock2 + 1
    assert money_ops.minor(out["total_change"], cur) == s["orders"].get(oid)["total"] - before
    listed = ok(rt, "list_orders", {"status": "pending"})["orders"]
    assert next(o for o in listed if o["order_id"] == oid)["item_count"] == 2


@pytest.mark.parametrize("seed", SEEDS)
def test_update_order_changes_the_shipping_address_of_a_pending_order(seed):
    rt = Runtime(DOMAIN, default_seed=seed)
    s = rt.session(None).state
    pending = s["orders"].rows(lambda o: o["status"] == "pending")[0]
    other = next(a for a in s["addresses"].rows()
                 if a["address_id"] != pending["address"]["address_id"])
    out = ok(rt, "update_order", {"order_id": pending["order_id"],
                                  "address_id": other["address_id"]})
    assert out["total_change"] == 0 and out["order"]["items"] == ok(
        rt, "get_order", {"order_id": pending["order_id"]})["items"]
    shown = ok(rt, "get_order", {"order_id": pending["order_id"]})["shipping_address"]
    assert shown["address_id"] == other["address_id"]
    fails(rt, "update_order", {"order_id": pending["order_id"],
                               "address_id": other["address_id"]}, "already ships to")


@pytest.mark.parametrize("seed", SEEDS)
def test_update_order_refuses_orders_past_pending_and_bad_changes(seed):
    rt = Runtime(DOMAIN, default_seed=seed)
    s = rt.session(None).state
    home = s["addresses"].ids()[0]
    for status in ("processing", "shipped", "delivered", "cancelled"):
        o = s["orders"].rows(lambda o, st=status: o["status"] == st)[0]
        fails(rt, "update_order", {"order_id": o["order_id"], "address_id": home},
              f"order {o['order_id']} is {status}", "only pending orders")
    fails(rt, "update_order", {"order_id": "ord_9999", "address_id": home},
          "no order with id 'ord_9999'")
    order = _new_order(rt)
    oid, (first, second) = order["order_id"], list(_lines(order))
    fails(rt, "update_order", {"order_id": oid, "address_id": "addr_9999"}, "addr_9999")
    fails(rt, "update_order", {"order_id": oid}, "nothing to change")
    fails(rt, "update_order", {"order_id": oid, "quantity": 1}, "go together")
    stranger = next(v["item_id"] for v in s["variants"].rows()
                    if v["item_id"] not in (first, second))
    fails(rt, "update_order", {"order_id": oid, "item_id": stranger, "quantity": 1},
          f"item {stranger!r} is not in order {oid}")
    fails(rt, "update_order", {"order_id": oid, "item_id": first, "quantity": 1},
          "already has 1")
    stock = stock_of(rt, first)
    if stock + 2 <= 10:
        fails(rt, "update_order", {"order_id": oid, "item_id": first, "quantity": stock + 2},
              f"only {stock} more unit(s)")
    ok(rt, "update_order", {"order_id": oid, "item_id": second, "quantity": 0})
    fails(rt, "update_order", {"order_id": oid, "item_id": first, "quantity": 0},
          "only item", "cancel_order")
    ok(rt, "cancel_order", {"order_id": oid, "reason": "other"})
    fails(rt, "update_order", {"order_id": oid, "item_id": first, "quantity": 1},
          "is cancelled", "only pending orders")


def test_a_gift_card_order_is_charged_or_refunded_the_difference_or_refused():
    covered = refused = 0
    for seed in SEEDS:
        rt = Runtime(DOMAIN, default_seed=seed)
        s = rt.session(None).state
        order = _new_order(rt, "Gift card", n=1)
        oid, item = order["order_id"], order["items"][0]["item_id"]
        gift = method_id(s, "Gift card")
        card = s["payment_methods"].get(gift)["balance"]
        total = s["orders"].get(oid)["total"]
        args = {"order_id": oid, "item_id": item, "quantity": 2}
        if rt.call("update_order", args).ok:
            covered += 1
            extra = s["orders"].get(oid)["total"] - total
            assert extra > 0 and s["payment_methods"].get(gift)["balance"] == card - extra
            ok(rt, "update_order", {**args, "quantity": 1})  # refunded to the card
            assert s["payment_methods"].get(gift)["balance"] == card
            assert s["orders"].get(oid)["total"] == total
        else:
            refused += 1
            fails(rt, "update_order", args, "gift card balance", "does not cover")
    assert covered and refused  # the seeds exercise both
