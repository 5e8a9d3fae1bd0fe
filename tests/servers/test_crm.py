"""crm domain rules: stage transitions, pipeline arithmetic, activity/task rules, and contacts
that are the world's people."""

from __future__ import annotations

from decimal import Decimal

import pytest

from servers.core import money
from servers.core.runtime import Runtime
from servers.core.world import make_world
from servers.crm import DOMAIN
from tests.servers import money_ops
from tests.servers.common import fails, ok, runtime_fixture
from tests.servers.money_ops import SEEDS

rt = runtime_fixture(DOMAIN)


def _dec(x: float) -> Decimal:
    return Decimal(repr(x))


def test_contacts_and_accounts_are_the_worlds_people_and_companies(rt):
    world = make_world(0)
    contacts = ok(rt, "search_contacts", {"limit": 100})
    assert contacts["total"] == len(world.people) - 1  # everyone but the user
    for c in contacts["contacts"]:
        person = world.person(c["contact_id"])
        assert (c["name"], c["email"], c["phone"]) == (person.name, person.email, person.phone)
        assert c["account_name"] == world.company(person.company_id).name
    accounts = ok(rt, "search_accounts", {"limit": 100})["accounts"]
    assert {(a["name"], a["domain"]) for a in accounts} == {
        (c.name, c.domain) for c in world.companies}
    hiro = ok(rt, "search_contacts", {"query": "hiro greensoftware"})["contacts"]
    assert [c["contact_id"] for c in hiro] == ["p_004"]


def test_stage_moves_follow_the_sales_process_and_winning_makes_a_customer(rt):
    deal = ok(rt, "get_deal", {"deal_id": "dl_0001"})["deal"]
    assert deal["stage"] == "prospecting"
    fails(rt, "update_deal_stage", {"deal_id": "dl_0001", "stage": "negotiation"},
           "allowed next stages: qualification, closed_lost")
    fails(rt, "update_deal_stage", {"deal_id": "dl_0001", "stage": "closed_lost"},
           "lost_reason")
    for stage in ("qualification", "proposal", "negotiation", "closed_won"):
        deal = ok(rt, "update_deal_stage", {"deal_id": "dl_0001", "stage": stage})
    assert deal["probability"] == 100 and deal["closed_at"] and deal["close_date"] == "2026-06-15"
    account = ok(rt, "get_account", {"account_id": deal["account_id"]})["account"]
    assert account["type"] == "customer"
    contact = ok(rt, "get_contact", {"contact_id": deal["primary_contact_id"]})["contact"]
    assert contact["lifecycle_stage"] == "customer"
    history = ok(rt, "get_deal", {"deal_id": "dl_0001"})["stage_history"]
    assert [h["to_stage"] for h in history[-4:]] == ["qualification", "proposal", "negotiation",
                                                     "closed_won"]
    fails(rt, "update_deal_stage", {"deal_id": "dl_0001", "stage": "negotiation"},
           "closed_won is final")
    fails(rt, "update_deal", {"deal_id": "dl_0001", "amount": 1000}, "closed deals")


def test_lost_deal_needs_a_reason_and_can_be_reopened(rt):
    fails(rt, "update_deal_stage", {"deal_id": "dl_0002", "stage": "qualification",
                                     "lost_reason": "price"}, "only for stage closed_lost")
    lost = ok(rt, "update_deal_stage", {"deal_id": "dl_0002", "stage": "closed_lost",
                                         "lost_reason": "competitor"})
    assert lost["lost_reason"] == "competitor" and lost["allowed_next_stages"] == ["prospecting"]
    reopened = ok(rt, "update_deal_stage", {"deal_id": "dl_0002", "stage": "prospecting"})
    assert reopened["lost_reason"] is None and reopened["closed_at"] is None


def test_pipeline_summary_moves_the_amount_from_open_to_won(rt):
    before = ok(rt, "get_pipeline_summary", {})
    all_deals = ok(rt, "list_deals", {"limit": 100})
    assert sum(_dec(st["amount"]) for st in before["stages"]) == _dec(all_deals["total_amount"])
    assert sum(_dec(o["open_amount"]) for o in before["owners"]) == _dec(before["open_amount"])
    assert sum(_dec(o["weighted_amount"]) for o in before["owners"]) == _dec(
        before["weighted_amount"])  # each deal's share rounded once, so the parts add up
    deal = ok(rt, "get_deal", {"deal_id": "dl_0021"})["deal"]
    assert deal["stage"] == "negotiation"
    ok(rt, "update_deal_stage", {"deal_id": "dl_0021", "stage": "closed_won"})
    after = ok(rt, "get_pipeline_summary", {})
    assert _dec(after["open_amount"]) == _dec(before["open_amount"]) - _dec(deal["amount"])
    assert _dec(after["won_amount"]) == _dec(before["won_amount"]) + _dec(deal["amount"])
    assert after["open_deals"] == before["open_deals"] - 1


def test_create_deal_rules(rt):
    base = {"account_id": "co_004", "name": "GreenSoftware - Analytics add-on",
            "amount": 45000, "close_date": "2026-09-30"}
    fails(rt, "create_deal", {**base, "account_id": "co_006"}, "internal account")
    fails(rt, "create_deal", {**base, "primary_contact_id": "p_002"}, "not at GreenSoftware")
    fails(rt, "create_deal", {**base, "close_date": "2026-06-01"}, "in the past")
    fails(rt, "create_deal", {**base, "close_date": "2026-02-30"}, "not a valid calendar date")
    deal = ok(rt, "create_deal", base)
    assert deal["deal_id"] == "dl_0041" and deal["owner_id"] == "p_001"
    assert deal["stage"] == "prospecting" and deal["weighted_amount"] == 4500.0  # 10%
    assert (deal["amount"], deal["currency"]) == (45000, "EUR")
    fails(rt, "create_deal", base, "already has an open deal")


def test_logging_activities_checks_links_and_updates_last_contacted(rt):
    fails(rt, "log_activity", {"kind": "call", "subject": "Check-in", "contact_id": "p_002",
                                "deal_id": "dl_0004"}, "not at GreenSoftware")
    fails(rt, "log_activity", {"kind": "note", "subject": "Thoughts"}, "contact_id, a deal_id")
    fails(rt, "log_activity", {"kind": "email", "subject": "Quote", "contact_id": "p_004",
                                "duration_minutes": 5}, "only for calls and meetings")
    fails(rt, "log_activity", {"kind": "call", "subject": "Call", "contact_id": "p_004",
                                "occurred_on": "2026-07-01"}, "in the future")
    note = ok(rt, "log_activity", {"kind": "note", "subject": "Budget approved",
                                    "contact_id": "p_004"})
    contact = ok(rt, "get_contact", {"contact_id": "p_004"})
    assert contact["contact"]["last_contacted_at"] is None  # a note is not contact
    assert contact["recent_activities"][0]["activity_id"] == note["activity_id"]
    call = ok(rt, "log_activity", {"kind": "call", "subject": "Pricing call",
                                    "contact_id": "p_004", "deal_id": "dl_0004",
                                    "outcome": "connected", "duration_minutes": 15})
    contact = ok(rt, "get_contact", {"contact_id": "p_004"})["contact"]
    assert contact["last_contacted_at"] == call["occurred_at"]
    listed = ok(rt, "list_activities", {"deal_id": "dl_0004"})["activities"]
    assert listed[0]["activity_id"] == call["activity_id"]


def test_task_lifecycle(rt):
    fails(rt, "create_task", {"title": "Call Hiro", "due_date": "2026-06-01"}, "in the past")
    fails(rt, "create_task", {"title": "Call Hiro", "due_date": "2026-06-20",
                               "assignee_id": "p_004"}, "sales rep")
    task = ok(rt, "create_task", {"title": "Call Hiro", "due_date": "2026-06-20",
                                   "contact_id": "p_004"})
    assert task["assignee_id"] == "p_001" and task["status"] == "open"
    done = ok(rt, "update_task", {"task_id": task["task_id"], "status": "completed"})
    assert done["completed_at"] is not None
    fails(rt, "update_task", {"task_id": task["task_id"], "status": "completed"},
           "already completed")
    fails(rt, "update_task", {"task_id": task["task_id"], "priority": "high"}, "reopen it")
    again = ok(rt, "update_task", {"task_id": task["task_id"], "status": "open",
                                    "assignee_id": "p_006"})
    assert again["assignee_name"] == "Nikolai Patel" and again["completed_at"] is None
    overdue = ok(rt, "list_tasks", {"status": "overdue", "limit": 100})["tasks"]
    assert overdue and all(t["overdue"] and t["due_date"] < "2026-06-15" for t in overdue)


# ------------------------------------------------------------------ exact money


def test_deal_values_follow_the_currency(rt):
    base = {"account_id": "co_004", "name": "Add-on", "close_date": "2026-09-30"}
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
