"""The user's meetings, generated once per world: video_meeting seeds one meeting per entry and
calendar one event (a weekly series once, as a recurring event), so both show the same title,
start, end and people.

Two weekly series (the team sync and the 1:1 with the user's lead) and one-off meetings on
weekdays between 45 days before and 21 days after the reference date; no two overlap, so the
calendar (which refuses double bookings) can hold them all.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # world.py imports this module
    from servers.core.world import Person, World

PAST_DAYS, FUTURE_DAYS = 45, 21
N_PAST, N_FUTURE = 44, 24
DURATIONS = [15, 30, 30, 45, 60, 60, 90]
DAY_END = dt.time(18, 0)  # meetings end by then (the calendar's evening events follow)
SERIES_FROM_DAYS = 28  # the weekly series started this many days before the reference date
TEAM_SYNC_UNTIL = dt.date(2026, 9, 28)

# kind -> (topics, agenda)
KINDS = {
    "sync": (["Engineering stand-up", "Ops weekly check-in"],
             "Updates, blockers, priorities for the week"),
    "planning": (["Sprint planning", "Q3 roadmap review", "Budget planning FY27",
                  "Launch planning: mobile app"], "Goals, scope, owners and dates"),
    "review": (["Design critique", "Data platform demo", "Quarterly business review"],
               "Walkthrough, feedback, next steps"),
    "customer": (["Customer call: {company}", "Partnership intro: {company}",
                  "Contract renewal: {company}"], "Introductions, needs, pricing, next steps"),
    "one_on_one": (["1:1 {user} / {other}"], "Check-in, feedback, career goals"),
    "hiring": (["Hiring debrief: {title}", "Interview loop sync: {title}"],
               "Candidate feedback and decision"),
    "incident": (["Postmortem: checkout outage", "Postmortem: data pipeline delay"],
                 "Timeline, root cause, action items"),
    "allhands": (["Company all-hands", "Monthly town hall"], "Company updates and Q&A"),
}
KIND_WEIGHTS = ["sync"] * 4 + ["planning"] * 3 + ["review"] * 2 + ["customer"] * 3 + [
    "one_on_one"] * 3 + ["hiring", "incident", "allhands"]


@dataclass(frozen=True)
class Meeting:
    id: str  # 'mtg_0012', in start order
    kind: str  # a KINDS key
    topic: str  # the video meeting's topic and the calendar event's title
    agenda: str
    host_id: str  # the calendar event's organizer
    invitee_ids: tuple[str, ...]  # everyone invited but the host (the user when another hosts)
    start: dt.datetime  # aware, in the world's zone
    minutes: int
    cancelled: bool
    company: str  # the other company (customer meetings are with it; transcripts name it)
    weekly: bool = False  # an occurrence of a weekly series (the calendar keeps the series)
    until: dt.date | None = None  # the series' last day (None: open-ended)

    @property
    def end(self) -> dt.datetime:
        return self.start + dt.timedelta(minutes=self.minutes)


def make_meetings(world: World) -> tuple[Meeting, ...]:
    rng = random.Random(f"{world.seed}:meetings")  # = world.rng_for(seed, "meetings")
    user, others = world.user, list(world.people[1:])
    colleagues = [p for p in others if p.company_id == user.company_id] or others[:3]
    series = _series(world, colleagues)
    busy = [(m.start, m.end) for m in series]
    team = rng.sample(others, 7)
    plans = [rng.randint(-PAST_DAYS, -1) for _ in range(N_PAST)]
    plans += [rng.randint(0, FUTURE_DAYS) for _ in range(N_FUTURE)]
    drafts = []
    for offset in plans:
        date = world.reference_date + dt.timedelta(days=offset)
        if date.weekday() >= 5:  # meetings happen on weekdays
            date -= dt.timedelta(days=date.weekday() - 4)
        kind = rng.choice(KIND_WEIGHTS)
        minutes = 60 if kind == "allhands" else 30 if kind == "one_on_one" else rng.choice(
            DURATIONS)
        for _ in range(12):  # a free slot that day, or no meeting
            hour = rng.randint(9, 17) if offset >= 0 else rng.randint(8, 17)
            start = dt.datetime.combine(date, dt.time(hour, rng.choice([0, 0, 30])),
                                        tzinfo=world.tz)
            end = start + dt.timedelta(minutes=minutes)
            if end.time() <= DAY_END and end.date() == date and all(
                    end <= b0 or start >= b1 for b0, b1 in busy):
                busy.append((start, end))
                drafts.append(_one_off(rng, world, kind, start, minutes, team, others))
                break
    ordered = sorted(series + drafts, key=lambda m: (m.start, m.topic))
    return tuple(_numbered(m, i) for i, m in enumerate(ordered))


def _numbered(m: Meeting, i: int) -> Meeting:
    # a few one-offs were called off (video_meeting shows them cancelled; calendar drops them)
    return replace(m, id=f"mtg_{i + 1:04d}", cancelled=not m.weekly and i % 11 == 5)


def _series(world: World, colleagues: list[Person]) -> list[Meeting]:
    """Each weekly occurrence up to the end of the window (the calendar keeps one series)."""
    user, lead = world.user, colleagues[0]
    monday = world.reference_date - dt.timedelta(days=SERIES_FROM_DAYS)
    company = world.company(user.company_id).name
    specs = [("sync", "Weekly team sync", KINDS["sync"][1], monday, dt.time(10), 60,
              tuple(p.id for p in colleagues), TEAM_SYNC_UNTIL),
             ("one_on_one", f"1:1 with {lead.first_name}", "Weekly one-on-one.",
              monday + dt.timedelta(days=3), dt.time(14), 30, (lead.id,), None)]
    last = world.reference_date + dt.timedelta(days=FUTURE_DAYS)
    out = []
    for kind, topic, agenda, day, time, minutes, invitees, until in specs:
        while day <= last and (until is None or day <= until):
            out.append(Meeting("", kind, topic, agenda, user.id, invitees,
                               dt.datetime.combine(day, time, tzinfo=world.tz), minutes,
                               False, company, True, until))
            day += dt.timedelta(days=7)
    return out


def _one_off(rng: random.Random, world: World, kind: str, start: dt.datetime, minutes: int,
             team: list[Person], others: list[Person]) -> Meeting:
    user = world.user
    company = rng.choice([c for c in world.companies if c.id != user.company_id])
    if kind == "customer":
        guests = [p for p in world.people if p.company_id == company.id and p.id != user.id]
        invited = rng.sample(guests, min(2, len(guests))) + rng.sample(team, 1)
    elif kind == "one_on_one":
        invited = rng.sample(team, 1)
    elif kind == "allhands":
        invited = team + rng.sample([p for p in others if p not in team], 8)
    else:
        invited = rng.sample(team, rng.randint(2, 5))
    user_hosts = kind == "customer" or (kind != "allhands" and rng.random() < 0.65)
    host = user if user_hosts else invited[0]
    invitees = tuple(p.id for p in invited if p.id != host.id) + (() if user_hosts
                                                                   else (user.id,))
    topic = rng.choice(KINDS[kind][0]).format(
        company=company.name, user=user.first_name, other=invited[0].first_name,
        title=rng.choice(["Data Engineer", "Designer", "Account Executive"]))
    return Meeting("", kind, topic, KINDS[kind][1], host.id, invitees, start, minutes, False,
                   company.name)
