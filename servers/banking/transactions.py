"""Transaction tools: list with filters, get one, and search by text."""

from __future__ import annotations

from typing import Annotated, Literal

from servers.banking.common import DOMAIN, OptDate, as_txn, newest, parse_date
from servers.banking.models import Category, Transaction, TransactionList, TxnType
from servers.core import money
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State


@DOMAIN.tool(read_only=True)
def list_transactions(
        s: State,
        account_id: Annotated[str | None, Arg("Only this account (from list_accounts)")] = None,
        start_date: OptDate = None,
        end_date: OptDate = None,
        category: Annotated[Category | None, Arg("Only this spending category")] = None,
        type: Annotated[TxnType | None, Arg("Only this transaction type")] = None,
        direction: Annotated[Literal["debit", "credit"] | None, Arg(
            "debit: money out (negative amounts); credit: money in")] = None,
        min_amount: Annotated[float | None, Arg("Smallest absolute amount", minimum=0)] = None,
        max_amount: Annotated[float | None, Arg("Largest absolute amount", minimum=0)] = None,
        limit: Annotated[int, Arg("Page size", minimum=1, maximum=100)] = 25,
        offset: Annotated[int, Arg("Skip this many (for paging)", minimum=0)] = 0,
) -> TransactionList:
    """List transactions, newest first, with filters. Amounts are signed (negative = money out);
    min_amount/max_amount compare the absolute amount. `total` counts all matches."""
    if account_id is not None:
        s["accounts"].get(account_id)
    start = parse_date(start_date, "start_date") if start_date else None
    end = parse_date(end_date, "end_date") if end_date else None
    if start and end and start > end:
        raise ToolError(f"start_date {start_date} is after end_date {end_date}")
    if min_amount is not None and max_amount is not None and min_amount > max_amount:
        raise ToolError(f"min_amount {min_amount} is larger than max_amount {max_amount}")
    lo = None if min_amount is None else money.amount_in(s, min_amount, "min_amount")
    hi = None if max_amount is None else money.amount_in(s, max_amount, "max_amount")

    def keep(r: Row) -> bool:
        day = r["posted_at"][:10]
        return ((account_id is None or r["account_id"] == account_id)
                and (start is None or day >= start.isoformat())
                and (end is None or day <= end.isoformat())
                and (category is None or r["category"] == category)
                and (type is None or r["type"] == type)
                and (direction is None or (r["amount"] < 0) == (direction == "debit"))
                and (lo is None or abs(r["amount"]) >= lo)
                and (hi is None or abs(r["amount"]) <= hi))

    rows = newest(s["transactions"].rows(keep))
    return {"transactions": [as_txn(s, r) for r in rows[offset:offset + limit]],
            "total": len(rows)}


@DOMAIN.tool(read_only=True)
def get_transaction(s: State, transaction_id: Annotated[str, Arg(
        "Transaction id, e.g. 'txn_00042' (from list_transactions)")]) -> Transaction:
    """Get one transaction's full details."""
    return as_txn(s, s["transactions"].get(transaction_id))


@DOMAIN.tool(read_only=True)
def search_transactions(
        s: State,
        query: Annotated[str, Arg("Text in the merchant, description or memo "
                                  "(case-insensitive)", min_length=2)],
        account_id: Annotated[str | None, Arg("Only this account")] = None,
        limit: Annotated[int, Arg("At most this many, newest first", minimum=1,
                                  maximum=100)] = 20,
) -> TransactionList:
    """Search transactions by merchant, description or memo text."""
    if account_id is not None:
        s["accounts"].get(account_id)
    q = query.lower()
    rows = newest(s["transactions"].rows(
        lambda r: (account_id is None or r["account_id"] == account_id)
        and (q in (r["merchant"] or "").lower() or q in r["description"].lower()
             or q in r["memo"].lower())))
    return {"transactions": [as_txn(s, r) for r in rows[:limit]], "total": len(rows)}
