"""banking: personal online banking (accounts, transactions, transfers, payees, cards, disputes).

The user is the world's principal. Payees include the world's people (friends to pay back)
and billers; card purchases are at the world's restaurants, cafes, stores and hotels.
Credit accounts show what is owed as a negative balance.
Modules: data (initial state), models (output shapes and enums), common (domain, clock, shared
helpers and argument types), accounts, transactions, transfers, payees, schedules, cards,
disputes.
"""

from __future__ import annotations

import importlib

from servers.banking.common import DOMAIN

# Importing a module registers its tools; this order is their order in tools/list.
for _module in ("accounts", "transactions", "transfers", "payees", "schedules", "cards",
                "disputes"):
    importlib.import_module(f"servers.banking.{_module}")

__all__ = ["DOMAIN", "EXAMPLES"]

# Calls that succeed in this order on a fresh session (seed 0): used by the contract tests and
# as documentation of each tool's use.
EXAMPLES: list[tuple[str, dict]] = [
    ("list_accounts", {"type": "checking"}),
    ("get_account", {"account_id": "acc_001"}),
    ("list_transactions", {"account_id": "acc_004", "start_date": "2026-05-01",
                           "end_date": "2026-06-15", "category": "dining", "min_amount": 5,
                           "max_amount": 500}),
    ("list_transactions", {"type": "card_purchase", "direction": "debit", "limit": 10}),
    ("get_transaction", {"transaction_id": "txn_00157"}),
    ("search_transactions", {"query": "streamflix", "account_id": "acc_004", "limit": 5}),
    ("transfer_between_accounts", {"from_account_id": "acc_003", "to_account_id": "acc_001",
                                   "amount": 250, "memo": "top up checking"}),
    ("transfer_between_accounts", {"from_account_id": "acc_001", "to_account_id": "acc_004",
                                   "amount": 300.5}),
    ("list_payees", {"query": "a", "kind": "person"}),
    ("add_payee", {"name": "Jordan Blake", "routing_number": "021000021",
                   "account_number": "000123456789", "kind": "person", "category": "transfer",
                   "email": "jordan.blake@example.com", "nickname": "Jordan"}),
    ("pay_payee", {"payee_id": "pye_002", "from_account_id": "acc_001", "amount": 84.2,
                   "memo": "June electricity"}),
    ("list_scheduled_transfers", {"status": "active", "account_id": "acc_001"}),
    ("schedule_transfer", {"from_account_id": "acc_001", "amount": 75, "start_date": "2026-07-01",
                           "frequency": "monthly", "payee_id": "pye_025",
                           "end_date": "2026-12-01", "memo": "guitar lessons"}),
    ("schedule_transfer", {"from_account_id": "acc_001", "to_account_id": "acc_006",
                           "amount": 500, "start_date": "2026-06-30"}),
    ("cancel_scheduled_transfer", {"scheduled_transfer_id": "sch_0006"}),
    ("list_cards", {"account_id": "acc_004", "status": "active"}),
    ("freeze_card", {"card_id": "card_06", "reason": "misplaced"}),
    ("unfreeze_card", {"card_id": "card_06"}),
    ("dispute_transaction", {"transaction_id": "txn_00157", "reason": "duplicate_charge",
                             "details": "Charged twice for the same groceries."}),
    ("list_disputes", {"status": "open", "account_id": "acc_004"}),
]
