"""shopping: the tools' output shapes (TypedDicts become the MCP output schemas)."""

from __future__ import annotations

from typing import TypedDict


class ProductSummary(TypedDict):
    product_id: str
    name: str
    brand: str
    category: str
    price_min: float
    price_max: float
    currency: str
    rating: float | None
    review_count: int
    in_stock: bool


class ProductList(TypedDict):
    products: list[ProductSummary]
    total: int
    next_cursor: str | None


class Variant(TypedDict):
    item_id: str
    options: dict
    price: float
    currency: str
    stock: int
    available: bool


class ProductDetail(TypedDict):
    product_id: str
    name: str
    brand: str
    category: str
    description: str
    options: dict
    rating: float | None
    review_count: int
    variants: list[Variant]


class Review(TypedDict):
    review_id: str
    product_id: str
    author_name: str
    rating: int
    title: str
    body: str
    created_at: str
    verified_purchase: bool
    helpful_votes: int


class ReviewList(TypedDict):
    product_id: str
    average_rating: float | None
    review_count: int
    reviews: list[Review]


class CartLine(TypedDict):
    item_id: str
    product_id: str
    name: str
    options: dict
    unit_price: float
    quantity: int
    line_total: float
    currency: str
    stock: int


class Cart(TypedDict):
    lines: list[CartLine]
    item_count: int
    subtotal: float
    coupon_code: str | None
    discount: float
    shipping_fee: float
    total: float
    currency: str
    notice: str | None


class Address(TypedDict):
    address_id: str
    label: str
    recipient_name: str
    line1: str
    line2: str | None
    city: str
    postal_code: str
    country: str
    phone: str | None
    is_default: bool


class AddressList(TypedDict):
    addresses: list[Address]


class PaymentMethod(TypedDict):
    payment_method_id: str
    kind: str
    label: str
    last4: str | None
    expires: str | None
    expired: bool
    balance: float | None
    currency: str
    is_default: bool


class PaymentMethodList(TypedDict):
    payment_methods: list[PaymentMethod]


class OrderItem(TypedDict):
    item_id: str
    product_id: str
    name: str
    options: dict
    quantity: int
    unit_price: float
    currency: str
    returned: bool


class ShipmentSummary(TypedDict):
    shipment_id: str
    carrier: str
    tracking_number: str
    status: str
    estimated_delivery: str


class Order(TypedDict):
    order_id: str
    status: str
    placed_at: str
    items: list[OrderItem]
    subtotal: float
    coupon_code: str | None
    discount: float
    shipping_fee: float
    total: float
    currency: str
    shipping_address: Address
    payment_method_id: str
    payment_label: str
    shipment: ShipmentSummary | None
    delivered_at: str | None
    return_window_ends: str | None
    cancelled_at: str | None
    cancel_reason: str | None
    return_ids: list[str]


class OrderSummary(TypedDict):
    order_id: str
    status: str
    placed_at: str
    item_count: int
    item_names: list[str]
    total: float
    currency: str


class OrderList(TypedDict):
    orders: list[OrderSummary]
    total: int
    next_cursor: str | None


class OrderEdit(TypedDict):
    order: Order
    total_change: float
    currency: str
    charged_to: str


class CancelOut(TypedDict):
    order: Order
    refund_amount: float
    currency: str
    refunded_to: str


class ReturnItem(TypedDict):
    item_id: str
    name: str
    quantity: int
    refund: float
    currency: str


class Return(TypedDict):
    return_id: str
    order_id: str
    items: list[ReturnItem]
    reason: str
    status: str
    refund_amount: float
    currency: str
    refund_to: str
    created_at: str
    rma_code: str


class TrackingEvent(TypedDict):
    time: str
    location: str
    description: str


class Tracking(TypedDict):
    shipment_id: str
    order_id: str
    carrier: str
    tracking_number: str
    status: str
    estimated_delivery: str
    delivered_at: str | None
    events: list[TrackingEvent]


class WishlistEntry(TypedDict):
    product_id: str
    name: str
    price_min: float
    currency: str
    in_stock: bool
    added_at: str


class Wishlist(TypedDict):
    items: list[WishlistEntry]
    total: int
