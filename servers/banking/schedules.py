"""Scheduled-transfer tools: list, schedule (one-time or recurring) and cancel future transfers
to an own account or a saved payee."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from servers.banking.common import (
    DOMAIN,
    MAX_TRANSFER_USD,
    Amount,
    Memo,
    amount_in,
    as_scheduled,
    now,
    open_account,
    parse_date,
    source_account,
)
from servers.banking.data import TODAY
from servers.banking.models import ScheduledList, ScheduledTransfer
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State


@DOMAIN.tool(read_only=True)
def list_scheduled_transfers(
        s: State,
        status: Annotated[Literal["active", "completed", "cancelled"] | None, Arg(
            "Only this status")] = None,
        account_id: Annotated[str | None, Arg("Only transfers from or to this account")] = None,
) -> ScheduledList:
    """List scheduled and recurring transfers and payments, soonest first."""
    if account_id is not None:
        s["accounts"].get(account_id)
    rows = [r for r in s["scheduled_transfers"].rows()
            if (status is None or r["status"] == status)
            and (account_id is None or account_id in (r["from_account_id"],
                                                      r["to_account_id"]))]
    rows.sort(key=lambda r: (r["next_date"] or "9999", r["scheduled_transfer_id"]))
    return {"scheduled_transfers": [as_scheduled(s, r) for r in rows], "total": len(rows)}


@DOMAIN.tool(read_only=False)
def schedule_transfer(
        s: State,
        from_account_id: Annotated[str, Arg("Checking or savings account to pay from")],
        amount: Amount,
        start_date: Annotated[str, Arg("First run date, YYYY-MM-DD, after today (2026-06-15) "
                                       "and within a year", pattern=r"\d{4}-\d{2}-\d{2}")],
        frequency: Annotated[Literal["once", "weekly", "biweekly", "monthly"], Arg(
            "How often it repeats")] = "once",
        to_account_id: Annotated[str | None, Arg(
            "Own account to transfer to (give this or payee_id)")] = None,
        payee_id: Annotated[str | None, Arg("Payee to pay (give this or to_account_id)")] = None,
        end_date: Annotated[str | None, Arg("Last run date for a recurring transfer, YYYY-MM-DD",
                                            pattern=r"\d{4}-\d{2}-\d{2}")] = None,
        memo: Memo = "",
) -> ScheduledTransfer:
    """Schedule a future one-time or recurring transfer to an own account or a saved payee.
    Funds are checked on the run date, not now."""
    src = s["accounts"].get(from_account_id)
    dst = s["accounts"].get(to_account_id) if to_account_id is not None else None
    if payee_id is not None:
        s["payees"].get(payee_id)
    if (dst is None) == (payee_id is None):
        raise ToolError("give exactly one destination: to_account_id (own account) or "
                        "payee_id (from list_payees)")
    src = source_account(s, from_account_id)
    if dst is not None:
        if to_account_id == from_account_id:
            raise ToolError("from_account_id and to_account_id are the same account")
        open_account(s, to_account_id)
        if dst["currency"] != src["currency"]:
            raise ToolError(f"{from_account_id} is in {src['currency']} but {to_account_id} "
                            f"is in {dst['currency']}; use accounts in the same currency")
    elif src["type"] != "checking":
        raise ToolError(f"payees can only be paid from a checking account; "
                        f"{from_account_id} is a {src['type']} account")
    minor = amount_in(s, amount, MAX_TRANSFER_USD)
    start = parse_date(start_date, "start_date")
    if not TODAY < start <= TODAY + dt.timedelta(days=365):
        raise ToolError(f"start_date {start_date} must be after today ({TODAY}) and within a "
                        "year; for today use transfer_between_accounts or pay_payee")
    if end_date is not None:
        if frequency == "once":
            raise ToolError("end_date only applies to recurring transfers; drop it or pick "
                            "weekly, biweekly or monthly")
        if parse_date(end_date, "end_date") <= start:
            raise ToolError(f"end_date {end_date} must be after start_date {start_date}")
    row = s["scheduled_transfers"].insert({
        "scheduled_transfer_id": s.next_id("sch"), "from_account_id": from_account_id,
        "to_account_id": to_account_id, "payee_id": payee_id, "amount": minor,
        "currency": src["currency"], "frequency": frequency, "next_date": start.isoformat(),
        "last_run_on": None, "end_date": end_date, "memo": memo, "status": "active",
        "created_at": now(s)})
    return as_scheduled(s, row)


@DOMAIN.tool(read_only=False)
def cancel_scheduled_transfer(s: State, scheduled_transfer_id: Annotated[str, Arg(
        "Scheduled transfer id, e.g. 'sch_hhw8rz' (from list_scheduled_transfers)")]
        ) -> ScheduledTransfer:
    """Cancel an active scheduled or recurring transfer (all future runs)."""
    row = s["scheduled_transfers"].get(scheduled_transfer_id)
    if row["status"] != "active":
        raise ToolError(f"scheduled transfer {scheduled_transfer_id} is already "
                        f"{row['status']}; only active ones can be cancelled")
    row = s["scheduled_transfers"].update(scheduled_transfer_id, status="cancelled",
                                          next_date=None)
    return as_scheduled(s, row)
