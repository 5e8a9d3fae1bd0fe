"""crm state: accounts are the world's companies, contacts the world's people (contact id = the
person id, so a contact found here is the same person on email and team_chat), deals with
stage histories, activities logged against contacts and deals, and follow-up tasks.

The sales team (deal/task owners) is the principal plus the colleagues at their company.
"""

from __future__ import annotations

import datetime as dt
import random

from servers.core import money
from servers.core.state import State
from servers.core.world import CITIES, World, days_ago

TODAY = dt.date(2026, 6, 15)  # REFERENCE_DATE of every world

# Stage -> win probability (%), and the transitions a sales process allows.
STAGES = ["prospecting", "qualification", "proposal", "negotiation", "closed_won",
          "closed_lost"]
OPEN_STAGES = STAGES[:4]
PROBABILITY = {"prospecting": 10, "qualification": 25, "proposal": 50, "negotiation": 75,
               "closed_won": 100, "closed_lost": 0}
TRANSITIONS = {
    "prospecting": ["qualification", "closed_lost"],
    "qualification": ["prospecting", "proposal", "closed_lost"],
    "proposal": ["qualification", "negotiation", "closed_lost"],
    "negotiation": ["proposal", "closed_won", "closed_lost"],
    "closed_won": [],  # booked revenue is final
    "closed_lost": ["prospecting"],  # a lost deal can be reopened from the start
}
LOST_REASONS = ["price", "competitor", "no_budget", "no_decision", "timing", "other"]
PRODUCTS = ["Platform license", "Analytics add-on", "Support renewal", "Enterprise upgrade",
            "Data migration", "Training package", "API access tier", "Multi-year renewal",
            "Expansion seats", "Onboarding services", "Pilot project", "Managed hosting"]
NEXT_STEPS = ["Send pricing proposal", "Book technical demo", "Security review with IT",
              "Legal redlines on MSA", "Intro call with CFO", "Share case studies",
              "Confirm budget owner", "Run pilot kickoff"]
COUNTRY = {c[0]: c[1] for c in CITIES}

CALL_SUBJECTS = ["Discovery call", "Pricing follow-up call", "Check-in call",
                 "Renewal call", "Call about pilot results"]
MEETING_SUBJECTS = ["Product demo", "Quarterly business review", "Onsite workshop",
                    "Contract negotiation meeting", "Kickoff meeting"]
EMAIL_SUBJECTS = ["Sent proposal PDF", "Shared case study", "Follow-up on demo",
                  "Sent updated quote", "Intro email"]
NOTE_SUBJECTS = ["Budget approved for Q3", "Competitor also in evaluation",
                 "Champion changing roles", "Needs SSO before signing",
                 "Procurement requires 3 quotes"]
BODIES = ["Went through requirements and timeline; they want a decision this quarter.",
          "Asked for a discount on multi-year terms; promised to check with finance.",
          "Good engagement from the team; next step agreed.",
          "Raised concerns about data residency in the EU.",
          "Wants references from customers in the same industry.",
          "Decision moved to the next budget cycle."]
TASK_TITLES = ["Send revised proposal to {first}", "Follow up with {first} on pricing",
               "Schedule demo for {account}", "Prepare contract for {deal}",
               "Call {first} about renewal", "Share security questionnaire with {first}",
               "Update forecast notes for {deal}", "Send thank-you note to {first}"]


def _date(days_from_today: int) -> str:
    return (TODAY + dt.timedelta(days=days_from_today)).isoformat()


# How many deals of each stage a world's pipeline holds (drawn per seed): enough open deals
# for every task to hang on, and more than one page of deals in all.
STAGE_COUNTS = {"prospecting": (3, 9), "qualification": (4, 9), "proposal": (3, 8),
                "negotiation": (2, 7), "closed_won": (6, 14), "closed_lost": (3, 9)}


def _deal_plan(rng: random.Random) -> list[str]:
    """The stage of each deal, in build order (earliest stages first)."""
    return [stage for stage in STAGES for _ in range(rng.randint(*STAGE_COUNTS[stage]))]


def build(s: State, world: World, rng: random.Random) -> None:
    user = world.user
    team = [user] + [p for p in world.people[1:] if p.company_id == user.company_id]
    s.set_var("user_id", user.id)
    cur = world.currency  # deal values and revenues: USD-like magnitudes scaled to it
    money.remember_currency(s, cur)
    reps = s.table("reps", key="user_id", kind="sales rep",
                   hint="owner and assignee ids are sales reps' person ids; "
                        "get_pipeline_summary lists every rep under 'owners'")
    reps.load([{"user_id": p.id, "name": p.name, "email": p.email} for p in team])
    rep_ids = [p.id for p in team]

    accounts = s.table("accounts", key="account_id", kind="account",
                       hint="use search_accounts to find account ids (e.g. 'co_h6qmc7')")
    acc_rows = []
    for c in world.companies:
        kind = ("internal" if c.id == user.company_id else
                rng.choice(["customer"] * 4 + ["prospect"] * 4 + ["partner", "churned"]))
        employees = rng.choice([40, 85, 150, 320, 800, 1500, 4200, 12000])
        acc_rows.append({
            "account_id": c.id, "name": c.name, "domain": c.domain,
            "website": f"https://www.{c.domain}", "industry": c.industry, "city": c.city,
            "country": COUNTRY.get(c.city, ""), "type": kind, "employees": employees,
            "annual_revenue": money.seed(round(employees * rng.uniform(90, 260)) * 1000, cur),
            "owner_id": rng.choice(rep_ids)})
    acc_by_id = {a["account_id"]: a for a in acc_rows}

    contacts = s.table("contacts", key="contact_id", kind="contact",
                       hint="use search_contacts to find contact ids (the person's id, "
                            "e.g. 'p_waqgg5')")
    stage_for = {"customer": ["customer"] * 3 + ["opportunity"], "prospect":
                 ["lead", "lead", "qualified", "opportunity"], "partner": ["other"],
                 "churned": ["churned"], "internal": ["other"]}
    con_rows = [{
        "contact_id": p.id, "first_name": p.first_name, "last_name": p.last_name,
        "name": p.name, "email": p.email, "phone": p.phone, "title": p.title,
        "account_id": p.company_id, "city": p.city,
        "owner_id": acc_by_id[p.company_id]["owner_id"], "last_contacted_at": None,
        "created_at": days_ago(world, rng.randint(120, 720), rng)} for p in world.people[1:]]
    by_account: dict[str, list[dict]] = {}
    for c in con_rows:
        by_account.setdefault(c["account_id"], []).append(c)

    # Deals: on every non-internal account; open ones close in the future, closed ones closed.
    sellable = [a for a in acc_rows if a["type"] != "internal"]
    plan = _deal_plan(rng)
    deal_rows, names = [], set()
    for i, stage in enumerate(plan):
        acc = sellable[i % len(sellable)] if i < len(sellable) else rng.choice(sellable)
        name = f"{acc['name'].split()[0]} - {rng.choice(PRODUCTS)}"
        while name in names:
            name = f"{acc['name'].split()[0]} - {rng.choice(PRODUCTS)}"
        names.add(name)
        contact = rng.choice(by_account[acc["account_id"]])
        owner = acc["owner_id"] if rng.random() < 0.8 else rng.choice(rep_ids)
        closed = stage.startswith("closed")
        close_in = -rng.randint(3, 170) if closed else rng.randint(4, 120)
        age = rng.randint(25, 140) + max(0, -close_in)
        created = days_ago(world, age, rng)
        path = (OPEN_STAGES[:OPEN_STAGES.index(stage) + 1] if not closed else
                [*OPEN_STAGES, "closed_won"] if stage == "closed_won" else
                [*OPEN_STAGES[:rng.randint(1, 4)], "closed_lost"])
        end = -close_in if closed else rng.randint(1, age // 2)
        history, prev = [], None
        for k, to in enumerate(path):
            back = age - round(k * (age - end) / max(1, len(path) - 1))
            when = created if k == 0 else days_ago(world, back, rng)
            history.append({"from_stage": prev, "to_stage": to, "changed_at": when,
                            "changed_by_id": owner})
            prev = to
        deal_rows.append({
            "deal_id": f"dl_{i + 1:04d}", "name": name, "account_id": acc["account_id"],
            "primary_contact_id": contact["contact_id"], "owner_id": owner, "stage": stage,
            "amount": money.seed(min(400_000, max(5000, round(rng.lognormvariate(10.8, 0.8)
                                                              / 500) * 500)), cur),
            "close_date": _date(close_in),
            "next_step": None if closed else rng.choice(NEXT_STEPS),
            "lost_reason": rng.choice(LOST_REASONS) if stage == "closed_lost" else None,
            "created_at": created, "closed_at": history[-1]["changed_at"] if closed else None,
            "stage_history": history})
    s.table("deals", key="deal_id", kind="deal",
            hint="use list_deals to find deal ids (e.g. 'dl_jqcd4j')").load(deal_rows)
    s.set_var("__seq_dl", len(deal_rows))

    # A prospect that has signed a deal is a customer; lifecycle stages follow account types.
    for d in deal_rows:
        if d["stage"] == "closed_won" and acc_by_id[d["account_id"]]["type"] == "prospect":
            acc_by_id[d["account_id"]]["type"] = "customer"
    accounts.load(acc_rows)
    won_contacts = {d["primary_contact_id"] for d in deal_rows if d["stage"] == "closed_won"}
    for c in con_rows:
        kind = acc_by_id[c["account_id"]]["type"]
        c["lifecycle_stage"] = ("customer" if c["contact_id"] in won_contacts
                                and kind != "churned" else rng.choice(stage_for[kind]))

    # Activities, newest last; they set each contact's last_contacted_at.
    subjects = {"call": CALL_SUBJECTS, "meeting": MEETING_SUBJECTS, "email": EMAIL_SUBJECTS,
                "note": NOTE_SUBJECTS}
    last_contact: dict[str, str] = {}
    act_rows = []
    for i in range(rng.randint(55, 90)):
        deal = rng.choice(deal_rows) if rng.random() < 0.8 else None
        acc_id = deal["account_id"] if deal else rng.choice(sellable)["account_id"]
        contact = (deal and rng.random() < 0.7 and deal["primary_contact_id"]) or rng.choice(
            by_account[acc_id])["contact_id"]
        kind = rng.choice(["call", "call", "meeting", "email", "email", "note"])
        when = days_ago(world, 90 - i, rng)
        act_rows.append({
            "activity_id": f"act_{i + 1:04d}", "kind": kind,
            "subject": rng.choice(subjects[kind]), "body": rng.choice(BODIES),
            "contact_id": contact, "deal_id": deal["deal_id"] if deal else None,
            "logged_by_id": deal["owner_id"] if deal else acc_by_id[acc_id]["owner_id"],
            "occurred_at": when,
            "duration_minutes": (rng.choice([10, 15, 20, 30, 45]) if kind == "call" else
                                 rng.choice([30, 45, 60, 90]) if kind == "meeting" else None),
            "outcome": (rng.choice(["connected", "connected", "left_voicemail", "no_answer"])
                        if kind == "call" else None)})
        if kind != "note":
            last_contact[contact] = max(when, last_contact.get(contact, ""))
    s.table("activities", key="activity_id", kind="activity",
            hint="get_deal and get_contact list activities with their ids").load(act_rows)
    s.set_var("__seq_act", len(act_rows))
    contacts.load([{**c, "last_contacted_at": last_contact.get(c["contact_id"])}
                   for c in con_rows])

    task_rows = []
    open_deals = [d for d in deal_rows if d["stage"] in OPEN_STAGES]
    for i in range(rng.randint(22, 38)):
        deal = open_deals[i % len(open_deals)]
        contact = next(c for c in con_rows if c["contact_id"] == deal["primary_contact_id"])
        due_in = rng.randint(-12, 30)
        done = due_in < 0 and rng.random() < 0.5
        task_rows.append({
            "task_id": f"tsk_{i + 1:04d}",
            "title": rng.choice(TASK_TITLES).format(
                first=contact["first_name"], account=acc_by_id[deal["account_id"]]["name"],
                deal=deal["name"]),
            "notes": "", "due_date": _date(due_in),
            "priority": rng.choice(["low", "normal", "normal", "high"]),
            "status": "completed" if done else "open",
            "assignee_id": deal["owner_id"] if rng.random() < 0.7 else rng.choice(rep_ids),
            "contact_id": contact["contact_id"], "deal_id": deal["deal_id"],
            "created_at": days_ago(world, max(0, -due_in) + rng.randint(3, 20), rng),
            "completed_at": days_ago(world, -due_in, rng) if done else None})
    s.table("tasks", key="task_id", kind="task",
            hint="use list_tasks to see task ids (e.g. 'tsk_bqpnga')").load(task_rows)
    s.set_var("__seq_tsk", len(task_rows))
