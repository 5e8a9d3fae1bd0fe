"""food_delivery: order food from the world's restaurants and cafes (same names, cities and
place ids as maps): search, menus with options, a one-restaurant cart, promo codes, checkout
to saved addresses, order tracking, cancellation, ratings and reorders.

Tools live in restaurants.py, cart.py and orders.py; importing them registers them on DOMAIN.
"""

from __future__ import annotations

from servers.food_delivery import cart, orders, restaurants  # noqa: F401 - registers the tools
from servers.food_delivery.common import DOMAIN

# Calls that succeed in this order on a fresh session (seed 0): used by the contract tests and
# as documentation of each tool's use.
EXAMPLES: list[tuple[str, dict]] = [
    ("search_restaurants", {"city": "Berlin", "cuisine": "italian", "open_now": True}),
    ("get_menu", {"restaurant_id": "rst_009", "category": "mains"}),
    ("add_to_cart", {"item_id": "itm_0077", "quantity": 2, "options": ["large", "extra cheese"]}),
    ("add_to_cart", {"item_id": "itm_0076"}),
    ("update_cart_item", {"line_id": "ln_002", "quantity": 2}),
    ("remove_from_cart", {"line_id": "ln_002"}),
    ("apply_promo_code", {"code": "pasta5"}),
    ("view_cart", {}),
    ("list_saved_addresses", {}),
    ("add_address", {"label": "Gym", "street": "12 Market St", "city": "Berlin",
                     "postal_code": "10117", "instructions": "Front desk"}),
    ("list_payment_methods", {}),
    ("checkout", {"address_id": "addr_0001", "payment_method_id": "pm_0001", "tip": 3,
                  "instructions": "no cutlery please"}),
    ("list_orders", {"status": "delivered", "limit": 5}),
    ("get_order", {"order_id": "ord_0038"}),
    ("track_order", {"order_id": "ord_0034"}),
    ("cancel_order", {"order_id": "ord_0038", "reason": "changed my mind"}),
    ("rate_order", {"order_id": "ord_0033", "rating": 4, "comment": "Arrived hot, thanks."}),
    ("reorder", {"order_id": "ord_0033"}),
]

__all__ = ["DOMAIN", "EXAMPLES"]
