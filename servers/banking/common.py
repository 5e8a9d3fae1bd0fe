"""Shared pieces of the banking server: the domain, the write clock, the output shapers for
accounts, transactions, cards, scheduled transfers and disputes, the money-movement checks and
the argument types used by several tool modules."""

from __future__ import annotations

import datetime as dt
from typing import Annotated

from servers.banking.data import build
from servers.banking.models import Account, Card, Dispute, ScheduledTransfer, Transaction
from servers.core import clock, money
from servers.core.domain import Domain
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State

DOMAIN = Domain("banking", "Personal banking: accounts, transactions, transfers, payees, "
                "scheduled transfers, cards and disputes.", build)
# fields stamped from the session clock: left out of clock-free state comparisons
DOMAIN.clock_fields = {"transactions": ("posted_at",), "disputes": ("opened_at",),
                        "scheduled_transfers": ("created_at",)}


def now(s: State) -> str:
    """The world clock, one minute further per write, so new transactions sort newest (seeded
    activity is all before the world's now)."""
    return clock.tick(s)


def parse_date(value: str, name: str) -> dt.date:
    """A plain calendar date (the one date parser: clock.parse_date)."""
    return clock.parse_date(value, name)

def amount_in(s: State, value: float, max_usd: int, arg: str = "amount") -> int:
    """An input amount -> minor units of the world's currency: refused beyond the currency's
    decimals, at zero, or above `max_usd` USD-like units scaled to the currency."""
    minor = money.amount_in(s, value, arg)
    cap = money.limit(s, max_usd)
    if not 0 < minor <= cap:
        raise ToolError(f"{arg} {value} is out of range; use more than 0 and at most "
                        f"{money.fmt(cap, money.currency_of(s))}")
    return minor


def out(s: State, minor: int | None) -> int | float | None:
    """Minor units -> a JSON number in major units (None stays None)."""
    return None if minor is None else money.amount_out(s, minor)


# ----------------------------------------------------------------------------- output shapes
def as_account(s: State, row: Row) -> Account:
    shown = {k: v for k, v in row.items() if k != "routing_number"}
    available = row["balance"] + (row["credit_limit"] or 0)
    return {**shown, "balance": out(s, row["balance"]),
            "credit_limit": out(s, row["credit_limit"]), "available_balance": out(s, available)}


def as_txn(s: State, row: Row) -> Transaction:
    return {**row, "amount": out(s, row["amount"]),
            "currency": s["accounts"].get(row["account_id"])["currency"]}


def as_card(s: State, row: Row) -> Card:
    return {**row, "account_name": s["accounts"].get(row["account_id"])["name"]}


def as_scheduled(s: State, row: Row) -> ScheduledTransfer:
    if row["payee_id"] is not None:
        dest = s["payees"].get(row["payee_id"])["name"]
    else:
        dest = s["accounts"].get(row["to_account_id"])["name"]
    return {**row, "amount": out(s, row["amount"]), "destination_name": dest}


def as_dispute(s: State, row: Row) -> Dispute:
    return {**row, "amount": out(s, row["amount"]), "currency": money.currency_of(s),
            "merchant": s["transactions"].get(row["transaction_id"])["merchant"]}


def newest(rows: list[Row]) -> list[Row]:
    return sorted(rows, key=lambda r: (r["posted_at"], r["transaction_id"]), reverse=True)


# ----------------------------------------------------------------------------- money movement
def open_account(s: State, account_id: str) -> Row:
    row = s["accounts"].get(account_id)
    if row["status"] != "open":
        raise ToolError(f"account {account_id} ({row['name']}) is {row['status']}; use "
                        "list_accounts to pick an open account")
    return row


def source_account(s: State, account_id: str) -> Row:
    """An account money can leave from: open, not a credit account."""
    row = open_account(s, account_id)
    if row["type"] == "credit":
        raise ToolError(f"account {account_id} is a credit account; cash advances are not "
                        "supported, send money from a checking or savings account")
    return row


def withdraw(s: State, row: Row, amount: int) -> None:
    """Take `amount` (minor units) from the account, if its balance covers it."""
    if amount > row["balance"]:
        cur = row["currency"]
        raise ToolError(f"insufficient funds in {row['account_id']} ({row['name']}): balance "
                        f"{money.fmt(row['balance'], cur)}, needed {money.fmt(amount, cur)}; "
                        "transfer money in first or use a smaller amount")
    s["accounts"].update(row["account_id"], balance=row["balance"] - amount)


def post_txn(s: State, **fields: object) -> Row:
    row = {"transaction_id": s.next_id("txn"), "posted_at": now(s), "merchant": None,
           "status": "posted", "card_id": None, "payee_id": None,
           "counterparty_account_id": None, "memo": "", "dispute_id": None, **fields}
    return s["transactions"].insert(row)


AccountId = Annotated[str, Arg("Account id, e.g. 'acc_rz2yjv' (from list_accounts)")]
MAX_TRANSFER_USD = 50000  # caps in USD-like units, scaled to the world's currency
MAX_PAYMENT_USD = 10000
Amount = Annotated[float, Arg(
    "Amount in the account's currency (its `currency` field), > 0, with at most the "
    "currency's decimals (2 for EUR/USD, 0 for JPY)", minimum=0.01)]
Memo = Annotated[str, Arg("Optional note shown on the statement", max_length=140)]
DateArg = Annotated[str, Arg("Date as YYYY-MM-DD", pattern=r"\d{4}-\d{2}-\d{2}")]
OptDate = Annotated[str | None, Arg("Date as YYYY-MM-DD (inclusive)",
                                    pattern=r"\d{4}-\d{2}-\d{2}")]
