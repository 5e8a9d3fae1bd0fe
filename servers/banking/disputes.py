"""Dispute tools: dispute a recent card charge and list the user's disputes."""

from __future__ import annotations

import datetime as dt
from typing import Annotated

from servers.banking.common import DOMAIN, as_dispute, now
from servers.banking.data import DISPUTE_WINDOW_DAYS, TODAY
from servers.banking.models import Dispute, DisputeList, DisputeReason, DisputeStatus
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State


@DOMAIN.tool(read_only=False)
def dispute_transaction(
        s: State,
        transaction_id: Annotated[str, Arg("Id of the card charge to dispute (from "
                                           "list_transactions)")],
        reason: Annotated[DisputeReason, Arg("Why the charge is wrong")],
        details: Annotated[str, Arg("What happened, in the user's words", max_length=500)] = "",
) -> Dispute:
    """Dispute a posted card charge made in the last 60 days (one dispute per charge)."""
    txn = s["transactions"].get(transaction_id)
    if txn["card_id"] is None or txn["type"] != "card_purchase":
        raise ToolError(f"transaction {transaction_id} is a {txn['type']}, not a card "
                        "purchase; only card charges can be disputed")
    if txn["dispute_id"] is not None:
        raise ToolError(f"transaction {transaction_id} is already disputed in "
                        f"{txn['dispute_id']}; see list_disputes for its status")
    if txn["status"] != "posted":
        raise ToolError(f"transaction {transaction_id} is still pending; a charge can be "
                        "disputed once it has posted")
    posted = dt.date.fromisoformat(txn["posted_at"][:10])
    if (TODAY - posted).days > DISPUTE_WINDOW_DAYS:
        raise ToolError(f"transaction {transaction_id} posted on {posted}, more than "
                        f"{DISPUTE_WINDOW_DAYS} days ago; it can no longer be disputed "
                        "(contact the merchant instead)")
    row = s["disputes"].insert({
        "dispute_id": s.next_id("dsp"), "transaction_id": transaction_id,
        "account_id": txn["account_id"], "amount": -txn["amount"], "reason": reason,
        "details": details, "status": "open", "opened_at": now(s)})
    s["transactions"].update(transaction_id, dispute_id=row["dispute_id"])
    return as_dispute(s, row)


@DOMAIN.tool(read_only=True)
def list_disputes(
        s: State,
        status: Annotated[DisputeStatus | None, Arg("Only disputes with this status")] = None,
        account_id: Annotated[str | None, Arg("Only disputes on this account")] = None,
) -> DisputeList:
    """List the user's card disputes, newest first."""
    if account_id is not None:
        s["accounts"].get(account_id)
    rows = [r for r in s["disputes"].rows()
            if (status is None or r["status"] == status)
            and (account_id is None or r["account_id"] == account_id)]
    rows.sort(key=lambda r: r["opened_at"], reverse=True)
    return {"disputes": [as_dispute(s, r) for r in rows], "total": len(rows)}
