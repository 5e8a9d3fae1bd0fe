"""servers/core/clock.py: the session clock ticks one minute per use from a fixed start, is
undone with the call that used it, and dates are parsed with messages that give the format."""

from __future__ import annotations

import datetime as dt

import pytest

from servers.core.clock import future_date, parse_date, tick
from servers.core.errors import ToolError
from servers.core.state import State


def test_ticks_are_minutes_after_the_start_on_the_reference_date():
    s = State()
    assert [tick(s, dt.time(9, 0)) for _ in range(3)] == \
        ["2026-06-15T09:01", "2026-06-15T09:02", "2026-06-15T09:03"]


def test_the_clock_crosses_midnight():
    s = State()
    assert tick(s, dt.time(23, 59)) == "2026-06-16T00:00"


def test_a_failed_call_gives_its_minute_back():
    s = State()
    tick(s, dt.time(9, 0))
    s.commit()
    s.begin()
    assert tick(s, dt.time(9, 0)) == "2026-06-15T09:02"
    s.rollback()
    assert tick(s, dt.time(9, 0)) == "2026-06-15T09:02"


def test_sessions_have_their_own_clocks():
    a, b = State(), State()
    tick(a, dt.time(8, 0))
    assert tick(b, dt.time(8, 0)) == "2026-06-15T08:01"


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
    with pytest.raises(ToolError) as err:
        future_date("2026-06-14", "check_in")
    assert str(err.value) == ("check_in 2026-06-14 is in the past; today is 2026-06-15, "
                              "pick today or a later date")
