"""trading: a brokerage account (quotes, positions, cash, orders, trades, watchlists).

Listed companies are the world's companies plus well-known large caps; the account belongs to
the world's principal. Quotes are fixed for the session, so market orders fill at the quoted
price and the same calls always give the same result; the market status is the world's now
on New York's clock. Prices, cash and cost bases are integer minor units of the world's
currency (servers.core.money); every object with amounts carries a `currency` field.
"""

from __future__ import annotations

from typing import Annotated

from servers.core import clock, money, paging
from servers.core.domain import Domain
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State
from servers.trading.common import (
    Symbol,
    WatchlistId,
    _buying_power,
    _default_watchlist,
    _held,
    _is_open,
    _market_now,
    _match,
    _next_close,
    _order,
    _out,
    _pct,
    _position,
    _reserved_shares,
    _stock,
    _trade,
    _watchlist,
)
from servers.trading.generate import (
    MARKET_ZONE,
    PRICE_COLLAR,
    SESSION_CLOSE,
    SESSION_OPEN,
    apply_fill,
    build,
)
from servers.trading.schemas import (
    Account,
    Deposit,
    MarketStatus,
    Order,
    OrderList,
    OrderStatus,
    OrderType,
    PlacedOrder,
    PositionList,
    Quote,
    Sector,
    Side,
    SymbolList,
    TimeInForce,
    TradeList,
    Transfer,
    Watchlist,
    WatchlistList,
)

MAX_DEPOSIT_USD = 250_000  # the most one deposit may be, scaled to the world's currency

DOMAIN = Domain("trading", "Brokerage account: quotes, positions, orders, trades, watchlists.",
                build)
# fields stamped from the session clock: left out of clock-free state comparisons
DOMAIN.clock_fields = {"orders": ("created_at", "updated_at"), "trades": ("executed_at",),
                       "transfers": ("created_at",)}




# ----------------------------------------------------------------------------- tools
@DOMAIN.tool(read_only=True)
def get_market_status(s: State) -> MarketStatus:
    """Tell whether the stock market is open now, with the current time and session hours."""
    market = _market_now(s)
    return {"status": "open" if _is_open(market) else "closed", "as_of": clock.now_stamp(s),
            "time_zone": MARKET_ZONE.key, "session_open": SESSION_OPEN.strftime("%H:%M"),
            "session_close": SESSION_CLOSE.strftime("%H:%M"),
            "next_close": clock.stamp(_next_close(market), clock.zone(s)),
            "exchanges": ["NYSE", "NASDAQ"]}


@DOMAIN.tool(read_only=True)
def search_symbols(
        s: State,
        query: Annotated[str | None, Arg("Part of a ticker or company name (case-insensitive)",
                                         min_length=1)] = None,
        sector: Annotated[Sector | None, Arg("Only stocks in this sector")] = None,
        min_price: Annotated[float | None, Arg(
            "Only stocks priced at least this (the account's currency)", minimum=0)] = None,
        max_price: Annotated[float | None, Arg(
            "Only stocks priced at most this (the account's currency)", minimum=0)] = None,
        limit: paging.Limit = 20, cursor: paging.Cursor = None) -> SymbolList:
    """Find stocks by ticker or company name, optionally filtered by sector and price range."""
    q = (query or "").strip().lower()
    lo = None if min_price is None else money.amount_in(s, min_price, "min_price")
    hi = None if max_price is None else money.amount_in(s, max_price, "max_price")
    found = [r for r in s["stocks"].rows()
             if (q in r["symbol"].lower() or q in r["name"].lower())
             and (sector is None or r["sector"] == sector)
             and (lo is None or r["price"] >= lo) and (hi is None or r["price"] <= hi)]
    found.sort(key=lambda r: (r["symbol"].lower() != q, r["symbol"]))  # exact ticker first
    pg = paging.page(found, limit, cursor, key="symbol")
    return {"symbols": [_match(s, r) for r in pg.rows], "total": len(found),
            "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=True)
def get_quote(s: State, symbol: Symbol) -> Quote:
    """Get a stock's latest price, day change, open, high, low and volume."""
    row = _stock(s, symbol)
    change = row["price"] - row["previous_close"]
    prices = {k: _out(s, row[k]) for k in ("price", "previous_close", "open", "day_high",
                                            "day_low")}
    return {**row, **prices, "currency": money.currency_of(s), "change": _out(s, change),
            "change_percent": _pct(change, row["previous_close"]), "as_of": clock.now_stamp(s)}


@DOMAIN.tool(read_only=True)
def get_account_summary(s: State) -> Account:
    """Show the account's cash, buying power (cash not held for open buy orders), equity and
    its cash transfers (deposits), most recent first."""
    held = [_held(s, r) for r in s["positions"].rows()]
    value, cash = sum(m["value"] for m in held), s.var("cash")
    transfers = s["transfers"].rows()[::-1]  # ids are opaque: insertion order is time order
    return {"account_id": s.var("account_id"), "owner_name": s.var("owner_name"),
            "currency": money.currency_of(s), "cash": _out(s, cash),
            "buying_power": _out(s, _buying_power(s)), "positions_value": _out(s, value),
            "equity": _out(s, cash + value),
            "unrealized_pl": _out(s, sum(m["pl"] for m in held)),
            "day_change": _out(s, sum(m["day"] for m in held)),
            "open_orders": len(s["orders"].rows(lambda o: o["status"] == "open")),
            "transfers": [_transfer(s, r) for r in transfers]}


def _transfer(s: State, row: dict) -> Transfer:
    return {**row, "amount": _out(s, row["amount"]), "currency": money.currency_of(s)}


@DOMAIN.tool(read_only=False)
def deposit_funds(s: State, amount: Annotated[float, Arg(
        "Cash to move in from the user's linked bank account, in the account's currency "
        "(see get_account_summary) with at most its decimals", minimum=0.01)]) -> Deposit:
    """Deposit cash into the brokerage account from the linked bank account; the cash and
    buying power rise at once and the deposit shows in get_account_summary's transfers."""
    minor, cur = money.amount_in(s, amount), money.currency_of(s)
    cap = money.limit(s, MAX_DEPOSIT_USD)
    if not 0 < minor <= cap:
        raise ToolError(f"amount {amount} is out of range; deposit more than 0 and at most "
                        f"{money.fmt(cap, cur)} at a time")
    row = s["transfers"].insert({"transfer_id": s.next_id("trf"), "kind": "deposit",
                                 "amount": minor, "created_at": clock.tick(s)})
    s.set_var("cash", s.var("cash") + minor)
    return {"transfer": _transfer(s, row), "cash": _out(s, s.var("cash")),
            "buying_power": _out(s, _buying_power(s)), "currency": cur}


@DOMAIN.tool(read_only=True)
def list_positions(s: State) -> PositionList:
    """List the stocks the account holds with quantity, average cost, value and profit/loss."""
    rows = sorted(s["positions"].rows(), key=lambda r: -_held(s, r)["value"])
    return {"positions": [_position(s, r) for r in rows],
            "total_market_value": _out(s, sum(_held(s, r)["value"] for r in rows)),
            "currency": money.currency_of(s)}


@DOMAIN.tool(read_only=False)
def place_order(
        s: State, symbol: Symbol,
        side: Annotated[Side, Arg("buy or sell")],
        quantity: Annotated[int, Arg("Number of whole shares", minimum=1, maximum=100000)],
        order_type: Annotated[OrderType, Arg(
            "market: fill now at the quoted price; limit: fill only at limit_price or better"
        )] = "market",
        limit_price: Annotated[float | None, Arg(
            "Limit price per share in the account's currency, with at most its decimals "
            "(required for limit orders, not allowed for market orders)", minimum=0.01)] = None,
        time_in_force: Annotated[TimeInForce, Arg(
            "How long an unfilled limit order stays open: day or gtc (good till cancelled)"
        )] = "day") -> PlacedOrder:
    """Place a buy or sell order. Market orders fill at once at the quoted price; a limit
    order fills at once if the quote is at or better than its limit, else it stays open."""
    stock, cur = _stock(s, symbol), money.currency_of(s)
    sym, price = stock["symbol"], stock["price"]
    limit = None
    if order_type == "limit":
        if limit_price is None:
            raise ToolError("limit orders need limit_price; use get_quote to see the current "
                            "price, or place a market order")
        limit = money.amount_in(s, limit_price, "limit_price")
        if abs(limit - price) > PRICE_COLLAR * price:
            raise ToolError(f"limit price {money.fmt(limit, cur)} is more than 50% away from "
                            f"{sym}'s last price {money.fmt(price, cur)}; check the price with "
                            "get_quote")
    elif limit_price is not None:
        raise ToolError("limit_price is only for limit orders; drop it or set order_type "
                        "to 'limit'")
    fills = (order_type == "market" or (side == "buy" and limit >= price)
             or (side == "sell" and limit <= price))
    if side == "buy":
        unit = price if fills else limit
        cost, power = quantity * unit, _buying_power(s)
        if cost > power:
            raise ToolError(f"insufficient buying power: {quantity} {sym} needs "
                            f"{money.fmt(cost, cur)} but buying power is "
                            f"{money.fmt(power, cur)}; buy at most {max(power, 0) // unit} "
                            "shares")
    else:
        pos = s["positions"].find(sym)
        owned = pos["quantity"] if pos else 0
        free = owned - _reserved_shares(s, sym)
        if quantity > free:
            held = f"you hold {owned} {sym}" + (
                f" ({owned - free} reserved by open sell orders)" if owned != free else "")
            raise ToolError(f"cannot sell {quantity} {sym}: {held}; at most {free} can be "
                            "sold (short selling is not allowed; see list_positions)")
    when = clock.tick(s)
    order = s["orders"].insert({
        "order_id": s.next_id("ord"), "symbol": sym, "side": side, "order_type": order_type,
        "quantity": quantity, "limit_price": limit,
        "time_in_force": time_in_force, "status": "filled" if fills else "open",
        "filled_price": price if fills else None, "created_at": when, "updated_at": when})
    trade = None
    if fills:
        trade = apply_fill(s, order["order_id"], sym, side, quantity, price, when,
                            s.next_id("trd"))
    return {"order": _order(s, order), "trade": None if trade is None else _trade(s, trade),
            "cash": _out(s, s.var("cash")), "buying_power": _out(s, _buying_power(s)),
            "currency": cur}


@DOMAIN.tool(read_only=False)
def cancel_order(s: State, order_id: Annotated[str, Arg(
        "Id of an open order, e.g. 'ord_pn54qk' (from list_orders)")]) -> Order:
    """Cancel an open (unfilled) limit order, releasing the cash or shares it held."""
    order = s["orders"].get(order_id)
    if order["status"] != "open":
        raise ToolError(f"order {order_id} is already {order['status']}; only open orders can "
                        "be cancelled (list_orders with status 'open' shows them)")
    return _order(s, s["orders"].update(order_id, status="cancelled", updated_at=clock.tick(s)))


@DOMAIN.tool(read_only=True)
def list_orders(
        s: State,
        status: Annotated[OrderStatus | None, Arg("Only orders with this status")] = None,
        symbol: Annotated[str | None, Arg("Only orders for this ticker symbol")] = None,
        side: Annotated[Side | None, Arg("Only buy or only sell orders")] = None,
        limit: paging.Limit = 20, cursor: paging.Cursor = None) -> OrderList:
    """List the account's orders, most recent first."""
    sym = _stock(s, symbol)["symbol"] if symbol is not None else None
    rows = [o for o in s["orders"].rows()
            if (status is None or o["status"] == status)
            and (sym is None or o["symbol"] == sym) and (side is None or o["side"] == side)]
    # newest first; ties keep the newer insertion first (ids are opaque, not serial)
    rows = sorted(rows[::-1], key=lambda o: o["created_at"], reverse=True)
    pg = paging.page(rows, limit, cursor, key="order_id")
    return {"orders": [_order(s, o) for o in pg.rows], "total": len(rows),
            "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=True)
def list_trades(
        s: State,
        symbol: Annotated[str | None, Arg("Only trades in this ticker symbol")] = None,
        side: Annotated[Side | None, Arg("Only buys or only sells")] = None,
        limit: paging.Limit = 20, cursor: paging.Cursor = None) -> TradeList:
    """List executed trades (fills), most recent first, with realized profit/loss on sells."""
    sym = _stock(s, symbol)["symbol"] if symbol is not None else None
    rows = [t for t in s["trades"].rows()
            if (sym is None or t["symbol"] == sym) and (side is None or t["side"] == side)]
    rows = sorted(rows[::-1], key=lambda t: t["executed_at"], reverse=True)  # as list_orders
    pg = paging.page(rows, limit, cursor, key="trade_id")
    return {"trades": [_trade(s, t) for t in pg.rows], "total": len(rows),
            "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=True)
def get_watchlists(s: State, watchlist_id: Annotated[str | None, Arg(
        "Only this watchlist, e.g. 'wl_ks5mrt' (default: all watchlists)")] = None
                   ) -> WatchlistList:
    """Show the user's watchlists with the current price of every symbol on them."""
    if watchlist_id is not None:
        return {"watchlists": [_watchlist(s, s["watchlists"].get(watchlist_id))]}
    return {"watchlists": [_watchlist(s, r) for r in s["watchlists"].rows()]}


@DOMAIN.tool(read_only=False)
def add_to_watchlist(s: State, symbol: Symbol, watchlist_id: WatchlistId = None) -> Watchlist:
    """Add a stock to a watchlist (the 'Main' list unless another is given)."""
    wl = _default_watchlist(s, watchlist_id)
    sym = _stock(s, symbol)["symbol"]
    if sym in wl["symbols"]:
        raise ToolError(f"{sym} is already on watchlist {wl['watchlist_id']} "
                        f"({wl['name']!r})")
    if len(wl["symbols"]) >= 50:
        raise ToolError(f"watchlist {wl['watchlist_id']} is full (50 symbols); remove one "
                        "first")
    row = s["watchlists"].update(wl["watchlist_id"], symbols=[*wl["symbols"], sym])
    return _watchlist(s, row)


@DOMAIN.tool(read_only=False)
def remove_from_watchlist(s: State, symbol: Symbol,
                          watchlist_id: WatchlistId = None) -> Watchlist:
    """Remove a stock from a watchlist (the 'Main' list unless another is given)."""
    wl = _default_watchlist(s, watchlist_id)
    sym = symbol.strip().upper()
    if sym not in wl["symbols"]:
        raise ToolError(f"{symbol!r} is not on watchlist {wl['watchlist_id']} "
                        f"({wl['name']!r}); it holds {', '.join(wl['symbols']) or 'nothing'}")
    row = s["watchlists"].update(wl["watchlist_id"],
                                 symbols=[x for x in wl["symbols"] if x != sym])
    return _watchlist(s, row)


# Calls that succeed in this order on a fresh session (seed 0): used by the contract tests and
# as documentation of each tool's use.
EXAMPLES: list[tuple[str, dict]] = [
    ("get_market_status", {}),
    ("search_symbols", {"query": "apple"}),
    ("search_symbols", {"sector": "Technology", "max_price": 200}),
    ("get_quote", {"symbol": "AAPL"}),
    ("get_account_summary", {}),
    ("list_positions", {}),
    ("list_orders", {"status": "open"}),
    ("deposit_funds", {"amount": 2500}),
    ("place_order", {"symbol": "AAPL", "side": "buy", "quantity": 5}),
    ("place_order", {"symbol": "KO", "side": "buy", "quantity": 10, "order_type": "limit",
                     "limit_price": 55.0, "time_in_force": "gtc"}),
    ("place_order", {"symbol": "XOM", "side": "sell", "quantity": 2}),
    ("cancel_order", {"order_id": "ord_0060"}),
    ("list_orders", {"symbol": "XOM", "side": "sell", "limit": 5}),
    ("list_trades", {"symbol": "XOM"}),
    ("get_watchlists", {}),
    ("get_watchlists", {"watchlist_id": "wl_002"}),
    ("add_to_watchlist", {"symbol": "TSLA", "watchlist_id": "wl_002"}),
    ("remove_from_watchlist", {"symbol": "HCAP"}),
]
