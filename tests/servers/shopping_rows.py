"""Rows the shopping tests look up by what they are (ids are opaque and seeded)."""

from __future__ import annotations

from servers.core.runtime import Runtime
from servers.core.state import State


def stock_of(rt: Runtime, item_id: str) -> int:
    return rt.session(None).state["variants"].get(item_id)["stock"]


def method_id(s: State, label: str) -> str:
    """The id of the payment method whose label starts with `label` (Visa, Mastercard, PayPal,
    Gift card): ids are opaque, the kinds are the same at every seed."""
    return next(m["payment_method_id"] for m in s["payment_methods"].rows()
                if m["label"].startswith(label))
