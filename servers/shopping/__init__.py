"""shopping: an online store (catalog with variants, reviews, cart and coupons, checkout, orders,
shipment tracking, returns, wishlist).

The user is the world's principal (addresses in their city); reviewers are the world's people.
Tools live in catalog.py, cart.py and orders.py; importing them registers them on DOMAIN.
"""

from __future__ import annotations

from servers.shopping import cart, catalog, orders  # noqa: F401 - registers the tools
from servers.shopping.common import DOMAIN

# Calls that succeed in this order on a fresh session (seed 0): used by the contract tests and
# as documentation of each tool's use.
EXAMPLES: list[tuple[str, dict]] = [
    ("search_products", {"query": "boot", "category": "shoes", "in_stock_only": True,
                         "sort": "price_asc"}),
    ("get_product", {"product_id": "prd_0032"}),
    ("get_product_reviews", {"product_id": "prd_0019", "sort": "newest", "limit": 5}),
    ("view_cart", {}),
    ("add_to_cart", {"item_id": "itm_0051", "quantity": 2}),
    ("update_cart_item", {"item_id": "itm_0051", "quantity": 1}),
    ("remove_from_cart", {"item_id": "itm_0063"}),
    ("apply_coupon", {"code": "summer15"}),
    ("list_addresses", {}),
    ("add_address", {"label": "Office", "recipient_name": "Oscar Ito", "line1": "12 Market St",
                     "city": "Berlin", "postal_code": "10117", "country": "Germany"}),
    ("list_payment_methods", {}),
    ("checkout", {"address_id": "addr_0004", "payment_method_id": "pm_0001"}),
    ("list_orders", {"status": "pending", "limit": 5}),
    ("get_order", {"order_id": "ord_0040"}),
    ("update_order", {"order_id": "ord_0040", "item_id": "itm_0051", "quantity": 2,
                      "address_id": "addr_0001"}),
    ("cancel_order", {"order_id": "ord_0040", "reason": "ordered by mistake"}),
    ("add_to_cart", {"item_id": "itm_0016"}),
    ("clear_cart", {}),
    ("track_shipment", {"order_id": "ord_0032"}),
    ("request_return", {"order_id": "ord_0031", "item_ids": ["itm_0036"],
                        "reason": "size or fit"}),
    ("write_review", {"product_id": "prd_0019", "rating": 4, "title": "Great grip",
                      "body": "Comfortable on wet trails; runs half a size small."}),
    ("add_to_wishlist", {"product_id": "prd_0001"}),
    ("view_wishlist", {}),
    ("remove_from_wishlist", {"product_id": "prd_0019"}),
]

__all__ = ["DOMAIN", "EXAMPLES"]
