"""Tools that change the user's own events: create, update, delete, invite and uninvite."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal, TypedDict

from servers.calendar.common import (
    DOMAIN,
    AllowOverlap,
    DateTime,
    Event,
    EventId,
    as_event,
    check_emails,
    check_free,
    check_organizer,
    drop_reminders,
)
from servers.calendar.times import fmt, occurrences, parse_date, parse_dt
from servers.core import clock
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State

Recurrence = Literal["none", "daily", "weekly"]


class AttendeesOut(TypedDict):
    event: Event
    added: list[str]


class DeleteOut(TypedDict):
    event_id: str
    deleted: bool
    reminders_deleted: int
    invitation_id: str | None


@DOMAIN.tool(read_only=False)
def create_event(
        s: State,
        title: Annotated[str, Arg("Event title", min_length=1, max_length=200)],
        start: DateTime, end: DateTime,
        calendar_id: Annotated[str, Arg("Calendar id: 'cal_work' or 'cal_personal'")
                               ] = "cal_work",
        location: Annotated[str | None, Arg("Place name and/or address", max_length=200)
                            ] = None,
        description: Annotated[str, Arg("Notes for attendees", max_length=2000)] = "",
        attendees: Annotated[list[str] | None, Arg("Guest email addresses", max_length=50)
                             ] = None,
        recurrence: Annotated[Recurrence, Arg("Repeat the event")] = "none",
        recurrence_until: Annotated[str | None, Arg(
            "Last day of a recurring event, 'YYYY-MM-DD' (default: repeats forever)")] = None,
        allow_overlap: AllowOverlap = False) -> Event:
    """Create an event in one of the user's calendars (the user is the organizer). Fails if the
    time overlaps another event unless allow_overlap is true."""
    s["calendars"].get(calendar_id)
    a, b = parse_dt(start, "start", clock.zone(s)), parse_dt(end, "end", clock.zone(s))
    if b <= a:
        raise ToolError(f"end {end} must be after start {start}")
    _check_span(a, b)
    guests = check_emails(attendees or [], "attendees")
    if s.var("user_email") in guests:
        raise ToolError("the user organizes the event; leave their own email out of attendees")
    until = _check_recurrence(recurrence, recurrence_until, a)
    _check_series_free(s, {"event_id": "", "start": fmt(a), "end": fmt(b),
                           "recurrence": recurrence, "recurrence_until": until},
                       allow_overlap)
    row = s["events"].insert({
        "event_id": s.next_id("evt"), "calendar_id": calendar_id, "title": title,
        "start": fmt(a), "end": fmt(b), "location": location, "description": description,
        "attendees": guests, "organizer": s.var("user_email"), "status": "confirmed",
        "recurrence": recurrence, "recurrence_until": until, "invitation_id": None})
    return as_event(row)


def _check_span(a: dt.datetime, b: dt.datetime) -> None:
    if b - a > dt.timedelta(days=14):
        raise ToolError("an event can last at most 14 days; split longer ones")


def _check_series_free(s: State, series: dict, allow_overlap: bool) -> None:
    """Every occurrence of the series in its first 8 weeks must be free (unless double-booking
    is allowed); the series' own event, when it exists, is not a clash."""
    if allow_overlap:
        return
    a = dt.datetime.fromisoformat(series["start"])
    for oa, ob in occurrences(series, a, a + dt.timedelta(weeks=8)):
        check_free(s, oa, ob, series["event_id"] or None, False)


def _check_recurrence(recurrence: str, until: str | None, start: dt.datetime) -> str | None:
    if until is None:
        return None
    if recurrence == "none":
        raise ToolError("recurrence_until only applies to a daily or weekly event; set "
                        "recurrence too, or leave recurrence_until out")
    day = parse_date(until, "recurrence_until")
    if day < start.date():
        raise ToolError(f"recurrence_until {day} is before the event starts ({start.date()})")
    return day.isoformat()


@DOMAIN.tool(read_only=False)
def update_event(
        s: State, event_id: EventId,
        title: Annotated[str | None, Arg("New title", min_length=1, max_length=200)] = None,
        start: Annotated[str | None, Arg("New start, e.g. '2026-06-16T09:30' (without end: "
                                         "the duration is kept)")] = None,
        end: Annotated[str | None, Arg("New end, e.g. '2026-06-16T10:30'")] = None,
        location: Annotated[str | None, Arg("New location", max_length=200)] = None,
        description: Annotated[str | None, Arg("New description", max_length=2000)] = None,
        recurrence: Annotated[Recurrence | None, Arg("New repetition")] = None,
        allow_overlap: AllowOverlap = False) -> Event:
    """Change an event the user organizes; only the given fields change."""
    row = s["events"].get(event_id)
    check_organizer(s, row, "change it")
    changes: dict = {k: v for k, v in (("title", title), ("location", location),
                                        ("description", description),
                                        ("recurrence", recurrence)) if v is not None}
    if start is None and end is None and not changes:
        raise ToolError("nothing to change; give at least one of title, start, end, location, "
                        "description, recurrence")
    old_a, old_b = (dt.datetime.fromisoformat(row["start"]),
                    dt.datetime.fromisoformat(row["end"]))
    a = parse_dt(start, "start", clock.zone(s)) if start else old_a
    b = parse_dt(end, "end", clock.zone(s)) if end else (a + (old_b - old_a) if start else old_b)
    if b <= a:
        raise ToolError(f"end {fmt(b)} must be after start {fmt(a)}")
    _check_span(a, b)
    if changes.get("recurrence") == "none":
        changes["recurrence_until"] = None
    # A new repetition puts the event at new times just as a new start or end does.
    repeats_anew = changes.get("recurrence", row["recurrence"]) != row["recurrence"]
    if (a, b) != (old_a, old_b) or repeats_anew:
        changes.update(start=fmt(a), end=fmt(b))
        _check_series_free(s, {**row, **changes}, allow_overlap)
    return as_event(s["events"].update(event_id, **changes))


@DOMAIN.tool(read_only=False)
def delete_event(s: State, event_id: EventId) -> DeleteOut:
    """Delete an event (a whole recurring series) and its reminders. Deleting an event the user
    was invited to declines that invitation."""
    row = s["events"].get(event_id)
    s["events"].delete(event_id)
    n = drop_reminders(s, event_id)
    inv = row["invitation_id"]
    if inv is not None and inv in s["invitations"]:
        s["invitations"].update(inv, status="declined", event_id=None)
    return {"event_id": event_id, "deleted": True, "reminders_deleted": n, "invitation_id": inv}


@DOMAIN.tool(read_only=False)
def add_attendees(
        s: State, event_id: EventId,
        emails: Annotated[list[str], Arg("Email addresses to invite", min_length=1,
                                         max_length=50)]) -> AttendeesOut:
    """Invite more people to an event the user organizes."""
    row = s["events"].get(event_id)
    check_organizer(s, row, "invite guests")
    new = check_emails(emails, "emails")
    if s.var("user_email") in new:
        raise ToolError("the user is the organizer; leave their own email out")
    added = [e for e in new if e not in row["attendees"]]
    if not added:
        raise ToolError(f"all of {new} already attend event {event_id}; nothing to add")
    row = s["events"].update(event_id, attendees=[*row["attendees"], *added])
    return {"event": as_event(row), "added": added}


@DOMAIN.tool(read_only=False)
def remove_attendee(
        s: State, event_id: EventId,
        email: Annotated[str, Arg("Email of the guest to remove", min_length=3)]) -> Event:
    """Remove one guest from an event the user organizes."""
    row = s["events"].get(event_id)
    check_organizer(s, row, "remove guests")
    if email.lower() not in row["attendees"]:
        listed = ", ".join(row["attendees"]) or "none"
        raise ToolError(f"{email} is not an attendee of event {event_id}; attendees: {listed}")
    return as_event(s["events"].update(
        event_id, attendees=[a for a in row["attendees"] if a != email.lower()]))
