"""Expense tools: list, record, correct and delete expenses."""

from __future__ import annotations

from typing import Annotated

from servers.budget.common import (
    DOMAIN,
    Amount,
    CategoryId,
    ExpenseId,
    amount_in,
    as_expense,
    expense_date,
    month_of,
    parse_date,
    with_budget,
)
from servers.budget.data import TODAY
from servers.budget.models import (
    DATE_RE,
    MONTH_RE,
    DeletedExpense,
    ExpenseList,
    ExpenseResult,
    Method,
)
from servers.core import money, paging
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State


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
        limit: paging.Limit = 20,
        cursor: paging.Cursor = None,
) -> ExpenseList:
    """List expenses, newest first. `total` and `total_amount` cover all matches, not just
    this page."""
    if category_id is not None:
        s["categories"].get(category_id)
    start = parse_date(start_date, "start_date").isoformat() if start_date else None
    end = parse_date(end_date, "end_date").isoformat() if end_date else None
    if start and end and start > end:
        raise ToolError(f"start_date {start} is after end_date {end}")
    if min_amount is not None and max_amount is not None and min_amount > max_amount:
        raise ToolError(f"min_amount {min_amount} is larger than max_amount {max_amount}")
    lo = None if min_amount is None else money.amount_in(s, min_amount, "min_amount")
    hi = None if max_amount is None else money.amount_in(s, max_amount, "max_amount")
    q = (merchant or "").lower()
    rows = [e for e in s["expenses"].rows()
            if (month is None or month_of(e["date"]) == month)
            and (start is None or e["date"] >= start) and (end is None or e["date"] <= end)
            and (category_id is None or e["category_id"] == category_id)
            and (q in e["merchant"].lower() or q in e["note"].lower())
            and (lo is None or e["amount"] >= lo)
            and (hi is None or e["amount"] <= hi)]
    rows.sort(key=lambda e: (e["date"], e["expense_id"]), reverse=True)
    pg = paging.page(rows, limit, cursor, key="expense_id")
    return {"expenses": [as_expense(s, e) for e in pg.rows],
            "total": len(rows), "total_amount": money.amount_out(s, sum(e["amount"] for e in rows)),
            "currency": money.currency_of(s), "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=False)
def add_expense(
        s: State,
        amount: Amount,
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
    day = expense_date(date) if date is not None else TODAY.isoformat()
    row = s["expenses"].insert({
        "expense_id": s.next_id("exp"), "date": day, "merchant": merchant.strip(),
        "amount": amount_in(s, amount), "category_id": category_id, "note": note,
        "payment_method": payment_method})
    return {"expense": as_expense(s, row), "budget": with_budget(s, row)}


@DOMAIN.tool(read_only=False)
def update_expense(
        s: State,
        expense_id: ExpenseId,
        amount: Annotated[float | None, Arg(
            "New amount in the world's currency, > 0, with at most its decimals",
            minimum=0.01)] = None,
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
        changes["amount"] = amount_in(s, amount)
    if date is not None:
        changes["date"] = expense_date(date)
    if not changes:
        raise ToolError("nothing to change; give at least one of amount, merchant, "
                        "category_id, date, note, payment_method")
    row = s["expenses"].update(expense_id, **changes)
    return {"expense": as_expense(s, row), "budget": with_budget(s, row)}


@DOMAIN.tool(read_only=False)
def delete_expense(s: State, expense_id: ExpenseId) -> DeletedExpense:
    """Delete an expense recorded by mistake; returns it and its budget after the removal."""
    row = s["expenses"].get(expense_id)
    shown = as_expense(s, row)
    s["expenses"].delete(expense_id)
    return {"deleted": shown, "budget": with_budget(s, row)}
