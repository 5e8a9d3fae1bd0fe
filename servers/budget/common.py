"""Shared pieces of the budget server: the domain, date and amount checks, the output shapers
for budgets, expenses and savings goals (spent and remaining are computed from the expenses)
and the argument types used by several tool modules."""

from __future__ import annotations

import datetime as dt
from typing import Annotated

from servers.budget.data import THIS_MONTH, TODAY, build
from servers.budget.models import MONTH_RE, Budget, Expense, Goal
from servers.core import clock, money
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

MAX_AMOUNT_USD = 100000  # the most one amount may be, in USD-like units scaled to the currency


def amount_in(s: State, value: float, arg: str = "amount", minimum_usd: float = 0) -> int:
    """An input amount -> minor units of the world's currency: refused beyond the currency's
    decimals, below `minimum_usd` (scaled) or above the cap."""
    minor = money.amount_in(s, value, arg)
    low = max(money.limit(s, minimum_usd), 1)  # never below one minor unit
    cap, cur = money.limit(s, MAX_AMOUNT_USD), money.currency_of(s)
    if not low <= minor <= cap:
        raise ToolError(f"{arg} {value} is out of range; use at least {money.fmt(low, cur)} "
                        f"and at most {money.fmt(cap, cur)}")
    return minor


def out(s: State, minor: int | None) -> int | float | None:
    """Minor units -> a JSON number in major units (None stays None)."""
    return None if minor is None else money.amount_out(s, minor)


def spent_in(s: State, category_id: str, month: str) -> tuple[int, int]:
    """Minor units spent in a category in a month, and the number of expenses."""
    rows = s["expenses"].rows(lambda e: e["category_id"] == category_id
                              and month_of(e["date"]) == month)
    return sum(e["amount"] for e in rows), len(rows)


def as_budget(s: State, row: Row) -> Budget:
    spent, _ = spent_in(s, row["category_id"], row["month"])
    used = round(100 * spent / row["limit"], 1) if row["limit"] else 0.0
    status = ("over_budget" if spent > row["limit"] else
              "near_limit" if used >= row["alert_threshold"] else "on_track")
    return {**row, "category_name": s["categories"].get(row["category_id"])["name"],
            "limit": out(s, row["limit"]), "spent": out(s, spent),
            "remaining": out(s, row["limit"] - spent), "currency": money.currency_of(s),
            "percent_used": used, "status": status}


def budget_for(s: State, category_id: str, month: str) -> Row | None:
    return next(iter(s["budgets"].rows(lambda b: b["category_id"] == category_id
                                       and b["month"] == month)), None)


def as_expense(s: State, row: Row) -> Expense:
    return {**row, "amount": out(s, row["amount"]), "currency": money.currency_of(s),
            "category_name": s["categories"].get(row["category_id"])["name"]}


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


def as_goal(s: State, row: Row) -> Goal:
    remaining = max(row["target_amount"] - row["saved_amount"], 0)
    due = dt.date.fromisoformat(row["target_date"])
    months = max((due.year - TODAY.year) * 12 + due.month - TODAY.month, 1)
    return {**row, "target_amount": out(s, row["target_amount"]),
            "saved_amount": out(s, row["saved_amount"]), "remaining": out(s, remaining),
            "currency": money.currency_of(s),
            "percent_complete": round(100 * row["saved_amount"] / row["target_amount"], 1),
            # the one rounding rule of servers.core.money (half to even, to the minor unit)
            "monthly_needed": out(s, money.divide(remaining, months))}


CategoryId = Annotated[str, Arg("Category id, e.g. 'cat_xafpjz' (from list_categories)")]
BudgetId = Annotated[str, Arg("Budget id, e.g. 'bud_atnmm9' (from list_budgets)")]
ExpenseId = Annotated[str, Arg("Expense id, e.g. 'exp_gtasez' (from list_expenses)")]
Limit = Annotated[float, Arg(
    "Monthly spending limit in the world's currency (see any budget's `currency`), with at "
    "most the currency's decimals (2 for EUR/USD, 0 for JPY), at least 1 USD-like unit",
    minimum=0.01)]
Amount = Annotated[float, Arg(
    "Amount in the world's currency (see any expense's `currency`), > 0, with at most the "
    "currency's decimals (2 for EUR/USD, 0 for JPY)", minimum=0.01)]
Threshold = Annotated[int, Arg("Warn when this percent of the limit is spent", minimum=50,
                               maximum=100)]
Month = Annotated[str, Arg("Month as YYYY-MM", pattern=MONTH_RE)]
