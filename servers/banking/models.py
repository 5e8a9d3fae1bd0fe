"""banking: the tool value types (argument enums and TypedDict results = output schemas)."""

from __future__ import annotations

from typing import Literal, TypedDict

AccountType = Literal["checking", "savings", "credit"]
Category = Literal["groceries", "dining", "transport", "shopping", "entertainment", "travel",
                   "health", "subscriptions", "utilities", "housing", "bills", "income",
                   "transfer", "interest", "fees", "cash"]
TxnType = Literal["card_purchase", "refund", "deposit", "transfer_in", "transfer_out",
                  "bill_payment", "atm_withdrawal", "interest", "fee"]
CardStatus = Literal["active", "frozen", "cancelled", "expired"]
DisputeReason = Literal["unrecognized_charge", "duplicate_charge", "incorrect_amount",
                        "merchant_not_received", "defective_or_not_as_described",
                        "cancelled_subscription"]
DisputeStatus = Literal["open", "under_review", "resolved_refunded", "rejected"]


class Account(TypedDict):
    account_id: str
    name: str
    type: str
    currency: str
    balance: float
    available_balance: float
    credit_limit: float | None
    interest_rate: float
    number_last4: str
    status: str
    opened_on: str


class AccountList(TypedDict):
    accounts: list[Account]
    total: int


class Transaction(TypedDict):
    transaction_id: str
    account_id: str
    posted_at: str
    description: str
    merchant: str | None
    category: str
    amount: float
    currency: str
    type: str
    status: str
    card_id: str | None
    payee_id: str | None
    counterparty_account_id: str | None
    memo: str
    dispute_id: str | None


class TransactionList(TypedDict):
    transactions: list[Transaction]
    total: int
    next_cursor: str | None


class Card(TypedDict):
    card_id: str
    account_id: str
    account_name: str
    kind: str
    network: str
    last4: str
    cardholder: str
    expires: str
    status: str
    is_virtual: bool
    freeze_reason: str | None


class CardList(TypedDict):
    cards: list[Card]


class AccountDetail(TypedDict):
    account: Account
    cards: list[Card]
    recent_transactions: list[Transaction]
    pending_total: float
    currency: str


class TransferResult(TypedDict):
    from_account: Account
    to_account: Account
    debit: Transaction
    credit: Transaction


class Payee(TypedDict):
    payee_id: str
    name: str
    kind: str
    category: str
    nickname: str | None
    bank_name: str
    routing_number: str
    account_last4: str
    email: str | None
    person_id: str | None
    added_on: str


class PayeeList(TypedDict):
    payees: list[Payee]
    total: int
    next_cursor: str | None


class PaymentResult(TypedDict):
    transaction: Transaction
    account: Account


class ScheduledTransfer(TypedDict):
    scheduled_transfer_id: str
    from_account_id: str
    to_account_id: str | None
    payee_id: str | None
    destination_name: str
    amount: float
    currency: str
    frequency: str
    next_date: str | None
    end_date: str | None
    last_run_on: str | None
    memo: str
    status: str
    created_at: str


class ScheduledList(TypedDict):
    scheduled_transfers: list[ScheduledTransfer]
    total: int


class Dispute(TypedDict):
    dispute_id: str
    transaction_id: str
    account_id: str
    merchant: str | None
    amount: float
    currency: str
    reason: str
    details: str
    status: str
    opened_at: str


class DisputeList(TypedDict):
    disputes: list[Dispute]
    total: int
