"""calendar: the user's work and personal calendars, invitations from others, and reminders.

Events are stored as series (a one-off event is a series of one); list/free-slot/availability
tools expand daily and weekly series into occurrences. Attendees are world people's emails, so
tasks can span servers ("invite the person who emailed me", "meet at the cafe found on maps").
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Iterator
from typing import Annotated, Literal, TypedDict

from servers.core.domain import Domain
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State
from servers.core.world import REFERENCE_DATE, World, days_ago

Recurrence = Literal["none", "daily", "weekly"]
Response = Literal["accepted", "declined", "tentative"]
InvitationStatus = Literal["pending", "accepted", "declined", "tentative"]

NOW = dt.datetime.combine(REFERENCE_DATE, dt.time(8, 0))  # "now": Monday 08:00 local time
WORK_START, WORK_END = dt.time(9, 0), dt.time(17, 0)
EMAIL_RE = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")
TIMEZONES = {"Lisbon": "Europe/Lisbon", "Berlin": "Europe/Berlin", "Paris": "Europe/Paris",
             "Madrid": "Europe/Madrid", "Amsterdam": "Europe/Amsterdam",
             "London": "Europe/London", "New York": "America/New_York",
             "San Francisco": "America/Los_Angeles", "Tokyo": "Asia/Tokyo",
             "Singapore": "Asia/Singapore", "Toronto": "America/Toronto",
             "Sydney": "Australia/Sydney"}
MAX_RANGE_DAYS = 92


class Calendar(TypedDict):
    calendar_id: str
    name: str
    color: str
    timezone: str
    is_primary: bool
    event_count: int


class CalendarList(TypedDict):
    calendars: list[Calendar]


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


class EventList(TypedDict):
    events: list[Event]
    total: int


class RangeEventList(TypedDict):
    range_start: str
    range_end: str
    events: list[Event]
    total: int


class Reminder(TypedDict):
    reminder_id: str
    event_id: str
    event_title: str
    minutes_before: int
    method: str
    remind_at: str | None


class ReminderList(TypedDict):
    reminders: list[Reminder]
    total: int


class EventDetail(Event):
    reminders: list[Reminder]


class AttendeesOut(TypedDict):
    event: Event
    added: list[str]


class DeleteOut(TypedDict):
    event_id: str
    deleted: bool
    reminders_deleted: int
    invitation_id: str | None


class Invitation(TypedDict):
    invitation_id: str
    title: str
    start: str
    end: str
    location: str | None
    description: str
    organizer: str
    organizer_name: str
    attendees: list[str]
    status: str
    received_at: str
    event_id: str | None


class InvitationList(TypedDict):
    invitations: list[Invitation]
    total: int


class RespondOut(TypedDict):
    invitation: Invitation
    event_id: str | None
    conflicts: list[str]


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


class DeletedReminder(TypedDict):
    reminder_id: str
    deleted: bool


# ----------------------------------------------------------------------------- time helpers
def _fmt(when: dt.datetime) -> str:
    return when.isoformat(timespec="minutes")


def _parse_dt(value: str, field: str) -> dt.datetime:
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


def _parse_date(value: str, field: str) -> dt.date:
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise ToolError(f"{field} {value!r} is not a valid date; use ISO format like "
                        "'2026-06-16'") from None


def _occurrences(row: Row, lo: dt.datetime, hi: dt.datetime
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


def _conflicts(s: State, start: dt.datetime, end: dt.datetime,
               ignore: str | None = None) -> list[Row]:
    return [r for r in s["events"].rows()
            if r["event_id"] != ignore and next(_occurrences(r, start, end), None)]


def _check_free(s: State, start: dt.datetime, end: dt.datetime, ignore: str | None,
                allow_overlap: bool) -> None:
    if allow_overlap:
        return
    clash = _conflicts(s, start, end, ignore)
    if clash:
        c = clash[0]
        raise ToolError(f"{_fmt(start)}–{_fmt(end)[11:]} overlaps event {c['event_id']} "
                        f"'{c['title']}'; pick another time (find_free_slots) or pass "
                        "allow_overlap=true to double-book")


def _check_emails(emails: list[str], field: str) -> list[str]:
    out: list[str] = []
    for e in emails:
        if not EMAIL_RE.fullmatch(e):
            raise ToolError(f"{field}: {e!r} is not a valid email address (name@domain.com)")
        if e.lower() in out:
            raise ToolError(f"{field}: {e!r} is listed twice")
        out.append(e.lower())
    return out


# ----------------------------------------------------------------------------- generation
WORK = [("Project kickoff with {company}", 60, "Scope, timeline and owners for the {company} "
         "engagement."), ("Quarterly business review", 90, "Q2 results and Q3 targets."),
        ("Design review: onboarding flow", 60, "Walk through the new onboarding screens."),
        ("Client call with {person}", 30, "Status update and open questions."),
        ("Interview: {title} candidate", 45, "Second-round interview."),
        ("Budget planning", 60, "Draft the H2 budget per team."),
        ("Sprint retrospective", 45, "What went well, what to change."),
        ("Customer demo for {company}", 60, "Demo of the analytics dashboard."),
        ("Vendor negotiation", 60, "Renewal terms with {company}."),
        ("Hiring sync", 30, "Pipeline review with recruiting.")]
# title, minutes, place kind, description, start hours on weekdays, start hours on weekends
PERSONAL = [("Dinner at {place}", 120, "restaurant", "Table booked for two.", [19], [19, 20]),
            ("Coffee with {person}", 30, "cafe", "Catch-up.", [12, 18], [10, 15]),
            ("Visit {place}", 120, "landmark", "New exhibition.", [18], [11, 14]),
            ("Dentist appointment", 45, None, "Regular check-up.", [8, 17], [10]),
            ("Lunch with {person}", 60, "restaurant", "", [12], [12, 13])]


def build(s: State, world: World, rng: random.Random) -> None:
    user = world.user
    s.set_var("user_email", user.email)
    company = world.company(user.company_id)
    tz = TIMEZONES.get(user.city, "UTC")
    s.table("calendars", key="calendar_id", kind="calendar",
            hint="use list_calendars to see calendar ids").load([
                {"calendar_id": "cal_work", "name": "Work", "color": "blue", "timezone": tz,
                 "is_primary": True},
                {"calendar_id": "cal_personal", "name": "Personal", "color": "green",
                 "timezone": tz, "is_primary": False}])
    others = list(world.people[1:])
    s.table("directory", key="email", kind="person",
            hint="use attendee emails from get_event or list_events").load(
        [{"email": p.email, "name": p.name, "person_id": p.id} for p in others])
    colleagues = [p for p in others if p.company_id == user.company_id] or others[:3]
    local = [pl for pl in world.places if pl.city == user.city]
    office = f"{company.name} office, {user.city}"
    rows: list[Row] = []

    def add(cal: str, title: str, start: dt.datetime, minutes: int, location: str | None,
            description: str, attendees: list[str], organizer: str = user.email,
            recurrence: str = "none", until: str | None = None, status: str = "confirmed",
            invitation_id: str | None = None) -> Row | None:
        end = start + dt.timedelta(minutes=minutes)
        row = {"event_id": f"evt_{len(rows) + 1:04d}", "calendar_id": cal, "title": title,
               "start": _fmt(start), "end": _fmt(end), "location": location,
               "description": description, "attendees": attendees, "organizer": organizer,
               "status": status, "recurrence": recurrence, "recurrence_until": until,
               "invitation_id": invitation_id}
        if any(next(_occurrences(r, start, end), None) for r in rows):
            return None  # the generated calendar has no double bookings
        rows.append(row)
        return row

    monday = dt.datetime.combine(REFERENCE_DATE - dt.timedelta(days=28), dt.time())
    add("cal_work", "Team sync", monday + dt.timedelta(hours=10), 60, office,
        "Weekly priorities and blockers.", [p.email for p in colleagues],
        recurrence="weekly", until="2026-09-28")
    lead = colleagues[0]
    add("cal_work", f"1:1 with {lead.first_name}", monday + dt.timedelta(days=3, hours=14), 30,
        office, "Weekly one-on-one.", [lead.email], recurrence="weekly")
    add("cal_personal", "Morning run", monday + dt.timedelta(hours=7), 45, None,
        "5 km along the river.", [], recurrence="daily", until="2026-07-31")
    yoga = rng.choice(local)
    add("cal_personal", "Yoga class", monday + dt.timedelta(days=2, hours=18, minutes=30), 60,
        f"{yoga.name}, {yoga.address}", "Bring a mat.", [], recurrence="weekly")
    for offset in range(-21, 29):
        day = dt.datetime.combine(REFERENCE_DATE + dt.timedelta(days=offset), dt.time())
        if day.weekday() < 5:
            for _ in range(rng.choice([0, 1, 1, 2])):
                title, minutes, desc = rng.choice(WORK)
                person, co = rng.choice(others), rng.choice(world.companies)
                fill = {"company": co.name, "person": person.name, "title": person.title}
                guests = rng.sample(others, rng.randint(1, 4))
                if person not in guests:
                    guests = [person, *guests[:3]]
                hour = rng.choice([9, 11, 13, 14, 15, 16])
                add("cal_work", title.format(**fill),
                    day + dt.timedelta(hours=hour, minutes=rng.choice([0, 30])), minutes,
                    rng.choice([office, "Video call", f"{office} – Room 3A"]),
                    desc.format(**fill), [g.email for g in guests])
        if rng.random() < (0.6 if day.weekday() >= 5 else 0.25):
            title, minutes, kind, desc, weekday, weekend = rng.choice(PERSONAL)
            person = rng.choice(others)
            place = rng.choice([pl for pl in local if pl.kind == kind] or local) if kind else None
            hour = rng.choice(weekend if day.weekday() >= 5 else weekday)
            add("cal_personal", title.format(place=place.name if place else "",
                                             person=person.first_name),
                day + dt.timedelta(hours=hour), minutes,
                f"{place.name}, {place.address}" if place else "Dr. Weiss dental practice",
                desc, [person.email] if "{person}" in title else [])
    invitations: list[Row] = []
    statuses = ["pending"] * 10 + ["accepted"] * 6 + ["declined"] * 3 + ["tentative"] * 3
    for i, status in enumerate(statuses):
        organizer = others[(7 * i + 3) % len(others)]
        title, minutes, desc = WORK[i % len(WORK)]
        org_company = world.company(organizer.company_id).name
        fill = {"company": org_company, "person": org_company, "title": organizer.title}
        guests = [p.email for p in rng.sample(others, 3) if p is not organizer]
        offset = rng.randint(-10, -1) if i % 5 == 4 and status != "pending" else rng.randint(
            1, 25)
        inv_id = f"inv_{i + 1:04d}"
        for _ in range(20):  # accepted ones must fit the calendar; retry times
            day = REFERENCE_DATE + dt.timedelta(days=offset)
            start = dt.datetime.combine(day, dt.time(rng.choice([9, 11, 13, 15, 16])))
            if day.weekday() >= 5:
                offset += 2
                continue
            if status in ("accepted", "tentative"):
                event = add("cal_work", title.format(**fill), start, minutes,
                            f"{world.company(organizer.company_id).name} office",
                            desc.format(**fill), guests, organizer=organizer.email,
                            status="tentative" if status == "tentative" else "confirmed",
                            invitation_id=inv_id)
                if event is None:
                    offset += 1
                    continue
            break
        event_id = next((r["event_id"] for r in rows if r["invitation_id"] == inv_id), None)
        if event_id is None and status in ("accepted", "tentative"):
            status = "pending"  # no free time found for it: leave it unanswered
        end = start + dt.timedelta(minutes=minutes)
        invitations.append({
            "invitation_id": inv_id, "title": title.format(**fill), "start": _fmt(start),
            "end": _fmt(end), "location": f"{world.company(organizer.company_id).name} office",
            "description": desc.format(**fill), "organizer": organizer.email,
            "organizer_name": organizer.name, "attendees": guests, "status": status,
            "received_at": days_ago(world, rng.randint(max(1, -offset + 1), 30 - min(offset, 0)),
                                    rng),
            "event_id": event_id})
    s.table("events", key="event_id", kind="event",
            hint="use list_events or search_events to see event ids").load(rows)
    s.set_var("__seq_evt", len(rows))
    s.table("invitations", key="invitation_id", kind="invitation",
            hint="use list_invitations to see invitation ids").load(invitations)
    s.set_var("__seq_inv", len(invitations))
    upcoming = [r for r in rows if dt.datetime.fromisoformat(r["start"]) > NOW
                and r["recurrence"] == "none"]
    reminders = []
    for r in rng.sample(upcoming, min(24, len(upcoming))):
        reminders.append({"reminder_id": f"rem_{len(reminders) + 1:04d}",
                          "event_id": r["event_id"],
                          "minutes_before": rng.choice([10, 15, 30, 60, 1440]),
                          "method": rng.choice(["popup", "popup", "email"])})
    s.table("reminders", key="reminder_id", kind="reminder",
            hint="use list_reminders to see reminder ids").load(reminders)
    s.set_var("__seq_rem", len(reminders))


DOMAIN = Domain("calendar", "Calendars (work, personal): events, invitations, availability, "
                "reminders.", build)


# ----------------------------------------------------------------------------- output helpers
def _event(row: Row, start: dt.datetime | None = None, end: dt.datetime | None = None) -> Event:
    out: Event = {**row}
    if start is not None and end is not None:
        out = {**out, "start": _fmt(start), "end": _fmt(end)}
    return out


def _next_start(row: Row) -> dt.datetime | None:
    """Start of the next occurrence after now (None if the event is over)."""
    return next((a for a, _ in _occurrences(row, NOW, NOW + dt.timedelta(days=400))
                 if a >= NOW), None)


def _reminder(s: State, row: Row) -> Reminder:
    event = s["events"].get(row["event_id"])
    nxt = _next_start(event)
    at = _fmt(nxt - dt.timedelta(minutes=row["minutes_before"])) if nxt else None
    return {**row, "event_title": event["title"], "remind_at": at}


def _own(s: State, row: Row, action: str) -> None:
    if row["organizer"] != s.var("user_email"):
        raise ToolError(f"event {row['event_id']} is organized by {row['organizer']}; only the "
                        f"organizer can {action} (you can respond to its invitation "
                        f"{row['invitation_id']} or move it to another calendar)")


def _drop_reminders(s: State, event_id: str) -> int:
    doomed = [r["reminder_id"] for r in s["reminders"].rows() if r["event_id"] == event_id]
    for rid in doomed:
        s["reminders"].delete(rid)
    return len(doomed)


EventId = Annotated[str, Arg("Event id, e.g. 'evt_0012' (from list_events or search_events)")]
CalendarId = Annotated[str, Arg("Calendar id: 'cal_work' or 'cal_personal' (list_calendars)")]
DateTime = Annotated[str, Arg("Local date-time in ISO format, e.g. '2026-06-16T09:30'",
                              min_length=10, max_length=25)]
AllowOverlap = Annotated[bool, Arg("Double-book even if the time overlaps another event")]


# ----------------------------------------------------------------------------- tools
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
        calendar_id: Annotated[str | None, Arg("Only this calendar (default: all)")] = None
        ) -> RangeEventList:
    """List events in a date range, in time order. Recurring events appear once per occurrence,
    with that occurrence's start and end."""
    if calendar_id is not None:
        s["calendars"].get(calendar_id)
    first = _parse_date(start_date, "start_date") if start_date else REFERENCE_DATE
    last = _parse_date(end_date, "end_date") if end_date else first + dt.timedelta(days=7)
    if last < first:
        raise ToolError(f"end_date {last} is before start_date {first}")
    if (last - first).days > MAX_RANGE_DAYS:
        raise ToolError(f"range {first}..{last} is longer than {MAX_RANGE_DAYS} days; "
                        "list a shorter range")
    lo = dt.datetime.combine(first, dt.time())
    hi = dt.datetime.combine(last + dt.timedelta(days=1), dt.time())
    found = [_event(r, a, b) for r in s["events"].rows()
             if calendar_id is None or r["calendar_id"] == calendar_id
             for a, b in _occurrences(r, lo, hi)]
    found.sort(key=lambda e: (e["start"], e["event_id"]))
    return {"range_start": first.isoformat(), "range_end": last.isoformat(), "events": found,
            "total": len(found)}


@DOMAIN.tool(read_only=True)
def get_event(s: State, event_id: EventId) -> EventDetail:
    """Get one event (the whole series for a recurring event) with its reminders."""
    row = s["events"].get(event_id)
    rems = [_reminder(s, r) for r in s["reminders"].rows() if r["event_id"] == event_id]
    return {**_event(row), "reminders": rems}


@DOMAIN.tool(read_only=True)
def search_events(
        s: State,
        query: Annotated[str, Arg("Text to find in title, description, location or attendee "
                                  "emails (case-insensitive)", min_length=1, max_length=100)],
        calendar_id: Annotated[str | None, Arg("Only this calendar (default: all)")] = None,
        limit: Annotated[int, Arg("At most this many, earliest first", minimum=1,
                                  maximum=100)] = 20) -> EventList:
    """Search events (series, not single occurrences) by text."""
    if calendar_id is not None:
        s["calendars"].get(calendar_id)
    q = query.lower()
    found = [r for r in s["events"].rows()
             if (calendar_id is None or r["calendar_id"] == calendar_id)
             and (q in r["title"].lower() or q in r["description"].lower()
                  or q in (r["location"] or "").lower() or q in r["organizer"]
                  or any(q in a for a in r["attendees"]))]
    found.sort(key=lambda r: (r["start"], r["event_id"]))
    return {"events": [_event(r) for r in found[:limit]], "total": len(found)}


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
    a, b = _parse_dt(start, "start"), _parse_dt(end, "end")
    if b <= a:
        raise ToolError(f"end {end} must be after start {start}")
    if b - a > dt.timedelta(days=14):
        raise ToolError("an event can last at most 14 days; split longer ones")
    guests = _check_emails(attendees or [], "attendees")
    if s.var("user_email") in guests:
        raise ToolError("the user organizes the event; leave their own email out of attendees")
    until = _check_recurrence(recurrence, recurrence_until, a)
    probe = {"event_id": "", "start": _fmt(a), "end": _fmt(b), "recurrence": recurrence,
             "recurrence_until": until}
    if not allow_overlap:  # check every occurrence of a new series in the next 8 weeks
        for oa, ob in _occurrences(probe, a, a + dt.timedelta(weeks=8)):
            _check_free(s, oa, ob, None, False)
    row = s["events"].insert({
        "event_id": s.next_id("evt"), "calendar_id": calendar_id, "title": title,
        "start": _fmt(a), "end": _fmt(b), "location": location, "description": description,
        "attendees": guests, "organizer": s.var("user_email"), "status": "confirmed",
        "recurrence": recurrence, "recurrence_until": until, "invitation_id": None})
    return _event(row)


def _check_recurrence(recurrence: str, until: str | None, start: dt.datetime) -> str | None:
    if until is None:
        return None
    if recurrence == "none":
        raise ToolError("recurrence_until only applies to a daily or weekly event; set "
                        "recurrence too, or leave recurrence_until out")
    day = _parse_date(until, "recurrence_until")
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
    _own(s, row, "change it")
    changes: dict = {k: v for k, v in (("title", title), ("location", location),
                                        ("description", description),
                                        ("recurrence", recurrence)) if v is not None}
    if start is None and end is None and not changes:
        raise ToolError("nothing to change; give at least one of title, start, end, location, "
                        "description, recurrence")
    old_a, old_b = (dt.datetime.fromisoformat(row["start"]),
                    dt.datetime.fromisoformat(row["end"]))
    a = _parse_dt(start, "start") if start else old_a
    b = _parse_dt(end, "end") if end else (a + (old_b - old_a) if start else old_b)
    if b <= a:
        raise ToolError(f"end {_fmt(b)} must be after start {_fmt(a)}")
    if changes.get("recurrence") == "none":
        changes["recurrence_until"] = None
    if (a, b) != (old_a, old_b):
        _check_free(s, a, b, event_id, allow_overlap)
        changes.update(start=_fmt(a), end=_fmt(b))
    return _event(s["events"].update(event_id, **changes))


@DOMAIN.tool(read_only=False)
def delete_event(s: State, event_id: EventId) -> DeleteOut:
    """Delete an event (a whole recurring series) and its reminders. Deleting an event the user
    was invited to declines that invitation."""
    row = s["events"].get(event_id)
    s["events"].delete(event_id)
    n = _drop_reminders(s, event_id)
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
    _own(s, row, "invite guests")
    new = _check_emails(emails, "emails")
    if s.var("user_email") in new:
        raise ToolError("the user is the organizer; leave their own email out")
    added = [e for e in new if e not in row["attendees"]]
    if not added:
        raise ToolError(f"all of {new} already attend event {event_id}; nothing to add")
    row = s["events"].update(event_id, attendees=[*row["attendees"], *added])
    return {"event": _event(row), "added": added}


@DOMAIN.tool(read_only=False)
def remove_attendee(
        s: State, event_id: EventId,
        email: Annotated[str, Arg("Email of the guest to remove", min_length=3)]) -> Event:
    """Remove one guest from an event the user organizes."""
    row = s["events"].get(event_id)
    _own(s, row, "remove guests")
    if email.lower() not in row["attendees"]:
        listed = ", ".join(row["attendees"]) or "none"
        raise ToolError(f"{email} is not an attendee of event {event_id}; attendees: {listed}")
    return _event(s["events"].update(
        event_id, attendees=[a for a in row["attendees"] if a != email.lower()]))


@DOMAIN.tool(read_only=True)
def list_invitations(
        s: State,
        status: Annotated[InvitationStatus | None, Arg("Only invitations with this response "
                                                       "status")] = None,
        include_past: Annotated[bool, Arg("Also list invitations to events already over")
                                ] = False) -> InvitationList:
    """List meeting invitations the user received from others, soonest first."""
    rows = [r for r in s["invitations"].rows()
            if (status is None or r["status"] == status)
            and (include_past or dt.datetime.fromisoformat(r["end"]) > NOW)]
    rows.sort(key=lambda r: (r["start"], r["invitation_id"]))
    return {"invitations": rows, "total": len(rows)}


@DOMAIN.tool(read_only=False)
def respond_to_invitation(
        s: State,
        invitation_id: Annotated[str, Arg("Invitation id, e.g. 'inv_0003' (list_invitations)")],
        response: Annotated[Response, Arg("accepted or tentative puts the event on the "
                                          "calendar; declined removes it")],
        calendar_id: Annotated[str | None, Arg(
            "Calendar to put the event in when accepting (default: cal_work)")] = None
        ) -> RespondOut:
    """Accept, tentatively accept or decline an invitation."""
    inv = s["invitations"].get(invitation_id)
    if calendar_id is not None:
        s["calendars"].get(calendar_id)
        if response == "declined":
            raise ToolError("calendar_id only applies when accepting; leave it out to decline")
    if dt.datetime.fromisoformat(inv["end"]) <= NOW:
        raise ToolError(f"invitation {invitation_id} is for '{inv['title']}' on "
                        f"{inv['start'][:10]}, which is already over")
    if inv["status"] == response:
        raise ToolError(f"invitation {invitation_id} is already {response}")
    a, b = dt.datetime.fromisoformat(inv["start"]), dt.datetime.fromisoformat(inv["end"])
    event_id = inv["event_id"]
    conflicts: list[str] = []
    if response == "declined":
        if event_id is not None:
            s["events"].delete(event_id)
            _drop_reminders(s, event_id)
        event_id = None
    else:
        conflicts = [r["event_id"] for r in _conflicts(s, a, b, event_id)]
        status = "confirmed" if response == "accepted" else "tentative"
        if event_id is None:
            event_id = s["events"].insert({
                "event_id": s.next_id("evt"), "calendar_id": calendar_id or "cal_work",
                "title": inv["title"], "start": inv["start"], "end": inv["end"],
                "location": inv["location"], "description": inv["description"],
                "attendees": inv["attendees"], "organizer": inv["organizer"],
                "status": status, "recurrence": "none", "recurrence_until": None,
                "invitation_id": invitation_id})["event_id"]
        else:
            cal = calendar_id or s["events"].get(event_id)["calendar_id"]
            s["events"].update(event_id, status=status, calendar_id=cal)
    inv = s["invitations"].update(invitation_id, status=response, event_id=event_id)
    return {"invitation": inv, "event_id": event_id,
            "conflicts": conflicts}


def _busy_of(s: State, email: str, lo: dt.datetime, hi: dt.datetime) -> list[Busy]:
    """A person's busy times as far as the user can see: events they share with the user."""
    out: list[Busy] = [{"event_id": r["event_id"], "title": r["title"], "start": _fmt(a),
                        "end": _fmt(b)}
                       for r in s["events"].rows()
                       if email == r["organizer"] or email in r["attendees"]
                       for a, b in _occurrences(r, lo, hi)]
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
    day = _parse_date(date, "date")
    if day < REFERENCE_DATE:
        raise ToolError(f"{day} is in the past (today is {REFERENCE_DATE}); pick a later day")
    if day.weekday() >= 5:
        raise ToolError(f"{day} is a {day.strftime('%A')}; working hours are Monday–Friday "
                        f"{WORK_START:%H:%M}–{WORK_END:%H:%M}, pick a weekday")
    lo, hi = dt.datetime.combine(day, WORK_START), dt.datetime.combine(day, WORK_END)
    busy = [(a, b) for r in s["events"].rows() for a, b in _occurrences(r, lo, hi)]
    for email in _check_emails(attendees or [], "attendees"):
        _person(s, email)
        busy += [(dt.datetime.fromisoformat(x["start"]), dt.datetime.fromisoformat(x["end"]))
                 for x in _busy_of(s, email, lo, hi)]
    slots: list[Slot] = []
    cursor = lo
    for a, b in sorted(busy):
        if a - cursor >= dt.timedelta(minutes=duration_minutes):
            slots.append({"start": _fmt(cursor), "end": _fmt(a)})
        cursor = max(cursor, b)
    if hi - cursor >= dt.timedelta(minutes=duration_minutes):
        slots.append({"start": _fmt(cursor), "end": _fmt(hi)})
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
    a, b = _parse_dt(start, "start"), _parse_dt(end, "end")
    if b <= a:
        raise ToolError(f"end {end} must be after start {start}")
    if b - a > dt.timedelta(days=31):
        raise ToolError("check at most 31 days at once")
    busy = _busy_of(s, person["email"], a, b)
    return {"email": person["email"], "name": person["name"], "start": _fmt(a),
            "end": _fmt(b), "available": not busy, "busy": busy}


@DOMAIN.tool(read_only=False)
def add_reminder(
        s: State, event_id: EventId,
        minutes_before: Annotated[int, Arg("How long before the start (0 to 4 weeks)",
                                           minimum=0, maximum=40320)],
        method: Annotated[Literal["popup", "email"], Arg("How to remind")] = "popup"
        ) -> Reminder:
    """Add a reminder to an upcoming event (at most 5 per event)."""
    row = s["events"].get(event_id)
    if _next_start(row) is None:
        raise ToolError(f"event {event_id} '{row['title']}' is already over; reminders only "
                        "work for upcoming events")
    existing = s["reminders"].rows(lambda r: r["event_id"] == event_id)
    if any(r["minutes_before"] == minutes_before and r["method"] == method for r in existing):
        raise ToolError(f"event {event_id} already has a {method} reminder {minutes_before} "
                        "minutes before")
    if len(existing) >= 5:
        raise ToolError(f"event {event_id} already has 5 reminders; delete one first "
                        "(delete_reminder)")
    rem = s["reminders"].insert({"reminder_id": s.next_id("rem"), "event_id": event_id,
                                 "minutes_before": minutes_before, "method": method})
    return _reminder(s, rem)


@DOMAIN.tool(read_only=True)
def list_reminders(
        s: State,
        event_id: Annotated[str | None, Arg("Only this event's reminders (default: all)")
                            ] = None) -> ReminderList:
    """List reminders, soonest first (reminders of past events last)."""
    if event_id is not None:
        s["events"].get(event_id)
    rems = [_reminder(s, r) for r in s["reminders"].rows()
            if event_id is None or r["event_id"] == event_id]
    rems.sort(key=lambda r: (r["remind_at"] is None, r["remind_at"] or "", r["reminder_id"]))
    return {"reminders": rems, "total": len(rems)}


@DOMAIN.tool(read_only=False)
def delete_reminder(
        s: State,
        reminder_id: Annotated[str, Arg("Reminder id, e.g. 'rem_0004' (list_reminders)")]
        ) -> DeletedReminder:
    """Delete one reminder."""
    s["reminders"].delete(reminder_id)
    return {"reminder_id": reminder_id, "deleted": True}


@DOMAIN.tool(read_only=False)
def move_event(
        s: State, event_id: EventId,
        calendar_id: Annotated[str | None, Arg("Calendar to move the event to")] = None,
        new_start: Annotated[str | None, Arg(
            "New start, e.g. '2026-06-17T14:00'; the duration is kept")] = None,
        allow_overlap: AllowOverlap = False) -> Event:
    """Move an event to another calendar and/or another time (keeping its length). Only the
    organizer can move an event in time."""
    row = s["events"].get(event_id)
    if calendar_id is None and new_start is None:
        raise ToolError("give calendar_id, new_start or both")
    changes: dict = {}
    if calendar_id is not None:
        s["calendars"].get(calendar_id)
        if calendar_id == row["calendar_id"] and new_start is None:
            raise ToolError(f"event {event_id} is already in {calendar_id}")
        changes["calendar_id"] = calendar_id
    if new_start is not None:
        _own(s, row, "move it in time")
        a = _parse_dt(new_start, "new_start")
        b = a + (dt.datetime.fromisoformat(row["end"]) - dt.datetime.fromisoformat(row["start"]))
        if _fmt(a) == row["start"]:
            raise ToolError(f"event {event_id} already starts at {row['start']}")
        _check_free(s, a, b, event_id, allow_overlap)
        changes.update(start=_fmt(a), end=_fmt(b))
    return _event(s["events"].update(event_id, **changes))


# Calls that succeed in this order on a fresh session (seed 0).
EXAMPLES: list[tuple[str, dict]] = [
    ("list_calendars", {}),
    ("list_events", {"start_date": "2026-06-15", "end_date": "2026-06-21",
                     "calendar_id": "cal_work"}),
    ("get_event", {"event_id": "evt_0027"}),
    ("search_events", {"query": "review", "calendar_id": "cal_work", "limit": 5}),
    ("find_free_slots", {"date": "2026-06-17", "duration_minutes": 60,
                         "attendees": ["nikolai.patel@cedarlogistics.com"]}),
    ("check_availability", {"email": "nikolai.patel@cedarlogistics.com",
                            "start": "2026-06-17T09:00", "end": "2026-06-17T17:00"}),
    ("create_event", {"title": "Roadmap planning", "start": "2026-06-16T15:00",
                      "end": "2026-06-16T16:00", "calendar_id": "cal_work",
                      "location": "Lotus Bakery, 148 Garden Ave, Berlin",
                      "description": "H2 roadmap draft.",
                      "attendees": ["nikolai.patel@cedarlogistics.com"]}),
    ("update_event", {"event_id": "evt_0065", "title": "Roadmap planning (H2)",
                      "start": "2026-06-16T15:30"}),
    ("add_attendees", {"event_id": "evt_0065", "emails": ["amara.okafor@silverenergy.com"]}),
    ("remove_attendee", {"event_id": "evt_0065", "email": "amara.okafor@silverenergy.com"}),
    ("add_reminder", {"event_id": "evt_0065", "minutes_before": 30, "method": "email"}),
    ("list_reminders", {"event_id": "evt_0065"}),
    ("delete_reminder", {"reminder_id": "rem_0025"}),
    ("move_event", {"event_id": "evt_0065", "calendar_id": "cal_personal",
                    "new_start": "2026-06-18T09:00"}),
    ("list_invitations", {"status": "pending"}),
    ("respond_to_invitation", {"invitation_id": "inv_0001", "response": "accepted",
                               "calendar_id": "cal_work"}),
    ("delete_event", {"event_id": "evt_0065"}),
]
