"""Domain behaviour of the payments server: payments and requests made in a session carry
timestamps that grow with the order they were made in."""

from __future__ import annotations

from decimal import Decimal

import pytest

from servers.core import money
from servers.core.runtime import Runtime
from servers.core.world import make_world
from servers.payments import DOMAIN
from tests.servers import money_ops
from tests.servers.common import assert_world_varies, fails, ok, row_where, runtime_fixture, state
from tests.servers.money_ops import SEEDS

rt = runtime_fixture(DOMAIN)


def _contacts(rt: Runtime) -> list[str]:
    """Two contact ids of this world (contacts are a seeded sample of the world's people)."""
    return state(rt)["contacts"].ids()[:2]


def _method(rt: Runtime, kind: str) -> str:
    return row_where(rt, "methods", kind=kind)["method_id"]


def test_world_varies_by_seed():
    assert_world_varies("payments", {"contacts": None, "methods": None,
                                     "payments": "status", "requests": "status"})


def test_new_payments_are_stamped_in_creation_order_past_an_hour_and_a_day(rt):
    # 24 * 60 + 5 payments cross both the hour and the day; a minute-of-hour stamp wraps.
    friend, card = _contacts(rt)[0], _method(rt, "card")
    made = [ok(rt, "send_payment", {"contact_id": friend, "amount": 0.01, "note": "x",
                                    "method_id": card}) for _ in range(24 * 60 + 5)]
    stamps = [p["created_at"] for p in made]
    assert stamps == sorted(set(stamps)), "a later payment is stamped earlier (or the same)"
    newest = ok(rt, "list_payments", {"limit": 3})["payments"]
    assert [p["payment_id"] for p in newest] == [p["payment_id"] for p in made[:-4:-1]]


def test_requests_are_stamped_in_creation_order_too(rt):
    payer, friend = _contacts(rt)
    first = ok(rt, "request_payment", {"contact_id": payer, "amount": 2, "note": "y"})
    paid = ok(rt, "send_payment", {"contact_id": friend, "amount": 1, "note": "x"})
    second = ok(rt, "request_payment", {"contact_id": payer, "amount": 3, "note": "z"})
    assert first["created_at"] < paid["created_at"] < second["created_at"]


# ------------------------------------------------------------------ exact money


def test_seeds_cover_eur_usd_and_jpy():
    assert [make_world(s).currency for s in SEEDS] == ["EUR", "USD", "JPY"]


def test_amounts_are_in_the_world_currency_and_refused_beyond_its_decimals(rt):
    wallet = ok(rt, "get_wallet", {})
    assert wallet["currency"] == "EUR"
    friend = _contacts(rt)[0]
    fails(rt, "send_payment", {"contact_id": friend, "amount": 10.005, "note": "x"},
          "amount 10.005 has more decimals than EUR allows (2)")
    paid = ok(rt, "send_payment", {"contact_id": friend, "amount": 10.01, "note": "x"})
    assert (paid["amount"], paid["currency"]) == (10.01, "EUR")
    after = ok(rt, "get_wallet", {})["balance"]
    assert Decimal(repr(wallet["balance"])) - Decimal("10.01") == Decimal(repr(after))
    assert state(rt).var("balance") == money.parse(after, "EUR")


def test_a_jpy_world_has_yen_amounts_without_decimals():
    rt = Runtime(DOMAIN, default_seed=10)
    wallet = ok(rt, "get_wallet", {})
    assert wallet["currency"] == "JPY" and isinstance(wallet["balance"], int)
    assert wallet["balance"] >= 300 * 150 - 1  # seeded from at least 300 USD-like units
    friend = _contacts(rt)[0]
    fails(rt, "send_payment", {"contact_id": friend, "amount": 12.5, "note": "x"},
          "amount 12.5 has more decimals than JPY allows (0)")
    paid = ok(rt, "send_payment", {"contact_id": friend, "amount": 1500, "note": "x"})
    assert paid["amount"] == 1500 and paid["currency"] == "JPY"
    assert ok(rt, "get_wallet", {})["balance"] == wallet["balance"] - 1500
    for p in ok(rt, "list_payments", {"limit": 100})["payments"]:
        assert isinstance(p["amount"], int) and p["currency"] == "JPY"


def test_the_cap_on_one_payment_is_scaled_to_the_currency(rt):
    payer = _contacts(rt)[0]
    fails(rt, "request_payment", {"contact_id": payer, "amount": 4500.01, "note": "x"},
          "at most 4500.00 EUR")
    ok(rt, "request_payment", {"contact_id": payer, "amount": 4500, "note": "x"})


def _makers() -> dict:
    contact = lambda rng, s: rng.choice(s["contacts"].ids())
    def method(rng, s) -> str | None:  # the wallet (first) most, another method or the default
        wallet, other = s["methods"].ids()[0], s["methods"].ids()[1]
        return rng.choice([wallet, wallet, other, None])

    return {
        "send_payment": lambda rng, s: {"contact_id": contact(rng, s),
                                        "amount": money_ops.amount(rng, s, 1, 150),
                                        "note": "x", "method_id": method(rng, s)},
        "request_payment": lambda rng, s: {"contact_id": contact(rng, s),
                                           "amount": money_ops.amount(rng, s), "note": "y"},
        "respond_to_request": lambda rng, s: {
            "request_id": rng.choice(s["requests"].ids()),
            "action": rng.choice(["pay", "pay", "decline"]), "method_id": method(rng, s)},
        "refund_payment": lambda rng, s: {"payment_id": rng.choice(s["payments"].ids())},
        "get_wallet": lambda rng, s: {},
    }


@pytest.mark.parametrize("seed", SEEDS)
def test_wallet_reconciles_with_payments_after_1000_random_operations(seed):
    rt = Runtime(DOMAIN, default_seed=seed)
    s = state(rt)
    opening, before = s.var("balance"), {r["payment_id"]: r for r in s["payments"].rows()}
    wallet = next(m["method_id"] for m in s["methods"].rows() if m["kind"] == "wallet")
    done, failed = money_ops.run_ops(rt, _makers(), 1000, seed)
    assert len(done) > 200 and failed > 20  # both paths were exercised
    rows = s["payments"].rows()
    paid_out = sum(r["amount"] for r in rows if r["payment_id"] not in before
                   and r["method_id"] == wallet)
    was = {k: r["status"] for k, r in before.items()}
    refunded = sum(r["amount"] for r in rows if r["status"] == "refunded"
                   and was.get(r["payment_id"], "refunded") != "refunded")
    assert all(isinstance(r["amount"], int) for r in rows)
    assert s.var("balance") == opening - paid_out - refunded >= 0
    cur = make_world(seed).currency
    assert ok(rt, "get_wallet", {})["balance"] == money.to_major(s.var("balance"), cur)


# ------------------------------------------------------------------ cancel_request


def _requests(rt: Runtime, direction: str, status: str) -> list[dict]:
    return [r for r in state(rt)["requests"].rows()
            if r["direction"] == direction and r["status"] == status]


@pytest.mark.parametrize("seed", SEEDS)
def test_a_cancelled_request_is_listed_as_cancelled_and_can_no_longer_be_paid(seed):
    rt = Runtime(DOMAIN, default_seed=seed)
    made = ok(rt, "request_payment", {"contact_id": state(rt)["contacts"].ids()[0],
                                      "amount": 10, "note": "tickets"})
    for req_id in (made["request_id"], _requests(rt, "outgoing", "pending")[0]["request_id"]):
        out = ok(rt, "cancel_request", {"request_id": req_id})
        assert out["status"] == "cancelled" and out["currency"] == money.currency_of(state(rt))
        listed = ok(rt, "list_payment_requests", {"status": "cancelled"})["requests"]
        assert req_id in [r["request_id"] for r in listed]
        pending = ok(rt, "list_payment_requests", {"status": "pending"})["requests"]
        assert req_id not in [r["request_id"] for r in pending]
        fails(rt, "cancel_request", {"request_id": req_id}, req_id, "already cancelled")
        fails(rt, "respond_to_request", {"request_id": req_id, "action": "pay"}, req_id)


@pytest.mark.parametrize("seed", SEEDS)
def test_cancel_request_refuses_incoming_settled_and_unknown_requests(seed):
    rt = Runtime(DOMAIN, default_seed=seed)
    incoming = _requests(rt, "incoming", "pending")[0]["request_id"]
    fails(rt, "cancel_request", {"request_id": incoming}, incoming, "respond_to_request")
    for status in ("paid", "declined"):
        settled = _requests(rt, "outgoing", status)
        if settled:
            rid = settled[0]["request_id"]
            fails(rt, "cancel_request", {"request_id": rid}, f"already {status}",
                  "only pending")
    fails(rt, "cancel_request", {"request_id": "req_9999"}, "no payment request with id "
          "'req_9999'", "list_payment_requests")


def test_get_wallet_lists_every_linked_method_with_the_default_marked(rt):
    wallet = ok(rt, "get_wallet", {})
    assert [m["method_id"] for m in wallet["methods"]] == state(rt)["methods"].ids()
    assert [m["method_id"] for m in wallet["methods"] if m["is_default"]] == [
        wallet["default_method_id"]]
