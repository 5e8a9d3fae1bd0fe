"""The initial state of the calendar server, built from the shared world: two calendars, a
directory of people, recurring and one-off events, invitations from others and reminders.

The rng is drawn from in a fixed order, so a seed always yields the same state.
"""

from __future__ import annotations

import datetime as dt
import random

from servers.calendar.times import at, fmt, occurrences
from servers.core.state import Row, State
from servers.core.world import REFERENCE_DATE, World, days_ago

TIMEZONES = {"Lisbon": "Europe/Lisbon", "Berlin": "Europe/Berlin", "Paris": "Europe/Paris",
             "Madrid": "Europe/Madrid", "Amsterdam": "Europe/Amsterdam",
             "London": "Europe/London", "New York": "America/New_York",
             "San Francisco": "America/Los_Angeles", "Tokyo": "Asia/Tokyo",
             "Singapore": "Asia/Singapore", "Toronto": "America/Toronto",
             "Sydney": "Australia/Sydney"}


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


def invitation_statuses(rng: random.Random) -> list[str]:
    """The response status of each invitation, in order: how many there are and how many of
    each vary by seed; every status occurs (tools and tasks need one of each), pending most."""
    statuses = ["pending", "pending", "accepted", "declined", "tentative"]
    statuses += rng.choices(["pending", "accepted", "declined", "tentative"], [10, 6, 3, 3],
                            k=rng.randint(18, 27))  # listed unfiltered: over one page
    rng.shuffle(statuses)
    return statuses


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
    local = [pl for pl in world.places if pl.city == user.city]
    office = f"{company.name} office, {user.city}"
    rows: list[Row] = []

    def add(cal: str, title: str, start: dt.datetime, minutes: int, location: str | None,
            description: str, attendees: list[str], organizer: str = user.email,
            recurrence: str = "none", until: str | None = None, status: str = "confirmed",
            invitation_id: str | None = None) -> Row | None:
        end = start + dt.timedelta(minutes=minutes)
        row = {"event_id": f"evt_{len(rows) + 1:04d}", "calendar_id": cal, "title": title,
               "start": fmt(start), "end": fmt(end), "location": location,
               "description": description, "attendees": attendees, "organizer": organizer,
               "status": status, "recurrence": recurrence, "recurrence_until": until,
               "invitation_id": invitation_id}
        if any(next(occurrences(r, start, end), None) for r in rows):
            return None  # the generated calendar has no double bookings
        rows.append(row)
        return row

    tz = world.tz
    monday = at(REFERENCE_DATE - dt.timedelta(days=28), dt.time(), tz)
    # the world's video meetings first (they never overlap, so none is refused): same title,
    # times and people as on video_meeting; a weekly series once, as a recurring event
    series: set[str] = set()
    for m in world.meetings:
        if m.cancelled or (m.weekly and m.topic in series):
            continue
        if m.weekly:
            series.add(m.topic)
        host = world.person(m.host_id)
        added = add("cal_work", m.topic, m.start, m.minutes, "Video call", m.agenda,
                    [world.person(p).email for p in m.invitee_ids if p != user.id],
                    organizer=host.email, recurrence="weekly" if m.weekly else "none",
                    until=m.until.isoformat() if m.weekly and m.until else None)
        if added is None:
            raise AssertionError(f"world meeting {m.id} overlaps another on the calendar")
    add("cal_personal", "Morning run", monday + dt.timedelta(hours=7), 45, None,
        "5 km along the river.", [], recurrence="daily", until="2026-07-31")
    yoga = rng.choice(local)
    add("cal_personal", "Yoga class", monday + dt.timedelta(days=2, hours=18, minutes=30), 60,
        f"{yoga.name}, {yoga.address}", "Bring a mat.", [], recurrence="weekly")
    for offset in range(-21, 29):
        day = at(REFERENCE_DATE + dt.timedelta(days=offset), dt.time(), tz)
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
                    rng.choice([office, f"{office} – Room 3A"]),  # video calls: above
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
    for i, status in enumerate(invitation_statuses(rng)):
        organizer = rng.choice(others)
        title, minutes, desc = WORK[i % len(WORK)]
        org_company = world.company(organizer.company_id).name
        fill = {"company": org_company, "person": org_company, "title": organizer.title}
        guests = [p.email for p in rng.sample(others, 3) if p is not organizer]
        offset = rng.randint(-10, -1) if i % 5 == 4 and status != "pending" else rng.randint(
            1, 25)
        inv_id = f"inv_{i + 1:04d}"
        for _ in range(20):  # accepted ones must fit the calendar; retry times
            day = REFERENCE_DATE + dt.timedelta(days=offset)
            start = at(day, dt.time(rng.choice([9, 11, 13, 15, 16])), tz)
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
            "invitation_id": inv_id, "title": title.format(**fill), "start": fmt(start),
            "end": fmt(end), "location": f"{world.company(organizer.company_id).name} office",
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
    upcoming = [r for r in rows if dt.datetime.fromisoformat(r["start"]) > world.now
                and r["recurrence"] == "none"]
    reminders = []
    for r in rng.sample(upcoming, min(rng.randint(22, 32), len(upcoming))):
        reminders.append({"reminder_id": f"rem_{len(reminders) + 1:04d}",
                          "event_id": r["event_id"],
                          "minutes_before": rng.choice([10, 15, 30, 60, 1440]),
                          "method": rng.choice(["popup", "popup", "email"])})
    s.table("reminders", key="reminder_id", kind="reminder",
            hint="use list_reminders to see reminder ids").load(reminders)
    s.set_var("__seq_rem", len(reminders))
