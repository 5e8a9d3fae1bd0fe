"""Summary tools: a month's spending by category against its budgets."""

from __future__ import annotations

from typing import Annotated

from servers.budget.common import DOMAIN, month_of, out, spent_in
from servers.budget.data import THIS_MONTH
from servers.budget.models import MONTH_RE, CategorySpending, Summary
from servers.core import money
from servers.core.schema import Arg
from servers.core.state import State


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
    expenses = [e for e in s["expenses"].rows() if month_of(e["date"]) == month]
    total = sum(e["amount"] for e in expenses)  # minor units, exact
    cur = money.currency_of(s)
    budgets = {b["category_id"]: b for b in s["budgets"].rows(lambda b: b["month"] == month)}
    rows: list[CategorySpending] = []
    for cat in s["categories"].rows():
        spent, count = spent_in(s, cat["category_id"], month)
        bud = budgets.get(cat["category_id"])
        if not count and bud is None:
            continue
        rows.append({"category_id": cat["category_id"], "name": cat["name"],
                     "spent": out(s, spent), "expense_count": count,
                     "share_percent": round(100 * spent / total, 1) if total else 0.0,
                     "budget_id": bud["budget_id"] if bud else None,
                     "limit": out(s, bud["limit"]) if bud else None,
                     "remaining": out(s, bud["limit"] - spent) if bud else None,
                     "currency": cur})
    rows.sort(key=lambda c: (-c["spent"], c["category_id"]))
    before = sum(e["amount"] for e in s["expenses"].rows() if month_of(e["date"]) == prev)
    return {"month": month, "total_spent": out(s, total),
            "total_budgeted": out(s, sum(b["limit"] for b in budgets.values())),
            "currency": cur, "expense_count": len(expenses), "categories": rows,
            "over_budget_category_ids": [c["category_id"] for c in rows
                                         if c["remaining"] is not None and c["remaining"] < 0],
            "previous_month_total": out(s, before),
            "change_from_previous_percent": round(100 * (total - before) / before, 1)
            if before else None}
