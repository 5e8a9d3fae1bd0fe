"""food_delivery: output shapes of the tools (TypedDicts become MCP output schemas)."""

from __future__ import annotations

from typing import TypedDict

from servers.core.hours import WeeklyHours


class RestaurantSummary(TypedDict):
    restaurant_id: str
    place_id: str
    name: str
    kind: str
    cuisine: str
    city: str
    address: str
    rating: float
    review_count: int
    price_level: str
    delivery_fee: float
    min_order: float
    currency: str
    delivery_min: int
    open_now: bool
    hours: str
    opening_hours: WeeklyHours  # local to the city; the same as on maps for the place_id
    accepts_cash: bool


class RestaurantList(TypedDict):
    restaurants: list[RestaurantSummary]
    total: int
    next_cursor: str | None


class Choice(TypedDict):
    name: str
    price: float
    currency: str


class OptionGroup(TypedDict):
    name: str
    required: bool
    multi: bool
    choices: list[Choice]


class MenuItem(TypedDict):
    item_id: str
    name: str
    category: str
    description: str
    price: float
    currency: str
    vegetarian: bool
    available: bool
    option_groups: list[OptionGroup]


class Menu(TypedDict):
    restaurant: RestaurantSummary
    categories: list[str]
    items: list[MenuItem]


class CartLine(TypedDict):
    line_id: str
    item_id: str
    name: str
    options: list[str]
    unit_price: float
    quantity: int
    line_total: float
    currency: str


class Cart(TypedDict):
    restaurant_id: str | None
    restaurant_name: str | None
    lines: list[CartLine]
    item_count: int
    subtotal: float
    promo_code: str | None
    discount: float
    delivery_fee: float
    service_fee: float
    total: float
    currency: str
    min_order: float | None
    notice: str | None


class Address(TypedDict):
    address_id: str
    label: str
    street: str
    city: str
    postal_code: str
    instructions: str
    is_default: bool


class AddressList(TypedDict):
    addresses: list[Address]


class PaymentMethod(TypedDict):
    payment_method_id: str
    kind: str
    label: str
    last4: str
    expires: str | None
    expired: bool
    is_default: bool


class PaymentMethodList(TypedDict):
    payment_methods: list[PaymentMethod]


class OrderLine(TypedDict):
    item_id: str
    name: str
    options: list[str]
    unit_price: float
    quantity: int
    line_total: float
    currency: str


class StatusEvent(TypedDict):
    status: str
    at: str


class Order(TypedDict):
    order_id: str
    restaurant_id: str
    restaurant_name: str
    city: str
    status: str
    placed_at: str
    lines: list[OrderLine]
    subtotal: float
    promo_code: str | None
    discount: float
    delivery_fee: float
    service_fee: float
    tip: float
    total: float
    currency: str
    address_id: str
    delivery_address: str
    payment_method_id: str
    instructions: str
    rating: int | None
    review: str | None
    cancel_reason: str | None
    refund_amount: float


class OrderSummary(TypedDict):
    order_id: str
    restaurant_id: str
    restaurant_name: str
    status: str
    placed_at: str
    item_count: int
    total: float
    currency: str
    rating: int | None


class OrderList(TypedDict):
    orders: list[OrderSummary]
    total: int
    next_cursor: str | None


class Tracking(TypedDict):
    order_id: str
    status: str
    restaurant_name: str
    history: list[StatusEvent]
    estimated_delivery_at: str | None
    courier_name: str | None
    delivery_address: str
    can_cancel: bool
