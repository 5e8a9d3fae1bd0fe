"""Domain behaviour of the trading server (seed 0 state; see servers/trading)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from servers.core import money
from servers.core.runtime import Runtime
from servers.core.world import make_world
from servers.trading import DOMAIN
from tests.servers import common, money_ops
from tests.servers.common import digest, runtime_fixture
from tests.servers.money_ops import SEEDS

rt = runtime_fixture("trading")


def ok(rt: Runtime, tool: str, **args: object) -> dict:
    """`common.ok` with the tool's arguments as keywords."""
    return common.ok(rt, tool, args)


def _dec(x: float) -> Decimal:
    return Decimal(repr(x))


def position(rt: Runtime, symbol: str) -> dict | None:
    held = ok(rt, "list_positions")["positions"]
    return next((p for p in held if p["symbol"] == symbol), None)


def test_market_buy_moves_exactly_the_cost_and_averages_the_position(rt):
    price = ok(rt, "get_quote", symbol="xom")["price"]  # lower case is accepted
    before = position(rt, "XOM")
    cash = ok(rt, "get_account_summary")["cash"]
    placed = ok(rt, "place_order", symbol="XOM", side="buy", quantity=3)
    assert placed["order"]["status"] == "filled" and placed["order"]["filled_price"] == price
    assert _dec(placed["trade"]["amount"]) == 3 * _dec(price)
    assert _dec(placed["cash"]) == _dec(cash) - 3 * _dec(price)
    after = position(rt, "XOM")
    assert after["quantity"] == before["quantity"] + 3
    cost = _dec(before["cost_basis"]) + 3 * _dec(price)
    assert _dec(after["cost_basis"]) == cost
    assert abs(_dec(after["average_cost"]) - cost / after["quantity"]) <= Decimal("0.005")
    trades = ok(rt, "list_trades", symbol="XOM", limit=1)["trades"]
    assert trades[0]["trade_id"] == placed["trade"]["trade_id"]


def test_selling_a_whole_position_closes_it_and_books_realized_pl(rt):
    pos = position(rt, "GSOF")
    cash = ok(rt, "get_account_summary")["cash"]
    placed = ok(rt, "place_order", symbol="GSOF", side="sell", quantity=pos["quantity"])
    trade = placed["trade"]
    assert trade["realized_pl"] == pos["unrealized_pl"]  # the stored basis: exact
    assert _dec(placed["cash"]) == _dec(cash) + _dec(pos["market_value"])
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
    order = ok(rt, "list_orders", status="open", side="sell")["orders"][0]
    symbol = order["symbol"]
    held = position(rt, symbol)["quantity"]
    state = digest(rt)
    out = rt.call("place_order", {"symbol": symbol, "side": "sell", "quantity": held})
    assert not out.ok and f"at most {held - order['quantity']}" in out.error
    assert digest(rt) == state
    ok(rt, "cancel_order", order_id=order["order_id"])
    ok(rt, "place_order", symbol=symbol, side="sell", quantity=held)


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
    main = common.row_where(rt, "watchlists", name="Main")["watchlist_id"]
    dividend = common.row_where(rt, "watchlists", name="Dividend")["watchlist_id"]
    wl = ok(rt, "add_to_watchlist", symbol="nflx")
    assert wl["watchlist_id"] == main and "NFLX" in [x["symbol"] for x in wl["symbols"]]
    dup = rt.call("add_to_watchlist", {"symbol": "NFLX"})
    assert not dup.ok and "already on watchlist" in dup.error
    wl = ok(rt, "remove_from_watchlist", symbol="NFLX")
    assert "NFLX" not in [x["symbol"] for x in wl["symbols"]]
    gone = rt.call("remove_from_watchlist", {"symbol": "NFLX", "watchlist_id": dividend})
    assert not gone.ok and f"is not on watchlist {dividend}" in gone.error


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


# ------------------------------------------------------------------ exact money


def test_a_jpy_world_quotes_whole_yen_and_refuses_fractional_limits():
    rt = Runtime(DOMAIN, default_seed=10)
    quote = ok(rt, "get_quote", symbol="AAPL")
    assert quote["currency"] == "JPY" and isinstance(quote["price"], int)
    assert quote["price"] > 100 * 150 * 0.5  # a large cap priced in thousands of yen
    common.fails(rt, "place_order", {"symbol": "AAPL", "side": "buy", "quantity": 1,
                                     "order_type": "limit", "limit_price": quote["price"] + 0.5},
                 "limit_price", "more decimals than JPY allows (0)")
    placed = ok(rt, "place_order", symbol="AAPL", side="buy", quantity=2)
    assert placed["trade"]["amount"] == 2 * quote["price"] and placed["currency"] == "JPY"


def test_limit_price_finer_than_cents_is_refused(rt):
    common.fails(rt, "place_order", {"symbol": "KO", "side": "buy", "quantity": 1,
                                     "order_type": "limit", "limit_price": 55.001},
                 "limit_price 55.001 has more decimals than EUR allows (2)")


def test_partial_sales_keep_basis_and_realized_pl_exact():
    rt = Runtime(DOMAIN, default_seed=0)
    pos = next(p for p in ok(rt, "list_positions")["positions"] if p["quantity"] >= 3)
    realized = Decimal(0)
    for _ in range(pos["quantity"]):
        realized += _dec(ok(rt, "place_order", symbol=pos["symbol"], side="sell",
                            quantity=1)["trade"]["realized_pl"])
    # a position sold share by share realizes exactly its unrealized profit, cent for cent
    assert realized == _dec(pos["unrealized_pl"])


def _makers() -> dict:
    def order(rng, s):
        sym = rng.choice(s["positions"].ids() if rng.random() < 0.5 else s["stocks"].ids())
        price = money.to_major(s["stocks"].get(sym)["price"], money.currency_of(s))
        args = {"symbol": sym, "side": rng.choice(["buy", "sell"]),
                "quantity": rng.choice([1, 1, 2, 3, 5])}
        if rng.random() < 0.4:
            drift = money.times(s["stocks"].get(sym)["price"], rng.uniform(0.9, 1.1))
            args |= {"order_type": "limit",
                     "limit_price": money.to_major(drift, money.currency_of(s))}
            if rng.random() < 0.05:
                args["limit_price"] = float(price) + 0.001
        return args
    return {
        "place_order": order,
        "cancel_order": lambda rng, s: {"order_id": rng.choice(s["orders"].ids())},
        "get_account_summary": lambda rng, s: {},
        "deposit_funds": lambda rng, s: {"amount": money_ops.amount(rng, s, 1, 500)},
    }


@pytest.mark.parametrize("seed", SEEDS)
def test_cash_and_positions_reconcile_with_trades_after_1000_random_operations(seed):
    rt = Runtime(DOMAIN, default_seed=seed)
    s = rt.session(None).state
    cash0 = s.var("cash")
    basis0 = {p["symbol"]: p["cost_basis"] for p in s["positions"].rows()}
    qty0 = {p["symbol"]: p["quantity"] for p in s["positions"].rows()}
    seeded = set(s["trades"].ids())
    done, failed = money_ops.run_ops(rt, _makers(), 1000, seed)
    assert len(done) > 200 and failed > 20
    new = [t for t in s["trades"].rows() if t["trade_id"] not in seeded]
    assert new
    flow, basis, qty = 0, dict(basis0), dict(qty0)
    for t in new:
        assert t["amount"] == t["quantity"] * t["price"]
        sign = 1 if t["side"] == "buy" else -1
        flow -= sign * t["amount"]
        # a buy adds its cost; a sale removes the basis it realized against
        removed = t["amount"] if sign > 0 else t["amount"] - t["realized_pl"]
        basis[t["symbol"]] = basis.get(t["symbol"], 0) + sign * removed
        qty[t["symbol"]] = qty.get(t["symbol"], 0) + sign * t["quantity"]
    deposits = s["transfers"].rows()
    assert deposits and all(d["kind"] == "deposit" for d in deposits)
    flow += sum(d["amount"] for d in deposits)
    assert s.var("cash") == cash0 + flow
    held = {p["symbol"]: (p["quantity"], p["cost_basis"]) for p in s["positions"].rows()}
    assert held == {k: (q, basis[k]) for k, q in qty.items() if q}
    assert all(basis[k] == 0 for k, q in qty.items() if not q)
    summary = ok(rt, "get_account_summary")
    cur = make_world(seed).currency
    assert money_ops.minor(summary["cash"], cur) == s.var("cash")
    assert summary["buying_power"] >= 0


# ------------------------------------------------------------------ deposit_funds


@pytest.mark.parametrize("seed", SEEDS)
def test_a_deposit_raises_cash_and_buying_power_and_is_in_the_account_history(seed):
    rt = Runtime(DOMAIN, default_seed=seed)
    s, cur = rt.session(None).state, make_world(seed).currency
    before = ok(rt, "get_account_summary")
    cash0 = s.var("cash")
    amount = money.to_major(money.seed(1234.5, cur), cur)
    out = ok(rt, "deposit_funds", amount=amount)
    minor = money_ops.minor(amount, cur)
    assert s.var("cash") == cash0 + minor
    assert out["transfer"]["kind"] == "deposit" and out["currency"] == cur
    assert money_ops.minor(out["cash"], cur) == cash0 + minor
    after = ok(rt, "get_account_summary")
    assert _dec(after["buying_power"]) - _dec(before["buying_power"]) == _dec(amount)
    assert after["transfers"] == [out["transfer"]] + before["transfers"]
    second = ok(rt, "deposit_funds", amount=amount)
    newest = ok(rt, "get_account_summary")["transfers"]
    assert [t["transfer_id"] for t in newest[:2]] == [second["transfer"]["transfer_id"],
                                                      out["transfer"]["transfer_id"]]
    assert out["transfer"]["created_at"] < second["transfer"]["created_at"]


@pytest.mark.parametrize("seed", SEEDS)
def test_deposits_beyond_the_cap_or_the_currencys_decimals_change_nothing(seed):
    rt = Runtime(DOMAIN, default_seed=seed)
    cur = make_world(seed).currency
    cap = money.to_major(money.seed(250_000, cur), cur)
    common.fails(rt, "deposit_funds", {"amount": float(cap) * 2}, "out of range",
                 money.fmt(money.seed(250_000, cur), cur))
    fine = 0.001 if cur != "JPY" else 0.5
    common.fails(rt, "deposit_funds", {"amount": 10 + fine}, f"more decimals than {cur}")
    common.fails(rt, "deposit_funds", {"amount": 0}, "amount")
    assert ok(rt, "get_account_summary")["transfers"] == []


def test_a_deposit_lets_a_buy_through_that_buying_power_refused(rt):
    power = ok(rt, "get_account_summary")["buying_power"]
    price = ok(rt, "get_quote", symbol="AAPL")["price"]
    shares = int(_dec(power) / _dec(price)) + 1
    before = digest(rt)
    assert not rt.call("place_order", {"symbol": "AAPL", "side": "buy",
                                       "quantity": shares}).ok
    assert digest(rt) == before
    ok(rt, "deposit_funds", amount=float(_dec(price) * 2))
    assert ok(rt, "place_order", symbol="AAPL", side="buy", quantity=shares)["trade"]


def test_world_varies_by_seed():
    common.assert_world_varies("trading", {"orders": "status", "trades": None,
                                           "positions": None, "stocks": None})


def test_a_world_with_few_technology_stocks_still_builds():
    """Seed 928608938's universe lists 3 technology stocks: the 'Tech ideas' watchlist takes
    them all instead of crashing the session open (it asked for 4)."""
    rt = Runtime(DOMAIN, default_seed=928608938)
    common.ok(rt, "get_watchlists", {})  # the session serves
    lists = {w["name"]: w["symbols"] for w in common.state(rt)["watchlists"].rows()}
    stocks = common.state(rt)["stocks"]
    tech = {s["symbol"] for s in stocks.rows() if s["sector"] == "Technology"}
    assert len(tech) == 3 and set(lists["Tech ideas"]) == tech
    assert len(lists["Main"]) == 6
