"""crm domain rules: stage transitions, pipeline arithmetic, activity/task rules, and contacts
that are the world's people."""

from __future__ import annotations

from decimal import Decimal

import pytest

from servers.core import ids, money
from servers.core.runtime import Runtime
from servers.core.world import make_world
from servers.crm import DOMAIN
from tests.servers import money_ops
from tests.servers.common import (
    assert_world_varies,
    fails,
    ok,
    row_where,
    rows_where,
    runtime_fixture,
    state,
)
from tests.servers.money_ops import SEEDS

rt = runtime_fixture(DOMAIN)


def _account(rt: Runtime, account_id: str) -> dict:
    """The account as search_accounts shows it."""
    found = ok(rt, "search_accounts", {"limit": 100})["accounts"]
    return next(a for a in found if a["account_id"] == account_id)


def _dec(x: float) -> Decimal:
    return Decimal(repr(x))


def _contact_id(rt: Runtime, name: str) -> str:
    return row_where(rt, "contacts", name=name)["contact_id"]


def _account_id(rt: Runtime, name: str) -> str:
    return row_where(rt, "accounts", name=name)["account_id"]


def _user_id(rt: Runtime) -> str:
    return state(rt).var("user_id")


def _deal_ids(rt: Runtime, stage: str, account_types: tuple = ()) -> list[str]:
    """Ids of the deals in `stage` (on accounts of those types, when given), in build order."""
    types = {a["account_id"]: a["type"] for a in rows_where(rt, "accounts")}
    return [d["deal_id"] for d in rows_where(rt, "deals", stage=stage)
            if not account_types or types[d["account_id"]] in account_types]


def test_world_varies_by_seed():
    assert_world_varies("crm", {"deals": "stage", "tasks": "status", "activities": "kind"})


def test_contacts_and_accounts_are_the_worlds_people_and_companies(rt):
    world = make_world(0)
    people = {ids.opaque(world.seed, p.id): p for p in world.people}  # as the state shows ids
    contacts = ok(rt, "search_contacts", {"limit": 100})
    assert contacts["total"] == len(world.people) - 1  # everyone but the user
    for c in contacts["contacts"]:
        person = people[c["contact_id"]]
        assert (c["name"], c["email"], c["phone"]) == (person.name, person.email, person.phone)
        assert c["account_name"] == world.company(person.company_id).name
    accounts = ok(rt, "search_accounts", {"limit": 100})["accounts"]
    assert {(a["name"], a["domain"]) for a in accounts} == {
        (c.name, c.domain) for c in world.companies}
    hiro = ok(rt, "search_contacts", {"query": "hiro greensoftware"})["contacts"]
    assert [c["contact_id"] for c in hiro] == [ids.opaque(world.seed, "p_004")]


def test_stage_moves_follow_the_sales_process_and_winning_makes_a_customer(rt):
    deal_id = _deal_ids(rt, "prospecting", ("prospect", "customer", "churned"))[0]
    deal = ok(rt, "get_deal", {"deal_id": deal_id})["deal"]
    assert deal["stage"] == "prospecting"
    fails(rt, "update_deal_stage", {"deal_id": deal_id, "stage": "negotiation"},
           "allowed next stages: qualification, closed_lost")
    fails(rt, "update_deal_stage", {"deal_id": deal_id, "stage": "closed_lost"},
           "lost_reason")
    for stage in ("qualification", "proposal", "negotiation", "closed_won"):
        deal = ok(rt, "update_deal_stage", {"deal_id": deal_id, "stage": stage})
    assert deal["probability"] == 100 and deal["closed_at"] and deal["close_date"] == "2026-06-15"
    account = _account(rt, deal["account_id"])
    assert account["type"] == "customer"
    contact = ok(rt, "get_contact", {"contact_id": deal["primary_contact_id"]})["contact"]
    assert contact["lifecycle_stage"] == "customer"
    history = ok(rt, "get_deal", {"deal_id": deal_id})["stage_history"]
    assert [h["to_stage"] for h in history[-4:]] == ["qualification", "proposal", "negotiation",
                                                     "closed_won"]
    fails(rt, "update_deal_stage", {"deal_id": deal_id, "stage": "negotiation"},
           "closed_won is final")
    fails(rt, "update_deal", {"deal_id": deal_id, "amount": 1000}, "closed deals")


def test_lost_deal_needs_a_reason_and_can_be_reopened(rt):
    deal_id = _deal_ids(rt, "prospecting")[1]
    fails(rt, "update_deal_stage", {"deal_id": deal_id, "stage": "qualification",
                                     "lost_reason": "price"}, "only for stage closed_lost")
    lost = ok(rt, "update_deal_stage", {"deal_id": deal_id, "stage": "closed_lost",
                                         "lost_reason": "competitor"})
    assert lost["lost_reason"] == "competitor" and lost["allowed_next_stages"] == ["prospecting"]
    reopened = ok(rt, "update_deal_stage", {"deal_id": deal_id, "stage": "prospecting"})
    assert reopened["lost_reason"] is None and reopened["closed_at"] is None


def test_pipeline_summary_moves_the_amount_from_open_to_won(rt):
    before = ok(rt, "get_pipeline_summary", {})
    all_deals = ok(rt, "list_deals", {"limit": 100})
    assert sum(_dec(st["amount"]) for st in before["stages"]) == _dec(all_deals["total_amount"])
    assert sum(_dec(o["open_amount"]) for o in before["owners"]) == _dec(before["open_amount"])
    assert sum(_dec(o["weighted_amount"]) for o in before["owners"]) == _dec(
        before["weighted_amount"])  # each deal's share rounded once, so the parts add up
    deal_id = _deal_ids(rt, "negotiation")[0]
    deal = ok(rt, "get_deal", {"deal_id": deal_id})["deal"]
    assert deal["stage"] == "negotiation"
    ok(rt, "update_deal_stage", {"deal_id": deal_id, "stage": "closed_won"})
    after = ok(rt, "get_pipeline_summary", {})
    assert _dec(after["open_amount"]) == _dec(before["open_amount"]) - _dec(deal["amount"])
    assert _dec(after["won_amount"]) == _dec(before["won_amount"]) + _dec(deal["amount"])
    assert after["open_deals"] == before["open_deals"] - 1


def test_create_deal_rules(rt):
    base = {"account_id": _account_id(rt, "GreenSoftware Inc"),
            "name": "GreenSoftware - Analytics add-on", "amount": 45000,
            "close_date": "2026-09-30"}
    internal = row_where(rt, "accounts", type="internal")["account_id"]
    fails(rt, "create_deal", {**base, "account_id": internal}, "internal account")
    fails(rt, "create_deal", {**base, "primary_contact_id": _contact_id(rt, "Amara Okafor")},
          "not at GreenSoftware")
    fails(rt, "create_deal", {**base, "close_date": "2026-06-01"}, "in the past")
    fails(rt, "create_deal", {**base, "close_date": "2026-02-30"}, "not a valid calendar date")
    next_deal = ids.opaque(0, f"dl_{len(rows_where(rt, 'deals')) + 1}")  # the next built one
    deal = ok(rt, "create_deal", base)
    assert deal["deal_id"] == next_deal and deal["owner_id"] == _user_id(rt)
    assert deal["stage"] == "prospecting" and deal["weighted_amount"] == 4500.0  # 10%
    assert (deal["amount"], deal["currency"]) == (45000, "EUR")
    fails(rt, "create_deal", base, "already has an open deal")


def test_logging_activities_checks_links_and_updates_last_contacted(rt):
    hiro = _contact_id(rt, "Hiro Bauer")  # at GreenSoftware
    deal_id = row_where(rt, "deals", account_id=_account_id(rt, "GreenSoftware Inc"))["deal_id"]
    fails(rt, "log_activity", {"kind": "call", "subject": "Check-in",
                                "contact_id": _contact_id(rt, "Amara Okafor"),
                                "deal_id": deal_id}, "not at GreenSoftware")
    fails(rt, "log_activity", {"kind": "note", "subject": "Thoughts"}, "contact_id, a deal_id")
    fails(rt, "log_activity", {"kind": "email", "subject": "Quote", "contact_id": hiro,
                                "duration_minutes": 5}, "only for calls and meetings")
    fails(rt, "log_activity", {"kind": "call", "subject": "Call", "contact_id": hiro,
                                "occurred_on": "2026-07-01"}, "in the future")
    before = row_where(rt, "contacts", contact_id=hiro)["last_contacted_at"]
    note = ok(rt, "log_activity", {"kind": "note", "subject": "Budget approved",
                                    "contact_id": hiro})
    contact = ok(rt, "get_contact", {"contact_id": hiro})
    assert contact["contact"]["last_contacted_at"] == before  # a note is not contact
    assert contact["recent_activities"][0]["activity_id"] == note["activity_id"]
    call = ok(rt, "log_activity", {"kind": "call", "subject": "Pricing call",
                                    "contact_id": hiro, "deal_id": deal_id,
                                    "outcome": "connected", "duration_minutes": 15})
    contact = ok(rt, "get_contact", {"contact_id": hiro})["contact"]
    assert contact["last_contacted_at"] == call["occurred_at"]
    listed = ok(rt, "get_deal", {"deal_id": deal_id})["activities"]
    assert listed[0]["activity_id"] == call["activity_id"]


def test_task_lifecycle(rt):
    hiro = _contact_id(rt, "Hiro Bauer")
    fails(rt, "create_task", {"title": "Call Hiro", "due_date": "2026-06-01"}, "in the past")
    fails(rt, "create_task", {"title": "Call Hiro", "due_date": "2026-06-20",
                               "assignee_id": hiro}, "sales rep")
    task = ok(rt, "create_task", {"title": "Call Hiro", "due_date": "2026-06-20",
                                   "contact_id": hiro})
    assert task["assignee_id"] == _user_id(rt) and task["status"] == "open"
    done = ok(rt, "update_task", {"task_id": task["task_id"], "status": "completed"})
    assert done["completed_at"] is not None
    fails(rt, "update_task", {"task_id": task["task_id"], "status": "completed"},
           "already completed")
    fails(rt, "update_task", {"task_id": task["task_id"], "priority": "high"}, "reopen it")
    nikolai = row_where(rt, "reps", name="Nikolai Patel")["user_id"]
    again = ok(rt, "update_task", {"task_id": task["task_id"], "status": "open",
                                    "assignee_id": nikolai})
    assert again["assignee_name"] == "Nikolai Patel" and again["completed_at"] is None
    overdue = ok(rt, "list_tasks", {"status": "overdue", "limit": 100})["tasks"]
    assert overdue and all(t["overdue"] and t["due_date"] < "2026-06-15" for t in overdue)


# ------------------------------------------------------------------ exact money


def test_deal_values_follow_the_currency(rt):
    base = {"account_id": _account_id(rt, "GreenSoftware Inc"), "name": "Add-on",
            "close_date": "2026-09-30"}
    fails(rt, "create_deal", {**base, "amount": 1000.005},
          "amount 1000.005 has more decimals than EUR allows (2)")
    fails(rt, "create_deal", {**base, "amount": 50}, "at least 90.00 EUR")
    deal = ok(rt, "create_deal", {**base, "amount": 1234.55})
    assert deal["weighted_amount"] == 123.46  # 10% of 1234.55 = 123.455 -> half to even
    jpy = Runtime(DOMAIN, default_seed=10)
    deals = ok(jpy, "list_deals", {"limit": 100})
    assert deals["currency"] == "JPY" and isinstance(deals["total_amount"], int)
    assert all(isinstance(d["amount"], int) and d["currency"] == "JPY" for d in deals["deals"])


def _makers() -> dict:
    return {
        "update_deal": lambda rng, s: {"deal_id": rng.choice(s["deals"].ids()),
                                       "amount": money_ops.amount(rng, s, 500, 90000)},
        "update_deal_stage": lambda rng, s: {
            "deal_id": rng.choice(s["deals"].ids()),
            "stage": rng.choice(["qualification", "proposal", "negotiation", "closed_won",
                                 "prospecting"])},
        "create_deal": lambda rng, s: {
            "account_id": rng.choice(s["accounts"].ids()), "name": f"Deal {rng.random():.6f}",
            "amount": money_ops.amount(rng, s, 500, 90000), "close_date": "2026-09-30"},
    }


@pytest.mark.parametrize("seed", SEEDS)
def test_pipeline_reconciles_with_deals_after_1000_random_operations(seed):
    rt = Runtime(DOMAIN, default_seed=seed)
    s, cur = rt.session(None).state, make_world(seed).currency
    done, failed = money_ops.run_ops(rt, _makers(), 1000, seed)
    assert len(done) > 200 and failed > 20
    last = {}
    for tool, args, result in done:  # each deal holds the last value given to it, exactly
        if tool in ("create_deal", "update_deal"):
            last[result["deal_id"]] = money_ops.minor(args["amount"], cur)
    assert all(s["deals"].get(k)["amount"] == v for k, v in last.items())
    summary = ok(rt, "get_pipeline_summary", {})
    deals = s["deals"].rows()
    open_ = [d["amount"] for d in deals if d["stage"] not in ("closed_won", "closed_lost")]
    assert money_ops.minor(summary["open_amount"], cur) == sum(open_)
    assert money_ops.minor(summary["won_amount"], cur) == sum(
        d["amount"] for d in deals if d["stage"] == "closed_won")
    assert sum(money_ops.minor(st["amount"], cur) for st in summary["stages"]) == sum(
        d["amount"] for d in deals)
    assert money.currency_of(s) == summary["currency"] == cur


# ------------------------------------------------------------------ create_account / contact


def _state(rt: Runtime):
    return rt.session(None).state


@pytest.mark.parametrize("seed", SEEDS)
def test_a_created_account_and_contact_are_found_by_search_and_get_and_can_hold_deals(seed):
    rt = Runtime(DOMAIN, default_seed=seed)
    cur = make_world(seed).currency
    revenue = money.to_major(money.seed(1_500_000, cur), cur)
    account = ok(rt, "create_account", {"name": "Harbor Analytics", "domain": "Harbor.io",
                                        "industry": "data", "city": "lisbon",
                                        "employees": 60, "annual_revenue": revenue})
    aid = account["account_id"]
    assert aid not in {c.id for c in make_world(seed).companies}  # a new id, not a world one
    assert (account["city"], account["country"], account["domain"]) == (
        "Lisbon", "Portugal", "harbor.io")
    assert account["annual_revenue"] == revenue and account["currency"] == cur
    assert account["owner_id"] == _state(rt).var("user_id") and account["type"] == "prospect"
    assert _account(rt, aid) == account
    found = ok(rt, "search_accounts", {"query": "harbor analytics"})["accounts"]
    assert [a["account_id"] for a in found] == [aid]

    contact = ok(rt, "create_contact", {"first_name": "Mia", "last_name": "Chen",
                                        "email": "Mia.Chen@harbor.io", "account_id": aid,
                                        "title": "Head of Data"})
    cid = contact["contact_id"]
    assert contact["email"] == "mia.chen@harbor.io" and contact["owner_id"] == account["owner_id"]
    assert contact["account_name"] == "Harbor Analytics"
    assert contact["lifecycle_stage"] == "lead" and contact["city"] == "Lisbon"
    assert ok(rt, "get_contact", {"contact_id": cid})["contact"] == contact
    by_account = ok(rt, "search_contacts", {"account_id": aid})["contacts"]
    assert [c["contact_id"] for c in by_account] == [cid]
    assert _account(rt, aid)["contact_count"] == 1
    deal = ok(rt, "create_deal", {"account_id": aid, "name": "Harbor - Pilot",
                                  "amount": money.to_major(money.seed(20_000, cur), cur),
                                  "close_date": "2026-08-01", "primary_contact_id": cid})
    assert ok(rt, "get_contact", {"contact_id": cid})["open_deals"][0]["deal_id"] == \
        deal["deal_id"]
    log = ok(rt, "log_activity", {"kind": "call", "subject": "Intro call", "contact_id": cid})
    assert ok(rt, "get_contact", {"contact_id": cid})["contact"]["last_contacted_at"] == \
        log["occurred_at"]


@pytest.mark.parametrize("seed", SEEDS)
def test_create_contact_refuses_duplicates_unknown_and_internal_accounts(seed):
    rt = Runtime(DOMAIN, default_seed=seed)
    s = _state(rt)
    taken = s["contacts"].rows()[0]
    account = next(a for a in s["accounts"].rows() if a["type"] != "internal")
    internal = next(a for a in s["accounts"].rows() if a["type"] == "internal")
    base = {"first_name": "Ana", "last_name": "Lima", "email": "ana.lima@example.com",
            "account_id": account["account_id"]}
    fails(rt, "create_contact", {**base, "email": taken["email"].upper()},
          f"already the email of contact {taken['contact_id']}")
    fails(rt, "create_contact", {**base, "account_id": "co_999"}, "no account with id 'co_999'")
    fails(rt, "create_contact", {**base, "account_id": internal["account_id"]},
          "internal account")
    customer = next(c for c in s["contacts"].ids() if c not in s["reps"])
    fails(rt, "create_contact", {**base, "owner_id": customer}, f"no sales rep with id "
          f"{customer!r}")
    fails(rt, "create_contact", {**base, "first_name": "  "}, "first_name must not be blank")
    made = ok(rt, "create_contact", base)
    fails(rt, "create_contact", {**base, "first_name": "Anna"}, made["contact_id"])


@pytest.mark.parametrize("seed", SEEDS)
def test_create_account_refuses_duplicates_and_places_it_cannot_resolve(seed):
    rt = Runtime(DOMAIN, default_seed=seed)
    existing = _state(rt)["accounts"].rows()[0]
    base = {"name": "Nimbus Labs", "domain": "nimbus-labs.dev", "industry": "software",
            "city": "Berlin"}
    fails(rt, "create_account", {**base, "name": existing["name"].lower()},
          f"account {existing['account_id']}", "already has that name or domain")
    fails(rt, "create_account", {**base, "domain": existing["domain"]},
          existing["account_id"])
    fails(rt, "create_account", {**base, "city": "Springfield"}, "country of 'Springfield'")
    cur = make_world(seed).currency
    if cur == "JPY":
        fails(rt, "create_account", {**base, "annual_revenue": 10.5}, "more decimals")
    else:
        fails(rt, "create_account", {**base, "annual_revenue": 10.005}, "more decimals")
    fails(rt, "create_account", {**base, "owner_id": "p_999"}, "p_999")
    made = ok(rt, "create_account", {**base, "city": "Springfield", "country": "USA"})
    assert (made["city"], made["country"], made["employees"], made["annual_revenue"]) == (
        "Springfield", "USA", None, None)
    fails(rt, "create_account", base, made["account_id"])
