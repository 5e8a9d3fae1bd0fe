"""Domain behaviour of the payments server: payments and requests made in a session carry
timestamps that grow with the order they were made in."""

from __future__ import annotations

from servers.payments import DOMAIN
from tests.servers.common import ok, runtime_fixture

rt = runtime_fixture(DOMAIN)


def test_new_payments_are_stamped_in_creation_order_past_an_hour_and_a_day(rt):
    # 24 * 60 + 5 payments cross both the hour and the day; a minute-of-hour stamp wraps.
    made = [ok(rt, "send_payment", {"contact_id": "p_002", "amount": 0.01, "note": "x",
                                    "method_id": "pm_card_1"}) for _ in range(24 * 60 + 5)]
    stamps = [p["created_at"] for p in made]
    assert stamps == sorted(set(stamps)), "a later payment is stamped earlier (or the same)"
    newest = ok(rt, "list_payments", {"limit": 3})["payments"]
    assert [p["payment_id"] for p in newest] == [p["payment_id"] for p in made[:-4:-1]]


def test_requests_are_stamped_in_creation_order_too(rt):
    first = ok(rt, "request_payment", {"contact_id": "p_003", "amount": 2, "note": "y"})
    paid = ok(rt, "send_payment", {"contact_id": "p_002", "amount": 1, "note": "x"})
    second = ok(rt, "request_payment", {"contact_id": "p_003", "amount": 3, "note": "z"})
    assert first["created_at"] < paid["created_at"] < second["created_at"]
