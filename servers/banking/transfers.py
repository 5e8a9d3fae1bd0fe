"""Transfer tool: move money now between two of the user's own accounts."""

from __future__ import annotations

from typing import Annotated

from servers.banking.common import (
    DOMAIN,
    MAX_TRANSFER_USD,
    Amount,
    Memo,
    amount_in,
    as_account,
    as_txn,
    open_account,
    post_txn,
    source_account,
    withdraw,
)
from servers.banking.models import TransferResult
from servers.core import money
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State


@DOMAIN.tool(read_only=False)
def transfer_between_accounts(
        s: State,
        from_account_id: Annotated[str, Arg("Account to take the money from")],
        to_account_id: Annotated[str, Arg("Account to put it in (a credit account: pays "
                                          "down its balance)")],
        amount: Amount,
        memo: Memo = "",
) -> TransferResult:
    """Move money between two of the user's own accounts, immediately. Both must be open and
    in the same currency; the source needs enough balance."""
    src = s["accounts"].get(from_account_id)
    dst = s["accounts"].get(to_account_id)
    if from_account_id == to_account_id:
        raise ToolError("from_account_id and to_account_id are the same account; pick two "
                        "different accounts")
    src, dst = source_account(s, from_account_id), open_account(s, to_account_id)
    if src["currency"] != dst["currency"]:
        raise ToolError(f"{from_account_id} is in {src['currency']} but {to_account_id} is in "
                        f"{dst['currency']}; transfers need accounts in the same currency")
    amount = amount_in(s, amount, MAX_TRANSFER_USD)
    if dst["type"] == "credit" and amount > -dst["balance"]:
        owed = max(-dst["balance"], 0)
        raise ToolError(f"{to_account_id} ({dst['name']}) only owes "
                        f"{money.fmt(owed, dst['currency'])}; pay at most that much")
    withdraw(s, src, amount)
    dst = s["accounts"].get(to_account_id)
    s["accounts"].update(to_account_id, balance=dst["balance"] + amount)
    debit = post_txn(s, account_id=from_account_id, description=f"Transfer to {dst['name']}",
                     category="transfer", amount=-amount, type="transfer_out",
                     counterparty_account_id=to_account_id, memo=memo)
    credit = post_txn(s, account_id=to_account_id, description=f"Transfer from {src['name']}",
                      category="transfer", amount=amount, type="transfer_in",
                      counterparty_account_id=from_account_id, memo=memo)
    return {"from_account": as_account(s, s["accounts"].get(from_account_id)),
            "to_account": as_account(s, s["accounts"].get(to_account_id)),
            "debit": as_txn(s, debit), "credit": as_txn(s, credit)}
