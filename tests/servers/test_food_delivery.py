"""food_delivery: cart, promo, checkout and order rules (seed 0 state)."""

from __future__ import annotations

import pytest

from servers.core import ids
from servers.core.runtime import Runtime
from servers.core.world import make_world
from servers.food_delivery import DOMAIN
from servers.food_delivery.common import clock
from servers.food_delivery.data import is_open
from tests.servers import money_ops
from tests.servers.common import assert_world_varies, digest, row_where, rows_where, runtime_fixture
from tests.servers.money_ops import SEEDS

rt = runtime_fixture(DOMAIN)


def _addr(rt: Runtime, label: str) -> str:
    """The id of the saved address with that label ('Home', 'Work', 'Parents')."""
    return row_where(rt, "addresses", label=label)["address_id"]


def _pm(rt: Runtime, label: str) -> str:
    """The id of the payment method with that label ('Visa', 'Mastercard', 'PayPal',
    'Cash on delivery')."""
    return row_where(rt, "payment_methods", label=label)["payment_method_id"]


def _order(rt: Runtime, status: str, k: int = -1) -> str:
    """The id of the k-th (by default the latest) order with that status."""
    found = sorted(rows_where(rt, "orders", status=status), key=lambda o: o["placed_at"])
    return found[k]["order_id"]


def _first_item(rt: Runtime, restaurant_id: str) -> dict:
    items = rt.call("get_menu", {"restaurant_id": restaurant_id}).payload["items"]
    return next(i for i in items if i["available"] and not i["option_groups"])


def _home(rt: Runtime) -> str:
    return next(a["city"] for a in rt.call("list_saved_addresses", {}).payload["addresses"]
                if a["label"] == "Home")


def _pizza(rt: Runtime) -> dict:
    """An available pizza (sizes and extras) at an Italian place in the user's city, open now
    (looked up: ids move when the world changes)."""
    found = rt.call("search_restaurants", {"city": _home(rt), "cuisine": "italian",
                                           "open_now": True}).payload["restaurants"]
    for r in found:
        items = rt.call("get_menu", {"restaurant_id": r["restaurant_id"]}).payload["items"]
        pizza = next((i for i in items if i["available"] and i["name"] == "Margherita Pizza"),
                     None)
        if pizza is not None:
            return {**pizza, "restaurant": r}
    raise AssertionError("no open Italian place with a pizza in the user's city")


def _cafe(rt: Runtime, **want: object) -> dict:
    """A cafe in the user's city, open now, with the wanted fields."""
    found = rt.call("search_restaurants", {"city": _home(rt), "cuisine": "cafe",
                                           "open_now": True}).payload["restaurants"]
    return next(r for r in found if all(r[k] == v for k, v in want.items()))


def test_restaurants_are_the_worlds_restaurants_and_cafes(rt):
    found = rt.call("search_restaurants", {"limit": 50}).payload
    places = {ids.opaque(0, p.id): p for p in make_world(0).places  # sealed world ids
              if p.kind in ("restaurant", "cafe")}
    assert found["total"] == len(places)
    for r in found["restaurants"]:
        p = places[r["place_id"]]
        assert (r["name"], r["city"], r["kind"]) == (p.name, p.city, p.kind)


def test_one_restaurant_per_cart(rt):
    pizza = _pizza(rt)
    assert rt.call("add_to_cart", {"item_id": pizza["item_id"]}).ok
    before = digest(rt)
    cafe = _cafe(rt)["restaurant_id"]
    other = _first_item(rt, cafe)["item_id"]
    out = rt.call("add_to_cart", {"item_id": other})
    assert not out.ok and "replace_cart" in out.error and pizza["restaurant"]["name"] in out.error
    assert digest(rt) == before
    cart = rt.call("add_to_cart", {"item_id": other, "replace_cart": True}).payload
    assert cart["restaurant_id"] == cafe and [ln["item_id"] for ln in cart["lines"]] == [
        other]


def test_options_are_validated_and_priced(rt):
    pizza = _pizza(rt)["item_id"]
    bad = rt.call("add_to_cart", {"item_id": pizza, "options": ["pineapple"]})
    assert not bad.ok and "pineapple" in bad.error and "extra cheese" in bad.error
    two = rt.call("add_to_cart", {"item_id": pizza, "options": ["regular", "large"]})
    assert not two.ok and "only one size" in two.error
    cart = rt.call("add_to_cart", {"item_id": pizza, "options": ["Mushrooms"]}).payload
    line = cart["lines"][0]
    assert line["options"] == ["regular", "mushrooms"] and "size: regular" in cart["notice"]
    item = rt.session(None).state["menu_items"].get(pizza)
    extra = next(c["price"] for g in item["option_groups"] for c in g["choices"]
                 if c["name"] == "mushrooms")
    assert money_ops.minor(line["unit_price"], "EUR") == item["price"] + extra
    assert extra == 90  # 1.00 USD-like, in EUR cents
    again = rt.call("add_to_cart", {"item_id": pizza, "options": ["mushrooms"]}).payload
    assert len(again["lines"]) == 1 and again["lines"][0]["quantity"] == 2  # merged


def test_promo_rules_and_drop_when_cart_shrinks(rt):
    assert not rt.call("apply_promo_code", {"code": "SAVE15"}).ok  # empty cart
    pizza = _pizza(rt)["item_id"]
    rt.call("add_to_cart", {"item_id": pizza, "quantity": 2, "options": ["regular"]})
    used = rt.call("apply_promo_code", {"code": "welcome10"})
    assert not used.ok and "already used" in used.error
    expired = rt.call("apply_promo_code", {"code": "SPRING5"})
    assert not expired.ok and "expired" in expired.error
    cafe = rt.call("apply_promo_code", {"code": "COFFEE2"})
    assert not cafe.ok and "cafe restaurants" in cafe.error
    assert not rt.call("apply_promo_code", {"code": "NOPE"}).ok
    cart = rt.call("apply_promo_code", {"code": "SAVE15"}).payload  # subtotal below 27 EUR
    assert cart is None
    ok = rt.call("apply_promo_code", {"code": "PASTA5"}).payload
    assert ok["discount"] == 4.5 and ok["currency"] == "EUR"  # 5 USD-like
    parts = [ok["subtotal"], -ok["discount"], ok["delivery_fee"], ok["service_fee"]]
    assert money_ops.minor(ok["total"], "EUR") == sum(money_ops.minor(x, "EUR") for x in parts)
    line = ok["lines"][0]["line_id"]
    shrunk = rt.call("update_cart_item", {"line_id": line, "quantity": 1}).payload
    assert shrunk["promo_code"] is None and "PASTA5" in shrunk["notice"]


def test_checkout_rules(rt):
    home, visa = _addr(rt, "Home"), _pm(rt, "Visa")
    empty = rt.call("checkout", {"address_id": home, "payment_method_id": visa})
    assert not empty.ok and "empty" in empty.error
    cafe = _cafe(rt, accepts_cash=False)["restaurant_id"]
    croissant = next(i for i in rt.call("get_menu", {"restaurant_id": cafe}).payload[
        "items"] if i["name"] == "Croissant")
    rt.call("add_to_cart", {"item_id": croissant["item_id"]})
    before = digest(rt)
    for args, needle in [
            ({"address_id": _addr(rt, "Parents"), "payment_method_id": visa}, "delivers only"),
            ({"address_id": home, "payment_method_id": _pm(rt, "Mastercard")}, "expired"),
            ({"address_id": home, "payment_method_id": _pm(rt, "Cash on delivery")}, "cash"),
            ({"address_id": home, "payment_method_id": visa}, "minimum order")]:
        out = rt.call("checkout", args)
        assert not out.ok and needle in out.error, (args, out.error)
        assert digest(rt) == before


def test_checkout_at_a_closed_restaurant_fails(rt):
    # London is on UTC+1: at the world's noon in Berlin it is 11:00 there
    london = rt.call("search_restaurants", {"city": "London", "limit": 50}).payload
    shut = next(r for r in london["restaurants"] if not r["open_now"]
                and r["opening_hours"]["mon"])  # closed now, opens later today
    closed = rt.call("get_menu", {"restaurant_id": shut["restaurant_id"]}).payload
    assert closed["restaurant"]["open_now"] is False
    item = next(i for i in closed["items"] if i["available"] and i["price"] >= 10)
    rt.call("add_to_cart", {"item_id": item["item_id"], "quantity": 2})
    addr = rt.call("add_address", {"label": "Hotel", "street": "1 King St", "city": "london",
                                   "postal_code": "EC1A 1BB"}).payload
    assert addr["city"] == "London"
    out = rt.call("checkout", {"address_id": addr["address_id"],
                               "payment_method_id": _pm(rt, "Visa")})
    assert not out.ok and "closed right now" in out.error
    assert shut["opening_hours"]["mon"][0] in out.error  # today's hours


def test_checkout_places_order_consumes_single_use_promo_and_cancel_restores_it(rt):
    pizza = _pizza(rt)["item_id"]
    rt.call("add_to_cart", {"item_id": pizza, "quantity": 3, "options": ["large"]})
    cart = rt.call("apply_promo_code", {"code": "SUMMER26"}).payload
    order = rt.call("checkout", {"address_id": _addr(rt, "Work"),
                                 "payment_method_id": _pm(rt, "PayPal"),
                                 "tip": 2.5}).payload
    assert order["status"] == "placed"
    assert money_ops.minor(order["total"], "EUR") == money_ops.minor(cart["total"], "EUR") + 250
    assert order["instructions"] == "Leave at reception"  # the address's courier note
    assert rt.call("view_cart", {}).payload["lines"] == []
    rt.call("add_to_cart", {"item_id": pizza, "quantity": 3, "options": ["large"]})
    reuse = rt.call("apply_promo_code", {"code": "SUMMER26"})
    assert not reuse.ok and "single-use" in reuse.error
    cancelled = rt.call("cancel_order", {"order_id": order["order_id"],
                                         "reason": "wrong address"}).payload
    assert cancelled["refund_amount"] == order["total"]
    assert rt.call("apply_promo_code", {"code": "SUMMER26"}).ok


def test_cancel_only_placed_orders_and_twice_fails(rt):
    busy = rt.call("cancel_order", {"order_id": _order(rt, "preparing"),
                                    "reason": "took too long"})
    assert not busy.ok and "preparing" in busy.error
    placed = _order(rt, "placed")
    done = rt.call("cancel_order", {"order_id": placed, "reason": "changed my mind"})
    assert done.ok and done.payload["refund_amount"] == done.payload["total"]
    track = rt.call("track_order", {"order_id": placed}).payload
    assert track["history"][-1]["status"] == "cancelled" and track["can_cancel"] is False
    before = digest(rt)
    again = rt.call("cancel_order", {"order_id": placed, "reason": "changed my mind"})
    assert not again.ok and "already cancelled" in again.error
    assert digest(rt) == before


def test_rating_rules(rt):
    assert "only delivered" in rt.call("rate_order", {"order_id": _order(rt, "on_the_way"),
                                                      "rating": 5}).error
    unrated = rt.call("list_orders", {"status": "delivered", "limit": 50}).payload["orders"]
    stale = next(o for o in unrated if o["rating"] is None and o["placed_at"] < "2026-05-10")
    old = rt.call("rate_order", {"order_id": stale["order_id"], "rating": 5})
    assert not old.ok and "30 days" in old.error
    target = next(o for o in unrated if o["rating"] is None and o["placed_at"] >= "2026-06")
    assert rt.call("rate_order", {"order_id": target["order_id"], "rating": 3}).ok
    twice = rt.call("rate_order", {"order_id": target["order_id"], "rating": 4})
    assert not twice.ok and "already rated" in twice.error


def test_reorder_fills_cart_with_past_lines(rt):
    active = rt.call("reorder", {"order_id": _order(rt, "preparing")})
    assert not active.ok and "still preparing" in active.error
    latest = _order(rt, "delivered")
    past = rt.call("get_order", {"order_id": latest}).payload
    cart = rt.call("reorder", {"order_id": latest}).payload
    assert cart["restaurant_id"] == past["restaurant_id"]
    assert [(ln["item_id"], ln["options"], ln["quantity"]) for ln in cart["lines"]] == [
        (ln["item_id"], ln["options"], ln["quantity"]) for ln in past["lines"]]


# ------------------------------------------------------------------ exact money


def test_a_jpy_world_prices_menus_and_tips_in_whole_yen():
    rt = Runtime(DOMAIN, default_seed=10)
    first = rt.session(None).state["restaurants"].rows()[0]["restaurant_id"]
    menu = rt.call("get_menu", {"restaurant_id": first}).payload
    assert all(isinstance(i["price"], int) and i["currency"] == "JPY" for i in menu["items"])
    assert isinstance(menu["restaurant"]["delivery_fee"], int)
    item = next(i for i in menu["items"] if i["available"] and not any(
        g["required"] for g in i["option_groups"]))
    assert rt.call("add_to_cart", {"item_id": item["item_id"]}).ok
    bad = rt.call("checkout", {"address_id": _addr(rt, "Home"),
                               "payment_method_id": _pm(rt, "Visa"), "tip": 100.5})
    assert not bad.ok and "tip 100.5 has more decimals than JPY allows (0)" in bad.error


def _makers() -> dict:
    def ids_of(s, table: str, key: str, field: str, *values: str) -> list[str]:
        return [r[key] for r in s[table].rows() if r[field] in values]

    def add(rng, s):
        home = next(a["city"] for a in s["addresses"].rows() if a["label"] == "Home")
        near = [r["restaurant_id"] for r in s["restaurants"].rows()
                if r["city"] == home and is_open(r, clock(s))][:3]  # few: carts fill up
        rid = rng.choice(near)
        item = rng.choice(s["menu_items"].rows(lambda i: i["restaurant_id"] == rid))
        return {"item_id": item["item_id"], "quantity": rng.randint(1, 3),
                "replace_cart": rng.random() < 0.2}

    return {
        "add_to_cart": add,
        "apply_promo_code": lambda rng, s: {"code": rng.choice(s["promos"].ids())},
        "checkout": lambda rng, s: {
            "address_id": ids_of(s, "addresses", "address_id", "label", "Home")[0],
            "payment_method_id": rng.choice(ids_of(s, "payment_methods", "payment_method_id",
                                                   "label", "Visa", "PayPal",
                                                   "Cash on delivery")),
            "tip": money_ops.amount(rng, s, 0.5, 6)},
        "cancel_order": lambda rng, s: {"order_id": rng.choice(s["orders"].ids()),
                                        "reason": "other"},
    }


@pytest.mark.parametrize("seed", SEEDS)
def test_orders_reconcile_after_1000_random_operations(seed):
    rt = Runtime(DOMAIN, default_seed=seed)
    s, cur = rt.session(None).state, make_world(seed).currency
    done, failed = money_ops.run_ops(rt, _makers(), 1000, seed)
    assert len(done) > 100 and failed > 20  # closed restaurants and other cities fail often
    placed = [r for tool, _, r in done if tool == "checkout"]
    assert placed, "no checkout succeeded"
    for o in s["orders"].rows():
        assert o["subtotal"] == sum(ln["line_total"] for ln in o["lines"])
        assert all(ln["line_total"] == ln["unit_price"] * ln["quantity"] for ln in o["lines"])
        assert o["total"] == (o["subtotal"] - o["discount"] + o["delivery_fee"]
                              + o["service_fee"] + o["tip"])
        assert o["refund_amount"] == (o["total"] if o["status"] == "cancelled" else 0)
    for tool, args, result in done:
        if tool == "checkout":
            assert s["orders"].get(result["order_id"])["tip"] == money_ops.minor(args["tip"], cur)


def test_world_varies_by_seed():
    # restaurants are the world's (shared, fixed); menus and the order history vary per seed
    assert_world_varies("food_delivery", {"orders": "status", "menu_items": "available"})
