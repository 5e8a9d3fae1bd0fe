"""budget: a personal budgeting app (categories, monthly budgets, expenses, savings goals).

The user is the world's principal; expenses are at the world's restaurants, cafes and stores
in the user's city, and gifts and trips name the world's people and cities. Spent and
remaining amounts are always computed from the expenses, never stored.
Modules: data (initial state), models (output shapes and enums), common (domain, shared
helpers and argument types), categories, budgets, expenses, summaries, goals.
"""

from __future__ import annotations

import importlib

from servers.budget.common import DOMAIN

# Importing a module registers its tools; this order is their order in tools/list.
for _module in ("categories", "budgets", "expenses", "summaries", "goals"):
    importlib.import_module(f"servers.budget.{_module}")

__all__ = ["DOMAIN", "EXAMPLES"]

# Calls that succeed in this order on a fresh session (seed 0): used by the contract tests and
# as documentation of each tool's use.
EXAMPLES: list[tuple[str, dict]] = [
    ("list_categories", {"group": "Lifestyle"}),
    ("list_budgets", {"month": "2026-06", "status": "near_limit"}),
    ("list_budgets", {"category_id": "cat_02"}),
    ("create_budget", {"category_id": "cat_09", "month": "2026-07", "limit": 600,
                       "alert_threshold": 85}),
    ("update_budget_limit", {"budget_id": "bud_017", "limit": 700, "alert_threshold": 90}),
    ("delete_budget", {"budget_id": "bud_025"}),
    ("list_expenses", {"month": "2026-06", "category_id": "cat_01", "min_amount": 10,
                       "max_amount": 200}),
    ("list_expenses", {"merchant": "streamflix", "start_date": "2026-03-01",
                       "end_date": "2026-06-15", "limit": 5}),
    ("add_expense", {"amount": 23.4, "merchant": "Corner Grocer", "category_id": "cat_01",
                     "date": "2026-06-14", "note": "weekend groceries",
                     "payment_method": "cash"}),
    ("update_expense", {"expense_id": "exp_0189", "amount": 32.4, "category_id": "cat_02",
                        "note": "lunch, not groceries"}),
    ("delete_expense", {"expense_id": "exp_0188"}),
    ("get_spending_summary", {"month": "2026-05"}),
    ("list_savings_goals", {"status": "active"}),
    ("contribute_to_savings_goal", {"goal_id": "goal_003", "amount": 100}),
    ("contribute_to_savings_goal", {"goal_id": "goal_002", "amount": 50,
                                    "action": "withdraw"}),
]
