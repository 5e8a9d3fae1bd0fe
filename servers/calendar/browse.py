"""Read-only event tools: calendars, events in a date range, one event, text search."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, TypedDict

from servers.calendar.common import (
    DOMAIN,
    MAX_RANGE_DAYS,
    Event,
    EventId,
    Reminder,
    as_event,
    as_reminder,
)
from servers.calendar.times import at, occurrences, parse_date
from servers.core import clock, paging
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State


class Calendar(TypedDict):
    calendar_id: str
    name: str
    color: str
    timezone: str
    is_primary: bool
    event_count: int


class CalendarList(TypedDict):
    calendars: list[Calendar]


class EventList(TypedDict):
    events: list[Event]
    total: int
    next_cursor: str | None


class RangeEventList(TypedDict):
    range_start: str
    range_end: str
    events: list[Event]
    total: int
    next_cursor: str | None


class EventDetail(Event):
    reminders: list[Reminder]


@DOMAIN.tool(read_only=True)
def list_calendars(s: State) -> CalendarList:
    """List the user's calendars with how many events each holds."""
    return {"calendars": [
        {**c, "event_count": len(s["events"].rows(lambda r, c=c: r["calendar_id"] ==
                                                  c["calendar_id"]))}
        for c in s["calendars"].rows()]}


@DOMAIN.tool(read_only=True)
def list_events(
        s: State,
        start_date: Annotated[str | None, Arg(
            "First day, 'YYYY-MM-DD' (default: today, 2026-06-15)")] = None,
        end_date: Annotated[str | None, Arg(
            "Last day, inclusive, 'YYYY-MM-DD' (default: 7 days after start_date)")] = None,
        calendar_id: Annotated[str | None, Arg("Only this calendar (default: all)")] = None,
        limit: paging.Limit = 20, cursor: paging.Cursor = None) -> RangeEventList:
    """List events in a date range, in time order. Recurring events appear once per occurrence,
    with that occurrence's start and end."""
    if calendar_id is not None:
        s["calendars"].get(calendar_id)
    first = parse_date(start_date, "start_date") if start_date else clock.today(s)
    last = parse_date(end_date, "end_date") if end_date else first + dt.timedelta(days=7)
    if last < first:
        raise ToolError(f"end_date {last} is before start_date {first}")
    if (last - first).days > MAX_RANGE_DAYS:
        raise ToolError(f"range {first}..{last} is longer than {MAX_RANGE_DAYS} days; "
                        "list a shorter range")
    tz = clock.zone(s)
    lo, hi = at(first, dt.time(), tz), at(last + dt.timedelta(days=1), dt.time(), tz)
    found = [as_event(r, a, b) for r in s["events"].rows()
             if calendar_id is None or r["calendar_id"] == calendar_id
             for a, b in occurrences(r, lo, hi)]
    found.sort(key=lambda e: (e["start"], e["event_id"]))
    # a recurring event appears once per occurrence: its id and start name the row
    pg = paging.page(found, limit, cursor, key=lambda e: f"{e['event_id']}@{e['start']}")
    return {"range_start": first.isoformat(), "range_end": last.isoformat(), "events": pg.rows,
            "total": len(found), "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=True)
def get_event(s: State, event_id: EventId) -> EventDetail:
    """Get one event (the whole series for a recurring event) with its reminders."""
    row = s["events"].get(event_id)
    rems = [as_reminder(s, r) for r in s["reminders"].rows() if r["event_id"] == event_id]
    return {**as_event(row), "reminders": rems}


@DOMAIN.tool(read_only=True)
def search_events(
        s: State,
        query: Annotated[str, Arg("Text to find in title, description, location or attendee "
                                  "emails (case-insensitive)", min_length=1, max_length=100)],
        calendar_id: Annotated[str | None, Arg("Only this calendar (default: all)")] = None,
        limit: paging.Limit = 20, cursor: paging.Cursor = None) -> EventList:
    """Search events (series, not single occurrences) by text, earliest first."""
    if calendar_id is not None:
        s["calendars"].get(calendar_id)
    q = query.lower()
    found = [r for r in s["events"].rows()
             if (calendar_id is None or r["calendar_id"] == calendar_id)
             and (q in r["title"].lower() or q in r["description"].lower()
                  or q in (r["location"] or "").lower() or q in r["organizer"]
                  or any(q in a for a in r["attendees"]))]
    found.sort(key=lambda r: (r["start"], r["event_id"]))
    pg = paging.page(found, limit, cursor, key="event_id")
    return {"events": [as_event(r) for r in pg.rows], "total": len(found),
            "next_cursor": pg.next_cursor}
