"""budget: a personal budgeting app (categories, monthly budgets, expenses, savings goals).

The user is the world's principal; expenses are at the world's restaurants, cafes and stores
in the user's city, and gifts and trips name the world's people and cities. Spent and
remaining amounts are always computed from the expenses, never stored.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from servers.budget.data import THIS_MONTH, TODAY, build
from servers.budget.models import (
    DATE_RE,
    MONTH_RE,
    Budget,
    BudgetList,
    BudgetStatus,
    CategoryList,
    CategorySpending,
    DeletedBudget,
    DeletedExpense,
    Expense,
    ExpenseList,
    ExpenseResult,
    Goal,
    GoalList,
    Method,
    Summary,
)
from servers.core.domain import Domain
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State

DOMAIN = Domain("budget", "Personal budgeting: categories, monthly budgets, expenses, "
                "spending summaries and savings goals.", build)

# ----------------------------------------------------------------------------- helpers
def _month_of(day: str) -> str:
    return day[:7]


def _date(value: str, name: str) -> dt.date:
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise ToolError(f"{name} {value!r} is not a valid date; use YYYY-MM-DD, e.g. "
                        f"'{TODAY}'") from None


def _cents(amount: float) -> float:
    if abs(round(amount, 2) - amount) > 1e-9:
        raise ToolError(f"amount {amount} has more than 2 decimal places; round it to cents")
    return round(amount, 2)


def _spent(s: State, category_id: str, month: str) -> tuple[float, int]:
    rows = s["expenses"].rows(lambda e: e["category_id"] == category_id
                              and _month_of(e["date"]) == month)
    return round(float(sum(e["amount"] for e in rows)), 2), len(rows)


def _budget(s: State, row: Row) -> Budget:
    spent, _ = _spent(s, row["category_id"], row["month"])
    used = round(100 * spent / row["limit"], 1) if row["limit"] else 0.0
    status = ("over_budget" if spent > row["limit"] else
              "near_limit" if used >= row["alert_threshold"] else "on_track")
    return {**row, "category_name": s["categories"].get(row["category_id"])["name"],
            "spent": spent, "remaining": round(row["limit"] - spent, 2), "percent_used": used,
            "status": status}


def _budget_for(s: State, category_id: str, month: str) -> Row | None:
    return next(iter(s["budgets"].rows(lambda b: b["category_id"] == category_id
                                       and b["month"] == month)), None)


def _expense(s: State, row: Row) -> Expense:
    return {**row, "category_name": s["categories"].get(row["category_id"])["name"]}


def _with_budget(s: State, row: Row) -> Budget | None:
    found = _budget_for(s, row["category_id"], _month_of(row["date"]))
    return _budget(s, found) if found else None


def _editable(row: Row, what: str) -> None:
    """Budgets of months that have ended are closed (kept for history)."""
    if row["month"] < THIS_MONTH:
        raise ToolError(f"budget {row['budget_id']} is for {row['month']}, which has ended; "
                        f"past budgets can't be {what} (the current month is {THIS_MONTH})")


def _expense_date(value: str) -> str:
    day = _date(value, "date")
    if day > TODAY:
        raise ToolError(f"date {value} is in the future (today is {TODAY}); record expenses "
                        "once they happen")
    if day < TODAY - dt.timedelta(days=366):
        raise ToolError(f"date {value} is more than a year ago; only the last 12 months can "
                        "be edited")
    return day.isoformat()


def _goal(row: Row) -> Goal:
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


# ----------------------------------------------------------------------------- categories
@DOMAIN.tool(read_only=True)
def list_categories(
        s: State,
        group: Annotated[Literal["Essentials", "Lifestyle", "Goals & Giving"] | None,
                         Arg("Only categories in this group")] = None,
) -> CategoryList:
    """List spending categories (ids are used by budgets and expenses)."""
    return {"categories": [c for c in s["categories"].rows()
                           if group is None or c["group"] == group]}


# ----------------------------------------------------------------------------- budgets
@DOMAIN.tool(read_only=True)
def list_budgets(
        s: State,
        month: Annotated[str | None, Arg("Only this month, YYYY-MM", pattern=MONTH_RE)] = None,
        category_id: Annotated[str | None, Arg("Only budgets for this category")] = None,
        status: Annotated[BudgetStatus | None, Arg(
            "Only budgets in this state (near_limit: past the alert threshold)")] = None,
) -> BudgetList:
    """List monthly budgets with spent, remaining and status computed from expenses;
    newest month first."""
    if category_id is not None:
        s["categories"].get(category_id)
    rows = [_budget(s, b) for b in s["budgets"].rows()
            if (month is None or b["month"] == month)
            and (category_id is None or b["category_id"] == category_id)]
    rows = [b for b in rows if status is None or b["status"] == status]
    rows.sort(key=lambda b: (b["month"], b["category_id"]), reverse=True)
    return {"budgets": rows, "total": len(rows)}


@DOMAIN.tool(read_only=False)
def create_budget(s: State, category_id: CategoryId, month: Month, limit: Limit,
                  alert_threshold: Threshold = 80) -> Budget:
    """Set a spending limit for a category in a month (the current month or up to 12 months
    ahead); one budget per category and month."""
    s["categories"].get(category_id)
    last = f"{TODAY.year + 1}-{TODAY.month:02d}"
    if not THIS_MONTH <= month <= last:
        raise ToolError(f"month {month} is out of range; budgets can be created from "
                        f"{THIS_MONTH} to {last}")
    existing = _budget_for(s, category_id, month)
    if existing is not None:
        raise ToolError(f"{month} already has budget {existing['budget_id']} for this "
                        "category; use update_budget_limit to change its limit")
    row = s["budgets"].insert({
        "budget_id": s.next_id("bud", 3), "category_id": category_id, "month": month,
        "limit": _cents(limit), "alert_threshold": alert_threshold,
        "created_on": TODAY.isoformat()})
    return _budget(s, row)


@DOMAIN.tool(read_only=False)
def update_budget_limit(
        s: State, budget_id: BudgetId, limit: Limit,
        alert_threshold: Annotated[int | None, Arg("New alert percent (unchanged if absent)",
                                                   minimum=50, maximum=100)] = None,
) -> Budget:
    """Change a current or future budget's monthly limit (and optionally its alert level)."""
    row = s["budgets"].get(budget_id)
    _editable(row, "changed")
    changes = {"limit": _cents(limit)}
    if alert_threshold is not None:
        changes["alert_threshold"] = alert_threshold
    return _budget(s, s["budgets"].update(budget_id, **changes))


@DOMAIN.tool(read_only=False)
def delete_budget(s: State, budget_id: BudgetId) -> DeletedBudget:
    """Delete a current or future budget; its expenses are kept."""
    row = s["budgets"].get(budget_id)
    _editable(row, "deleted")
    shown = _budget(s, row)
    s["budgets"].delete(budget_id)
    return {"deleted": shown}


# ----------------------------------------------------------------------------- expenses
@DOMAIN.tool(read_only=True)
def list_expenses(
        s: State,
        month: Annotated[str | None, Arg("Only this month, YYYY-MM", pattern=MONTH_RE)] = None,
        start_date: Annotated[str | None, Arg("From this date, YYYY-MM-DD (inclusive)",
                                              pattern=DATE_RE)] = None,
        end_date: Annotated[str | None, Arg("Up to this date, YYYY-MM-DD (inclusive)",
                                            pattern=DATE_RE)] = None,
        category_id: Annotated[str | None, Arg("Only this category")] = None,
        merchant: Annotated[str | None, Arg("Part of the merchant name or note",
                                            min_length=2)] = None,
        min_amount: Annotated[float | None, Arg("Smallest amount", minimum=0)] = None,
        max_amount: Annotated[float | None, Arg("Largest amount", minimum=0)] = None,
        limit: Annotated[int, Arg("Page size", minimum=1, maximum=100)] = 25,
        offset: Annotated[int, Arg("Skip this many (for paging)", minimum=0)] = 0,
) -> ExpenseList:
    """List expenses, newest first. `total` and `total_amount` cover all matches, not just
    this page."""
    if category_id is not None:
        s["categories"].get(category_id)
    start = _date(start_date, "start_date").isoformat() if start_date else None
    end = _date(end_date, "end_date").isoformat() if end_date else None
    if start and end and start > end:
        raise ToolError(f"start_date {start} is after end_date {end}")
    if min_amount is not None and max_amount is not None and min_amount > max_amount:
        raise ToolError(f"min_amount {min_amount} is larger than max_amount {max_amount}")
    q = (merchant or "").lower()
    rows = [e for e in s["expenses"].rows()
            if (month is None or _month_of(e["date"]) == month)
            and (start is None or e["date"] >= start) and (end is None or e["date"] <= end)
            and (category_id is None or e["category_id"] == category_id)
            and (q in e["merchant"].lower() or q in e["note"].lower())
            and (min_amount is None or e["amount"] >= min_amount)
            and (max_amount is None or e["amount"] <= max_amount)]
    rows.sort(key=lambda e: (e["date"], e["expense_id"]), reverse=True)
    return {"expenses": [_expense(s, e) for e in rows[offset:offset + limit]],
            "total": len(rows), "total_amount": round(sum(e["amount"] for e in rows), 2)}


@DOMAIN.tool(read_only=False)
def add_expense(
        s: State,
        amount: Annotated[float, Arg("Amount in USD", minimum=0.01, maximum=100000)],
        merchant: Annotated[str, Arg("Where the money was spent", min_length=2,
                                     max_length=80)],
        category_id: CategoryId,
        date: Annotated[str | None, Arg("YYYY-MM-DD, not in the future (default: today)",
                                        pattern=DATE_RE)] = None,
        note: Annotated[str, Arg("Optional note", max_length=200)] = "",
        payment_method: Annotated[Method, Arg("How it was paid")] = "card",
) -> ExpenseResult:
    """Record an expense; returns it with the category's budget for that month, if any."""
    s["categories"].get(category_id)
    day = _expense_date(date) if date is not None else TODAY.isoformat()
    row = s["expenses"].insert({
        "expense_id": s.next_id("exp"), "date": day, "merchant": merchant.strip(),
        "amount": _cents(amount), "category_id": category_id, "note": note,
        "payment_method": payment_method})
    return {"expense": _expense(s, row), "budget": _with_budget(s, row)}


@DOMAIN.tool(read_only=False)
def update_expense(
        s: State,
        expense_id: ExpenseId,
        amount: Annotated[float | None, Arg("New amount in USD", minimum=0.01,
                                            maximum=100000)] = None,
        merchant: Annotated[str | None, Arg("New merchant", min_length=2, max_length=80)] = None,
        category_id: Annotated[str | None, Arg("Move it to this category")] = None,
        date: Annotated[str | None, Arg("New date, YYYY-MM-DD", pattern=DATE_RE)] = None,
        note: Annotated[str | None, Arg("New note", max_length=200)] = None,
        payment_method: Annotated[Method | None, Arg("New payment method")] = None,
) -> ExpenseResult:
    """Correct an expense (amount, merchant, category, date, note or payment method); give
    only the fields to change."""
    s["expenses"].get(expense_id)
    if category_id is not None:
        s["categories"].get(category_id)
    changes = {k: v for k, v in (("merchant", merchant and merchant.strip()),
                                 ("category_id", category_id), ("note", note),
                                 ("payment_method", payment_method)) if v is not None}
    if amount is not None:
        changes["amount"] = _cents(amount)
    if date is not None:
        changes["date"] = _expense_date(date)
    if not changes:
        raise ToolError("nothing to change; give at least one of amount, merchant, "
                        "category_id, date, note, payment_method")
    row = s["expenses"].update(expense_id, **changes)
    return {"expense": _expense(s, row), "budget": _with_budget(s, row)}


@DOMAIN.tool(read_only=False)
def delete_expense(s: State, expense_id: ExpenseId) -> DeletedExpense:
    """Delete an expense recorded by mistake; returns it and its budget after the removal."""
    row = s["expenses"].get(expense_id)
    shown = _expense(s, row)
    s["expenses"].delete(expense_id)
    return {"deleted": shown, "budget": _with_budget(s, row)}


# ----------------------------------------------------------------------------- summaries
@DOMAIN.tool(read_only=True)
def get_spending_summary(
        s: State,
        month: Annotated[str, Arg(f"Month as YYYY-MM (default: {THIS_MONTH})",
                                  pattern=MONTH_RE)] = THIS_MONTH,
) -> Summary:
    """Spending by category for a month (largest first) against its budgets, with the change
    from the previous month."""
    year, mon = int(month[:4]), int(month[5:])
    prev = f"{year - (mon == 1)}-{12 if mon == 1 else mon - 1:02d}"
    expenses = [e for e in s["expenses"].rows() if _month_of(e["date"]) == month]
    total = round(sum(e["amount"] for e in expenses), 2)
    budgets = {b["category_id"]: b for b in s["budgets"].rows(lambda b: b["month"] == month)}
    out: list[CategorySpending] = []
    for cat in s["categories"].rows():
        spent, count = _spent(s, cat["category_id"], month)
        bud = budgets.get(cat["category_id"])
        if not count and bud is None:
            continue
        out.append({"category_id": cat["category_id"], "name": cat["name"], "spent": spent,
                    "expense_count": count,
                    "share_percent": round(100 * spent / total, 1) if total else 0.0,
                    "budget_id": bud["budget_id"] if bud else None,
                    "limit": bud["limit"] if bud else None,
                    "remaining": round(bud["limit"] - spent, 2) if bud else None})
    out.sort(key=lambda c: (-c["spent"], c["category_id"]))
    before = round(sum(e["amount"] for e in s["expenses"].rows()
                       if _month_of(e["date"]) == prev), 2)
    return {"month": month, "total_spent": total,
            "total_budgeted": round(sum(b["limit"] for b in budgets.values()), 2),
            "expense_count": len(expenses), "categories": out,
            "over_budget_category_ids": [c["category_id"] for c in out
                                         if c["remaining"] is not None and c["remaining"] < 0],
            "previous_month_total": before,
            "change_from_previous_percent": round(100 * (total - before) / before, 1)
            if before else None}


# ----------------------------------------------------------------------------- goals
@DOMAIN.tool(read_only=True)
def list_savings_goals(
        s: State,
        status: Annotated[Literal["active", "completed"] | None, Arg(
            "Only goals with this status")] = None,
) -> GoalList:
    """List savings goals with progress and the monthly saving needed to hit each target."""
    rows = [_goal(g) for g in s["savings_goals"].rows()
            if status is None or g["status"] == status]
    return {"goals": rows, "total_saved": round(sum(g["saved_amount"] for g in rows), 2)}


@DOMAIN.tool(read_only=False)
def contribute_to_savings_goal(
        s: State,
        goal_id: Annotated[str, Arg("Goal id, e.g. 'goal_002' (from list_savings_goals)")],
        amount: Annotated[float, Arg("Amount in USD", minimum=0.01, maximum=100000)],
        action: Annotated[Literal["deposit", "withdraw"], Arg(
            "deposit: add to the goal; withdraw: take money back out")] = "deposit",
) -> Goal:
    """Add money to a savings goal (it completes when the target is reached) or withdraw
    from it."""
    goal = s["savings_goals"].get(goal_id)
    amount = _cents(amount)
    saved, target = goal["saved_amount"], goal["target_amount"]
    if action == "withdraw":
        if amount > saved + 1e-9:
            raise ToolError(f"goal {goal_id} ({goal['name']}) holds only {saved:.2f}; "
                            "withdraw at most that")
        new, status = round(saved - amount, 2), "active"
    else:
        if goal["status"] == "completed":
            raise ToolError(f"goal {goal_id} ({goal['name']}) is already completed; pick an "
                            "active goal from list_savings_goals")
        if amount > target - saved + 1e-9:
            raise ToolError(f"goal {goal_id} ({goal['name']}) needs only "
                            f"{target - saved:.2f} more; deposit at most that")
        new = round(saved + amount, 2)
        status = "completed" if new >= target - 1e-9 else "active"
    return _goal(s["savings_goals"].update(goal_id, saved_amount=new, status=status))


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
                       "end_date": "2026-06-15", "limit": 5, "offset": 0}),
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
