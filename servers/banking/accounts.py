"""Account tools: list the user's accounts and look at one in detail."""

from __future__ import annotations

from typing import Annotated

from servers.banking.common import DOMAIN, AccountId, as_account, as_card, as_txn, newest
from servers.banking.models import AccountDetail, AccountList, AccountType
from servers.core import money
from servers.core.schema import Arg
from servers.core.state import State


@DOMAIN.tool(read_only=True)
def list_accounts(
        s: State,
        type: Annotated[AccountType | None, Arg("Only accounts of this type")] = None,
        include_closed: Annotated[bool, Arg("Also list closed accounts")] = False,
) -> AccountList:
    """List the user's bank accounts with balances (credit accounts: negative = owed)."""
    rows = [r for r in s["accounts"].rows()
            if (type is None or r["type"] == type)
            and (include_closed or r["status"] == "open")]
    return {"accounts": [as_account(s, r) for r in rows], "total": len(rows)}


@DOMAIN.tool(read_only=True)
def get_account(s: State, account_id: AccountId) -> AccountDetail:
    """Get one account: balance, available funds, its cards and its 5 latest transactions."""
    row = s["accounts"].get(account_id)
    txns = newest(s["transactions"].rows(lambda r: r["account_id"] == account_id))
    pending = sum(r["amount"] for r in txns if r["status"] == "pending")
    return {"account": as_account(s, row),
            "cards": [as_card(s, c) for c in s["cards"].rows(
                lambda c: c["account_id"] == account_id)],
            "recent_transactions": [as_txn(s, r) for r in txns[:5]],
            "pending_total": money.amount_out(s, pending), "currency": row["currency"]}
