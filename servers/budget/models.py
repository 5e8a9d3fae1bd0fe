"""budget: the tool value types (argument enums and TypedDict results = output schemas)."""

from __future__ import annotations

from typing import Literal, TypedDict

MONTH_RE = r"\d{4}-(0[1-9]|1[0-2])"
DATE_RE = r"\d{4}-\d{2}-\d{2}"
Method = Literal["card", "cash", "bank_transfer"]
BudgetStatus = Literal["on_track", "near_limit", "over_budget"]


class Category(TypedDict):
    category_id: str
    name: str
    group: str


class CategoryList(TypedDict):
    categories: list[Category]


class Budget(TypedDict):
    budget_id: str
    category_id: str
    category_name: str
    month: str
    limit: float
    spent: float
    remaining: float
    currency: str
    percent_used: float
    alert_threshold: int
    status: str
    created_on: str


class BudgetList(TypedDict):
    budgets: list[Budget]
    total: int
    next_cursor: str | None


class Expense(TypedDict):
    expense_id: str
    date: str
    merchant: str
    amount: float
    currency: str
    category_id: str
    category_name: str
    note: str
    payment_method: str


class ExpenseList(TypedDict):
    expenses: list[Expense]
    total: int
    total_amount: float
    currency: str
    next_cursor: str | None


class ExpenseResult(TypedDict):
    expense: Expense
    budget: Budget | None


class DeletedBudget(TypedDict):
    deleted: Budget


class DeletedExpense(TypedDict):
    deleted: Expense
    budget: Budget | None


class CategorySpending(TypedDict):
    category_id: str
    name: str
    spent: float
    expense_count: int
    share_percent: float
    budget_id: str | None
    limit: float | None
    remaining: float | None
    currency: str


class Summary(TypedDict):
    month: str
    total_spent: float
    total_budgeted: float
    currency: str
    expense_count: int
    categories: list[CategorySpending]
    over_budget_category_ids: list[str]
    previous_month_total: float
    change_from_previous_percent: float | None


class Goal(TypedDict):
    goal_id: str
    name: str
    target_amount: float
    saved_amount: float
    remaining: float
    currency: str
    percent_complete: float
    target_date: str
    monthly_needed: float
    status: str
    created_on: str


class GoalList(TypedDict):
    goals: list[Goal]
    total_saved: float
    currency: str
