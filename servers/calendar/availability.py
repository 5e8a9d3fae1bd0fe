"""Availability tools: free slots in the user's working day and other people's busy times
(as far as the user can see them: events shared with the user)."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, TypedDict

from servers.calendar.common import DOMAIN, EMAIL_RE, DateTime, check_emails
from servers.calendar.times import (
    WORK_END,
    WORK_START,
    at,
    fmt,
    occurrences,
    parse_date,
    parse_dt,
)
from servers.core import clock
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State


class Slot(TypedDict):
    start: str
    end: str


class FreeSlots(TypedDict):
    date: str
    duration_minutes: int
    working_hours: str
    slots: list[Slot]


class Busy(TypedDict):
    event_id: str
    title: str
    start: str
    end: str


class Availability(TypedDict):
    email: str
    name: str
    start: str
    end: str
    available: bool
    busy: list[Busy]


def _busy_of(s: State, email: str, lo: dt.datetime, hi: dt.datetime) -> list[Busy]:
    """A person's busy times as far as the user can see: events they share with the user."""
    out: list[Busy] = [{"event_id": r["event_id"], "title": r["title"], "start": fmt(a),
                        "end": fmt(b)}
                       for r in s["events"].rows()
                       if email == r["organizer"] or email in r["attendees"]
                       for a, b in occurrences(r, lo, hi)]
    return sorted(out, key=lambda x: (x["start"], x["event_id"]))


def _person(s: State, email: str) -> Row:
    row = s["directory"].find(email.lower())
    if row is None:
        if not EMAIL_RE.fullmatch(email):
            raise ToolError(f"{email!r} is not a valid email address")
        raise ToolError(f"no one with email {email!r} in the directory; use an attendee or "
                        "organizer email from get_event or list_invitations")
    return row


@DOMAIN.tool(read_only=True)
def find_free_slots(
        s: State,
        date: Annotated[str, Arg("Day to search, 'YYYY-MM-DD' (a weekday, today or later)")],
        duration_minutes: Annotated[int, Arg("Length of the meeting in minutes", minimum=15,
                                             maximum=480)],
        attendees: Annotated[list[str] | None, Arg(
            "Also keep these people's known busy times free (their emails)", max_length=20)
                             ] = None) -> FreeSlots:
    """Find free windows of at least duration_minutes within working hours (09:00–17:00,
    Monday–Friday) on one day, across all the user's calendars."""
    day = parse_date(date, "date")
    today = clock.today(s)
    if day < today:
        raise ToolError(f"{day} is in the past (today is {today}); pick a later day")
    if day.weekday() >= 5:
        raise ToolError(f"{day} is a {day.strftime('%A')}; working hours are Monday–Friday "
                        f"{WORK_START:%H:%M}–{WORK_END:%H:%M}, pick a weekday")
    tz = clock.zone(s)
    lo, hi = at(day, WORK_START, tz), at(day, WORK_END, tz)
    busy = [(a, b) for r in s["events"].rows() for a, b in occurrences(r, lo, hi)]
    for email in check_emails(attendees or [], "attendees"):
        _person(s, email)
        busy += [(dt.datetime.fromisoformat(x["start"]), dt.datetime.fromisoformat(x["end"]))
                 for x in _busy_of(s, email, lo, hi)]
    slots: list[Slot] = []
    cursor = lo
    for a, b in sorted(busy):
        if a - cursor >= dt.timedelta(minutes=duration_minutes):
            slots.append({"start": fmt(cursor), "end": fmt(a)})
        cursor = max(cursor, b)
    if hi - cursor >= dt.timedelta(minutes=duration_minutes):
        slots.append({"start": fmt(cursor), "end": fmt(hi)})
    return {"date": day.isoformat(), "duration_minutes": duration_minutes,
            "working_hours": f"{WORK_START:%H:%M}-{WORK_END:%H:%M}", "slots": slots}


@DOMAIN.tool(read_only=True)
def check_availability(
        s: State,
        email: Annotated[str, Arg("The person's email address", min_length=3)],
        start: DateTime, end: DateTime) -> Availability:
    """Check whether a person is free in a time window, from the events they share with the
    user (as organizer or attendee)."""
    person = _person(s, email)
    a, b = parse_dt(start, "start", clock.zone(s)), parse_dt(end, "end", clock.zone(s))
    if b <= a:
        raise ToolError(f"end {end} must be after start {start}")
    if b - a > dt.timedelta(days=31):
        raise ToolError("check at most 31 days at once")
    busy = _busy_of(s, person["email"], a, b)
    return {"email": person["email"], "name": person["name"], "start": fmt(a),
            "end": fmt(b), "available": not busy, "busy": busy}
