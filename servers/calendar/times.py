"""Local calendar time for the calendar server: "now", working hours, parsing and the
expansion of recurring series into occurrences. No domain here, so seed can use it too."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from servers.core.errors import ToolError
from servers.core.state import Row
from servers.core.world import REFERENCE_DATE

NOW = dt.datetime.combine(REFERENCE_DATE, dt.time(8, 0))  # "now": Monday 08:00 local time
WORK_START, WORK_END = dt.time(9, 0), dt.time(17, 0)


def fmt(when: dt.datetime) -> str:
    return when.isoformat(timespec="minutes")


def parse_dt(value: str, field: str) -> dt.datetime:
    try:
        when = dt.datetime.fromisoformat(value)
    except ValueError:
        raise ToolError(f"{field} {value!r} is not a valid date-time; use local ISO format like "
                        "'2026-06-16T09:30'") from None
    if when.tzinfo is not None:
        raise ToolError(f"{field} {value!r} has a UTC offset; give local calendar time without "
                        "one, like '2026-06-16T09:30'")
    if "T" not in value and " " not in value:
        raise ToolError(f"{field} {value!r} has no time of day; use e.g. '{value}T09:00'")
    return when.replace(second=0, microsecond=0)


def parse_date(value: str, field: str) -> dt.date:
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise ToolError(f"{field} {value!r} is not a valid date; use ISO format like "
                        "'2026-06-16'") from None


def occurrences(row: Row, lo: dt.datetime, hi: dt.datetime
                ) -> Iterator[tuple[dt.datetime, dt.datetime]]:
    """(start, end) of each occurrence of an event series that overlaps [lo, hi)."""
    start, end = dt.datetime.fromisoformat(row["start"]), dt.datetime.fromisoformat(row["end"])
    if row["recurrence"] == "none":
        if start < hi and end > lo:
            yield start, end
        return
    step = dt.timedelta(days=1 if row["recurrence"] == "daily" else 7)
    until = (dt.datetime.combine(dt.date.fromisoformat(row["recurrence_until"]), dt.time.max)
             if row["recurrence_until"] else hi)
    duration = end - start
    k = max(0, (lo - end) // step) if lo > end else 0  # skip occurrences long before lo
    while True:
        s = start + k * step
        if s >= hi or s > until:
            return
        if s + duration > lo:
            yield s, s + duration
        k += 1
