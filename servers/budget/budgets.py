"""Budget tools: list monthly budgets, create them, change their limits, delete them."""

from __future__ import annotations

from typing import Annotated

from servers.budget.common import (
    DOMAIN,
    BudgetId,
    CategoryId,
    Limit,
    Month,
    Threshold,
    amount_in,
    as_budget,
    budget_for,
    editable,
)
from servers.budget.data import THIS_MONTH, TODAY
from servers.budget.models import MONTH_RE, Budget, BudgetList, BudgetStatus, DeletedBudget
from servers.core import paging
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State


@DOMAIN.tool(read_only=True)
def list_budgets(
        s: State,
        month: Annotated[str | None, Arg("Only this month, YYYY-MM", pattern=MONTH_RE)] = None,
        category_id: Annotated[str | None, Arg("Only budgets for this category")] = None,
        status: Annotated[BudgetStatus | None, Arg(
            "Only budgets in this state (near_limit: past the alert threshold)")] = None,
        limit: paging.Limit = 20,
        cursor: paging.Cursor = None,
) -> BudgetList:
    """List monthly budgets with spent, remaining and status computed from expenses;
    newest month first."""
    if category_id is not None:
        s["categories"].get(category_id)
    rows = [as_budget(s, b) for b in s["budgets"].rows()
            if (month is None or b["month"] == month)
            and (category_id is None or b["category_id"] == category_id)]
    rows = [b for b in rows if status is None or b["status"] == status]
    rows.sort(key=lambda b: (b["month"], b["category_id"]), reverse=True)
    pg = paging.page(rows, limit, cursor, key="budget_id")
    return {"budgets": pg.rows, "total": len(rows), "next_cursor": pg.next_cursor}


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
    existing = budget_for(s, category_id, month)
    if existing is not None:
        raise ToolError(f"{month} already has budget {existing['budget_id']} for this "
                        "category; use update_budget_limit to change its limit")
    row = s["budgets"].insert({
        "budget_id": s.next_id("bud"), "category_id": category_id, "month": month,
        "limit": amount_in(s, limit, "limit", 1), "alert_threshold": alert_threshold,
        "created_on": TODAY.isoformat()})
    return as_budget(s, row)


@DOMAIN.tool(read_only=False)
def update_budget_limit(
        s: State, budget_id: BudgetId, limit: Limit,
        alert_threshold: Annotated[int | None, Arg("New alert percent (unchanged if absent)",
                                                   minimum=50, maximum=100)] = None,
) -> Budget:
    """Change a current or future budget's monthly limit (and optionally its alert level)."""
    row = s["budgets"].get(budget_id)
    editable(row, "changed")
    changes = {"limit": amount_in(s, limit, "limit", 1)}
    if alert_threshold is not None:
        changes["alert_threshold"] = alert_threshold
    return as_budget(s, s["budgets"].update(budget_id, **changes))


@DOMAIN.tool(read_only=False)
def delete_budget(s: State, budget_id: BudgetId) -> DeletedBudget:
    """Delete a current or future budget; its expenses are kept."""
    row = s["budgets"].get(budget_id)
    editable(row, "deleted")
    shown = as_budget(s, row)
    s["budgets"].delete(budget_id)
    return {"deleted": shown}
