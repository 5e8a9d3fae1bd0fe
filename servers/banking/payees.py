"""Payee tools: list saved payees, save a new one (bank details checked) and pay one now."""

from __future__ import annotations

from typing import Annotated, Literal

from servers.banking.common import (
    DOMAIN,
    MAX_PAYMENT_USD,
    Amount,
    Memo,
    amount_in,
    as_account,
    as_txn,
    post_txn,
    source_account,
    withdraw,
)
from servers.banking.data import BANKS, TODAY
from servers.banking.models import Payee, PayeeList, PaymentResult
from servers.core import paging
from servers.core.errors import ToolError
from servers.core.paging import Cursor, Limit
from servers.core.schema import Arg
from servers.core.state import State


def _aba_ok(routing: str) -> bool:
    d = [int(c) for c in routing]
    return (3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + d[2] + d[5] + d[8]) % 10 == 0


@DOMAIN.tool(read_only=True)
def list_payees(
        s: State,
        query: Annotated[str | None, Arg("Part of the name, nickname or email")] = None,
        kind: Annotated[Literal["person", "business"] | None, Arg("Only this kind")] = None,
        limit: Limit = 20,
        cursor: Cursor = None,
) -> PayeeList:
    """List saved payees (people and billers) the user can pay."""
    q = (query or "").lower()
    rows = [r for r in s["payees"].rows()
            if (kind is None or r["kind"] == kind)
            and (q in r["name"].lower() or q in (r["nickname"] or "").lower()
                 or q in (r["email"] or "").lower())]
    pg = paging.page(rows, limit, cursor, key="payee_id")
    return {"payees": pg.rows, "total": len(rows), "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=False)
def add_payee(
        s: State,
        name: Annotated[str, Arg("Payee's full name or business name", min_length=2,
                                 max_length=80)],
        routing_number: Annotated[str, Arg("9-digit ABA routing number of the payee's bank",
                                           pattern=r"\d{9}")],
        account_number: Annotated[str, Arg("Payee's account number (4-17 digits)",
                                           pattern=r"\d{4,17}")],
        kind: Annotated[Literal["person", "business"], Arg("A person or a biller")] = "person",
        category: Annotated[Literal["transfer", "housing", "utilities", "bills", "health"],
                            Arg("Statement category for payments to this payee")] = "transfer",
        email: Annotated[str | None, Arg("Email for payment notices",
                                         pattern=r"[^@\s]+@[^@\s]+\.[^@\s]+")] = None,
        nickname: Annotated[str | None, Arg("Short label, e.g. 'Rent'", max_length=40)] = None,
) -> Payee:
    """Save a new payee (bank details) so the user can pay them with pay_payee."""
    if not _aba_ok(routing_number):
        raise ToolError(f"routing number {routing_number} fails the ABA checksum; check the 9 "
                        "digits on the payee's cheque or bank letter")
    last4 = account_number[-4:]
    for p in s["payees"].rows():
        if p["routing_number"] == routing_number and p["account_last4"] == last4:
            raise ToolError(f"this account is already saved as payee {p['payee_id']} "
                            f"({p['name']}); use that payee id")
    row = s["payees"].insert({
        "payee_id": s.next_id("pye"), "name": name.strip(), "kind": kind,
        "category": category, "bank_name": BANKS.get(routing_number, "External bank"),
        "routing_number": routing_number, "account_last4": last4, "email": email,
        "nickname": nickname, "person_id": None, "added_on": TODAY.isoformat()})
    return row


@DOMAIN.tool(read_only=False)
def pay_payee(
        s: State,
        payee_id: Annotated[str, Arg("Payee id, e.g. 'pye_kp5x5n' (from list_payees)")],
        from_account_id: Annotated[str, Arg("Checking account to pay from")],
        amount: Amount,
        memo: Memo = "",
) -> PaymentResult:
    """Pay a saved payee now from a checking account (bill payment or transfer to a person)."""
    payee = s["payees"].get(payee_id)
    src = source_account(s, from_account_id)
    if src["type"] != "checking":
        raise ToolError(f"payees can only be paid from a checking account; "
                        f"{from_account_id} is a {src['type']} account")
    amount = amount_in(s, amount, MAX_PAYMENT_USD)
    withdraw(s, src, amount)
    label = "Bill payment" if payee["kind"] == "business" else "Transfer"
    txn = post_txn(s, account_id=from_account_id, description=f"{label} - {payee['name']}",
                   category=payee["category"], amount=-amount,
                   type="bill_payment" if payee["kind"] == "business" else "transfer_out",
                   payee_id=payee_id, memo=memo)
    return {"transaction": as_txn(s, txn),
            "account": as_account(s, s["accounts"].get(from_account_id))}
