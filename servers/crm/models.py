"""crm: the tools' output shapes (TypedDicts become the MCP output schemas)."""

from __future__ import annotations

from typing import TypedDict


class Account(TypedDict):
    account_id: str
    name: str
    domain: str
    website: str
    industry: str
    city: str
    country: str
    type: str
    employees: int | None
    annual_revenue: float | None
    owner_id: str
    owner_name: str
    contact_count: int
    open_deal_count: int
    open_pipeline_amount: float
    currency: str


class AccountList(TypedDict):
    accounts: list[Account]
    total: int


class Contact(TypedDict):
    contact_id: str
    name: str
    first_name: str
    last_name: str
    email: str
    phone: str
    title: str
    account_id: str
    account_name: str
    city: str
    lifecycle_stage: str
    owner_id: str
    owner_name: str
    last_contacted_at: str | None
    created_at: str


class ContactList(TypedDict):
    contacts: list[Contact]
    total: int
    next_cursor: str | None


class Deal(TypedDict):
    deal_id: str
    name: str
    account_id: str
    account_name: str
    primary_contact_id: str | None
    primary_contact_name: str | None
    owner_id: str
    owner_name: str
    stage: str
    probability: int
    amount: float
    currency: str
    weighted_amount: float
    close_date: str
    next_step: str | None
    lost_reason: str | None
    allowed_next_stages: list[str]
    created_at: str
    closed_at: str | None


class DealList(TypedDict):
    deals: list[Deal]
    total: int
    total_amount: float
    currency: str
    next_cursor: str | None


class StageChange(TypedDict):
    from_stage: str | None
    to_stage: str
    changed_at: str
    changed_by_id: str


class Activity(TypedDict):
    activity_id: str
    kind: str
    subject: str
    body: str
    contact_id: str | None
    contact_name: str | None
    deal_id: str | None
    deal_name: str | None
    logged_by_id: str
    logged_by_name: str
    occurred_at: str
    duration_minutes: int | None
    outcome: str | None


class Task(TypedDict):
    task_id: str
    title: str
    notes: str
    due_date: str
    priority: str
    status: str
    overdue: bool
    assignee_id: str
    assignee_name: str
    contact_id: str | None
    contact_name: str | None
    deal_id: str | None
    deal_name: str | None
    created_at: str
    completed_at: str | None


class TaskList(TypedDict):
    tasks: list[Task]
    total: int
    next_cursor: str | None


class ContactDetail(TypedDict):
    contact: Contact
    open_deals: list[Deal]
    recent_activities: list[Activity]
    open_tasks: list[Task]


class DealDetail(TypedDict):
    deal: Deal
    stage_history: list[StageChange]
    activities: list[Activity]
    tasks: list[Task]


class StageSummary(TypedDict):
    stage: str
    count: int
    amount: float
    weighted_amount: float
    currency: str


class OwnerSummary(TypedDict):
    owner_id: str
    owner_name: str
    email: str
    open_deals: int
    open_amount: float
    weighted_amount: float
    won_deals: int
    won_amount: float
    currency: str


class PipelineSummary(TypedDict):
    currency: str
    owner_id: str | None
    close_date_from: str | None
    close_date_to: str | None
    stages: list[StageSummary]
    owners: list[OwnerSummary]
    open_deals: int
    open_amount: float
    weighted_amount: float
    won_amount: float
    lost_amount: float
    win_rate: float | None
