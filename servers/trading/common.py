"""trading's shared helpers: the market clock, lookups, and the output
shapes of quotes, orders, trades, positions and watchlists."""

from __future__ import annotations

import datetime as dt
from typing import Annotated

from servers.core import clock, money
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State
from servers.trading.generate import (
    MARKET_ZONE,
    SESSION_CLOSE,
    SESSION_OPEN,
    reserved_cash,
)
from servers.trading.schemas import (
    Order,
    Position,
    SymbolMatch,
    Trade,
    Watchlist,
)


def _market_now(s: State) -> dt.datetime:
    """The world's now on the exchanges' clock (New York)."""
    return clock.now(s).astimezone(MARKET_ZONE)


def _is_open(when: dt.datetime) -> bool:
    return when.weekday() < 5 and SESSION_OPEN <= when.time() < SESSION_CLOSE


def _next_close(when: dt.datetime) -> dt.datetime:
    """The next regular close (16:00 New York on a weekday) at or after `when`."""
    day = when.date() if when.time() < SESSION_CLOSE else when.date() + dt.timedelta(days=1)
    while day.weekday() >= 5:
        day += dt.timedelta(days=1)
    return clock.local(day, SESSION_CLOSE, MARKET_ZONE)


def _stock(s: State, symbol: str) -> Row:
    row = s["stocks"].find(symbol.strip().upper())
    if row is None:
        raise ToolError(f"unknown symbol {symbol!r}; use search_symbols to look up a ticker "
                        "by company name")
    return row


def _out(s: State, minor: int | None) -> int | float | None:
    """Minor units -> a JSON number in major units (None stays None)."""
    return None if minor is None else money.amount_out(s, minor)


def _match(s: State, row: Row) -> SymbolMatch:
    return {"symbol": row["symbol"], "name": row["name"], "exchange": row["exchange"],
            "sector": row["sector"], "price": _out(s, row["price"]),
            "currency": money.currency_of(s),
            "change_percent": _pct(row["price"] - row["previous_close"], row["previous_close"])}


def _order(s: State, row: Row) -> Order:
    return {**row, "limit_price": _out(s, row["limit_price"]),
            "filled_price": _out(s, row["filled_price"]), "currency": money.currency_of(s)}


def _trade(s: State, row: Row) -> Trade:
    return {**row, "price": _out(s, row["price"]), "amount": _out(s, row["amount"]),
            "realized_pl": _out(s, row["realized_pl"]), "currency": money.currency_of(s)}


def _pct(delta: float, base: float) -> float:
    return round(100 * delta / base, 2) if base else 0.0


def _reserved_shares(s: State, symbol: str) -> int:
    return sum(o["quantity"] for o in s["orders"].rows()
               if o["status"] == "open" and o["side"] == "sell" and o["symbol"] == symbol)


def _buying_power(s: State) -> int:
    return s.var("cash") - reserved_cash(s)


def _held(s: State, row: Row) -> dict[str, int]:
    """A position's amounts in minor units (exact; the basis is stored, not derived)."""
    stock = s["stocks"].get(row["symbol"])
    qty, price, basis = row["quantity"], stock["price"], row["cost_basis"]
    return {"value": qty * price, "basis": basis, "pl": qty * price - basis,
            "day": qty * (price - stock["previous_close"])}


def _position(s: State, row: Row) -> Position:
    stock, m = s["stocks"].get(row["symbol"]), _held(s, row)
    return {"symbol": row["symbol"], "name": stock["name"], "quantity": row["quantity"],
            "currency": money.currency_of(s),
            # per share, rounded to the minor unit by the one rounding rule (half to even)
            "average_cost": _out(s, money.divide(m["basis"], row["quantity"])),
            "price": _out(s, stock["price"]), "market_value": _out(s, m["value"]),
            "cost_basis": _out(s, m["basis"]), "unrealized_pl": _out(s, m["pl"]),
            "unrealized_pl_percent": _pct(m["pl"], m["basis"]), "day_change": _out(s, m["day"])}


def _watchlist(s: State, row: Row) -> Watchlist:
    return {"watchlist_id": row["watchlist_id"], "name": row["name"],
            "symbols": [_match(s, s["stocks"].get(x)) for x in row["symbols"]]}


def _default_watchlist(s: State, watchlist_id: str | None) -> Row:
    # the 'Main' list's id is sealed with the world, so it is kept in a var
    return s["watchlists"].get(watchlist_id or s.var("default_watchlist"))


Symbol = Annotated[str, Arg("Ticker symbol, e.g. 'AAPL' (from search_symbols)", min_length=1,
                            max_length=10)]
Limit = Annotated[int, Arg("Most recent first, at most this many", minimum=1, maximum=100)]
WatchlistId = Annotated[str | None, Arg(
    "Watchlist id, e.g. 'wl_r28h92' (from get_watchlists; default: the 'Main' list)")]
