"""crm tools: contacts and accounts (search, look up, create, update)."""

from __future__ import annotations

from typing import Annotated, Literal

from servers.core import money, paging
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State
from servers.core.world import CITIES
from servers.crm.common import (
    DOMAIN,
    ContactId,
    LifecycleStage,
    Limit,
    account_out,
    activity_out,
    clean,
    contact_out,
    deal_out,
    now,
    rep,
    task_out,
)
from servers.crm.data import OPEN_STAGES
from servers.crm.models import Account, AccountList, Contact, ContactDetail, ContactList

Industry = Literal["automotive", "data", "design", "energy", "finance", "food", "healthcare",
                   "manufacturing", "media", "research", "retail", "software", "transport"]
AccountType = Literal["customer", "prospect", "partner", "churned", "internal"]
PHONE = r"\+?[0-9][0-9 ()-]{6,19}"
EMAIL = r"[^@\s]+@[^@\s]+\.[A-Za-z]{2,}"
DOMAIN_NAME = r"[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+"


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
        phone: Annotated[str | None, Arg("New phone number, e.g. '+44 7700 900123'",
                                         pattern=PHONE)] = None,
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


@DOMAIN.tool(read_only=False)
def create_contact(
        s: State,
        first_name: Annotated[str, Arg("First name", min_length=1, max_length=40)],
        last_name: Annotated[str, Arg("Last name", min_length=1, max_length=40)],
        email: Annotated[str, Arg("Work email, e.g. 'mia.chen@harbor.io'", pattern=EMAIL,
                                  max_length=120)],
        account_id: Annotated[str, Arg("The account (company) they work at, e.g. 'co_h6qmc7' "
                                       "(from search_accounts or create_account)")],
        title: Annotated[str, Arg("Job title", max_length=80)] = "",
        phone: Annotated[str | None, Arg("Phone number, e.g. '+44 7700 900123'",
                                         pattern=PHONE)] = None,
        lifecycle_stage: Annotated[LifecycleStage, Arg("Lifecycle stage")] = "lead",
        owner_id: Annotated[str | None, Arg("Sales rep who owns the contact (person id; "
                                            "default: the account's owner)")] = None
) -> Contact:
    """Add a new contact (a person at an account); new contacts get ids like 'ct_z5m9xk'."""
    account = s["accounts"].get(account_id)
    owner = owner_id or account["owner_id"]
    rep(s, owner)
    if account["type"] == "internal":
        raise ToolError(f"{account['name']} ({account_id}) is your own company's internal "
                        "account; its people are your colleagues, not contacts to sell to")
    first, last = clean(first_name, "first_name"), clean(last_name, "last_name")
    address = email.strip().lower()
    taken = s["contacts"].rows(lambda c: c["email"].lower() == address)
    if taken:
        c = taken[0]
        raise ToolError(f"{address} is already the email of contact {c['contact_id']} "
                        f"({c['name']}); update that contact instead")
    row = s["contacts"].insert({
        "contact_id": s.next_id("ct"), "first_name": first, "last_name": last,
        "name": f"{first} {last}", "email": address, "phone": phone or "",
        "title": title.strip(), "account_id": account_id, "city": account["city"],
        "owner_id": owner, "last_contacted_at": None, "created_at": now(s),
        "lifecycle_stage": lifecycle_stage})
    return contact_out(s, row)


@DOMAIN.tool(read_only=False)
def create_account(
        s: State,
        name: Annotated[str, Arg("Company name", min_length=2, max_length=100)],
        domain: Annotated[str, Arg("Web domain, e.g. 'harbor.io'", pattern=DOMAIN_NAME,
                                   max_length=100)],
        industry: Annotated[Industry, Arg("Industry")],
        city: Annotated[str, Arg("Headquarters city, e.g. 'Berlin'", min_length=2,
                                 max_length=60)],
        country: Annotated[str | None, Arg("Headquarters country (default: the city's, for "
                                           "the world's cities)", min_length=2,
                                           max_length=60)] = None,
        type: Annotated[Literal["prospect", "customer", "partner"], Arg(
            "Relationship")] = "prospect",
        employees: Annotated[int | None, Arg("Number of employees", minimum=1,
                                             maximum=10_000_000)] = None,
        annual_revenue: Annotated[float | None, Arg(
            "Annual revenue in the world's currency, with at most its decimals",
            minimum=0)] = None,
        owner_id: Annotated[str | None, Arg("Sales rep who owns the account (person id; "
                                            "default: you)")] = None) -> Account:
    """Add a new account (company); new accounts get ids like 'acct_yr5mww'."""
    owner = owner_id or s.var("user_id")
    rep(s, owner)
    name, site = clean(name, "name"), domain.strip().lower()
    taken = s["accounts"].rows(lambda a: a["name"].lower() == name.lower()
                               or a["domain"] == site)
    if taken:
        a = taken[0]
        raise ToolError(f"account {a['account_id']} ({a['name']}, {a['domain']}) already has "
                        "that name or domain; use it instead of creating another")
    place = next((c for c in CITIES if c[0].lower() == city.strip().lower()), None)
    if country is None and place is None:
        raise ToolError(f"give the country of {city.strip()!r} (country is only filled in "
                        "for the world's cities)")
    revenue = None if annual_revenue is None else money.amount_in(s, annual_revenue,
                                                                  "annual_revenue")
    row = s["accounts"].insert({
        "account_id": s.next_id("acct"), "name": name, "domain": site,
        "website": f"https://www.{site}", "industry": industry,
        "city": place[0] if place else city.strip(),
        "country": country.strip() if country else place[1], "type": type,
        "employees": employees, "annual_revenue": revenue, "owner_id": owner})
    return account_out(s, row)
