"""crm: the domain object, argument types and helpers shared by the tool modules."""

from __future__ import annotations

from typing import Annotated, Literal

from servers.core import money
from servers.core.clock import tick
from servers.core.domain import Domain
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State
from servers.crm.data import OPEN_STAGES, PROBABILITY, TODAY, TRANSITIONS, build
from servers.crm.models import Account, Activity, Contact, Deal, Task

DOMAIN = Domain("crm", "A sales CRM: accounts (companies), contacts (people), deals through "
                "pipeline stages, logged calls/meetings/emails/notes, follow-up tasks and a "
                "pipeline summary.", build)
# fields stamped from the session clock: left out of clock-free state comparisons
DOMAIN.clock_fields = {"deals": ("closed_at", "stage_history.changed_at"),
                        "activities": ("occurred_at",), "tasks": ("created_at", "completed_at"),
                        "contacts": ("last_contacted_at", "created_at")}

Stage = Literal["prospecting", "qualification", "proposal", "negotiation", "closed_won",
                "closed_lost"]
LifecycleStage = Literal["lead", "qualified", "opportunity", "customer", "churned", "other"]
LostReason = Literal["price", "competitor", "no_budget", "no_decision", "timing", "other"]
Priority = Literal["low", "normal", "high"]
ActivityKind = Literal["call", "meeting", "email", "note"]

DATE = r"\d{4}-\d{2}-\d{2}"
ContactId = Annotated[str, Arg("Contact id = the person's id, e.g. 'p_waqgg5', or 'ct_z5m9xk' "
                               "for a contact added with create_contact (from search_contacts)")]
AccountId = Annotated[str, Arg("Account id, e.g. 'co_h6qmc7' (from search_accounts)")]
DealId = Annotated[str, Arg("Deal id, e.g. 'dl_jqcd4j' (from list_deals)")]
TaskId = Annotated[str, Arg("Task id, e.g. 'tsk_bqpnga' (from list_tasks)")]
Limit = Annotated[int, Arg("At most this many results", minimum=1, maximum=100)]


def now(s: State) -> str:
    return tick(s)


def clean(value: str, arg: str) -> str:
    """The text without surrounding whitespace; blank text is an error."""
    value = value.strip()
    if not value:
        raise ToolError(f"{arg} must not be blank")
    return value


def rep(s: State, user_id: str) -> Row:
    return s["reps"].get(user_id)


def check_contact_in_account(s: State, contact_id: str, account_id: str) -> Row:
    contact = s["contacts"].get(contact_id)
    if contact["account_id"] != account_id:
        account = s["accounts"].get(account_id)
        raise ToolError(f"contact {contact_id} ({contact['name']}) works at "
                        f"{s['accounts'].get(contact['account_id'])['name']}, not at "
                        f"{account['name']}; use search_contacts with account_id="
                        f"'{account_id}' to find that account's contacts")
    return contact


# ----------------------------------------------------------------------------- outputs
def account_out(s: State, row: Row) -> Account:
    deals = s["deals"].rows(lambda d: d["account_id"] == row["account_id"]
                            and d["stage"] in OPEN_STAGES)
    return {**row, "owner_name": rep(s, row["owner_id"])["name"],
            "contact_count": len(s["contacts"].rows(
                lambda c: c["account_id"] == row["account_id"])),
            "open_deal_count": len(deals),
            "annual_revenue": (None if row["annual_revenue"] is None
                               else money.amount_out(s, row["annual_revenue"])),
            "open_pipeline_amount": money.amount_out(s, sum(d["amount"] for d in deals)),
            "currency": money.currency_of(s)}


def weighted(rows: list[Row]) -> int:
    """Probability-weighted value in minor units: each deal's share rounded half to even
    (as deal_out shows it), then summed, so the parts add up to the total."""
    return sum(money.percent(d["amount"], PROBABILITY[d["stage"]]) for d in rows)


def contact_out(s: State, row: Row) -> Contact:
    return {**row, "account_name": s["accounts"].get(row["account_id"])["name"],
            "owner_name": rep(s, row["owner_id"])["name"]}


def deal_out(s: State, row: Row) -> Deal:
    contact = s["contacts"].find(row["primary_contact_id"] or "")
    out = {k: v for k, v in row.items() if k != "stage_history"}
    probability = PROBABILITY[row["stage"]]
    return {**out, "account_name": s["accounts"].get(row["account_id"])["name"],
            "primary_contact_name": contact["name"] if contact else None,
            "owner_name": rep(s, row["owner_id"])["name"], "probability": probability,
            "amount": money.amount_out(s, row["amount"]), "currency": money.currency_of(s),
            "weighted_amount": money.amount_out(s, weighted([row])),
            "allowed_next_stages": list(TRANSITIONS[row["stage"]])}


def activity_out(s: State, row: Row) -> Activity:
    contact = s["contacts"].find(row["contact_id"] or "")
    deal = s["deals"].find(row["deal_id"] or "")
    return {**row, "contact_name": contact["name"] if contact else None,
            "deal_name": deal["name"] if deal else None,
            "logged_by_name": rep(s, row["logged_by_id"])["name"]}


def task_out(s: State, row: Row) -> Task:
    contact = s["contacts"].find(row["contact_id"] or "")
    deal = s["deals"].find(row["deal_id"] or "")
    return {**row, "assignee_name": rep(s, row["assignee_id"])["name"],
            "contact_name": contact["name"] if contact else None,
            "deal_name": deal["name"] if deal else None,
            "overdue": row["status"] == "open" and row["due_date"] < TODAY.isoformat()}
