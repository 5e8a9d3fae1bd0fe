"""crm tools: contacts and accounts."""

from __future__ import annotations

from typing import Annotated, Literal

from servers.core import paging
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State
from servers.crm.common import (
    DOMAIN,
    AccountId,
    ContactId,
    LifecycleStage,
    Limit,
    account_out,
    activity_out,
    clean,
    contact_out,
    deal_out,
    rep,
    task_out,
)
from servers.crm.data import OPEN_STAGES
from servers.crm.models import AccountDetail, AccountList, Contact, ContactDetail, ContactList

Industry = Literal["automotive", "data", "design", "energy", "finance", "food", "healthcare",
                   "manufacturing", "media", "research", "retail", "software", "transport"]
AccountType = Literal["customer", "prospect", "partner", "churned", "internal"]


def _matches(query: str, *fields: str) -> bool:
    """Every word of the query appears in one of the fields (case-insensitive)."""
    hay = " ".join(fields).lower()
    return all(word in hay for word in query.lower().split())


@DOMAIN.tool(read_only=True)
def search_contacts(
        s: State,
        query: Annotated[str | None, Arg(
            "Words to match against name, email, company name and job title, e.g. "
            "'hiro bauer' or 'greensoftware'", min_length=1, max_length=100)] = None,
        account_id: Annotated[str | None, Arg("Only contacts at this account (from "
                                              "search_accounts)")] = None,
        lifecycle_stage: Annotated[LifecycleStage | None, Arg(
            "Only contacts in this lifecycle stage")] = None,
        owner_id: Annotated[str | None, Arg("Only contacts owned by this sales rep (person id)"
                                            )] = None,
        limit: paging.Limit = 20, cursor: paging.Cursor = None) -> ContactList:
    """Search contacts (people at accounts) by name, email, company or title; sorted by name.
    A contact's id is the person's id, the same person on email and chat."""
    if account_id is not None:
        s["accounts"].get(account_id)
    if owner_id is not None:
        rep(s, owner_id)
    rows = []
    for c in s["contacts"].rows():
        account = s["accounts"].get(c["account_id"])
        if ((query is None or _matches(query, c["name"], c["email"], account["name"],
                                       c["title"]))
                and (account_id is None or c["account_id"] == account_id)
                and (lifecycle_stage is None or c["lifecycle_stage"] == lifecycle_stage)
                and (owner_id is None or c["owner_id"] == owner_id)):
            rows.append(c)
    rows.sort(key=lambda c: (c["last_name"], c["first_name"]))
    pg = paging.page(rows, limit, cursor, key="contact_id")
    return {"contacts": [contact_out(s, c) for c in pg.rows], "total": len(rows),
            "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=True)
def get_contact(s: State, contact_id: ContactId) -> ContactDetail:
    """Get one contact with their open deals, 5 most recent activities and open tasks."""
    contact = s["contacts"].get(contact_id)
    deals = s["deals"].rows(lambda d: d["primary_contact_id"] == contact_id
                            and d["stage"] in OPEN_STAGES)
    acts = sorted(s["activities"].rows(lambda a: a["contact_id"] == contact_id),
                  key=lambda a: a["occurred_at"], reverse=True)[:5]
    tasks = sorted(s["tasks"].rows(lambda t: t["contact_id"] == contact_id
                                   and t["status"] == "open"), key=lambda t: t["due_date"])
    return {"contact": contact_out(s, contact), "open_deals": [deal_out(s, d) for d in deals],
            "recent_activities": [activity_out(s, a) for a in acts],
            "open_tasks": [task_out(s, t) for t in tasks]}


@DOMAIN.tool(read_only=False)
def update_contact(
        s: State, contact_id: ContactId,
        title: Annotated[str | None, Arg("New job title", min_length=2, max_length=80)] = None,
        phone: Annotated[str | None, Arg("New phone number, e.g. '+1-555-201-3344'",
                                         pattern=r"\+?[0-9][0-9 ()-]{6,19}")] = None,
        lifecycle_stage: Annotated[LifecycleStage | None, Arg("New lifecycle stage")] = None,
        owner_id: Annotated[str | None, Arg("Hand the contact to this sales rep (person id)"
                                            )] = None) -> Contact:
    """Update a contact's title, phone, lifecycle stage or owner (name, email and company come
    from the person's record and cannot be changed here)."""
    contact = s["contacts"].get(contact_id)
    if owner_id is not None:
        rep(s, owner_id)
    changes = {k: v for k, v in (("title", title and clean(title, "title")), ("phone", phone),
                                 ("lifecycle_stage", lifecycle_stage),
                                 ("owner_id", owner_id)) if v is not None}
    if not changes:
        raise ToolError("nothing to update; pass at least one of title, phone, "
                        "lifecycle_stage, owner_id")
    same = [k for k, v in changes.items() if contact[k] == v]
    if len(same) == len(changes):
        raise ToolError(f"contact {contact_id} already has {', '.join(same)} set to those "
                        "values; nothing changed")
    return contact_out(s, s["contacts"].update(contact_id, **changes))


@DOMAIN.tool(read_only=True)
def search_accounts(
        s: State,
        query: Annotated[str | None, Arg("Part of the company name or web domain, e.g. "
                                         "'harbor'", min_length=1, max_length=100)] = None,
        industry: Annotated[Industry | None, Arg("Only accounts in this industry")] = None,
        city: Annotated[str | None, Arg("Only accounts headquartered in this city, e.g. "
                                        "'Berlin'", min_length=2, max_length=60)] = None,
        type: Annotated[AccountType | None, Arg("Only accounts of this type")] = None,
        limit: Limit = 20) -> AccountList:
    """Search accounts (companies) by name or domain, industry, city and type."""
    rows = [a for a in s["accounts"].rows()
            if (query is None or _matches(query, a["name"], a["domain"]))
            and (industry is None or a["industry"] == industry)
            and (city is None or a["city"].lower() == city.strip().lower())
            and (type is None or a["type"] == type)]
    rows.sort(key=lambda a: a["name"])
    return {"accounts": [account_out(s, a) for a in rows[:limit]], "total": len(rows)}


@DOMAIN.tool(read_only=True)
def get_account(s: State, account_id: AccountId) -> AccountDetail:
    """Get one account with all its contacts and deals (open deals first)."""
    account = s["accounts"].get(account_id)
    contacts = sorted(s["contacts"].rows(lambda c: c["account_id"] == account_id),
                      key=lambda c: c["name"])
    deals = sorted(s["deals"].rows(lambda d: d["account_id"] == account_id),
                   key=lambda d: (d["stage"] not in OPEN_STAGES, d["close_date"]))
    return {"account": account_out(s, account),
            "contacts": [contact_out(s, c) for c in contacts],
            "deals": [deal_out(s, d) for d in deals]}
