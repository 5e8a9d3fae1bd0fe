"""crm tools: deals (opportunities), stage changes and the pipeline summary."""

from __future__ import annotations

from typing import Annotated, Literal

from servers.core import money, paging
from servers.core.clock import future_date, parse_date
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State
from servers.crm.common import (
    DATE,
    DOMAIN,
    AccountId,
    DealId,
    LostReason,
    Stage,
    activity_out,
    check_contact_in_account,
    clean,
    deal_out,
    now,
    rep,
    task_out,
    weighted,
)
from servers.crm.data import OPEN_STAGES, STAGES, TODAY, TRANSITIONS
from servers.crm.models import Deal, DealDetail, DealList, PipelineSummary

Amount = Annotated[float, Arg(
    "Deal value in the world's currency (see any deal's `currency`), with at most its "
    "decimals (2 for EUR/USD, 0 for JPY)", minimum=0.01)]
MIN_DEAL_USD, MAX_DEAL_USD = 100, 10_000_000  # scaled to the world's currency


def _amount_in(s: State, value: float) -> int:
    """A deal value -> minor units: the currency's precision, within the scaled bounds."""
    minor = money.amount_in(s, value)
    low, high = money.limit(s, MIN_DEAL_USD), money.limit(s, MAX_DEAL_USD)
    if not low <= minor <= high:
        cur = money.currency_of(s)
        raise ToolError(f"amount {value} is out of range; use at least {money.fmt(low, cur)} "
                        f"and at most {money.fmt(high, cur)}")
    return minor
DealName = Annotated[str, Arg("Deal name, e.g. 'NorthMotors - Fleet analytics pilot'",
                              min_length=3, max_length=120)]
StageFilter = Literal["open", "prospecting", "qualification", "proposal", "negotiation",
                      "closed_won", "closed_lost"]
NextStep = Annotated[str | None, Arg("The agreed next step, e.g. 'Send pricing proposal'",
                                     max_length=200)]


def _locked(deal: dict) -> None:
    if deal["stage"] not in OPEN_STAGES:
        raise ToolError(f"deal {deal['deal_id']} is {deal['stage']}; closed deals cannot be "
                        "edited (a closed_lost deal can be reopened with update_deal_stage "
                        "stage='prospecting')")


def _check_name(s: State, account_id: str, name: str, deal_id: str | None = None) -> None:
    for d in s["deals"].rows(lambda d: d["account_id"] == account_id
                             and d["stage"] in OPEN_STAGES and d["deal_id"] != deal_id):
        if d["name"].lower() == name.lower():
            raise ToolError(f"account {account_id} already has an open deal named {name!r} "
                            f"({d['deal_id']}); update that deal or choose another name")


@DOMAIN.tool(read_only=True)
def list_deals(
        s: State,
        stage: Annotated[StageFilter | None, Arg(
            "Only deals in this stage; 'open' = any stage not yet closed")] = None,
        owner_id: Annotated[str | None, Arg("Only deals owned by this sales rep (person id)"
                                            )] = None,
        account_id: Annotated[str | None, Arg("Only deals with this account")] = None,
        contact_id: Annotated[str | None, Arg("Only deals whose primary contact is this "
                                              "person")] = None,
        close_date_from: Annotated[str | None, Arg("Close date on or after (YYYY-MM-DD)",
                                                   pattern=DATE)] = None,
        close_date_to: Annotated[str | None, Arg("Close date on or before (YYYY-MM-DD)",
                                                 pattern=DATE)] = None,
        min_amount: Annotated[float | None, Arg(
            "Only deals worth at least this (the world's currency)", minimum=0)] = None,
        sort: Annotated[Literal["close_date", "amount_desc", "newest"], Arg(
            "Order of results")] = "close_date",
        limit: paging.Limit = 20, cursor: paging.Cursor = None) -> DealList:
    """List deals (opportunities) with filters; total_amount sums every match."""
    if owner_id is not None:
        rep(s, owner_id)
    if account_id is not None:
        s["accounts"].get(account_id)
    if contact_id is not None:
        s["contacts"].get(contact_id)
    lo = parse_date(close_date_from, "close_date_from").isoformat() if close_date_from else None
    hi = parse_date(close_date_to, "close_date_to").isoformat() if close_date_to else None
    if lo and hi and lo > hi:
        raise ToolError(f"close_date_from {lo} is after close_date_to {hi}")
    least = None if min_amount is None else money.amount_in(s, min_amount, "min_amount")
    rows = [d for d in s["deals"].rows()
            if (stage is None or d["stage"] == stage
                or (stage == "open" and d["stage"] in OPEN_STAGES))
            and (owner_id is None or d["owner_id"] == owner_id)
            and (account_id is None or d["account_id"] == account_id)
            and (contact_id is None or d["primary_contact_id"] == contact_id)
            and (lo is None or d["close_date"] >= lo) and (hi is None or d["close_date"] <= hi)
            and (least is None or d["amount"] >= least)]
    key = {"close_date": lambda d: (d["close_date"], d["deal_id"]),
           "amount_desc": lambda d: (-d["amount"], d["deal_id"]),
           "newest": lambda d: (d["created_at"], d["deal_id"])}[sort]
    rows.sort(key=key, reverse=sort == "newest")
    pg = paging.page(rows, limit, cursor, key="deal_id")
    return {"deals": [deal_out(s, d) for d in pg.rows], "total": len(rows),
            "total_amount": money.amount_out(s, sum(d["amount"] for d in rows)),
            "currency": money.currency_of(s), "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=True)
def get_deal(s: State, deal_id: DealId) -> DealDetail:
    """Get one deal with its stage history, logged activities and tasks."""
    deal = s["deals"].get(deal_id)
    acts = sorted(s["activities"].rows(lambda a: a["deal_id"] == deal_id),
                  key=lambda a: a["occurred_at"], reverse=True)
    tasks = sorted(s["tasks"].rows(lambda t: t["deal_id"] == deal_id),
                   key=lambda t: t["due_date"])
    return {"deal": deal_out(s, deal), "stage_history": list(deal["stage_history"]),
            "activities": [activity_out(s, a) for a in acts],
            "tasks": [task_out(s, t) for t in tasks]}


@DOMAIN.tool(read_only=False)
def create_deal(
        s: State, account_id: AccountId, name: DealName, amount: Amount,
        close_date: Annotated[str, Arg("Expected close date (YYYY-MM-DD), today or later",
                                       pattern=DATE)],
        primary_contact_id: Annotated[str | None, Arg(
            "The buyer's main contact at the account (person id from search_contacts)")] = None,
        owner_id: Annotated[str | None, Arg("Sales rep who owns the deal (default: you)"
                                            )] = None,
        stage: Annotated[Literal["prospecting", "qualification"], Arg(
            "Starting stage")] = "prospecting",
        next_step: NextStep = None) -> Deal:
    """Create a new deal (opportunity) on an account."""
    account = s["accounts"].get(account_id)
    if primary_contact_id is not None:
        check_contact_in_account(s, primary_contact_id, account_id)
    minor = _amount_in(s, amount)
    owner = owner_id or s.var("user_id")
    rep(s, owner)
    if account["type"] == "internal":
        raise ToolError(f"{account['name']} ({account_id}) is your own company's internal "
                        "account; deals can only be opened on customer, prospect, partner or "
                        "churned accounts")
    close = future_date(close_date, "close_date")
    name = clean(name, "name")
    _check_name(s, account_id, name)
    when = now(s)
    history = [{"from_stage": None, "to_stage": "prospecting", "changed_at": when,
                "changed_by_id": s.var("user_id")}]
    if stage == "qualification":
        history.append({"from_stage": "prospecting", "to_stage": "qualification",
                        "changed_at": when, "changed_by_id": s.var("user_id")})
    row = s["deals"].insert({
        "deal_id": s.next_id("dl"), "name": name, "account_id": account_id,
        "primary_contact_id": primary_contact_id, "owner_id": owner, "stage": stage,
        "amount": minor, "close_date": close, "next_step": next_step,
        "lost_reason": None, "created_at": when, "closed_at": None, "stage_history": history})
    return deal_out(s, row)


@DOMAIN.tool(read_only=False)
def update_deal_stage(
        s: State, deal_id: DealId,
        stage: Annotated[Stage, Arg("The new stage; must be one of the deal's "
                                    "allowed_next_stages")],
        lost_reason: Annotated[LostReason | None, Arg(
            "Why the deal was lost (required with stage 'closed_lost', not allowed "
            "otherwise)")] = None) -> Deal:
    """Move a deal to another pipeline stage. Allowed moves: one stage forward or back through
    prospecting > qualification > proposal > negotiation; closed_won only from negotiation;
    closed_lost from any open stage; a lost deal can be reopened to prospecting. Winning a
    deal makes its account a customer."""
    deal = s["deals"].get(deal_id)
    current = deal["stage"]
    if stage == current:
        raise ToolError(f"deal {deal_id} is already in stage {stage}")
    if stage not in TRANSITIONS[current]:
        allowed = ", ".join(TRANSITIONS[current]) or "none (closed_won is final)"
        raise ToolError(f"deal {deal_id} cannot move from {current} to {stage}; allowed next "
                        f"stages: {allowed}")
    if stage == "closed_lost" and lost_reason is None:
        raise ToolError("closing a deal as lost needs lost_reason (one of price, competitor, "
                        "no_budget, no_decision, timing, other)")
    if stage != "closed_lost" and lost_reason is not None:
        raise ToolError(f"lost_reason is only for stage closed_lost, not {stage}; leave it out")
    when = now(s)
    history = [*deal["stage_history"], {"from_stage": current, "to_stage": stage,
                                        "changed_at": when, "changed_by_id": s.var("user_id")}]
    changes: dict = {"stage": stage, "stage_history": history, "lost_reason": lost_reason}
    if stage in ("closed_won", "closed_lost"):
        changes.update(closed_at=when, close_date=TODAY.isoformat(), next_step=None)
    else:
        changes["closed_at"] = None
    if stage == "closed_won":
        account = s["accounts"].get(deal["account_id"])
        if account["type"] in ("prospect", "churned"):
            s["accounts"].update(account["account_id"], type="customer")
        contact = s["contacts"].find(deal["primary_contact_id"] or "")
        if contact is not None and contact["lifecycle_stage"] != "customer":
            s["contacts"].update(contact["contact_id"], lifecycle_stage="customer")
    return deal_out(s, s["deals"].update(deal_id, **changes))


@DOMAIN.tool(read_only=False)
def update_deal(
        s: State, deal_id: DealId,
        name: Annotated[str | None, Arg("New deal name", min_length=3, max_length=120)] = None,
        amount: Annotated[float | None, Arg(
            "New deal value in the world's currency, with at most its decimals",
            minimum=0.01)] = None,
        close_date: Annotated[str | None, Arg("New expected close date (YYYY-MM-DD), today "
                                              "or later", pattern=DATE)] = None,
        owner_id: Annotated[str | None, Arg("Reassign to this sales rep (person id)")] = None,
        primary_contact_id: Annotated[str | None, Arg(
            "New primary contact; must work at the deal's account")] = None,
        next_step: NextStep = None) -> Deal:
    """Edit an open deal's name, amount, close date, owner, primary contact or next step (use
    update_deal_stage to change its stage)."""
    deal = s["deals"].get(deal_id)
    if owner_id is not None:
        rep(s, owner_id)
    if primary_contact_id is not None:
        check_contact_in_account(s, primary_contact_id, deal["account_id"])
    _locked(deal)
    changes = {k: v for k, v in (("name", name and clean(name, "name")),
                                 ("amount", None if amount is None else _amount_in(s, amount)),
                                 ("owner_id", owner_id),
                                 ("primary_contact_id", primary_contact_id),
                                 ("next_step", next_step)) if v is not None}
    if close_date is not None:
        changes["close_date"] = future_date(close_date, "close_date")
    if not changes:
        raise ToolError("nothing to update; pass at least one of name, amount, close_date, "
                        "owner_id, primary_contact_id, next_step")
    if "name" in changes:
        _check_name(s, deal["account_id"], changes["name"], deal_id)
    if all(deal[k] == v for k, v in changes.items()):
        raise ToolError(f"deal {deal_id} already has those values; nothing changed")
    return deal_out(s, s["deals"].update(deal_id, **changes))


@DOMAIN.tool(read_only=True)
def get_pipeline_summary(
        s: State,
        owner_id: Annotated[str | None, Arg("Only this sales rep's deals (person id)")] = None,
        close_date_from: Annotated[str | None, Arg("Only deals closing on or after this date "
                                                   "(YYYY-MM-DD)", pattern=DATE)] = None,
        close_date_to: Annotated[str | None, Arg("Only deals closing on or before this date "
                                                 "(YYYY-MM-DD)", pattern=DATE)] = None,
) -> PipelineSummary:
    """Pipeline by stage (count, amount, probability-weighted amount) and by sales rep, with
    won/lost totals and the win rate; 'owners' lists every rep's id."""
    if owner_id is not None:
        rep(s, owner_id)
    lo = parse_date(close_date_from, "close_date_from").isoformat() if close_date_from else None
    hi = parse_date(close_date_to, "close_date_to").isoformat() if close_date_to else None
    if lo and hi and lo > hi:
        raise ToolError(f"close_date_from {lo} is after close_date_to {hi}")
    deals = [d for d in s["deals"].rows()
             if (lo is None or d["close_date"] >= lo) and (hi is None or d["close_date"] <= hi)]
    mine = [d for d in deals if owner_id is None or d["owner_id"] == owner_id]

    cur = money.currency_of(s)

    def out(minor: int) -> int | float:
        return money.to_major(minor, cur)

    stages = []
    for stage in STAGES:
        rows = [d for d in mine if d["stage"] == stage]
        stages.append({"stage": stage, "count": len(rows), "currency": cur,
                       "amount": out(sum(d["amount"] for d in rows)),
                       "weighted_amount": out(weighted(rows))})
    owners = []
    for r in sorted(s["reps"].rows(), key=lambda r: r["user_id"]):
        if owner_id is not None and r["user_id"] != owner_id:
            continue
        theirs = [d for d in deals if d["owner_id"] == r["user_id"]]
        open_ = [d for d in theirs if d["stage"] in OPEN_STAGES]
        won = [d for d in theirs if d["stage"] == "closed_won"]
        owners.append({"owner_id": r["user_id"], "owner_name": r["name"], "email": r["email"],
                       "open_deals": len(open_), "currency": cur,
                       "open_amount": out(sum(d["amount"] for d in open_)),
                       "weighted_amount": out(weighted(open_)), "won_deals": len(won),
                       "won_amount": out(sum(d["amount"] for d in won))})
    open_rows = [d for d in mine if d["stage"] in OPEN_STAGES]
    won = [d for d in mine if d["stage"] == "closed_won"]
    lost = [d for d in mine if d["stage"] == "closed_lost"]
    return {"currency": cur, "owner_id": owner_id, "close_date_from": lo,
            "close_date_to": hi, "stages": stages, "owners": owners,
            "open_deals": len(open_rows),
            "open_amount": out(sum(d["amount"] for d in open_rows)),
            "weighted_amount": out(weighted(open_rows)),
            "won_amount": out(sum(d["amount"] for d in won)),
            "lost_amount": out(sum(d["amount"] for d in lost)),
            "win_rate": round(len(won) / (len(won) + len(lost)), 3) if won or lost else None}
