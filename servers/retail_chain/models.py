"""retail_chain: the tools' output shapes (TypedDicts become the MCP output schemas)."""

from __future__ import annotations

from typing import TypedDict


class Hours(TypedDict):
    day: str
    opens: str | None
    closes: str | None


class StoreSummary(TypedDict):
    store_id: str
    name: str
    format: str
    city: str
    address: str
    pickup_available: bool
    hours_today: str
    open_now: bool
    open_at_requested_time: bool | None


class StoreList(TypedDict):
    stores: list[StoreSummary]
    total: int
    next_cursor: str | None


class StoreDetail(TypedDict):
    store_id: str
    name: str
    format: str
    city: str
    country: str
    address: str
    phone: str
    lat: float
    lon: float
    rating: float
    pickup_available: bool
    services: list[str]
    hours: list[Hours]
    hours_today: str
    open_now: bool


class Product(TypedDict):
    product_id: str
    name: str
    brand: str
    department: str
    price: float
    currency: str
    description: str
    stores_in_stock: int


class ProductList(TypedDict):
    products: list[Product]
    total: int
    next_cursor: str | None


class StockAtStore(TypedDict):
    store_id: str
    store_name: str
    city: str
    available: int
    status: str
    aisle: str | None
    distance_km: float | None


class InventoryOut(TypedDict):
    product_id: str
    product_name: str
    price: float
    currency: str
    stores: list[StockAtStore]
    total_available: int


class Reservation(TypedDict):
    reservation_id: str
    store_id: str
    store_name: str
    product_id: str
    product_name: str
    quantity: int
    unit_price: float
    total: float
    currency: str
    status: str
    created_at: str
    hold_until: str
    pickup_code: str
    source_store_id: str | None


class ReservationList(TypedDict):
    reservations: list[Reservation]
    total: int


class Activity(TypedDict):
    activity_id: str
    kind: str
    points: int
    date: str
    description: str


class RewardOption(TypedDict):
    points: int
    voucher_value: float
    currency: str


class LoyaltyAccount(TypedDict):
    member_id: str
    name: str
    tier: str
    points: int
    points_earned_12m: int
    points_multiplier: float
    next_tier: str | None
    points_to_next_tier: int | None
    home_store_id: str
    member_since: str
    redemption_options: list[RewardOption]
    recent_activity: list[Activity]


class Voucher(TypedDict):
    voucher_id: str
    code: str
    value: float
    currency: str
    points_spent: int
    status: str
    issued_at: str
    expires_at: str


class VoucherList(TypedDict):
    vouchers: list[Voucher]
    total: int


class RedeemOut(TypedDict):
    voucher: Voucher
    points_remaining: int
