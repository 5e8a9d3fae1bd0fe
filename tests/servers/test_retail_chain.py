"""retail_chain domain rules: stock holds, reservation lifecycle, transfers, loyalty points."""

from __future__ import annotations

from decimal import Decimal

import pytest

from servers.core.runtime import Runtime
from servers.core.world import make_world
from servers.retail_chain import DOMAIN
from servers.retail_chain.data import stock_key
from tests.servers import money_ops
from tests.servers.common import (
    assert_world_varies,
    digest,
    row_where,
    rows_where,
    runtime_fixture,
    state,
)
from tests.servers.money_ops import SEEDS

rt = runtime_fixture(DOMAIN)


def _available(rt: Runtime, product_id: str, store_id: str) -> int:
    out = rt.call("check_inventory", {"product_id": product_id, "store_id": store_id})
    assert out.ok, out.error
    return next(r["available"] for r in out.payload["stores"] if r["store_id"] == store_id)


def _home_store(rt: Runtime) -> str:
    """The user's home store: a pickup store in their city at every seed."""
    return state(rt)["loyalty_accounts"].rows()[0]["home_store_id"]


def _stocked(rt: Runtime, store_id: str, low: int, high: int) -> str:
    """A product with between `low` and `high` units available at the store."""
    return next(r["product_id"] for r in rows_where(rt, "inventory", store_id=store_id)
                if low <= r["on_hand"] - r["reserved"] <= high)


def test_reservation_holds_stock_and_cancel_releases_it_once(rt):
    store = _home_store(rt)
    product = _stocked(rt, store, 3, 1000)
    before = _available(rt, product, store)
    res = rt.call("reserve_for_pickup", {"store_id": store, "product_id": product,
                                         "quantity": 3})
    assert res.ok and res.payload["status"] == "confirmed"
    price = rt.call("check_inventory", {"product_id": product}).payload["price"]
    assert res.payload["unit_price"] == price and res.payload["currency"] == "EUR"
    assert Decimal(repr(res.payload["total"])) == 3 * Decimal(repr(price))  # exact cents
    assert _available(rt, product, store) == before - 3
    rid = res.payload["reservation_id"]
    assert rt.call("cancel_reservation", {"reservation_id": rid}).ok
    assert _available(rt, product, store) == before
    unchanged = digest(rt)
    again = rt.call("cancel_reservation", {"reservation_id": rid})
    assert not again.ok and "cancelled" in again.error
    assert digest(rt) == unchanged


def test_cannot_reserve_more_than_available(rt):
    # a product the store has a few of (fewer than the 5 one reservation may take)
    store = _home_store(rt)
    product = _stocked(rt, store, 1, 4)
    available = _available(rt, product, store)
    unchanged = digest(rt)
    out = rt.call("reserve_for_pickup", {"store_id": store, "product_id": product,
                                         "quantity": available + 1})
    assert not out.ok and f"only {available} unit(s)" in out.error
    assert digest(rt) == unchanged


def test_store_without_click_and_collect_refuses_reservations(rt):
    stores = rt.call("find_stores", {}).payload["stores"]
    no_pickup = next(s for s in stores if not s["pickup_available"])
    carried = rt.session(None).state["inventory"].rows(
        lambda r: r["store_id"] == no_pickup["store_id"] and r["on_hand"] > 0)[0]
    out = rt.call("reserve_for_pickup", {"store_id": no_pickup["store_id"],
                                         "product_id": carried["product_id"]})
    assert not out.ok and "click & collect" in out.error


def test_sunday_opening_follows_local_trading_laws(rt):
    sunday = rt.call("find_stores", {"city": "berlin", "open_at": "2026-06-21T12:00"})
    assert sunday.ok and sunday.payload["total"] == 0
    saturday = rt.call("find_stores", {"city": "Berlin", "open_at": "2026-06-20T12:00"})
    assert saturday.payload["total"] == 2
    # the same instant given in UTC, or from New York, is converted to the world's zone
    for other in ("2026-06-20T10:00Z", "2026-06-20T06:00:00-04:00"):
        same = rt.call("find_stores", {"city": "Berlin", "open_at": other})
        assert same.payload["total"] == 2, other
    bad_time = rt.call("find_stores", {"city": "Berlin", "open_at": "Saturday noon"})
    assert not bad_time.ok and "open_at 'Saturday noon'" in bad_time.error
    bad = rt.call("find_stores", {"city": "Atlantis"})
    assert not bad.ok and "Berlin" in bad.error


def _transfer_route(rt: Runtime) -> tuple[str, str, str]:
    """(product, from store, to store): two transfer stores of one country, the first with at
    least 2 units of a product the second has none of."""
    stores = [r for r in rows_where(rt, "stores") if "store_transfers" in r["services"]]
    for src in stores:
        for dst in stores:
            if src["store_id"] == dst["store_id"] or src["country"] != dst["country"]:
                continue
            there = {r["product_id"]: r["on_hand"] - r["reserved"]
                     for r in rows_where(rt, "inventory", store_id=dst["store_id"])}
            for r in rows_where(rt, "inventory", store_id=src["store_id"]):
                if r["on_hand"] - r["reserved"] >= 2 and not there.get(r["product_id"]):
                    return r["product_id"], src["store_id"], dst["store_id"]
    raise AssertionError("no two transfer stores in one country")


def test_transfer_moves_stock_and_cancel_sends_it_back(rt):
    inventory = rt.session(None).state["inventory"]
    product, src, dst = _transfer_route(rt)
    key = stock_key(src, product)
    src_before = inventory.get(key)["on_hand"]
    out = rt.call("request_store_transfer", {"product_id": product, "from_store_id": src,
                                             "to_store_id": dst, "quantity": 2})
    assert out.ok and out.payload["status"] == "in_transit"
    assert inventory.get(key)["on_hand"] == src_before - 2
    assert rt.call("cancel_reservation", {"reservation_id": out.payload["reservation_id"]}).ok
    assert inventory.get(key)["on_hand"] == src_before
    country = row_where(rt, "stores", store_id=src)["country"]
    far = next(r["store_id"] for r in rows_where(rt, "stores")
               if r["country"] != country and "store_transfers" in r["services"])
    abroad = rt.call("request_store_transfer", {"product_id": product, "from_store_id": src,
                                                "to_store_id": far})
    assert not abroad.ok and "one country" in abroad.error


def test_redeeming_points_deducts_exactly_and_issues_a_voucher(rt):
    account = rt.call("get_loyalty_account", {}).payload
    points = account["points"]
    out = rt.call("redeem_points", {"points": 1000})
    assert out.ok and out.payload["points_remaining"] == points - 1000
    option = next(o for o in account["redemption_options"] if o["points"] == 1000)
    assert out.payload["voucher"]["value"] == option["voucher_value"] == 9.0  # 10 USD-like
    assert out.payload["voucher"]["currency"] == option["currency"] == "EUR"
    active = rt.call("list_vouchers", {"status": "active"}).payload["vouchers"]
    assert out.payload["voucher"]["voucher_id"] in [v["voucher_id"] for v in active]
    unchanged = digest(rt)
    too_many = rt.call("redeem_points", {"points": 5000})
    assert not too_many.ok and "not enough points" in too_many.error
    assert digest(rt) == unchanged
    assert rt.call("get_loyalty_account", {}).payload["points"] == points - 1000


# ------------------------------------------------------------------ exact money


def test_a_jpy_world_prices_in_whole_yen():
    r = Runtime(DOMAIN, default_seed=10)
    found = r.call("search_catalog", {"limit": 50}).payload["products"]
    assert all(isinstance(p["price"], int) and p["currency"] == "JPY" for p in found)
    bad = r.call("search_catalog", {"max_price": 1500.5})
    assert not bad.ok and "max_price 1500.5 has more decimals than JPY allows (0)" in bad.error
    options = r.call("get_loyalty_account", {}).payload["redemption_options"]
    assert [o["voucher_value"] for o in options] == [750, 1500, 4500, 11250]


def _makers() -> dict:
    def reserve(rng, s):
        stock = rng.choice(s["inventory"].rows())
        return {"store_id": stock["store_id"], "product_id": stock["product_id"],
                "quantity": rng.randint(1, 3)}
    return {
        "reserve_for_pickup": reserve,
        "cancel_reservation": lambda rng, s: {
            "reservation_id": rng.choice(s["reservations"].ids())},
        "redeem_points": lambda rng, s: {"points": rng.choice([500, 1000, 2500, 5000])},
    }


@pytest.mark.parametrize("seed", SEEDS)
def test_reservations_and_vouchers_reconcile_after_1000_random_operations(seed):
    rt = Runtime(DOMAIN, default_seed=seed)
    s, cur = rt.session(None).state, make_world(seed).currency
    done, failed = money_ops.run_ops(rt, _makers(), 1000, seed)
    assert len(done) > 100 and failed > 20
    usd = {500: 5, 1000: 10, 2500: 30, 5000: 75}  # the reward table, in USD-like units
    scale = {"EUR": 90, "USD": 100, "JPY": 150}[cur]  # minor units per USD-like unit
    for v in s["vouchers"].rows():
        assert v["value"] == usd[v["points_spent"]] * scale
    for tool, args, result in done:
        if tool == "reserve_for_pickup":
            price = s["products"].get(args["product_id"])["price"]
            assert money_ops.minor(result["total"], cur) == args["quantity"] * price
    account = s["loyalty_accounts"].rows()[0]
    assert account["points"] == sum(a["points"] for a in s["points_activity"].rows())


def test_world_varies_by_seed():
    assert_world_varies("retail_chain", {"products": None, "reservations": "status",
                                         "vouchers": "status", "points_activity": None})
