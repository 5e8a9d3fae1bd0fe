"""banking: personal online banking (accounts, transactions, transfers, payees, cards, disputes).

The user is the world's principal. Payees include the world's people (friends to pay back)
and billers; card purchases are at the world's restaurants, cafes, stores and hotels.
Credit accounts show what is owed as a negative balance.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from servers.banking.data import BANKS, DISPUTE_WINDOW_DAYS, TODAY, build
from servers.banking.models import (
    Account,
    AccountDetail,
    AccountList,
    AccountType,
    Card,
    CardList,
    CardStatus,
    Category,
    Dispute,
    DisputeList,
    DisputeReason,
    DisputeStatus,
    Payee,
    PayeeList,
    PaymentResult,
    ScheduledList,
    ScheduledTransfer,
    Transaction,
    TransactionList,
    TransferResult,
    TxnType,
)
from servers.core.domain import Domain
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State

DOMAIN = Domain("banking", "Personal banking: accounts, transactions, transfers, payees, "
                "scheduled transfers, cards and disputes.", build)

# ----------------------------------------------------------------------------- helpers
def _now(s: State) -> str:
    """A fixed clock: late on the reference date (after all seeded activity), one minute
    further per write, so new transactions sort newest."""
    n = s.var("clock", 0) + 1
    s.set_var("clock", n)
    return (dt.datetime.combine(TODAY, dt.time(22, 0))
            + dt.timedelta(minutes=min(n, 119))).isoformat(timespec="minutes")


def _date(value: str, name: str) -> dt.date:
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise ToolError(f"{name} {value!r} is not a valid date; use YYYY-MM-DD, e.g. "
                        "'2026-06-30'") from None


def _cents(amount: float) -> float:
    if abs(round(amount, 2) - amount) > 1e-9:
        raise ToolError(f"amount {amount} has more than 2 decimal places; round it to cents")
    return round(amount, 2)


def _account(row: Row) -> Account:
    out = {k: v for k, v in row.items() if k != "routing_number"}
    available = row["balance"] + (row["credit_limit"] or 0.0)
    return {**out, "available_balance": round(available, 2)}


def _txn(s: State, row: Row) -> Transaction:
    return {**row, "currency": s["accounts"].get(row["account_id"])["currency"]}


def _card(s: State, row: Row) -> Card:
    return {**row, "account_name": s["accounts"].get(row["account_id"])["name"]}


def _scheduled(s: State, row: Row) -> ScheduledTransfer:
    if row["payee_id"] is not None:
        dest = s["payees"].get(row["payee_id"])["name"]
    else:
        dest = s["accounts"].get(row["to_account_id"])["name"]
    return {**row, "destination_name": dest}


def _dispute(s: State, row: Row) -> Dispute:
    return {**row, "merchant": s["transactions"].get(row["transaction_id"])["merchant"]}


def _newest(rows: list[Row]) -> list[Row]:
    return sorted(rows, key=lambda r: (r["posted_at"], r["transaction_id"]), reverse=True)


def _open_account(s: State, account_id: str) -> Row:
    row = s["accounts"].get(account_id)
    if row["status"] != "open":
        raise ToolError(f"account {account_id} ({row['name']}) is {row['status']}; use "
                        "list_accounts to pick an open account")
    return row


def _source(s: State, account_id: str) -> Row:
    """An account money can leave from: open, not a credit account."""
    row = _open_account(s, account_id)
    if row["type"] == "credit":
        raise ToolError(f"account {account_id} is a credit account; cash advances are not "
                        "supported, send money from a checking or savings account")
    return row


def _withdraw(s: State, row: Row, amount: float) -> None:
    if amount > row["balance"] + 1e-9:
        raise ToolError(f"insufficient funds in {row['account_id']} ({row['name']}): balance "
                        f"{row['balance']:.2f} {row['currency']}, needed {amount:.2f}; transfer "
                        "money in first or use a smaller amount")
    s["accounts"].update(row["account_id"], balance=round(row["balance"] - amount, 2))


def _post(s: State, **fields: object) -> Row:
    row = {"transaction_id": s.next_id("txn", 5), "posted_at": _now(s), "merchant": None,
           "status": "posted", "card_id": None, "payee_id": None,
           "counterparty_account_id": None, "memo": "", "dispute_id": None, **fields}
    return s["transactions"].insert(row)


def _aba_ok(routing: str) -> bool:
    d = [int(c) for c in routing]
    return (3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + d[2] + d[5] + d[8]) % 10 == 0


AccountId = Annotated[str, Arg("Account id, e.g. 'acc_001' (from list_accounts)")]
Amount = Annotated[float, Arg("Amount in the account's currency, > 0, at most 2 decimals",
                              minimum=0.01, maximum=50000)]
Memo = Annotated[str, Arg("Optional note shown on the statement", max_length=140)]
DateArg = Annotated[str, Arg("Date as YYYY-MM-DD", pattern=r"\d{4}-\d{2}-\d{2}")]
OptDate = Annotated[str | None, Arg("Date as YYYY-MM-DD (inclusive)",
                                    pattern=r"\d{4}-\d{2}-\d{2}")]


# ----------------------------------------------------------------------------- accounts
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
    return {"accounts": [_account(r) for r in rows], "total": len(rows)}


@DOMAIN.tool(read_only=True)
def get_account(s: State, account_id: AccountId) -> AccountDetail:
    """Get one account: balance, available funds, its cards and its 5 latest transactions."""
    row = s["accounts"].get(account_id)
    txns = _newest(s["transactions"].rows(lambda r: r["account_id"] == account_id))
    pending = sum(r["amount"] for r in txns if r["status"] == "pending")
    return {"account": _account(row),
            "cards": [_card(s, c) for c in s["cards"].rows(
                lambda c: c["account_id"] == account_id)],
            "recent_transactions": [_txn(s, r) for r in txns[:5]],
            "pending_total": round(pending, 2)}


# ----------------------------------------------------------------------------- transactions
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
    start = _date(start_date, "start_date") if start_date else None
    end = _date(end_date, "end_date") if end_date else None
    if start and end and start > end:
        raise ToolError(f"start_date {start_date} is after end_date {end_date}")
    if min_amount is not None and max_amount is not None and min_amount > max_amount:
        raise ToolError(f"min_amount {min_amount} is larger than max_amount {max_amount}")

    def keep(r: Row) -> bool:
        day = r["posted_at"][:10]
        return ((account_id is None or r["account_id"] == account_id)
                and (start is None or day >= start.isoformat())
                and (end is None or day <= end.isoformat())
                and (category is None or r["category"] == category)
                and (type is None or r["type"] == type)
                and (direction is None or (r["amount"] < 0) == (direction == "debit"))
                and (min_amount is None or abs(r["amount"]) >= min_amount)
                and (max_amount is None or abs(r["amount"]) <= max_amount))

    rows = _newest(s["transactions"].rows(keep))
    return {"transactions": [_txn(s, r) for r in rows[offset:offset + limit]],
            "total": len(rows)}


@DOMAIN.tool(read_only=True)
def get_transaction(s: State, transaction_id: Annotated[str, Arg(
        "Transaction id, e.g. 'txn_00042' (from list_transactions)")]) -> Transaction:
    """Get one transaction's full details."""
    return _txn(s, s["transactions"].get(transaction_id))


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
    rows = _newest(s["transactions"].rows(
        lambda r: (account_id is None or r["account_id"] == account_id)
        and (q in (r["merchant"] or "").lower() or q in r["description"].lower()
             or q in r["memo"].lower())))
    return {"transactions": [_txn(s, r) for r in rows[:limit]], "total": len(rows)}


# ----------------------------------------------------------------------------- transfers
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
    src, dst = _source(s, from_account_id), _open_account(s, to_account_id)
    if src["currency"] != dst["currency"]:
        raise ToolError(f"{from_account_id} is in {src['currency']} but {to_account_id} is in "
                        f"{dst['currency']}; transfers need accounts in the same currency")
    amount = _cents(amount)
    if dst["type"] == "credit" and amount > -dst["balance"] + 1e-9:
        owed = max(-dst["balance"], 0.0)
        raise ToolError(f"{to_account_id} ({dst['name']}) only owes {owed:.2f} "
                        f"{dst['currency']}; pay at most that much")
    _withdraw(s, src, amount)
    dst = s["accounts"].get(to_account_id)
    s["accounts"].update(to_account_id, balance=round(dst["balance"] + amount, 2))
    debit = _post(s, account_id=from_account_id, description=f"Transfer to {dst['name']}",
                  category="transfer", amount=-amount, type="transfer_out",
                  counterparty_account_id=to_account_id, memo=memo)
    credit = _post(s, account_id=to_account_id, description=f"Transfer from {src['name']}",
                   category="transfer", amount=amount, type="transfer_in",
                   counterparty_account_id=from_account_id, memo=memo)
    return {"from_account": _account(s["accounts"].get(from_account_id)),
            "to_account": _account(s["accounts"].get(to_account_id)),
            "debit": _txn(s, debit), "credit": _txn(s, credit)}


# ----------------------------------------------------------------------------- payees
@DOMAIN.tool(read_only=True)
def list_payees(
        s: State,
        query: Annotated[str | None, Arg("Part of the name, nickname or email")] = None,
        kind: Annotated[Literal["person", "business"] | None, Arg("Only this kind")] = None,
) -> PayeeList:
    """List saved payees (people and billers) the user can pay."""
    q = (query or "").lower()
    rows = [r for r in s["payees"].rows()
            if (kind is None or r["kind"] == kind)
            and (q in r["name"].lower() or q in (r["nickname"] or "").lower()
                 or q in (r["email"] or "").lower())]
    return {"payees": rows, "total": len(rows)}


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
        "payee_id": s.next_id("pye", 3), "name": name.strip(), "kind": kind,
        "category": category, "bank_name": BANKS.get(routing_number, "External bank"),
        "routing_number": routing_number, "account_last4": last4, "email": email,
        "nickname": nickname, "person_id": None, "added_on": TODAY.isoformat()})
    return row


@DOMAIN.tool(read_only=False)
def pay_payee(
        s: State,
        payee_id: Annotated[str, Arg("Payee id, e.g. 'pye_003' (from list_payees)")],
        from_account_id: Annotated[str, Arg("USD checking account to pay from")],
        amount: Annotated[float, Arg("Amount in USD, > 0, at most 2 decimals", minimum=0.01,
                                     maximum=10000)],
        memo: Memo = "",
) -> PaymentResult:
    """Pay a saved payee now from a checking account (bill payment or transfer to a person)."""
    payee = s["payees"].get(payee_id)
    src = _source(s, from_account_id)
    if src["type"] != "checking" or src["currency"] != "USD":
        raise ToolError(f"payees can only be paid from a USD checking account; "
                        f"{from_account_id} is a {src['currency']} {src['type']} account")
    amount = _cents(amount)
    _withdraw(s, src, amount)
    label = "Bill payment" if payee["kind"] == "business" else "Transfer"
    txn = _post(s, account_id=from_account_id, description=f"{label} - {payee['name']}",
                category=payee["category"], amount=-amount,
                type="bill_payment" if payee["kind"] == "business" else "transfer_out",
                payee_id=payee_id, memo=memo)
    return {"transaction": _txn(s, txn),
            "account": _account(s["accounts"].get(from_account_id))}


# ----------------------------------------------------------------------------- schedules
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
    return {"scheduled_transfers": [_scheduled(s, r) for r in rows], "total": len(rows)}


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
    src = _source(s, from_account_id)
    if dst is not None:
        if to_account_id == from_account_id:
            raise ToolError("from_account_id and to_account_id are the same account")
        _open_account(s, to_account_id)
        if dst["currency"] != src["currency"]:
            raise ToolError(f"{from_account_id} is in {src['currency']} but {to_account_id} "
                            f"is in {dst['currency']}; use accounts in the same currency")
    elif src["type"] != "checking" or src["currency"] != "USD":
        raise ToolError(f"payees can only be paid from a USD checking account; "
                        f"{from_account_id} is a {src['currency']} {src['type']} account")
    start = _date(start_date, "start_date")
    if not TODAY < start <= TODAY + dt.timedelta(days=365):
        raise ToolError(f"start_date {start_date} must be after today ({TODAY}) and within a "
                        "year; for today use transfer_between_accounts or pay_payee")
    if end_date is not None:
        if frequency == "once":
            raise ToolError("end_date only applies to recurring transfers; drop it or pick "
                            "weekly, biweekly or monthly")
        if _date(end_date, "end_date") <= start:
            raise ToolError(f"end_date {end_date} must be after start_date {start_date}")
    row = s["scheduled_transfers"].insert({
        "scheduled_transfer_id": s.next_id("sch"), "from_account_id": from_account_id,
        "to_account_id": to_account_id, "payee_id": payee_id, "amount": _cents(amount),
        "currency": src["currency"], "frequency": frequency, "next_date": start.isoformat(),
        "last_run_on": None, "end_date": end_date, "memo": memo, "status": "active",
        "created_at": _now(s)})
    return _scheduled(s, row)


@DOMAIN.tool(read_only=False)
def cancel_scheduled_transfer(s: State, scheduled_transfer_id: Annotated[str, Arg(
        "Scheduled transfer id, e.g. 'sch_0003' (from list_scheduled_transfers)")]
        ) -> ScheduledTransfer:
    """Cancel an active scheduled or recurring transfer (all future runs)."""
    row = s["scheduled_transfers"].get(scheduled_transfer_id)
    if row["status"] != "active":
        raise ToolError(f"scheduled transfer {scheduled_transfer_id} is already "
                        f"{row['status']}; only active ones can be cancelled")
    row = s["scheduled_transfers"].update(scheduled_transfer_id, status="cancelled",
                                          next_date=None)
    return _scheduled(s, row)


# ----------------------------------------------------------------------------- cards
CardId = Annotated[str, Arg("Card id, e.g. 'card_01' (from list_cards)")]


@DOMAIN.tool(read_only=True)
def list_cards(
        s: State,
        account_id: Annotated[str | None, Arg("Only cards on this account")] = None,
        status: Annotated[CardStatus | None, Arg("Only cards with this status")] = None,
) -> CardList:
    """List the user's debit and credit cards with their status."""
    if account_id is not None:
        s["accounts"].get(account_id)
    rows = [r for r in s["cards"].rows()
            if (account_id is None or r["account_id"] == account_id)
            and (status is None or r["status"] == status)]
    return {"cards": [_card(s, r) for r in rows]}


@DOMAIN.tool(read_only=False)
def freeze_card(
        s: State, card_id: CardId,
        reason: Annotated[Literal["misplaced", "lost", "stolen", "suspicious_activity",
                                  "temporary_hold"], Arg("Why the card is frozen")
                          ] = "temporary_hold",
) -> Card:
    """Freeze an active card: new purchases and withdrawals are declined until unfrozen."""
    row = s["cards"].get(card_id)
    if row["status"] == "frozen":
        raise ToolError(f"card {card_id} is already frozen; use unfreeze_card to reactivate it")
    if row["status"] != "active":
        raise ToolError(f"card {card_id} is {row['status']} and cannot be frozen; see "
                        "list_cards for active cards")
    return _card(s, s["cards"].update(card_id, status="frozen", freeze_reason=reason))


@DOMAIN.tool(read_only=False)
def unfreeze_card(s: State, card_id: CardId) -> Card:
    """Unfreeze a frozen card so it can be used again."""
    row = s["cards"].get(card_id)
    if row["status"] != "frozen":
        raise ToolError(f"card {card_id} is {row['status']}, not frozen; only frozen cards "
                        "can be unfrozen")
    return _card(s, s["cards"].update(card_id, status="active", freeze_reason=None))


# ----------------------------------------------------------------------------- disputes
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
        "details": details, "status": "open", "opened_at": _now(s)})
    s["transactions"].update(transaction_id, dispute_id=row["dispute_id"])
    return _dispute(s, row)


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
    return {"disputes": [_dispute(s, r) for r in rows], "total": len(rows)}


# Calls that succeed in this order on a fresh session (seed 0): used by the contract tests and
# as documentation of each tool's use.
EXAMPLES: list[tuple[str, dict]] = [
    ("list_accounts", {"type": "checking"}),
    ("get_account", {"account_id": "acc_001"}),
    ("list_transactions", {"account_id": "acc_006", "start_date": "2026-05-01",
                           "end_date": "2026-06-15", "category": "dining", "min_amount": 5,
                           "max_amount": 500}),
    ("list_transactions", {"type": "card_purchase", "direction": "debit", "limit": 10,
                           "offset": 10}),
    ("get_transaction", {"transaction_id": "txn_00224"}),
    ("search_transactions", {"query": "streamflix", "account_id": "acc_006", "limit": 5}),
    ("transfer_between_accounts", {"from_account_id": "acc_003", "to_account_id": "acc_001",
                                   "amount": 250, "memo": "top up checking"}),
    ("transfer_between_accounts", {"from_account_id": "acc_001", "to_account_id": "acc_006",
                                   "amount": 300.5}),
    ("list_payees", {"query": "a", "kind": "person"}),
    ("add_payee", {"name": "Jordan Blake", "routing_number": "021000021",
                   "account_number": "000123456789", "kind": "person", "category": "transfer",
                   "email": "jordan.blake@example.com", "nickname": "Jordan"}),
    ("pay_payee", {"payee_id": "pye_002", "from_account_id": "acc_001", "amount": 84.2,
                   "memo": "June electricity"}),
    ("list_scheduled_transfers", {"status": "active", "account_id": "acc_001"}),
    ("schedule_transfer", {"from_account_id": "acc_001", "amount": 75, "start_date": "2026-07-01",
                           "frequency": "monthly", "payee_id": "pye_025",
                           "end_date": "2026-12-01", "memo": "guitar lessons"}),
    ("schedule_transfer", {"from_account_id": "acc_001", "to_account_id": "acc_004",
                           "amount": 500, "start_date": "2026-06-30"}),
    ("cancel_scheduled_transfer", {"scheduled_transfer_id": "sch_0006"}),
    ("list_cards", {"account_id": "acc_006", "status": "active"}),
    ("freeze_card", {"card_id": "card_05", "reason": "misplaced"}),
    ("unfreeze_card", {"card_id": "card_05"}),
    ("dispute_transaction", {"transaction_id": "txn_00224", "reason": "duplicate_charge",
                             "details": "Charged twice for the same groceries."}),
    ("list_disputes", {"status": "open", "account_id": "acc_006"}),
]
