"""Domain behaviour of the trading server (seed 0 state; see servers/trading)."""

from __future__ import annotations

import pytest

from servers.core.runtime import Runtime
from servers.trading import DOMAIN
from tests.servers import common
from tests.servers.common import digest, runtime_fixture

rt = runtime_fixture("trading")


def ok(rt: Runtime, tool: str, **args: object) -> dict:
    """`common.ok` with the tool's arguments as keywords."""
    return common.ok(rt, tool, args)


def position(rt: Runtime, symbol: str) -> dict | None:
    held = ok(rt, "list_positions")["positions"]
    return next((p for p in held if p["symbol"] == symbol), None)


def test_market_buy_moves_exactly_the_cost_and_averages_the_position(rt):
    price = ok(rt, "get_quote", symbol="xom")["price"]  # lower case is accepted
    before = position(rt, "XOM")
    cash = ok(rt, "get_account_summary")["cash"]
    placed = ok(rt, "place_order", symbol="XOM", side="buy", quantity=3)
    assert placed["order"]["status"] == "filled" and placed["order"]["filled_price"] == price
    assert placed["trade"]["amount"] == round(3 * price, 2)
    assert placed["cash"] == round(cash - 3 * price, 2)
    after = position(rt, "XOM")
    assert after["quantity"] == before["quantity"] + 3
    cost = before["average_cost"] * before["quantity"] + 3 * price
    assert after["average_cost"] == pytest.approx(cost / after["quantity"], abs=0.01)
    trades = ok(rt, "list_trades", symbol="XOM", limit=1)["trades"]
    assert trades[0]["trade_id"] == placed["trade"]["trade_id"]


def test_selling_a_whole_position_closes_it_and_books_realized_pl(rt):
    pos = position(rt, "GSOF")
    cash = ok(rt, "get_account_summary")["cash"]
    placed = ok(rt, "place_order", symbol="GSOF", side="sell", quantity=pos["quantity"])
    trade = placed["trade"]
    assert trade["realized_pl"] == pytest.approx(pos["unrealized_pl"], abs=0.011)
    assert placed["cash"] == round(cash + pos["market_value"], 2)
    assert position(rt, "GSOF") is None
    out = rt.call("place_order", {"symbol": "GSOF", "side": "sell", "quantity": 1})
    assert not out.ok and "short selling" in out.error


def test_resting_limit_buy_holds_buying_power_until_cancelled(rt):
    summary = ok(rt, "get_account_summary")
    price = ok(rt, "get_quote", symbol="AAPL")["price"]
    limit = round(price * 0.9, 2)
    order = ok(rt, "place_order", symbol="AAPL", side="buy", quantity=10, order_type="limit",
               limit_price=limit)["order"]
    assert order["status"] == "open" and order["filled_price"] is None
    held = ok(rt, "get_account_summary")
    assert held["cash"] == summary["cash"]
    assert held["buying_power"] == round(summary["buying_power"] - 10 * limit, 2)
    cancelled = ok(rt, "cancel_order", order_id=order["order_id"])
    assert cancelled["status"] == "cancelled"
    assert ok(rt, "get_account_summary")["buying_power"] == summary["buying_power"]
    state = digest(rt)
    again = rt.call("cancel_order", {"order_id": order["order_id"]})
    assert not again.ok and "already cancelled" in again.error
    assert digest(rt) == state


def test_marketable_limit_fills_at_the_quote_not_the_limit(rt):
    price = ok(rt, "get_quote", symbol="KO")["price"]
    placed = ok(rt, "place_order", symbol="KO", side="buy", quantity=4, order_type="limit",
                limit_price=round(price * 1.05, 2))
    assert placed["order"]["status"] == "filled"
    assert placed["trade"]["price"] == price


def test_open_sell_orders_reserve_shares(rt):
    open_sells = ok(rt, "list_orders", status="open", side="sell")["orders"]
    order = next(o for o in open_sells if o["symbol"] == "HTEX")
    held = position(rt, "HTEX")["quantity"]
    state = digest(rt)
    out = rt.call("place_order", {"symbol": "HTEX", "side": "sell", "quantity": held})
    assert not out.ok and f"at most {held - order['quantity']}" in out.error
    assert digest(rt) == state
    ok(rt, "cancel_order", order_id=order["order_id"])
    ok(rt, "place_order", symbol="HTEX", side="sell", quantity=held)


@pytest.mark.parametrize(("args", "needle"), [
    ({"symbol": "ZZZZ", "side": "buy", "quantity": 1}, "unknown symbol 'ZZZZ'"),
    ({"symbol": "AAPL", "side": "buy", "quantity": 1, "order_type": "limit"},
     "need limit_price"),
    ({"symbol": "AAPL", "side": "buy", "quantity": 1, "limit_price": 100.0},
     "only for limit orders"),
    ({"symbol": "AAPL", "side": "buy", "quantity": 1, "order_type": "limit",
      "limit_price": 1.0}, "more than 50% away"),
    ({"symbol": "MSFT", "side": "buy", "quantity": 5000}, "insufficient buying power"),
    ({"symbol": "AAPL", "side": "buy", "quantity": 0}, "must be >= 1"),
    ({"symbol": "AAPL", "side": "buy", "quantity": 1.5}, "must be an integer"),
])
def test_invalid_orders_fail_with_a_reason_and_change_nothing(rt, args, needle):
    state = digest(rt)
    out = rt.call("place_order", args)
    assert not out.ok and needle in out.error, out.error
    assert digest(rt) == state


def test_watchlist_add_and_remove(rt):
    wl = ok(rt, "add_to_watchlist", symbol="nflx")
    assert wl["watchlist_id"] == "wl_001" and "NFLX" in [x["symbol"] for x in wl["symbols"]]
    dup = rt.call("add_to_watchlist", {"symbol": "NFLX"})
    assert not dup.ok and "already on watchlist" in dup.error
    wl = ok(rt, "remove_from_watchlist", symbol="NFLX")
    assert "NFLX" not in [x["symbol"] for x in wl["symbols"]]
    gone = rt.call("remove_from_watchlist", {"symbol": "NFLX", "watchlist_id": "wl_003"})
    assert not gone.ok and "is not on watchlist wl_003" in gone.error


def test_search_filters_by_sector_and_price(rt):
    found = ok(rt, "search_symbols", sector="Technology", max_price=200)["symbols"]
    assert found and all(s["sector"] == "Technology" and s["price"] <= 200 for s in found)
    assert ok(rt, "search_symbols", query="coca")["symbols"][0]["symbol"] == "KO"
    assert ok(rt, "search_symbols")["total"] >= 20


@pytest.mark.parametrize("seed, status, as_of, next_close", [
    (0, "closed", "2026-06-15T12:00+02:00", "2026-06-15T22:00+02:00"),  # Berlin: 06:00 in NY
    (5, "open", "2026-06-15T12:00-04:00", "2026-06-15T16:00-04:00"),  # New York
    (2, "open", "2026-06-15T12:00-07:00", "2026-06-15T13:00-07:00"),  # San Francisco
])
def test_market_status_is_the_worlds_now_on_new_yorks_clock(seed, status, as_of, next_close):
    out = Runtime(DOMAIN, default_seed=seed).call("get_market_status", {}).payload
    assert (out["status"], out["as_of"], out["next_close"]) == (status, as_of, next_close)
