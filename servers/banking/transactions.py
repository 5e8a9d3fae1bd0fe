"""Transaction tools: list with filters, get one, and search by text."""

from __future__ import annotations

from typing import Annotated, Literal

from servers.banking.common import DOMAIN, OptDate, as_txn, newest, parse_date
from servers.banking.models import Category, Transaction, TransactionList, TxnType
from servers.core import money, paging
from servers.core.errors import ToolError
from servers.core.paging import Cursor, Limit
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
        limit: Limit = 20,
        cursor: Cursor = None,
) -> TransactionList:
    """List transactions, newest first, with filters. Amounts are signed (negative = money out);
    min_amount/max_amount compare the absolute amount. `total` counts all matches; follow
    next_cursor for the next page."""
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
    pg = paging.page(rows, limit, cursor, key="transaction_id")
    return {"transactions": [as_txn(s, r) for r in pg.rows], "total": len(rows),
            "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=True)
def get_transaction(s: State, transaction_id: Annotated[str, Arg(
        "Transaction id, e.g. 'txn_c8bdz8' (from list_transactions)")]) -> Transaction:
    """Get one transaction's full details."""
    return as_txn(s, s["transactions"].get(transaction_id))


@DOMAIN.tool(read_only=True)
def search_transactions(
        s: State,
        query: Annotated[str, Arg("Text in the merchant, description or memo "
                                  "(case-insensitive)", min_length=2)],
        account_id: Annotated[str | None, Arg("Only this account")] = None,
        limit: Limit = 20,
        cursor: Cursor = None,
) -> TransactionList:
    """Search transactions by merchant, description or memo text, newest first."""
    if account_id is not None:
        s["accounts"].get(account_id)
    q = query.lower()
    rows = newest(s["transactions"].rows(
        lambda r: (account_id is None or r["account_id"] == account_id)
        and (q in (r["merchant"] or "").lower() or q in r["description"].lower()
             or q in r["memo"].lower())))
    pg = paging.page(rows, limit, cursor, key="transaction_id")
    return {"transactions": [as_txn(s, r) for r in pg.rows], "total": len(rows),
            "next_cursor": pg.next_cursor}
