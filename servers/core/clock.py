"""A deterministic clock for servers: no wall time, so resets and replays give the same state.

Each state-changing call that needs "now" ticks the session's clock one minute past a fixed
start on the reference date; dates from the caller are parsed with messages that say the format.
"""

from __future__ import annotations

import datetime as dt

from servers.core.errors import ToolError
from servers.core.state import State
from servers.core.world import REFERENCE_DATE


def tick(s: State, start: dt.time) -> str:
    """The next minute of this session's clock, as an ISO timestamp (minutes)."""
    n = s.var("__clock", 0) + 1
    s.set_var("__clock", n)
    when = dt.datetime.combine(REFERENCE_DATE, start) + dt.timedelta(minutes=n)
    return when.isoformat(timespec="minutes")


def parse_date(value: str, arg: str) -> dt.date:
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise ToolError(f"{arg} {value!r} is not a valid calendar date; use YYYY-MM-DD, "
                        f"e.g. '{REFERENCE_DATE.isoformat()}'") from None


def future_date(value: str, arg: str) -> str:
    """A date that must be today (the reference date) or later, as YYYY-MM-DD."""
    day = parse_date(value, arg)
    if day < REFERENCE_DATE:
        raise ToolError(f"{arg} {value} is in the past; today is {REFERENCE_DATE.isoformat()}, "
                        "pick today or a later date")
    return day.isoformat()
