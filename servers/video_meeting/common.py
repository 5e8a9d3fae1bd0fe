"""video_meeting: the domain object, output shapes and helpers shared by the tools."""

from __future__ import annotations

import datetime as dt
from typing import TypedDict

from servers.core import clock as world_clock
from servers.core.domain import Domain
from servers.core.errors import ToolError
from servers.core.state import Row, State
from servers.video_meeting.seed import build

DOMAIN = Domain("video_meeting", "A Zoom-like video meeting service: schedule, reschedule and "
                "cancel meetings, manage participants, start instant meetings, and read "
                "cloud recordings and their transcripts.", build)
# fields stamped from the session clock: left out of clock-free state comparisons
DOMAIN.clock_fields = {"meetings": ("created_at",)}

MAX_PARTICIPANTS = 100
BOOK_AHEAD = dt.timedelta(days=365)  # from the session start


class Participant(TypedDict):
    person_id: str
    name: str
    email: str
    role: str
    rsvp: str
    attended: bool | None


class MeetingSummary(TypedDict):
    meeting_id: str
    topic: str
    start: str
    end: str
    duration_minutes: int
    status: str
    host_id: str
    host_name: str
    is_host: bool
    participant_count: int
    has_recording: bool


class MeetingList(TypedDict):
    meetings: list[MeetingSummary]
    total: int
    next_cursor: str | None


class Meeting(MeetingSummary):
    host_email: str
    agenda: str
    join_url: str
    passcode: str
    waiting_room: bool
    auto_record: bool
    participants: list[Participant]
    recording_ids: list[str]
    conflicts: list[str]
    created_at: str
    cancel_reason: str | None


def clock(s: State) -> dt.datetime:
    """The world clock's current instant (aware, in the world's zone)."""
    return world_clock.now(s)


def tick(s: State) -> str:
    """The world clock, one minute further per state-changing call."""
    return world_clock.tick(s)


def parse_start(s: State, value: str) -> dt.datetime:
    """A meeting start: any accepted date-time form (naive = the world's local time, other
    offsets converted), to the minute, not in the past and at most a year ahead."""
    when = world_clock.parse_when(value, "start", world_clock.zone(s))
    when = when.replace(second=0, microsecond=0)
    if when < clock(s):
        raise ToolError(f"start {value} is in the past (it is now "
                        f"{world_clock.now_stamp(s)}); pick a later time, or use "
                        "start_instant_meeting to meet right away")
    latest = world_clock.start(s) + BOOK_AHEAD
    if when > latest:
        raise ToolError(f"start {value} is more than a year ahead; meetings can be scheduled "
                        f"up to {latest.date().isoformat()}")
    return when


def resolve(s: State, who: str) -> Row:
    """A directory person from an id ('p_waqgg5') or an exact email (case-insensitive)."""
    row = s["people"].find(who.strip())
    if row is not None:
        return row
    needle = who.strip().lower()
    row = next((p for p in s["people"].rows() if p["email"].lower() == needle), None)
    if row is None:
        raise ToolError(f"{who!r} is not a person id or email in the directory; give people by "
                        "id like 'p_waqgg5' or by their exact email (participants of "
                        "get_meeting show both)")
    return row


def resolve_all(s: State, people: list[str]) -> list[Row]:
    rows = [resolve(s, p) for p in people]
    ids = [r["person_id"] for r in rows]
    dupes = sorted({f"{r['name']} ({r['email']})" for r in rows if ids.count(r["person_id"]) > 1})
    if dupes:
        raise ToolError(f"listed more than once: {', '.join(dupes)}")
    return rows


def end_of(row: Row) -> dt.datetime:
    return dt.datetime.fromisoformat(row["start"]) + dt.timedelta(minutes=row["duration_minutes"])


def recordings_of(s: State, meeting_id: str) -> list[Row]:
    return [r for r in s["recordings"].rows() if r["meeting_id"] == meeting_id]


def summary(s: State, row: Row) -> MeetingSummary:
    host = s["people"].get(row["host_id"])
    return {"meeting_id": row["meeting_id"], "topic": row["topic"], "start": row["start"],
            "end": world_clock.stamp(end_of(row)),
            "duration_minutes": row["duration_minutes"], "status": row["status"],
            "host_id": host["person_id"], "host_name": host["name"],
            "is_host": row["host_id"] == s.var("user_id"),
            "participant_count": len(row["participants"]),
            "has_recording": bool(recordings_of(s, row["meeting_id"]))}


def conflicts(s: State, row: Row) -> list[str]:
    """Other live meetings of the user that overlap this one."""
    if row["status"] not in ("scheduled", "in_progress"):
        return []
    lo, hi = dt.datetime.fromisoformat(row["start"]), end_of(row)
    user = s.var("user_id")
    return [m["meeting_id"] for m in s["meetings"].rows()
            if m["meeting_id"] != row["meeting_id"]
            and m["status"] in ("scheduled", "in_progress")
            and any(p["person_id"] == user for p in m["participants"])
            and dt.datetime.fromisoformat(m["start"]) < hi and end_of(m) > lo]


def meeting_out(s: State, row: Row) -> Meeting:
    participants = []
    for p in row["participants"]:
        person = s["people"].get(p["person_id"])
        participants.append({"person_id": person["person_id"], "name": person["name"],
                             "email": person["email"], "role": p["role"], "rsvp": p["rsvp"],
                             "attended": p["attended"]})
    return {**summary(s, row), "host_email": s["people"].get(row["host_id"])["email"],
            "agenda": row["agenda"], "join_url": row["join_url"], "passcode": row["passcode"],
            "waiting_room": row["waiting_room"], "auto_record": row["auto_record"],
            "participants": participants,
            "recording_ids": [r["recording_id"] for r in recordings_of(s, row["meeting_id"])],
            "conflicts": conflicts(s, row), "created_at": row["created_at"],
            "cancel_reason": row["cancel_reason"]}


def editable(s: State, row: Row, action: str) -> None:
    """Only the host changes a meeting, and only while it is scheduled (or running)."""
    mid = row["meeting_id"]
    if row["host_id"] != s.var("user_id"):
        host = s["people"].get(row["host_id"])
        raise ToolError(f"you are an attendee of meeting {mid}; only its host, {host['name']} "
                        f"({host['email']}), can {action}")
    if row["status"] == "cancelled":
        raise ToolError(f"meeting {mid} was cancelled; schedule_meeting a new one instead")
    if row["status"] == "ended":
        raise ToolError(f"meeting {mid} already took place on {row['start'][:10]}; "
                        "schedule_meeting a new one instead")
