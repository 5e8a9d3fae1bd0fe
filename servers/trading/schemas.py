"""trading: the literal types and the output shapes (TypedDicts) of the tools."""

from __future__ import annotations

from typing import Literal, TypedDict

Side = Literal["buy", "sell"]
OrderType = Literal["market", "limit"]
OrderStatus = Literal["open", "filled", "cancelled"]
TimeInForce = Literal["day", "gtc"]
Sector = Literal["Technology", "Communication Services", "Consumer Discretionary",
                 "Consumer Staples", "Energy", "Financials", "Health Care", "Industrials"]



class Quote(TypedDict):
    symbol: str
    name: str
    exchange: str
    sector: str
    currency: str
    price: float
    previous_close: float
    change: float
    change_percent: float
    open: float
    day_high: float
    day_low: float
    volume: int
    as_of: str


class SymbolMatch(TypedDict):
    symbol: str
    name: str
    exchange: str
    sector: str
    price: float
    currency: str
    change_percent: float


class SymbolList(TypedDict):
    symbols: list[SymbolMatch]
    total: int
    next_cursor: str | None


class MarketStatus(TypedDict):
    status: str
    as_of: str
    time_zone: str
    session_open: str
    session_close: str
    next_close: str
    exchanges: list[str]


class Transfer(TypedDict):
    transfer_id: str
    kind: str
    amount: float
    currency: str
    created_at: str


class Account(TypedDict):
    account_id: str
    owner_name: str
    currency: str
    cash: float
    buying_power: float
    positions_value: float
    equity: float
    unrealized_pl: float
    day_change: float
    open_orders: int
    transfers: list[Transfer]


class Deposit(TypedDict):
    transfer: Transfer
    cash: float
    buying_power: float
    currency: str


class Position(TypedDict):
    symbol: str
    name: str
    quantity: int
    currency: str
    average_cost: float
    price: float
    market_value: float
    cost_basis: float
    unrealized_pl: float
    unrealized_pl_percent: float
    day_change: float


class PositionList(TypedDict):
    positions: list[Position]
    total_market_value: float
    currency: str


class Order(TypedDict):
    order_id: str
    symbol: str
    side: str
    order_type: str
    quantity: int
    limit_price: float | None
    currency: str
    time_in_force: str
    status: str
    filled_price: float | None
    created_at: str
    updated_at: str


class OrderList(TypedDict):
    orders: list[Order]
    total: int
    next_cursor: str | None


class Trade(TypedDict):
    trade_id: str
    order_id: str
    symbol: str
    side: str
    quantity: int
    price: float
    amount: float
    currency: str
    realized_pl: float | None
    executed_at: str


class TradeList(TypedDict):
    trades: list[Trade]
    total: int
    next_cursor: str | None


class PlacedOrder(TypedDict):
    order: Order
    trade: Trade | None
    cash: float
    buying_power: float
    currency: str


class Watchlist(TypedDict):
    watchlist_id: str
    name: str
    symbols: list[SymbolMatch]


class WatchlistList(TypedDict):
    watchlists: list[Watchlist]
