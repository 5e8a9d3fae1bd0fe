"""Rows and amounts the travel_booking tests share (ids are opaque and seeded)."""

from __future__ import annotations

from servers.core.runtime import Runtime
from tests.servers import money_ops
from tests.servers.common import row_where


def pm(rt: Runtime, label: str) -> str:
    """The id of the payment method with that label ('Visa credit card', 'Mastercard' (expired),
    'American Express', 'Travel voucher')."""
    return row_where(rt, "payment_methods", label=label)["payment_method_id"]


def cents(x: float) -> int:
    """An EUR amount as cents, so sums and differences are exact."""
    return money_ops.minor(x, "EUR")
