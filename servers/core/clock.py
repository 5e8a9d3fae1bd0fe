"""The one world clock: every server's sessions start at the world's "now" in the user's home
time zone, and a session's clock moves only with that session's own writes.

No wall time, so resets and replays give the same state. At reset `begin` stores the world's
start instant and zone in the session's vars; `now` reads the session's current instant and
`tick` moves it one minute (undone with the call that used it). Stamps are ISO 8601 with the
zone's UTC offset ('2026-06-15T12:03+02:00'); `parse_when` reads a caller's date-time in any of
the accepted forms and returns it in the world's zone.

Clock-derived state fields (stamps written from `tick`) are declared per domain
(`Domain.clock_fields`), so `without_clock` can compare two sessions' states leaving them out.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterable, Mapping
from typing import Any
from zoneinfo import ZoneInfo

from servers.core.errors import ToolError
from servers.core.state import State
from servers.core.world import CITIES, REFERENCE_DATE, WORLD_TIME, World

# state vars: minutes ticked, the session's start instant and its zone (set by `begin`)
CLOCK_VAR, START_VAR, ZONE_VAR = "__clock", "__start", "__tz"
# A bare State (core unit tests) has no world: it runs on UTC from the world's start time.
_FALLBACK_ZONE = "UTC"
WHEN_FORMAT = ("YYYY-MM-DD or YYYY-MM-DDTHH:MM (seconds optional), with an optional 'Z' or "
               "'+hh:mm' UTC offset (without one: the world's local time)")
_CITY_ZONES = {c[0]: c[5] for c in CITIES}
_WHEN = re.compile(r"\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?"
                   r"(?:Z|[+-]\d{2}:\d{2})?)?")


# ----------------------------------------------------------------------------- session clock
def begin(s: State, world: World) -> None:
    """Set a fresh session's clock to the world's start (called before a domain's builder)."""
    s.set_var(START_VAR, world.now.isoformat())
    s.set_var(ZONE_VAR, world.home.tz)


def zone(s: State) -> ZoneInfo:
    """The session's (world's) time zone."""
    return ZoneInfo(s.var(ZONE_VAR, _FALLBACK_ZONE))


def start(s: State) -> dt.datetime:
    """The instant the session started at (aware)."""
    stored = s.var(START_VAR)
    if stored is None:
        return dt.datetime.combine(REFERENCE_DATE, WORLD_TIME, tzinfo=zone(s))
    return dt.datetime.fromisoformat(stored).astimezone(zone(s))


def now(s: State) -> dt.datetime:
    """The session's current instant: its start plus one minute per tick so far (aware)."""
    return start(s) + dt.timedelta(minutes=s.var(CLOCK_VAR, 0))


def today(s: State) -> dt.date:
    """The session's current local date."""
    return now(s).date()


def advance(s: State) -> dt.datetime:
    """Move the session's clock one minute and return the new instant. Unbounded: the clock
    never stops or wraps, so stamps of later writes always sort after earlier ones."""
    s.set_var(CLOCK_VAR, s.var(CLOCK_VAR, 0) + 1)
    return now(s)


def tick(s: State) -> str:
    """The next minute of this session's clock, as an ISO stamp with offset (minutes)."""
    return stamp(advance(s))


def now_stamp(s: State) -> str:
    """The session's current instant as a stamp, without moving the clock."""
    return stamp(now(s))


# ----------------------------------------------------------------------------- stamps
def local(day: dt.date, time: dt.time, tz: ZoneInfo) -> dt.datetime:
    """A wall-clock time on a local date, in the zone (aware)."""
    return dt.datetime.combine(day, time, tzinfo=tz)


def city_zone(city: str) -> ZoneInfo:
    """The time zone of one of the world's cities (by name), for places' local opening hours."""
    return ZoneInfo(_CITY_ZONES[city])


def aware(when: dt.datetime, tz: ZoneInfo) -> dt.datetime:
    """`when` in the zone: naive means local wall time there, aware is converted."""
    return when.replace(tzinfo=tz) if when.tzinfo is None else when.astimezone(tz)


def stamp(when: dt.datetime, tz: ZoneInfo | None = None, timespec: str = "minutes") -> str:
    """ISO 8601 with the UTC offset ('2026-06-15T12:03+02:00'); naive `when` needs `tz`."""
    if tz is not None:
        when = aware(when, tz)
    elif when.tzinfo is None:
        raise ValueError("a naive datetime needs a time zone to be stamped")
    return when.isoformat(timespec=timespec)


# ----------------------------------------------------------------------------- caller input
def parse_when(value: str, arg: str, tz: ZoneInfo) -> dt.datetime:
    """A caller's date or date-time, aware in the world's zone: a plain date is its local
    midnight, a naive time is local, another offset is converted to the zone."""
    text = value.strip() if isinstance(value, str) else ""
    try:
        if not _WHEN.fullmatch(text):
            raise ValueError
        when = dt.datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith("Z") else text)
    except ValueError:
        raise ToolError(f"{arg} {value!r} is not a valid date-time; use {WHEN_FORMAT}, "
                        f"e.g. '{REFERENCE_DATE.isoformat()}T14:30'") from None
    return aware(when, tz)


def parse_date(value: str, arg: str) -> dt.date:
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise ToolError(f"{arg} {value!r} is not a valid calendar date; use YYYY-MM-DD, "
                        f"e.g. '{REFERENCE_DATE.isoformat()}'") from None


def future_date(value: str, arg: str, today: dt.date = REFERENCE_DATE) -> str:
    """A date that must be today or later, as YYYY-MM-DD."""
    day = parse_date(value, arg)
    if day < today:
        raise ToolError(f"{arg} {value} is in the past; today is {today.isoformat()}, "
                        "pick today or a later date")
    return day.isoformat()


# ----------------------------------------------------------------------------- comparisons
ClockFields = Mapping[str, Iterable[str]]


def without_clock(s: State, fields: ClockFields) -> dict[str, Any]:
    """The state's JSON (`State.to_json`) less its clock: the tick counter and the declared
    clock-derived fields. `fields` maps a table to field paths; a dotted path ('history.at')
    reaches into a nested dict or list of dicts. Only the rows and nested values on a path are
    copied (a deep copy of the whole state made every snapshot twice as slow); the session's
    own state is never changed."""
    data = s.to_json()
    tables = dict(data["tables"])
    for table, paths in fields.items():
        rows = tables.get(table)
        if rows:
            split = [path.split(".") for path in paths]
            tables[table] = {rid: _without(row, split) for rid, row in rows.items()}
    return {"tables": tables, "vars": {k: v for k, v in data["vars"].items() if k != CLOCK_VAR}}


def canonical_without_clock(s: State, fields: ClockFields) -> str:
    """Canonical JSON (as `State.canonical`) of `without_clock`."""
    return json.dumps(without_clock(s, fields), sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False)


def _without(node: Any, paths: list[list[str]]) -> Any:
    """A copy of `node` less the fields at `paths`, sharing every untouched value."""
    if isinstance(node, list):
        return [_without(item, paths) for item in node]
    if not isinstance(node, dict):
        return node
    out = dict(node)
    for path in paths:
        if path[0] not in out:
            continue
        if len(path) == 1:
            del out[path[0]]
    for key in {path[0] for path in paths if len(path) > 1 and path[0] in out}:
        out[key] = _without(out[key], [path[1:] for path in paths
                                       if len(path) > 1 and path[0] == key])
    return out
