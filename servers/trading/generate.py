"""trading: the listed stocks and the account's history, generated from the shared world."""

from __future__ import annotations

import datetime as dt
import random
import re
from zoneinfo import ZoneInfo

from servers.core import clock, money
from servers.core.state import Row, State, Table
from servers.core.world import World

# symbol, company, exchange, sector, typical price
LARGE_CAPS = [
    ("AAPL", "Apple Inc.", "NASDAQ", "Technology", 212.0),
    ("MSFT", "Microsoft Corporation", "NASDAQ", "Technology", 455.0),
    ("NVDA", "NVIDIA Corporation", "NASDAQ", "Technology", 138.0),
    ("GOOGL", "Alphabet Inc. Class A", "NASDAQ", "Communication Services", 178.0),
    ("META", "Meta Platforms Inc.", "NASDAQ", "Communication Services", 520.0),
    ("NFLX", "Netflix Inc.", "NASDAQ", "Communication Services", 680.0),
    ("AMZN", "Amazon.com Inc.", "NASDAQ", "Consumer Discretionary", 192.0),
    ("TSLA", "Tesla Inc.", "NASDAQ", "Consumer Discretionary", 248.0),
    ("JPM", "JPMorgan Chase & Co.", "NYSE", "Financials", 212.0),
    ("V", "Visa Inc.", "NYSE", "Financials", 281.0),
    ("JNJ", "Johnson & Johnson", "NYSE", "Health Care", 156.0),
    ("XOM", "Exxon Mobil Corporation", "NYSE", "Energy", 112.0),
    ("KO", "The Coca-Cola Company", "NYSE", "Consumer Staples", 64.0),
    ("WMT", "Walmart Inc.", "NYSE", "Consumer Staples", 71.0),
    ("DIS", "The Walt Disney Company", "NYSE", "Communication Services", 104.0),
    ("BA", "The Boeing Company", "NYSE", "Industrials", 178.0),
]
ALWAYS_LISTED = {"KO", "JNJ", "XOM", "JPM", "WMT", "V", "NFLX", "TSLA"}  # the Dividend list's
EXTRA_WATCHLISTS = [("Energy", "Energy"), ("Healthcare", "Health Care"),
                    ("Banks", "Financials"), ("Consumer brands", "Consumer Staples")]
SECTOR_OF_INDUSTRY = {
    "data": "Technology", "software": "Technology", "transport": "Industrials",
    "manufacturing": "Industrials", "food": "Consumer Staples", "healthcare": "Health Care",
    "research": "Health Care", "energy": "Energy", "media": "Communication Services",
    "finance": "Financials", "design": "Consumer Discretionary",
    "automotive": "Consumer Discretionary", "retail": "Consumer Discretionary"}
TODAY = "2026-06-15"  # REFERENCE_DATE, a Monday
MARKET_ZONE = ZoneInfo("America/New_York")  # the exchanges' clock
SESSION_OPEN, SESSION_CLOSE = dt.time(9, 30), dt.time(16, 0)  # regular hours, New York time
PRICE_COLLAR = 0.5  # limit prices further than 50% from the last price are rejected

def _ticker(company_name: str, taken: set[str]) -> str:
    """A ticker from a 'NorthAnalytics Inc' style name; first free of a few spellings."""
    a, b = re.findall(r"[A-Z][a-z]+", company_name.split()[0])[:2]
    for cand in (a[0] + b[:3], a[:2] + b[:2], a[0] + a[-1] + b[:2], a[:3] + b[0]):
        if cand.upper() not in taken:
            return cand.upper()
    raise ValueError(f"no free ticker for {company_name}")


def _market_time(days: int, rng: random.Random, tz: ZoneInfo) -> str:
    """A stamp during regular trading hours (New York) `days` trading days before today, in
    the world's zone."""
    day = dt.date.fromisoformat(TODAY)
    while days > 0:
        day -= dt.timedelta(days=1)
        if day.weekday() < 5:
            days -= 1
    minute = rng.randint(9 * 60 + 30, 15 * 60 + 59)
    return clock.stamp(clock.local(day, dt.time(minute // 60, minute % 60), MARKET_ZONE), tz)


def _quote_row(rng: random.Random, cur: str, symbol: str, name: str, exchange: str,
               sector: str, base: float) -> Row:
    """A quote in minor units of `cur`: a USD-like base scaled, then drifted exactly."""
    prev = money.seed(round(base * rng.uniform(0.9, 1.1), 2), cur)
    price = money.times(prev, 1 + rng.uniform(-0.035, 0.035))
    open_ = money.times(prev, 1 + rng.uniform(-0.01, 0.01))
    high = money.times(max(price, open_), 1 + rng.uniform(0, 0.01))
    low = money.times(min(price, open_), 1 - rng.uniform(0, 0.01))
    return {"symbol": symbol, "name": name, "exchange": exchange, "sector": sector,
            "price": price, "previous_close": prev, "open": open_, "day_high": high,
            "day_low": low, "volume": rng.randint(200_000, 60_000_000)}


def _listed_large_caps(rng: random.Random) -> list[tuple]:
    """The large caps this world lists: the technology names (a seed's universe may hold few
    other technology stocks) and the well-known ones always; each other one most of the time."""
    return [c for c in LARGE_CAPS
            if c[0] in ALWAYS_LISTED or c[3] == "Technology" or rng.random() < 0.6]


def _past_events(rng: random.Random, stocks: Table, symbols: list[str], held: list[str]
                 ) -> list[tuple[int, Row]]:
    """Past activity as (days ago, order fields): buys building the held positions, some
    partial profit-taking, closed round trips, cancelled and still open limit orders; how many
    of each varies by seed."""
    events: list[tuple[int, Row]] = []
    for sym in held:
        price = stocks.get(sym)["price"]
        for _ in range(rng.randint(2, 3)):  # with the sales, always over a page of trades
            events.append((rng.randint(20, 250), {
                "symbol": sym, "side": "buy", "quantity": rng.choice([2, 5, 5, 10, 10, 15, 20]),
                "fill": money.times(price, rng.uniform(0.72, 1.12)), "status": "filled"}))
    trimmed = rng.randint(2, 5)
    for sym in held[:trimmed]:  # partial profit-taking
        events.append((rng.randint(2, 15), {"symbol": sym, "side": "sell", "quantity": 1,
                                            "fill": money.times(stocks.get(sym)["price"],
                                                                rng.uniform(0.95, 1.05)),
                                            "status": "filled"}))
    others = [x for x in symbols if x not in held]
    for sym in rng.sample(others, rng.randint(3, 6)):  # closed round trips
        price, qty = stocks.get(sym)["price"], rng.choice([5, 10, 20])
        days = rng.randint(60, 200)
        events.append((days, {"symbol": sym, "side": "buy", "quantity": qty, "status": "filled",
                              "fill": money.times(price, rng.uniform(0.8, 1.0))}))
        events.append((days - rng.randint(10, 50), {
            "symbol": sym, "side": "sell", "quantity": qty, "status": "filled",
            "fill": money.times(price, rng.uniform(0.9, 1.15))}))
    for sym in rng.sample(symbols, rng.randint(2, 7)):
        price = stocks.get(sym)["price"]
        events.append((rng.randint(5, 120), {
            "symbol": sym, "side": "buy", "quantity": rng.choice([5, 10, 25]),
            "limit": money.times(price, rng.uniform(0.8, 0.95)), "status": "cancelled"}))
    # open sells rest on untrimmed positions, so every share they reserve is held
    open_sells = held[trimmed:trimmed + rng.randint(1, 3)]
    open_buys = rng.sample(symbols, rng.randint(1, 4))
    for sym, buy in [(x, True) for x in open_buys] + [(x, False) for x in open_sells]:
        price = stocks.get(sym)["price"]
        events.append((rng.randint(1, 6), {
            "symbol": sym, "side": "buy" if buy else "sell",
            "quantity": rng.choice([2, 3, 5] if buy else [1, 2]),
            "limit": money.times(price, rng.uniform(0.85, 0.97) if buy
                                 else rng.uniform(1.04, 1.2)), "status": "open"}))
    return events


def build(s: State, world: World, rng: random.Random) -> None:
    s.set_var("account_id", f"U{rng.randint(1000000, 9999999)}")
    s.set_var("owner_name", world.user.name)
    cur = world.currency
    money.remember_currency(s, cur)
    stocks = s.table("stocks", key="symbol", kind="symbol",
                     hint="use search_symbols to look up a ticker by company name")
    rows = [_quote_row(rng, cur, *c) for c in _listed_large_caps(rng)]
    taken = {c[0] for c in LARGE_CAPS}
    for company in world.companies:
        ticker = _ticker(company.name, taken)
        taken.add(ticker)
        rows.append(_quote_row(rng, cur, ticker, company.name, rng.choice(["NYSE", "NASDAQ"]),
                               SECTOR_OF_INDUSTRY[company.industry],
                               round(rng.uniform(8, 320), 2)))
    stocks.load(rows)
    symbols = sorted(r["symbol"] for r in rows)
    held = rng.sample(symbols, rng.randint(10, 16))
    events = _past_events(rng, stocks, symbols, held)
    stamped = sorted(((_market_time(d, rng, world.tz), e) for d, e in events),
                     key=lambda x: x[0])

    orders = s.table("orders", key="order_id", kind="order",
                     hint="use list_orders to see order ids")
    s.table("trades", key="trade_id", kind="trade",
            hint="use list_trades to see trade ids")
    s.table("positions", key="symbol", kind="position",
            hint="use list_positions to see the symbols you hold")  # filled by apply_fill
    n_trades = 0
    for i, (when, e) in enumerate(stamped):
        order_id = f"ord_{i + 1:04d}"
        limit = e.get("limit")
        orders.insert({
            "order_id": order_id, "symbol": e["symbol"], "side": e["side"],
            "order_type": "market" if limit is None else "limit", "quantity": e["quantity"],
            "limit_price": limit, "time_in_force": "day" if e["status"] != "open" else "gtc",
            "status": e["status"], "filled_price": e.get("fill"), "created_at": when,
            "updated_at": when})
        if e["status"] == "filled":
            n_trades += 1
            apply_fill(s, order_id, e["symbol"], e["side"], e["quantity"], e["fill"], when,
                        f"trd_{n_trades:04d}")
    s.set_var("__seq_ord", len(stamped))
    s.set_var("__seq_trd", n_trades)
    # Cash is set after the fills (so they do not move it), above what open buys hold.
    s.set_var("cash", money.seed(round(rng.uniform(8000, 30000), 2), cur) + reserved_cash(s))
    s.commit()  # generation is not undoable

    watchlists = s.table("watchlists", key="watchlist_id", kind="watchlist",
                         hint="use get_watchlists to see watchlist ids")
    others = [x for x in symbols if x not in held]
    tech = [x for x in symbols if stocks.get(x)["sector"] == "Technology"]
    # at most as many as there are: a seed's listed universe can hold fewer than 4 technology
    # stocks (seed 928608938 has 3 and crashed here); the same draws wherever enough exist
    lists = [("Main", sorted(rng.sample(others, min(6, len(others))))),
             ("Tech ideas", sorted(rng.sample(tech, min(4, len(tech))))),
             ("Dividend", sorted(rng.sample(["KO", "JNJ", "XOM", "JPM", "WMT", "V"], 3)))]
    for name, sector in EXTRA_WATCHLISTS:  # lists some accounts keep and others don't
        pool = [x for x in symbols if stocks.get(x)["sector"] == sector]
        if pool and rng.random() < 0.5:
            lists.append((name, sorted(rng.sample(pool, min(rng.randint(2, 5), len(pool))))))
    watchlists.load([{"watchlist_id": f"wl_{i + 1:03d}", "name": name, "symbols": syms}
                     for i, (name, syms) in enumerate(lists)])
    s.set_var("default_watchlist", "wl_001")  # 'Main', sealed with the world
    # cash moved into the account in the session (deposit_funds); none at generation
    s.table("transfers", key="transfer_id", kind="cash transfer",
            hint="get_account_summary lists the account's transfers")


def apply_fill(s: State, order_id: str, symbol: str, side: str, qty: int, price: int,
               when: str, trade_id: str) -> Row:
    """Book a fill: a trade row, the position and (after generation) the cash. A position
    keeps its total cost basis in minor units; a sale removes the sold shares' share of it
    (rounded half to even), so basis and realized profit always add up exactly."""
    positions = s["positions"]
    pos = positions.find(symbol)
    amount = qty * price
    realized = None
    if side == "buy":
        held = pos["quantity"] if pos else 0
        row = {"symbol": symbol, "quantity": held + qty,
               "cost_basis": (pos["cost_basis"] if pos else 0) + amount}
        if pos:
            positions.update(symbol, **row)
        else:
            positions.insert(row)
    else:
        sold_basis = money.divide(pos["cost_basis"] * qty, pos["quantity"])
        realized = amount - sold_basis
        if pos["quantity"] == qty:
            positions.delete(symbol)
        else:
            positions.update(symbol, quantity=pos["quantity"] - qty,
                             cost_basis=pos["cost_basis"] - sold_basis)
    if s.var("cash") is not None:
        s.set_var("cash", s.var("cash") + (amount if side == "sell" else -amount))
    return s["trades"].insert({
        "trade_id": trade_id, "order_id": order_id, "symbol": symbol, "side": side,
        "quantity": qty, "price": price, "amount": amount, "realized_pl": realized,
        "executed_at": when})


def reserved_cash(s: State) -> int:
    """Cash held back for open buy limit orders (not available as buying power)."""
    return sum(o["quantity"] * o["limit_price"] for o in s["orders"].rows()
               if o["status"] == "open" and o["side"] == "buy")
