"""servers/core/clock.py: the session clock starts at the world's now in the home zone, ticks one
minute per use, is undone with the call that used it, never wraps; caller date-times are parsed
in every accepted form into the world's zone, with messages that give the format; clock fields
can be left out of a state comparison."""

from __future__ import annotations

import datetime as dt
import itertools
from zoneinfo import ZoneInfo

import pytest

from servers.core import clock
from servers.core.clock import future_date, parse_date, parse_when, tick
from servers.core.errors import ToolError
from servers.core.state import State
from servers.core.world import make_world

BERLIN = ZoneInfo("Europe/Berlin")


def _state(seed: int = 0) -> State:
    s = State()
    clock.begin(s, make_world(seed))
    return s


def _berlin_state() -> State:
    """A session clock started at 12:00 in Berlin (CEST, +02:00) on the reference date."""
    s = State()
    s.set_var(clock.START_VAR, "2026-06-15T12:00:00+02:00")
    s.set_var(clock.ZONE_VAR, "Europe/Berlin")
    return s


def test_ticks_are_minutes_after_the_world_start_with_the_zone_offset():
    s = _berlin_state()
    assert [tick(s) for _ in range(3)] == \
        ["2026-06-15T12:01+02:00", "2026-06-15T12:02+02:00", "2026-06-15T12:03+02:00"]
    assert clock.now(s) == dt.datetime(2026, 6, 15, 12, 3, tzinfo=BERLIN)


def test_a_session_starts_at_its_worlds_now():
    for seed in (0, 1, 2):
        world = make_world(seed)
        s = _state(seed)
        assert clock.now(s) == world.now
        assert clock.now_stamp(s) == world.now.isoformat(timespec="minutes")
        assert clock.zone(s) == world.tz


def test_the_clock_crosses_midnight_and_never_wraps():
    s = _berlin_state()
    stamps = [tick(s) for _ in range(24 * 60 * 3)]
    assert stamps[12 * 60 - 1] == "2026-06-16T00:00+02:00"
    assert stamps[-1] == "2026-06-18T12:00+02:00"
    instants = [dt.datetime.fromisoformat(x) for x in stamps]
    assert all(a < b for a, b in itertools.pairwise(instants))


def test_a_failed_call_gives_its_minute_back():
    s = _berlin_state()
    tick(s)
    s.commit()
    s.begin()
    assert tick(s) == "2026-06-15T12:02+02:00"
    s.rollback()
    assert tick(s) == "2026-06-15T12:02+02:00"


def test_sessions_have_their_own_clocks():
    a, b = _berlin_state(), _berlin_state()
    tick(a)
    assert tick(b) == "2026-06-15T12:01+02:00"


def test_a_bare_state_runs_on_utc():
    assert tick(State()) == "2026-06-15T12:01+00:00"


def test_stamp_needs_a_zone_for_naive_times():
    assert clock.stamp(dt.datetime(2026, 6, 15, 9, 30), BERLIN) == "2026-06-15T09:30+02:00"
    assert clock.stamp(dt.datetime(2026, 1, 15, 9, 30), BERLIN) == "2026-01-15T09:30+01:00"
    with pytest.raises(ValueError):
        clock.stamp(dt.datetime(2026, 6, 15, 9, 30))


@pytest.mark.parametrize("text, local", [
    ("2026-06-15", "2026-06-15T00:00+02:00"),
    ("2026-06-15T14:30", "2026-06-15T14:30+02:00"),
    ("2026-06-15T14:30:45", "2026-06-15T14:30+02:00"),
    ("2026-06-15T14:30+02:00", "2026-06-15T14:30+02:00"),
    ("2026-06-15T12:30Z", "2026-06-15T14:30+02:00"),
    ("2026-06-15T12:30:00Z", "2026-06-15T14:30+02:00"),
    ("2026-06-15T08:30-04:00", "2026-06-15T14:30+02:00"),
    ("2026-06-16T00:30+09:00", "2026-06-15T17:30+02:00"),
])
def test_parse_when_accepts_dates_times_seconds_and_offsets(text, local):
    when = parse_when(text, "start", BERLIN)
    assert when.tzinfo is not None
    assert when.isoformat(timespec="minutes") == local


@pytest.mark.parametrize("bad", ["2026-02-30", "2026-06-15T25:00", "next friday",
                                 "15/06/2026", "", "2026-06-15T14", "2026-06-15T14:30+2",
                                 "20260615", "2026-06-15 14:30"])
def test_parse_when_names_the_argument_and_the_format(bad):
    with pytest.raises(ToolError) as err:
        parse_when(bad, "start", BERLIN)
    message = str(err.value)
    assert message.startswith(f"start {bad!r} is not a valid date-time; use YYYY-MM-DD or "
                              "YYYY-MM-DDTHH:MM")
    assert "'Z' or '+hh:mm'" in message and "e.g. '2026-06-15T14:30'" in message


def test_without_clock_drops_the_counter_and_the_declared_fields():
    s = _berlin_state()
    s.table("posts").load([{"id": "a", "text": "x", "history": [{"at": "t0", "what": "new"}]}])
    s.table("posts").update("a", edited_at=tick(s))
    before = s.digest()
    stripped = clock.without_clock(s, {"posts": ("edited_at", "history.at")})
    assert stripped["tables"]["posts"]["a"] == {"id": "a", "text": "x",
                                                "history": [{"what": "new"}]}
    assert clock.CLOCK_VAR not in stripped["vars"]
    assert s["posts"].get("a")["edited_at"] == "2026-06-15T12:01+02:00"  # state untouched
    assert s["posts"].get("a")["history"] == [{"at": "t0", "what": "new"}]  # nested too
    assert s.digest() == before and clock.CLOCK_VAR in s.to_json()["vars"]


def test_parse_date():
    assert parse_date("2026-02-28", "due") == dt.date(2026, 2, 28)
    for bad in ("2026-02-30", "next friday", "15/06/2026", ""):
        with pytest.raises(ToolError) as err:
            parse_date(bad, "due")
        assert str(err.value) == (f"due {bad!r} is not a valid calendar date; use YYYY-MM-DD, "
                                  "e.g. '2026-06-15'")


def test_future_date_accepts_today_and_later_only():
    assert future_date("2026-06-15", "check_in") == "2026-06-15"
    assert future_date("2027-01-01", "check_in") == "2027-01-01"
    assert future_date("2026-06-16", "check_in", today=dt.date(2026, 6, 16)) == "2026-06-16"
    with pytest.raises(ToolError) as err:
        future_date("2026-06-14", "check_in")
    assert str(err.value) == ("check_in 2026-06-14 is in the past; today is 2026-06-15, "
                              "pick today or a later date")
