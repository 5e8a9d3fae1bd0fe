"""Savings-goal tools: list goals and deposit to or withdraw from them."""

from __future__ import annotations

from typing import Annotated, Literal

from servers.budget.common import DOMAIN, as_goal, cents
from servers.budget.models import Goal, GoalList
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
    rows = [as_goal(g) for g in s["savings_goals"].rows()
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
    amount = cents(amount)
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
    return as_goal(s["savings_goals"].update(goal_id, saved_amount=new, status=status))
