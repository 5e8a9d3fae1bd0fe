"""Savings-goal tools: list goals and deposit to or withdraw from them."""

from __future__ import annotations

from typing import Annotated, Literal

from servers.budget.common import DOMAIN, Amount, amount_in, as_goal
from servers.budget.models import Goal, GoalList
from servers.core import money
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State


@DOMAIN.tool(read_only=True)
def list_savings_goals(
        s: State,
        status: Annotated[Literal["active", "completed"] | None, Arg(
            "Only goals with this status")] = None,
) -> GoalList:
    """List savings goals with progress and the monthly saving needed to hit each target."""
    rows = [g for g in s["savings_goals"].rows() if status is None or g["status"] == status]
    return {"goals": [as_goal(s, g) for g in rows],
            "total_saved": money.amount_out(s, sum(g["saved_amount"] for g in rows)),
            "currency": money.currency_of(s)}


@DOMAIN.tool(read_only=False)
def contribute_to_savings_goal(
        s: State,
        goal_id: Annotated[str, Arg("Goal id, e.g. 'goal_nckssw' (from list_savings_goals)")],
        amount: Amount,
        action: Annotated[Literal["deposit", "withdraw"], Arg(
            "deposit: add to the goal; withdraw: take money back out")] = "deposit",
) -> Goal:
    """Add money to a savings goal (it completes when the target is reached) or withdraw
    from it."""
    goal = s["savings_goals"].get(goal_id)
    amount = amount_in(s, amount)
    saved, target, cur = goal["saved_amount"], goal["target_amount"], money.currency_of(s)
    if action == "withdraw":
        if amount > saved:
            raise ToolError(f"goal {goal_id} ({goal['name']}) holds only "
                            f"{money.fmt(saved, cur)}; withdraw at most that")
        new, status = saved - amount, "active"
    else:
        if goal["status"] == "completed":
            raise ToolError(f"goal {goal_id} ({goal['name']}) is already completed; pick an "
                            "active goal from list_savings_goals")
        if amount > target - saved:
            raise ToolError(f"goal {goal_id} ({goal['name']}) needs only "
                            f"{money.fmt(target - saved, cur)} more; deposit at most that")
        new = saved + amount
        status = "completed" if new >= target else "active"
    return as_goal(s, s["savings_goals"].update(goal_id, saved_amount=new, status=status))
