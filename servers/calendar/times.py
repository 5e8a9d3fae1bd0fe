"""Calendar time for the calendar server: working hours, parsing and the expansion of
recurring series into occurrences, all aware in the world's zone (its "now" is the world
clock's). No domain here, so seed can use it too."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from zoneinfo import ZoneInfo

from servers.core import clock
from servers.core.state import Row

WORK_START, WORK_END = dt.time(9, 0), dt.time(17, 0)


def fmt(when: dt.datetime) -> str:
    """An aware time as ISO 8601 with its offset, to the minute."""
    return clock.stamp(when)


def at(day: dt.date, time: dt.time, tz: ZoneInfo) -> dt.datetime:
    """A wall-clock time on a day, in the world's zone."""
    return clock.local(day, time, tz)


def parse_dt(value: str, field: str, tz: ZoneInfo) -> dt.datetime:
    """A caller's date-time in the world's zone, to the minute (see clock.parse_when)."""
    return clock.parse_when(value, field, tz).replace(second=0, microsecond=0)


def parse_date(value: str, field: str) -> dt.date:
    """A plain calendar date (the one date parser: clock.parse_date)."""
    return clock.parse_date(value, field)

def occurrences(row: Row, lo: dt.datetime, hi: dt.datetime
                ) -> Iterator[tuple[dt.datetime, dt.datetime]]:
    """(start, end) of each occurrence of an event series that overlaps [lo, hi)."""
    start, end = dt.datetime.fromisoformat(row["start"]), dt.datetime.fromisoformat(row["end"])
    if row["recurrence"] == "none":
        if start < hi and end > lo:
            yield start, end
        return
    step = dt.timedelta(days=1 if row["recurrence"] == "daily" else 7)
    until = (dt.datetime.combine(dt.date.fromisoformat(row["recurrence_until"]), dt.time.max,
                                 tzinfo=start.tzinfo)
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
