"""Shared pieces of the budget server: the domain, date and amount checks, the output shapers
for budgets, expenses and savings goals (spent and remaining are computed from the expenses)
and the argument types used by several tool modules."""

from __future__ import annotations

import datetime as dt
from typing import Annotated

from servers.budget.data import THIS_MONTH, TODAY, build
from servers.budget.models import MONTH_RE, Budget, Expense, Goal
from servers.core import clock
from servers.core.domain import Domain
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State

DOMAIN = Domain("budget", "Personal budgeting: categories, monthly budgets, expenses, "
                "spending summaries and savings goals.", build)


# ----------------------------------------------------------------------------- helpers
def month_of(day: str) -> str:
    return day[:7]


def parse_date(value: str, name: str) -> dt.date:
    """A plain calendar date (the one date parser: clock.parse_date)."""
    return clock.parse_date(value, name)

def cents(amount: float) -> float:
    if abs(round(amount, 2) - amount) > 1e-9:
        raise ToolError(f"amount {amount} has more than 2 decimal places; round it to cents")
    return round(amount, 2)


def spent_in(s: State, category_id: str, month: str) -> tuple[float, int]:
    rows = s["expenses"].rows(lambda e: e["category_id"] == category_id
                              and month_of(e["date"]) == month)
    return round(float(sum(e["amount"] for e in rows)), 2), len(rows)


def as_budget(s: State, row: Row) -> Budget:
    spent, _ = spent_in(s, row["category_id"], row["month"])
    used = round(100 * spent / row["limit"], 1) if row["limit"] else 0.0
    status = ("over_budget" if spent > row["limit"] else
              "near_limit" if used >= row["alert_threshold"] else "on_track")
    return {**row, "category_name": s["categories"].get(row["category_id"])["name"],
            "spent": spent, "remaining": round(row["limit"] - spent, 2), "percent_used": used,
            "status": status}


def budget_for(s: State, category_id: str, month: str) -> Row | None:
    return next(iter(s["budgets"].rows(lambda b: b["category_id"] == category_id
                                       and b["month"] == month)), None)


def as_expense(s: State, row: Row) -> Expense:
    return {**row, "category_name": s["categories"].get(row["category_id"])["name"]}


def with_budget(s: State, row: Row) -> Budget | None:
    found = budget_for(s, row["category_id"], month_of(row["date"]))
    return as_budget(s, found) if found else None


def editable(row: Row, what: str) -> None:
    """Budgets of months that have ended are closed (kept for history)."""
    if row["month"] < THIS_MONTH:
        raise ToolError(f"budget {row['budget_id']} is for {row['month']}, which has ended; "
                        f"past budgets can't be {what} (the current month is {THIS_MONTH})")


def expense_date(value: str) -> str:
    day = parse_date(value, "date")
    if day > TODAY:
        raise ToolError(f"date {value} is in the future (today is {TODAY}); record expenses "
                        "once they happen")
    if day < TODAY - dt.timedelta(days=366):
        raise ToolError(f"date {value} is more than a year ago; only the last 12 months can "
                        "be edited")
    return day.isoformat()


def as_goal(row: Row) -> Goal:
    remaining = round(max(row["target_amount"] - row["saved_amount"], 0.0), 2)
    due = dt.date.fromisoformat(row["target_date"])
    months = max((due.year - TODAY.year) * 12 + due.month - TODAY.month, 1)
    return {**row, "remaining": remaining,
            "percent_complete": round(100 * row["saved_amount"] / row["target_amount"], 1),
            "monthly_needed": round(remaining / months, 2)}


CategoryId = Annotated[str, Arg("Category id, e.g. 'cat_01' (from list_categories)")]
BudgetId = Annotated[str, Arg("Budget id, e.g. 'bud_017' (from list_budgets)")]
ExpenseId = Annotated[str, Arg("Expense id, e.g. 'exp_0042' (from list_expenses)")]
Limit = Annotated[float, Arg("Monthly spending limit in USD", minimum=1, maximum=100000)]
Threshold = Annotated[int, Arg("Warn when this percent of the limit is spent", minimum=50,
                               maximum=100)]
Month = Annotated[str, Arg("Month as YYYY-MM", pattern=MONTH_RE)]
