"""Shared pieces of the calendar server: the domain, the event and reminder shapes, overlap
and email checks, output helpers and argument types used by several tool modules."""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, TypedDict

from servers.calendar.seed import build
from servers.calendar.times import fmt, occurrences
from servers.core import clock
from servers.core.domain import Domain
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State

DOMAIN = Domain("calendar", "Calendars (work, personal): events, invitations, availability, "
                "reminders.", build)

EMAIL_RE = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")
MAX_RANGE_DAYS = 92


class Event(TypedDict):
    event_id: str
    calendar_id: str
    title: str
    start: str
    end: str
    location: str | None
    description: str
    attendees: list[str]
    organizer: str
    status: str
    recurrence: str
    recurrence_until: str | None
    invitation_id: str | None


class Reminder(TypedDict):
    reminder_id: str
    event_id: str
    event_title: str
    minutes_before: int
    method: str
    remind_at: str | None


def find_conflicts(s: State, start: dt.datetime, end: dt.datetime,
                   ignore: str | None = None) -> list[Row]:
    return [r for r in s["events"].rows()
            if r["event_id"] != ignore and next(occurrences(r, start, end), None)]


def check_free(s: State, start: dt.datetime, end: dt.datetime, ignore: str | None,
               allow_overlap: bool) -> None:
    if allow_overlap:
        return
    clash = find_conflicts(s, start, end, ignore)
    if clash:
        c = clash[0]
        # Both spans with dates: either may cross midnight, and the clash may be any
        # occurrence of a series.
        cs, ce = next(occurrences(c, start, end))
        raise ToolError(f"{fmt(start)}–{fmt(end)} overlaps event {c['event_id']} "
                        f"'{c['title']}' ({fmt(cs)}–{fmt(ce)}); pick another time "
                        "(find_free_slots) or pass allow_overlap=true to double-book")


def check_emails(emails: list[str], field: str) -> list[str]:
    out: list[str] = []
    for e in emails:
        if not EMAIL_RE.fullmatch(e):
            raise ToolError(f"{field}: {e!r} is not a valid email address (name@domain.com)")
        if e.lower() in out:
            raise ToolError(f"{field}: {e!r} is listed twice")
        out.append(e.lower())
    return out


def as_event(row: Row, start: dt.datetime | None = None, end: dt.datetime | None = None) -> Event:
    out: Event = {**row}
    if start is not None and end is not None:
        out = {**out, "start": fmt(start), "end": fmt(end)}
    return out


def next_start(s: State, row: Row) -> dt.datetime | None:
    """Start of the next occurrence after the world's now (None if the event is over)."""
    now = clock.now(s)
    return next((a for a, _ in occurrences(row, now, now + dt.timedelta(days=400))
                 if a >= now), None)


def as_reminder(s: State, row: Row) -> Reminder:
    event = s["events"].get(row["event_id"])
    nxt = next_start(s, event)
    at = fmt(nxt - dt.timedelta(minutes=row["minutes_before"])) if nxt else None
    return {**row, "event_title": event["title"], "remind_at": at}


def check_organizer(s: State, row: Row, action: str) -> None:
    if row["organizer"] != s.var("user_email"):
        # a video meeting another person hosts has no invitation here to respond to
        respond = (f"respond to its invitation {row['invitation_id']} or "
                   if row["invitation_id"] else "")
        raise ToolError(f"event {row['event_id']} is organized by {row['organizer']}; only the "
                        f"organizer can {action} (you can {respond}move it to another "
                        "calendar)")


def drop_reminders(s: State, event_id: str) -> int:
    doomed = [r["reminder_id"] for r in s["reminders"].rows() if r["event_id"] == event_id]
    for rid in doomed:
        s["reminders"].delete(rid)
    return len(doomed)


EventId = Annotated[str, Arg("Event id, e.g. 'evt_sfm9sr' (from list_events or search_events)")]
CalendarId = Annotated[str, Arg("Calendar id: 'cal_work' or 'cal_personal' (list_calendars)")]
DateTime = Annotated[str, Arg("Date-time 'YYYY-MM-DDTHH:MM' in your local time (or with a 'Z' or "
                              "'+hh:mm' offset), e.g. '2026-06-16T09:30'",
                              min_length=10, max_length=25)]
AllowOverlap = Annotated[bool, Arg("Double-book even if the time overlaps another event")]
