"""video_meeting: the initial state: the directory (world people), the user's meetings around
the reference date (the world's meetings, which calendar holds too: past ones ended, with
recordings and transcripts; future ones scheduled), hosted by the user or by others who invited
the user."""

from __future__ import annotations

import datetime as dt
import random

from servers.core import clock
from servers.core.state import State
from servers.core.world import REFERENCE_DATE, World

WEEKDAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]

LINES = {
    "sync": ["The migration to the new warehouse system is about {pct}% done.",
             "I'm blocked on the API review; {name}, could you take a look today?",
             "Support tickets are down {pct}% since the last release.",
             "We shipped the invoice export fix on {day}.",
             "I'll be out on {day}, so {name} is covering on-call.",
             "The vendor still hasn't sent the updated SLA."],
    "planning": ["For Q3 the priority is the mobile app; reporting moves to Q4.",
                 "We have budget for two more contractors if we start by July.",
                 "{name}, can you own the onboarding flow?",
                 "The estimate for the payments work is three sprints.",
                 "Let's cut scope on the admin dashboard to hit the date.",
                 "Marketing needs the launch date confirmed by {day}."],
    "review": ["The new navigation tested well; task time dropped {pct}%.",
               "I'd like the empty states to be friendlier.",
               "The dashboard loads in under two seconds now.",
               "{name}, the colour contrast on the charts needs another pass.",
               "Revenue is {pct}% above plan for the quarter.",
               "Let's share the prototype with the sales team."],
    "customer": ["{company} wants to expand the pilot to two more teams.",
                 "Their main concern is pricing for the enterprise tier.",
                 "We can offer a {pct}% discount on a two-year term.",
                 "They need SSO and an audit log before rollout.",
                 "Procurement on their side takes about three weeks.",
                 "{name} will set up a technical deep-dive with their IT team."],
    "one_on_one": ["The project is going well, but the deadlines are tight.",
                   "I'd like to lead the next customer workshop.",
                   "Feedback from the team on your presentation was very positive.",
                   "Let's revisit your goals at the end of the quarter.",
                   "I'm interested in the data science training budget."],
    "hiring": ["Strong system design answers, weaker on testing.",
               "Culture interview went well; clear communicator.",
               "I'd say hire, but at the mid level rather than senior.",
               "{name} has concerns about the take-home exercise.",
               "We should move fast; they have another offer."],
    "incident": ["The outage lasted 47 minutes and hit checkout only.",
                 "Root cause was an expired certificate on the payment gateway.",
                 "Alerts fired, but they went to the wrong channel.",
                 "{name} rolled back the config at 14:32.",
                 "We need certificate expiry monitoring with 30 days' notice."],
    "allhands": ["Revenue grew {pct}% quarter over quarter.",
                 "We're opening an office in Lisbon in September.",
                 "Please finish the security training by {day}.",
                 "Welcome to everyone who joined this month!",
                 "Next all-hands will include a product demo."],
}
ACTIONS = ["I'll send the updated {thing} to everyone by {day}.",
           "{name}, can you follow up on the {thing} before {day}?",
           "Action item for me: draft the {thing} and share it on {day}."]
THINGS = ["slides", "proposal", "budget sheet", "project plan", "meeting notes", "contract draft",
          "design specs", "status report"]
OPENERS = ["Hi everyone, thanks for joining.", "Let's get started, we have a lot to cover.",
           "Morning all, can everyone hear me?"]
CLOSERS = ["Thanks all, talk soon.", "Great, I'll share the notes after this call.",
           "That's time. Thanks, everyone."]


def _fmt(when: dt.datetime) -> str:
    return clock.stamp(when)


def _transcript(kind: str, rng: random.Random, speakers: list[str], host: str,
                names: dict[str, str], company: str, minutes: int) -> list[dict]:
    def fill(text: str, speaker: str) -> str:
        others = [names[p] for p in speakers if p != speaker] or [names[speaker]]
        return text.format(pct=rng.choice([12, 18, 25, 30, 40, 65, 80]),
                           name=rng.choice(others).split()[0], day=rng.choice(WEEKDAY_NAMES),
                           company=company, thing=rng.choice(THINGS))

    body = rng.sample(LINES[kind], min(len(LINES[kind]), rng.randint(4, 6)))
    turns = [(host, rng.choice(OPENERS))]
    turns += [(rng.choice(speakers), line) for line in body]
    turns += [(rng.choice(speakers), line) for line in rng.sample(ACTIONS, 2)]
    turns.append((host, rng.choice(CLOSERS)))
    step = max(20, minutes * 60 // (len(turns) + 1))
    out, t = [], rng.randint(5, 30)
    for speaker, text in turns:
        out.append({"offset": f"{t // 3600:02d}:{t % 3600 // 60:02d}:{t % 60:02d}",
                    "person_id": speaker, "text": fill(text, speaker)})
        t += rng.randint(step // 2, step)
    return out


# meetings scheduled and then called off: only video_meeting keeps them (the calendar drops
# cancelled meetings), so their number can vary by seed without breaking the shared world
CALLED_OFF_TOPICS = ["Offsite logistics", "Roadmap brainstorm", "Vendor intro call",
                     "Office move planning", "Quarterly OKR check-in", "Pairing session",
                     "Analytics deep-dive", "Launch readiness review", "Team lunch planning",
                     "Pricing page review", "Security training Q&A", "Onboarding buddy chat"]
CALLED_OFF_REASONS = ["Host is out sick", "Moved to email", "Covered in the weekly sync",
                      "No longer needed", "Rescheduled after the offsite"]
MAX_MEETINGS = 100  # list_meetings shows at most 100 a page; the world keeps under one page


def _called_off(world: World, rng: random.Random) -> list[dict]:
    """A seeded number of extra cancelled meetings, on weekdays around the reference date."""
    room = MAX_MEETINGS - len(world.meetings)
    rows = []
    for topic in rng.sample(CALLED_OFF_TOPICS, min(room, rng.randint(1, 10))):
        day = REFERENCE_DATE + dt.timedelta(days=rng.randint(-30, 20))
        day -= dt.timedelta(days=max(0, day.weekday() - 4))  # a weekend one moves to Friday
        start = dt.datetime.combine(day, dt.time(rng.randint(9, 16)), tzinfo=world.tz)
        host = world.user if rng.random() < 0.6 else rng.choice(world.people[1:])
        guests = [p for p in rng.sample(world.people[1:], rng.randint(1, 4)) if p != host]
        if host != world.user:
            guests.append(world.user)
        rows.append({
            "meeting_id": f"mtg_{len(world.meetings) + len(rows) + 1:04d}", "topic": topic,
            "agenda": "", "host_id": host.id, "start": _fmt(start),
            "duration_minutes": rng.choice([30, 30, 45, 60]), "status": "cancelled",
            "join_url": f"https://zoom.example.com/j/{rng.randint(10**9, 10**10 - 1)}",
            "passcode": f"{rng.randint(0, 999999):06d}", "waiting_room": rng.random() < 0.6,
            "auto_record": False,
            "participants": [{"person_id": host.id, "role": "host", "rsvp": "accepted",
                              "attended": None}] + [
                {"person_id": p.id, "role": "attendee",
                 "rsvp": "accepted" if p == world.user else rng.choice(["accepted", "pending"]),
                 "attended": None} for p in guests],
            "created_at": _fmt(start - dt.timedelta(days=rng.randint(2, 20), hours=3)),
            "cancel_reason": rng.choice(CALLED_OFF_REASONS)})
    return rows


def build(s: State, world: World, rng: random.Random) -> None:
    user = world.user
    s.table("people", key="person_id", kind="person",
            hint="give people by id like 'p_waqgg5' or by exact email").load(
        [{"person_id": p.id, "name": p.name, "email": p.email, "title": p.title}
         for p in world.people])
    names = {p.id: p.name for p in world.people}
    meetings, recordings = [], []
    record_rate = rng.uniform(0.8, 0.98)  # how much this user's org records its meetings
    # the world's meetings: calendar holds the same ones as events (same title, times, people)
    for m in world.meetings:
        start, kind, duration = m.start, m.kind, m.minutes
        status = "cancelled" if m.cancelled else "ended" if start < world.now else "scheduled"
        host = world.person(m.host_id)
        people = [{"person_id": host.id, "role": "host", "rsvp": "accepted",
                   "attended": True if status == "ended" else None}]
        for pid in m.invitee_ids:
            rsvp = "accepted" if pid == user.id else rng.choice(
                ["accepted"] * 6 + ["pending"] * 3 + ["declined"])
            attended = None
            if status == "ended":
                attended = pid == user.id or (rsvp != "declined" and rng.random() < 0.85)
            people.append({"person_id": pid, "role": "attendee", "rsvp": rsvp,
                           "attended": attended})
        meeting_id = m.id
        auto_record = kind not in ("one_on_one", "hiring") and rng.random() < record_rate
        meetings.append({
            "meeting_id": meeting_id, "topic": m.topic, "agenda": m.agenda,
            "host_id": host.id, "start": _fmt(start),
            "duration_minutes": duration, "status": status,
            "join_url": f"https://zoom.example.com/j/{rng.randint(10**9, 10**10 - 1)}",
            "passcode": f"{rng.randint(0, 999999):06d}", "waiting_room": rng.random() < 0.6,
            "auto_record": auto_record, "participants": people,
            "created_at": _fmt(start - dt.timedelta(days=rng.randint(2, 20), hours=3)),
            "cancel_reason": ("Conflicts with the offsite" if status == "cancelled" else None)})
        if status == "ended" and auto_record:
            attended = [p["person_id"] for p in people if p["attended"]]
            length = max(5, duration - rng.randint(0, 10))
            recent = start.date() >= REFERENCE_DATE - dt.timedelta(days=3)
            transcript_status = ("processing" if recent else
                                 "none" if rng.random() < 0.15 else "ready")
            recordings.append({
                "recording_id": f"rec_{len(recordings) + 1:04d}", "meeting_id": meeting_id,
                "start": _fmt(start + dt.timedelta(minutes=rng.randint(0, 3))),
                "duration_minutes": length, "size_mb": round(length * rng.uniform(9, 14), 1),
                "share_url": f"https://zoom.example.com/rec/share/{rng.randint(10**7, 10**8)}",
                "transcript_status": transcript_status,
                "transcript": (_transcript(kind, rng, attended, host.id, names, m.company,
                                           length) if transcript_status == "ready" else [])})
    meetings += _called_off(world, rng)
    s.table("meetings", key="meeting_id", kind="meeting",
            hint="use list_meetings to see meeting ids").load(meetings)
    s.set_var("__seq_mtg", len(meetings))
    s.table("recordings", key="recording_id", kind="recording",
            hint="use list_recordings to see recording ids").load(recordings)
    s.set_var("user_id", user.id)
