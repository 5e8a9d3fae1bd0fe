"""retail_chain: a brick-and-mortar store chain (store finder, per-store stock, click & collect
reservations, store-to-store transfers, loyalty points and vouchers).

The stores are the world's places of kind 'store' (store id = place id); the user is the
world's principal and a loyalty member whose home store is in their city.

Modules: data (initial state), models (output shapes), common (domain, clock, shared helpers
and argument types), stores, catalog, reservations, loyalty.
"""

from __future__ import annotations

import importlib

from servers.retail_chain.common import DOMAIN

# Importing a module registers its tools; this order is their order in tools/list.
for _module in ("stores", "catalog", "reservations", "loyalty"):
    importlib.import_module(f"servers.retail_chain.{_module}")

__all__ = ["DOMAIN", "EXAMPLES"]

# Calls that succeed in this order on a fresh session (seed 0): used by the contract tests and
# as documentation of each tool's use.
EXAMPLES: list[tuple[str, dict]] = [
    ("find_stores", {"city": "Berlin", "pickup_only": True}),
    ("find_stores", {"format": "books", "open_at": "2026-06-21T12:00"}),
    ("get_store", {"store_id": "pl_0021"}),
    ("search_catalog", {"query": "coffee", "in_stock_only": True}),
    ("check_inventory", {"product_id": "sku_1025", "store_id": "pl_0021"}),
    ("reserve_for_pickup", {"store_id": "pl_0021", "product_id": "sku_1026", "quantity": 2}),
    ("list_reservations", {"status": "confirmed", "store_id": "pl_0021"}),
    ("cancel_reservation", {"reservation_id": "res_0020"}),
    ("request_store_transfer", {"product_id": "sku_1035", "from_store_id": "pl_0010",
                                "to_store_id": "pl_0009", "quantity": 1}),
    ("get_loyalty_account", {}),
    ("redeem_points", {"points": 1000}),
    ("list_vouchers", {"status": "active"}),
]

