"""Which ids a user holds: the ones a person can read or has on a receipt, said as they are;
any other id is the server's own, and the user names its record instead."""

from __future__ import annotations

import re

from servers.core.ids import SEALED

__all__ = ["HELD_PREFIXES", "user_holds"]

# Opaque ids a user still holds, from a receipt or a confirmation: orders, bookings,
# reservations.
HELD_PREFIXES = ("ord_", "bk_", "res_")
# A server's named ids ('cal_work', 'cal_personal'): as internal as a sealed one to a user,
# who knows the calendar as "Work"
_SLUG_ID = re.compile(r"^[a-z]{2,5}_[a-z][a-z0-9_]*$")


def user_holds(value: str) -> bool:
    """Would a user know this id or have it at hand? Yes for every id a person can read
    ('WEB-6', a path, a ticker, a flight number) and for order or booking numbers; no for
    the server's internal record ids."""
    if value.startswith(HELD_PREFIXES):
        return True
    return not (SEALED.match(value) or _SLUG_ID.match(value))
