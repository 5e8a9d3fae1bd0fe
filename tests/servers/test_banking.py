"""Domain behaviour of the banking server: money moves exactly, rules are enforced, failures
change nothing."""

from __future__ import annotations

from decimal import Decimal

import pytest

from servers.banking import DOMAIN
from servers.core import money
from servers.core.runtime import Runtime
from servers.core.world import make_world
from tests.servers import money_ops
from tests.servers.common import (
    assert_world_varies,
    digest,
    fails,
    ok,
    row_where,
    runtime_fixture,
    state,
)
from tests.servers.money_ops import SEEDS

rt = runtime_fixture(DOMAIN)


CHECKING, SAVINGS = "Everyday Checking", "High-Yield Savings"  # in every world


def _acc(rt: Runtime, name: str | None = None, **where) -> str:
    """The id of the account called `name` (or the first matching `where`)."""
    return row_where(rt, "accounts", **({"name": name} if name else where))["account_id"]


def _balance(rt: Runtime, account_id: str) -> float:
    return rt.call("get_account", {"account_id": account_id}).payload["account"]["balance"]


def _dec(x: float) -> Decimal:
    return Decimal(repr(x))


def _txns(rt: Runtime, **filters) -> list[dict]:
    out = rt.call("list_transactions", {**filters, "limit": 100})
    assert out.ok, out.error
    return out.payload["transactions"]


def test_transfer_moves_exactly_the_amount(rt):
    savings, checking = _acc(rt, SAVINGS), _acc(rt, CHECKING)
    before_src, before_dst = _balance(rt, savings), _balance(rt, checking)
    out = rt.call("transfer_between_accounts", {"from_account_id": savings,
                                                "to_account_id": checking, "amount": 123.45})
    assert out.ok, out.error
    assert _dec(_balance(rt, savings)) == _dec(before_src) - Decimal("123.45")
    assert _dec(_balance(rt, checking)) == _dec(before_dst) + Decimal("123.45")
    debit, credit = out.payload["debit"], out.payload["credit"]
    assert (debit["amount"], credit["amount"]) == (-123.45, 123.45)
    newest = _txns(rt, account_id=checking)[0]
    assert newest["transaction_id"] == credit["transaction_id"]


def test_the_write_clock_keeps_advancing_past_119_writes(rt):
    # 250 transfers post 500 transactions; the clock used to stop at 23:59 after 119 writes
    stamps = []
    savings, checking = _acc(rt, SAVINGS), _acc(rt, CHECKING)
    for _ in range(250):
        out = rt.call("transfer_between_accounts", {"from_account_id": savings,
                                                    "to_account_id": checking, "amount": 0.01})
        assert out.ok, out.error
        stamps += [out.payload["debit"]["posted_at"], out.payload["credit"]["posted_at"]]
    assert stamps == sorted(set(stamps)), "a later write is stamped no later than an earlier one"
    # 500 writes from the world's now (12:00 in seed 0's Berlin, +02:00): 12:01 to 20:20
    assert stamps[0] == "2026-06-15T12:01+02:00" and stamps[-1] == "2026-06-15T20:20+02:00"


@pytest.mark.parametrize("src, dst, amount, needle", [  # accounts by name or property
    (CHECKING, SAVINGS, 40000, "insufficient"),
    (CHECKING, SAVINGS, 45000.01, "at most 45000.00 EUR"),
    (CHECKING, CHECKING, 10, "same account"),
    ({"type": "credit"}, CHECKING, 10, "credit account"),
    (CHECKING, {"status": "closed"}, 10, "closed"),
    (CHECKING, SAVINGS, 10.005, "decimal"),
])
def test_bad_transfers_fail_and_change_nothing(rt, src, dst, amount, needle):
    def find(a: str | dict) -> str:
        return _acc(rt, a) if isinstance(a, str) else _acc(rt, **a)

    args = {"from_account_id": find(src), "to_account_id": find(dst), "amount": amount}
    before = digest(rt)
    out = rt.call("transfer_between_accounts", args)
    assert not out.ok and needle in out.error
    assert digest(rt) == before


def test_paying_a_credit_card_cannot_exceed_what_is_owed(rt):
    card, checking = _acc(rt, type="credit", status="open"), _acc(rt, CHECKING)
    owed = -_balance(rt, card)
    out = rt.call("transfer_between_accounts", {"from_account_id": checking,
                                                "to_account_id": card,
                                                "amount": round(owed + 1, 2)})
    assert not out.ok and "only owes" in out.error
    out = rt.call("transfer_between_accounts", {"from_account_id": checking,
                                                "to_account_id": card, "amount": owed})
    assert out.ok and out.payload["to_account"]["balance"] == 0


def test_pay_payee_debits_checking_and_refuses_savings(rt):
    checking, friend = _acc(rt, CHECKING), row_where(rt, "payees", kind="person")["payee_id"]
    before = _balance(rt, checking)
    out = rt.call("pay_payee", {"payee_id": friend, "from_account_id": checking,
                                "amount": 42})
    assert out.ok, out.error
    assert out.payload["transaction"]["payee_id"] == friend
    assert out.payload["transaction"]["type"] == "transfer_out"  # a person, not a biller
    assert _dec(_balance(rt, checking)) == _dec(before) - 42
    out = rt.call("pay_payee", {"payee_id": friend, "from_account_id": _acc(rt, SAVINGS),
                                "amount": 42})
    assert not out.ok and "checking" in out.error


def test_add_payee_checks_routing_number_and_duplicates(rt):
    bad = rt.call("add_payee", {"name": "X Y", "routing_number": "123456789",
                                "account_number": "55554444"})
    assert not bad.ok and "checksum" in bad.error
    args = {"name": "Jo Park", "routing_number": "026009593", "account_number": "99990001"}
    first = rt.call("add_payee", args)
    assert first.ok and first.payload["bank_name"] == "Bank of America"
    assert first.payload["account_last4"] == "0001"
    again = rt.call("add_payee", {**args, "name": "Jo P."})
    assert not again.ok and first.payload["payee_id"] in again.error
    found = rt.call("list_payees", {"query": "jo park"}).payload["payees"]
    assert [p["payee_id"] for p in found] == [first.payload["payee_id"]]


def test_list_transactions_filters(rt):
    checking = _acc(rt, CHECKING)
    rows = _txns(rt, account_id=checking, start_date="2026-05-01", end_date="2026-05-31",
                 direction="debit", min_amount=20, max_amount=200)
    assert rows
    for r in rows:
        assert r["account_id"] == checking and "2026-05-01" <= r["posted_at"][:10] <= "2026-05-31"
        assert r["amount"] < 0 and 20 <= abs(r["amount"]) <= 200
    dates = [r["posted_at"] for r in rows]
    assert dates == sorted(dates, reverse=True)
    out = rt.call("list_transactions", {"min_amount": 50, "max_amount": 10})
    assert not out.ok and "min_amount" in out.error
    out = rt.call("list_transactions", {"start_date": "2026-02-30"})
    assert not out.ok and "2026-02-30" in out.error


def _disputable(rt: Runtime) -> dict:
    rows = _txns(rt, type="card_purchase", start_date="2026-05-20", end_date="2026-06-13")
    return next(r for r in rows if r["dispute_id"] is None and r["status"] == "posted")


def test_dispute_rules(rt):
    txn = _disputable(rt)
    out = rt.call("dispute_transaction", {"transaction_id": txn["transaction_id"],
                                          "reason": "unrecognized_charge"})
    assert out.ok, out.error
    dispute_id = out.payload["dispute_id"]
    assert out.payload["amount"] == -txn["amount"] and out.payload["status"] == "open"
    got = rt.call("get_transaction", {"transaction_id": txn["transaction_id"]}).payload
    assert got["dispute_id"] == dispute_id
    before = digest(rt)
    again = rt.call("dispute_transaction", {"transaction_id": txn["transaction_id"],
                                            "reason": "duplicate_charge"})
    assert not again.ok and dispute_id in again.error
    assert digest(rt) == before
    listed = rt.call("list_disputes", {"status": "open"}).payload["disputes"]
    assert dispute_id in [d["dispute_id"] for d in listed]


def test_disputes_only_for_recent_posted_card_charges(rt):
    old = _txns(rt, type="card_purchase", end_date="2026-04-10")
    old = next(r for r in old if r["dispute_id"] is None)
    out = rt.call("dispute_transaction", {"transaction_id": old["transaction_id"],
                                          "reason": "incorrect_amount"})
    assert not out.ok and "60 days" in out.error
    bill = _txns(rt, type="bill_payment", start_date="2026-06-01")[0]
    out = rt.call("dispute_transaction", {"transaction_id": bill["transaction_id"],
                                          "reason": "incorrect_amount"})
    assert not out.ok and "card purchase" in out.error
    pending = next(r for r in _txns(rt, type="card_purchase") if r["status"] == "pending")
    out = rt.call("dispute_transaction", {"transaction_id": pending["transaction_id"],
                                          "reason": "incorrect_amount"})
    assert not out.ok and "pending" in out.error


def test_card_freeze_cycle(rt):
    card = row_where(rt, "cards", status="active")["card_id"]
    assert rt.call("freeze_card", {"card_id": card, "reason": "lost"}).payload[
        "status"] == "frozen"
    before = digest(rt)
    twice = rt.call("freeze_card", {"card_id": card})
    assert not twice.ok and "already frozen" in twice.error and digest(rt) == before
    assert rt.call("unfreeze_card", {"card_id": card}).payload["status"] == "active"
    assert not rt.call("unfreeze_card", {"card_id": card}).ok
    cancelled = rt.call("freeze_card",
                        {"card_id": row_where(rt, "cards", status="cancelled")["card_id"]})
    assert not cancelled.ok and "cancelled" in cancelled.error


def test_scheduling_rules_and_double_cancel(rt):
    savings = _acc(rt, SAVINGS)
    base = {"from_account_id": _acc(rt, CHECKING), "amount": 20, "start_date": "2026-07-01"}
    both = rt.call("schedule_transfer", {**base, "to_account_id": savings,
                                         "payee_id": rt.call("list_payees", {}).payload[
                                             "payees"][0]["payee_id"]})
    assert not both.ok and "exactly one" in both.error
    past = rt.call("schedule_transfer", {**base, "start_date": "2026-06-15",
                                         "to_account_id": savings})
    assert not past.ok and "after today" in past.error
    once_end = rt.call("schedule_transfer", {**base, "to_account_id": savings,
                                             "end_date": "2026-09-01"})
    assert not once_end.ok and "recurring" in once_end.error
    made = rt.call("schedule_transfer", {**base, "to_account_id": savings,
                                         "frequency": "weekly", "end_date": "2026-09-01"})
    assert made.ok and made.payload["destination_name"] == SAVINGS
    sid = made.payload["scheduled_transfer_id"]
    assert rt.call("cancel_scheduled_transfer", {"scheduled_transfer_id": sid}).ok
    before = digest(rt)
    again = rt.call("cancel_scheduled_transfer", {"scheduled_transfer_id": sid})
    assert not again.ok and "already cancelled" in again.error and digest(rt) == before


def test_world_varies_by_seed():
    assert_world_varies("banking", {"accounts": "status", "cards": "status", "payees": None,
                                    "transactions": None, "scheduled_transfers": "status"})


def test_state_has_enough_to_find():
    state = Runtime(DOMAIN, default_seed=3).session(None).state
    assert len(state["transactions"]) >= 150
    assert len(state["payees"]) >= 20 and len(state["scheduled_transfers"]) >= 20
    for seed in range(5):  # every seed has disputable and pending charges
        r = Runtime(DOMAIN, default_seed=seed)
        assert _disputable(r)
        assert any(t["status"] == "pending" for t in _txns(r, type="card_purchase"))


# ------------------------------------------------------------------ exact money


def test_every_account_is_in_the_world_currency():
    for seed in SEEDS:
        cur = make_world(seed).currency
        accounts = Runtime(DOMAIN, default_seed=seed).call(
            "list_accounts", {"include_closed": True}).payload["accounts"]
        assert {a["currency"] for a in accounts} == {cur}


def test_seeded_amounts_are_scaled_to_the_currency():
    # a fixed subscription price, scaled by the fixed factor of each currency
    for seed in SEEDS:
        cur = make_world(seed).currency
        for t in state(Runtime(DOMAIN, default_seed=seed))["transactions"].rows():
            assert isinstance(t["amount"], int)
        subs = [t for t in state(Runtime(DOMAIN, default_seed=seed))["transactions"].rows()
                if t["merchant"] == "StreamFlix"]
        assert {t["amount"] for t in subs} == {-money.seed(15.49, cur)}


def test_a_jpy_world_takes_whole_yen_only():
    rt = Runtime(DOMAIN, default_seed=10)
    savings, checking = _acc(rt, SAVINGS), _acc(rt, CHECKING)
    before = ok(rt, "get_account", {"account_id": savings})["account"]["balance"]
    assert isinstance(before, int)
    fails(rt, "transfer_between_accounts", {"from_account_id": savings,
                                             "to_account_id": checking, "amount": 100.5},
          "amount 100.5 has more decimals than JPY allows (0)")
    out = ok(rt, "transfer_between_accounts", {"from_account_id": savings,
                                               "to_account_id": checking, "amount": 15000})
    assert out["debit"]["amount"] == -15000 and out["debit"]["currency"] == "JPY"
    assert out["from_account"]["balance"] == before - 15000


def test_list_filters_refuse_amounts_finer_than_the_currency(rt):
    fails(rt, "list_transactions", {"min_amount": 1.001}, "min_amount 1.001", "EUR")


def _makers() -> dict:
    def acc(rng, s) -> str:
        return rng.choice(s["accounts"].ids())

    def payer(rng, s) -> str:  # the first accounts not on credit: checking, and savings refused
        return rng.choice([a["account_id"] for a in s["accounts"].rows()
                           if a["type"] != "credit"][:3])

    return {
        "transfer_between_accounts": lambda rng, s: {
            "from_account_id": acc(rng, s), "to_account_id": acc(rng, s),
            "amount": money_ops.amount(rng, s, 1, 3000)},
        "pay_payee": lambda rng, s: {
            "payee_id": rng.choice(s["payees"].ids()),
            "from_account_id": payer(rng, s),
            "amount": money_ops.amount(rng, s, 1, 800)},
        "schedule_transfer": lambda rng, s: {
            "from_account_id": acc(rng, s), "to_account_id": acc(rng, s),
            "amount": money_ops.amount(rng, s), "start_date": "2026-07-01"},
        "dispute_transaction": lambda rng, s: {
            "transaction_id": rng.choice(s["transactions"].ids()),
            "reason": "incorrect_amount"},
        "get_account": lambda rng, s: {"account_id": acc(rng, s)},
    }


@pytest.mark.parametrize("seed", SEEDS)
def test_balances_reconcile_with_transactions_after_1000_random_operations(seed):
    rt = Runtime(DOMAIN, default_seed=seed)
    s = state(rt)
    opening = {a["account_id"]: a["balance"] for a in s["accounts"].rows()}
    seeded = set(s["transactions"].ids())
    done, failed = money_ops.run_ops(rt, _makers(), 1000, seed)
    assert len(done) > 200 and failed > 50
    new = [t for t in s["transactions"].rows() if t["transaction_id"] not in seeded]
    assert new and all(isinstance(t["amount"], int) for t in new)
    for acc in s["accounts"].rows():
        moved = sum(t["amount"] for t in new if t["account_id"] == acc["account_id"])
        assert acc["balance"] == opening[acc["account_id"]] + moved, acc["account_id"]
        assert acc["type"] == "credit" or acc["balance"] >= 0
    # and with the calls made, computed from the arguments alone
    cur = make_world(seed).currency
    expected = dict(opening)
    for tool, args, _ in done:
        if tool in ("transfer_between_accounts", "pay_payee"):
            expected[args["from_account_id"]] -= money_ops.minor(args["amount"], cur)
        if tool == "transfer_between_accounts":
            expected[args["to_account_id"]] += money_ops.minor(args["amount"], cur)
    assert expected == {a["account_id"]: a["balance"] for a in s["accounts"].rows()}
    # money only moved between own accounts or out to payees: the transfers net to zero
    internal = sum(t["amount"] for t in new if t["counterparty_account_id"] is not None)
    assert internal == 0
    shown = ok(rt, "list_accounts", {})["accounts"]
    assert all(a["balance"] == money.to_major(s["accounts"].get(a["account_id"])["balance"], cur)
               for a in shown)
