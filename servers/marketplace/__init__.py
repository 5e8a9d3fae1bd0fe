"""marketplace: a second-hand classifieds app (listings, offers, chats with sellers, reviews).

Sellers are the world's people in their world cities; the user (the world's principal) buys
through offers that sellers accept, sells their own listings, and reviews sellers they bought
from.
Modules: generate (initial state), schemas (output shapes and enums), views (output
shapers and the clock), common (domain, shared helpers and argument types), browse, selling,
offers, messages, reviews.
"""

from __future__ import annotations

import importlib

from servers.marketplace.common import DOMAIN

# Importing a module registers its tools; this order is their order in tools/list.
for _module in ("browse", "selling", "offers", "messages", "reviews"):
    importlib.import_module(f"servers.marketplace.{_module}")

__all__ = ["DOMAIN", "EXAMPLES"]

# Calls that succeed in this order on a fresh session (seed 0): used by the contract tests and
# as documentation of each tool's use.
EXAMPLES: list[tuple[str, dict]] = [
    ("search_listings", {"query": "bike", "max_price": 800}),
    ("search_listings", {"category": "electronics", "city": "Singapore", "sort": "price_low"}),
    ("get_listing", {"listing_id": "lst_0022"}),
    ("get_seller_profile", {"seller_id": "p_022"}),
    ("list_my_listings", {"status": "active"}),
    ("create_listing", {"title": "Bosch cordless drill", "description": "18V, two batteries "
                        "and a charger. Pick-up in Kreuzberg.", "category": "home",
                        "condition": "good", "price": 60}),
    ("update_listing", {"listing_id": "lst_0014", "price": 380}),
    ("list_offers", {"direction": "received", "status": "pending"}),
    ("respond_to_offer", {"offer_id": "off_0016", "action": "accept"}),
    ("make_offer", {"listing_id": "lst_0044", "amount": 900,
                    "message": "Could pick it up on Saturday."}),
    ("send_message", {"listing_id": "lst_0044", "text": "Hi! Does the watch come with its "
                      "papers?"}),
    ("send_message", {"conversation_id": "conv_0020", "text": "Yes, still available."}),
    ("list_conversations", {"unread_only": True}),
    ("list_conversations", {"listing_id": "lst_0014"}),
    ("remove_listing", {"listing_id": "lst_0029"}),
    ("leave_review", {"seller_id": "p_011", "rating": 4, "listing_id": "lst_0015",
                      "comment": "Coat as described, friendly hand-over."}),
    ("list_offers", {"listing_id": "lst_0014"}),
]
