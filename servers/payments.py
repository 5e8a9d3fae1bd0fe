"""payments: a peer-to-peer payments app (wallet, linked methods, payments, requests, refunds).

The user is the world's principal; contacts are the world's other people. Amounts are kept as
integer minor units of the world's currency (servers.core.money) and shown in major units.
"""

from __future__ import annotations

import random
from typing import Annotated, Literal, TypedDict

from servers.core import money, paging
from servers.core.clock import tick
from servers.core.domain import Domain
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State
from servers.core.world import World, days_ago

Status = Literal["completed", "pending", "refunded", "failed"]


class Method(TypedDict):
    method_id: str
    kind: str
    label: str
    last4: str
    is_default: bool


class Wallet(TypedDict):
    user_id: str
    name: str
    balance: float
    currency: str
    default_method_id: str
    methods: list[Method]


class Contact(TypedDict):
    contact_id: str
    name: str
    username: str
    email: str


class ContactList(TypedDict):
    contacts: list[Contact]
    next_cursor: str | None


class Payment(TypedDict):
    payment_id: str
    direction: str
    counterparty_id: str
    counterparty_name: str
    amount: float
    currency: str
    note: str
    status: str
    created_at: str
    method_id: str


class PaymentList(TypedDict):
    payments: list[Payment]
    total: int
    next_cursor: str | None


class Request(TypedDict):
    request_id: str
    direction: str
    counterparty_id: str
    counterparty_name: str
    amount: float
    currency: str
    note: str
    status: str
    created_at: str


class RequestList(TypedDict):
    requests: list[Request]


class RequestOut(TypedDict):
    request: Request
    payment_id: str | None


NOTES = ["dinner", "rent share", "concert tickets", "groceries", "taxi", "birthday gift",
         "coffee", "utilities", "book club", "team lunch"]
LINKED = [("card", "Visa debit"), ("card", "Mastercard credit"), ("bank", "Checking account"),
          ("bank", "Savings account")]  # methods a user may link besides the wallet


def build(s: State, world: World, rng: random.Random) -> None:
    user = world.user
    s.set_var("user_id", user.id)
    money.remember_currency(s, world.currency)
    s.set_var("balance", _seed(rng, 300, 2500, world))
    contacts = s.table("contacts", key="contact_id", kind="contact",
                       hint="use search_contacts to find contact ids")
    # some of the world's people, more or fewer per world (always more than a page)
    people = sorted(rng.sample(range(1, len(world.people)), rng.randint(25, 45)))
    contacts.load([{"contact_id": p.id, "name": p.name, "username": p.username,
                    "email": p.email} for p in (world.people[i] for i in people)])
    _methods(s, rng)
    _payments(s, world, rng)
    _requests(s, world, rng)


def _methods(s: State, rng: random.Random) -> None:
    """The wallet (the default) and one or more linked cards or bank accounts."""
    linked = [m for m in LINKED if rng.random() < 0.6] or [LINKED[0]]
    methods = s.table("methods", key="method_id", kind="payment method",
                      hint="use get_wallet to see method ids")
    methods.load([{"method_id": "pm_1", "kind": "wallet", "label": "Wallet balance",
                   "last4": "", "is_default": True}] + [
        {"method_id": f"pm_{i + 2}", "kind": kind, "label": label,
         "last4": f"{rng.randint(1000, 9999)}", "is_default": False}
        for i, (kind, label) in enumerate(linked)])


def _payments(s: State, world: World, rng: random.Random) -> None:
    """Two months of payments with the contacts, spread evenly."""
    ids, methods = s["contacts"].ids(), s["methods"].ids()
    activity = rng.uniform(0.1, 0.7)  # how much this user uses the app: 22 to 62 payments
    n = 22 + sum(rng.random() < activity for _ in range(40))
    sent_share = rng.uniform(0.3, 0.7)  # some users mostly pay, others mostly get paid
    status_weights = [rng.randint(4, 8), rng.randint(0, 2), rng.randint(0, 2), 1]
    rows = []
    for i in range(n):
        rows.append({"payment_id": f"pay_{i + 1:04d}",
                     "direction": "sent" if rng.random() < sent_share else "received",
                     "counterparty_id": rng.choice(ids), "amount": _seed(rng, 5, 250, world),
                     "note": rng.choice(NOTES), "status": rng.choices(
                         ["completed", "pending", "refunded", "failed"], status_weights)[0],
                     "created_at": days_ago(world, round(60 * (n - i) / n), rng),
                     "method_id": rng.choice(methods)})
    # a received one is always completed, so there is something to refund
    rows[-1] = {**rows[-1], "direction": "received", "status": "completed"}
    s.table("payments", key="payment_id", kind="payment",
            hint="use list_payments to see payment ids").load(rows)
    s.set_var("__seq_pay", n)


def _requests(s: State, world: World, rng: random.Random) -> None:
    """Requests both ways; the newest of each direction is still pending."""
    ids = s["contacts"].ids()
    n = rng.randint(10, 24)
    rows = [{"request_id": f"req_{i + 1:04d}",
             "direction": rng.choice(["incoming", "outgoing"]),
             "counterparty_id": rng.choice(ids), "amount": _seed(rng, 8, 120, world),
             "note": rng.choice(NOTES),
             "status": rng.choice(["pending", "pending", "paid", "declined"]),
             "created_at": days_ago(world, round(20 * (n - i) / n), rng)} for i in range(n)]
    rows[-2:] = [{**rows[-2], "direction": "incoming", "status": "pending"},
                 {**rows[-1], "direction": "outgoing", "status": "pending"}]
    s.table("requests", key="request_id", kind="payment request",
            hint="use list_payment_requests to see request ids").load(rows)
    s.set_var("__seq_req", n)


def _seed(rng: random.Random, lo: float, hi: float, world: World) -> int:
    """A seeded amount: a USD-like magnitude in [lo, hi] scaled to the world's currency."""
    return money.seed(round(rng.uniform(lo, hi), 2), world.currency)


DOMAIN = Domain("payments", "Peer-to-peer payments: wallet, contacts, payments, requests.",
                build)
# fields stamped from the session clock: left out of clock-free state comparisons
DOMAIN.clock_fields = {"payments": ("created_at",), "requests": ("created_at",)}


def _name(s: State, contact_id: str) -> str:
    return s["contacts"].get(contact_id)["name"]


def _payment(s: State, row: Row) -> Payment:
    return {**row, "amount": money.amount_out(s, row["amount"]),
            "currency": money.currency_of(s), "counterparty_name": _name(s, row["counterparty_id"])}


def _request(s: State, row: Row) -> Request:
    return {**row, "amount": money.amount_out(s, row["amount"]),
            "currency": money.currency_of(s), "counterparty_name": _name(s, row["counterparty_id"])}


def _now(s: State) -> str:
    # The session clock, not the row count: a count taken modulo the hour wrapped, stamping
    # later payments earlier, and a payment and a request made in a row shared a minute.
    return tick(s)


def _debit(s: State, method_id: str, amount: int) -> None:
    """Take `amount` (minor units) from the wallet when paying with it; other methods are
    charged outside the app."""
    method = s["methods"].get(method_id)
    if method["kind"] == "wallet":
        balance, cur = s.var("balance"), money.currency_of(s)
        if amount > balance:
            raise ToolError(f"insufficient wallet balance ({money.fmt(balance, cur)}) for "
                            f"{money.fmt(amount, cur)}; pay with another method from "
                            "get_wallet's methods")
        s.set_var("balance", balance - amount)


MAX_AMOUNT_USD = 5000  # the most one payment or request may be, scaled to the world's currency


def _amount_in(s: State, value: float) -> int:
    """An input amount -> minor units: the currency's precision, above zero, within the cap."""
    amount = money.amount_in(s, value)
    cap, cur = money.limit(s, MAX_AMOUNT_USD), money.currency_of(s)
    if not 0 < amount <= cap:
        raise ToolError(f"amount {value} is out of range; use more than 0 and at most "
                        f"{money.fmt(cap, cur)}")
    return amount


ContactId = Annotated[str, Arg("Contact id, e.g. 'p_waqgg5' (from search_contacts)")]
Amount = Annotated[float, Arg(
    "Amount in the wallet's currency (see get_wallet), in major units with at most the "
    "currency's decimals (2 for EUR/USD, 0 for JPY), > 0", minimum=0.01)]
Note = Annotated[str, Arg("Short note shown to the other person", max_length=140)]


@DOMAIN.tool(read_only=True)
def get_wallet(s: State) -> Wallet:
    """Show the user's wallet balance, default payment method and every linked payment method
    (wallet, cards, bank accounts) with its method id."""
    methods = s["methods"].rows()
    default = next(m for m in methods if m["is_default"])
    user = s.var("user_id")
    return {"user_id": user, "name": "you", "balance": money.amount_out(s, s.var("balance")),
            "currency": money.currency_of(s),
            "default_method_id": default["method_id"], "methods": methods}


@DOMAIN.tool(read_only=True)
def search_contacts(s: State, query: Annotated[str, Arg(
        "Part of a name, username or email (case-insensitive)", min_length=1)],
        limit: paging.Limit = 20, cursor: paging.Cursor = None) -> ContactList:
    """Find contacts to pay or request money from."""
    q = query.lower()
    found = [c for c in s["contacts"].rows()
             if q in c["name"].lower() or q in c["username"] or q in c["email"]]
    pg = paging.page(found, limit, cursor, key="contact_id")
    return {"contacts": pg.rows, "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=True)
def list_payments(
        s: State,
        direction: Annotated[Literal["sent", "received", "all"], Arg("Which payments")] = "all",
        status: Annotated[Status | None, Arg("Only payments with this status")] = None,
        contact_id: Annotated[str | None, Arg("Only payments with this contact")] = None,
        limit: paging.Limit = 20, cursor: paging.Cursor = None) -> PaymentList:
    """List payments, most recent first."""
    if contact_id is not None:
        s["contacts"].get(contact_id)
    rows = [r for r in s["payments"].rows()
            if (direction == "all" or r["direction"] == direction)
            and (status is None or r["status"] == status)
            and (contact_id is None or r["counterparty_id"] == contact_id)]
    rows.sort(key=lambda r: r["created_at"], reverse=True)
    pg = paging.page(rows, limit, cursor, key="payment_id")
    return {"payments": [_payment(s, r) for r in pg.rows], "total": len(rows),
            "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=True)
def get_payment(s: State, payment_id: Annotated[str, Arg(
        "Payment id, e.g. 'pay_mfsjs6' (from list_payments)")]) -> Payment:
    """Get one payment's details."""
    return _payment(s, s["payments"].get(payment_id))


@DOMAIN.tool(read_only=False)
def send_payment(s: State, contact_id: ContactId, amount: Amount, note: Note,
                 method_id: Annotated[str | None, Arg(
                     "Payment method id (default: the default method)")] = None) -> Payment:
    """Send money to a contact."""
    return _send(s, contact_id, _amount_in(s, amount), note, method_id)


def _send(s: State, contact_id: str, amount: int, note: str, method_id: str | None) -> Payment:
    s["contacts"].get(contact_id)
    method_id = method_id or next(m for m in s["methods"].rows() if m["is_default"])["method_id"]
    _debit(s, method_id, amount)
    row = s["payments"].insert({
        "payment_id": s.next_id("pay"), "direction": "sent", "counterparty_id": contact_id,
        "amount": amount, "note": note, "status": "completed",
        "created_at": _now(s), "method_id": method_id})
    return _payment(s, row)


@DOMAIN.tool(read_only=False)
def request_payment(s: State, contact_id: ContactId, amount: Amount, note: Note) -> Request:
    """Ask a contact to pay the user."""
    s["contacts"].get(contact_id)
    minor = _amount_in(s, amount)
    row = s["requests"].insert({
        "request_id": s.next_id("req"), "direction": "outgoing", "counterparty_id": contact_id,
        "amount": minor, "note": note, "status": "pending", "created_at": _now(s)})
    return _request(s, row)


@DOMAIN.tool(read_only=True)
def list_payment_requests(
        s: State,
        direction: Annotated[Literal["incoming", "outgoing", "all"], Arg(
            "incoming: others ask the user to pay; outgoing: the user asked others")] = "all",
        status: Annotated[Literal["pending", "paid", "declined", "cancelled"] | None, Arg(
            "Only requests with this status")] = None) -> RequestList:
    """List payment requests."""
    rows = [r for r in s["requests"].rows()
            if (direction == "all" or r["direction"] == direction)
            and (status is None or r["status"] == status)]
    return {"requests": [_request(s, r) for r in rows]}


@DOMAIN.tool(read_only=False)
def respond_to_request(
        s: State,
        request_id: Annotated[str, Arg("Incoming request id (from list_payment_requests)")],
        action: Annotated[Literal["pay", "decline"], Arg("Pay it or decline it")],
        method_id: Annotated[str | None, Arg("Method to pay with (default method if absent)"
                                             )] = None) -> RequestOut:
    """Pay or decline a pending request someone sent the user."""
    req = s["requests"].get(request_id)
    if req["direction"] != "incoming":
        raise ToolError(f"request {request_id} is one the user sent; only incoming requests "
                        "can be paid or declined")
    if req["status"] != "pending":
        raise ToolError(f"request {request_id} is already {req['status']}")
    payment_id = None
    if action == "pay":
        paid = _send(s, req["counterparty_id"], req["amount"], req["note"], method_id)
        payment_id = paid["payment_id"]
    req = s["requests"].update(request_id, status="paid" if action == "pay" else "declined")
    return {"request": _request(s, req), "payment_id": payment_id}


@DOMAIN.tool(read_only=False)
def refund_payment(s: State, payment_id: Annotated[str, Arg(
        "Id of a completed payment the user received (from list_payments)")]) -> Payment:
    """Refund a payment the user received; the money goes back to the sender."""
    pay = s["payments"].get(payment_id)
    if pay["direction"] != "received":
        raise ToolError(f"payment {payment_id} was sent by the user; only received payments "
                        "can be refunded (ask the recipient to refund a sent one)")
    if pay["status"] != "completed":
        raise ToolError(f"payment {payment_id} is {pay['status']}; only completed payments "
                        "can be refunded")
    wallet = next(m for m in s["methods"].rows() if m["kind"] == "wallet")
    _debit(s, wallet["method_id"], pay["amount"])  # a refund always comes out of the wallet
    return _payment(s, s["payments"].update(payment_id, status="refunded"))


@DOMAIN.tool(read_only=False)
def cancel_request(s: State, request_id: Annotated[str, Arg(
        "Id of a pending request the user sent (outgoing, from list_payment_requests)")]
                   ) -> Request:
    """Cancel a pending payment request the user sent, so the contact can no longer pay it."""
    req = s["requests"].get(request_id)
    if req["direction"] != "outgoing":
        raise ToolError(f"request {request_id} was sent to the user by "
                        f"{_name(s, req['counterparty_id'])}; only the user's own (outgoing) "
                        "requests can be cancelled; decline it with respond_to_request")
    if req["status"] != "pending":
        raise ToolError(f"request {request_id} is already {req['status']}; only pending "
                        "requests can be cancelled")
    return _request(s, s["requests"].update(request_id, status="cancelled"))


# Calls that succeed in this order on a fresh session (seed 0): used by the contract tests and
# as documentation of each tool's use.
EXAMPLES: list[tuple[str, dict]] = [
    ("get_wallet", {}),
    ("search_contacts", {"query": "a"}),
    ("list_payments", {"direction": "received", "status": "completed"}),
    ("get_payment", {"payment_id": "pay_0001"}),
    ("send_payment", {"contact_id": "p_003", "amount": 12.5, "note": "lunch"}),
    ("request_payment", {"contact_id": "p_013", "amount": 20, "note": "tickets"}),
    ("list_payment_requests", {"direction": "incoming", "status": "pending"}),
    ("respond_to_request", {"request_id": "req_0006", "action": "decline"}),
    ("refund_payment", {"payment_id": "pay_0008"}),
    ("cancel_request", {"request_id": "req_0021"}),
]
