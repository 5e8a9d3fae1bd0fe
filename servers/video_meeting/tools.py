"""video_meeting tools: meetings (list, get, schedule, update, cancel, instant), participants
and recordings with transcripts."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal, TypedDict

from servers.core import clock as world_clock
from servers.core import paging
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State
from servers.video_meeting.common import (
    DOMAIN,
    MAX_PARTICIPANTS,
    Meeting,
    MeetingList,
    Participant,
    clock,
    editable,
    meeting_out,
    parse_start,
    resolve,
    resolve_all,
    summary,
    tick,
)

MeetingId = Annotated[str, Arg("Meeting id, e.g. 'mtg_r2uj6b' (from list_meetings)")]
People = Annotated[list[str], Arg(
    "People to invite: directory ids like 'p_waqgg5' or exact emails", max_length=MAX_PARTICIPANTS)]
Topic = Annotated[str, Arg("Meeting title", min_length=1, max_length=200)]
Duration = Annotated[int, Arg("Length in minutes", minimum=15, maximum=480)]
DateArg = Annotated[str | None, Arg("'YYYY-MM-DD'", pattern=r"\d{4}-\d{2}-\d{2}")]


class ParticipantChange(TypedDict):
    meeting_id: str
    added: list[Participant]
    already_invited: list[str]
    removed: Participant | None
    participant_count: int


class Segment(TypedDict):
    offset: str
    speaker_id: str
    speaker_name: str
    speaker_email: str
    text: str


class Recording(TypedDict):
    recording_id: str
    meeting_id: str
    topic: str
    host_name: str
    start: str
    duration_minutes: int
    size_mb: float
    share_url: str
    transcript_status: str


class RecordingList(TypedDict):
    recordings: list[Recording]
    next_cursor: str | None


class Transcript(TypedDict):
    recording_id: str
    meeting_id: str
    topic: str
    segments: list[Segment]
    total_segments: int


def _date(value: str | None, name: str) -> str | None:
    return None if value is None else world_clock.parse_date(value, name).isoformat()


def _entry(person: Row, role: str = "attendee") -> dict:
    return {"person_id": person["person_id"], "role": role,
            "rsvp": "accepted" if role == "host" else "pending", "attended": None}


def _check_invitees(s: State, rows: list[Row]) -> None:
    user = s.var("user_id")
    if any(r["person_id"] == user for r in rows):
        raise ToolError("you are the host and are added automatically; list only the other "
                        "people")


def _create(s: State, topic: str, start: dt.datetime, duration: int, people: list[str],
            agenda: str, waiting_room: bool, auto_record: bool, status: str) -> Meeting:
    rows = resolve_all(s, people)
    _check_invitees(s, rows)
    if not topic.strip():
        raise ToolError("topic must not be blank")
    created = tick(s)
    meeting_id = s.next_id("mtg")
    serial = s.var("__seq_mtg")
    host = s["people"].get(s.var("user_id"))
    row = s["meetings"].insert({
        "meeting_id": meeting_id, "topic": topic.strip(), "agenda": agenda, "host_id":
        host["person_id"], "start": world_clock.stamp(start),
        "duration_minutes": duration, "status": status,
        "join_url": f"https://zoom.example.com/j/{8_400_000_000 + serial * 7919}",
        "passcode": f"{(serial * 104_729) % 1_000_000:06d}", "waiting_room": waiting_room,
        "auto_record": auto_record,
        "participants": [_entry(host, "host")] + [_entry(r) for r in rows],
        "created_at": created, "cancel_reason": None})
    return meeting_out(s, row)


@DOMAIN.tool(read_only=True)
def list_meetings(
        s: State,
        status: Annotated[Literal["upcoming", "past", "cancelled", "all"], Arg(
            "upcoming: scheduled or in progress (soonest first); past: ended (latest first)"
        )] = "upcoming",
        from_date: DateArg = None, to_date: DateArg = None,
        participant: Annotated[str | None, Arg(
            "Only meetings with this person (id like 'p_waqgg5' or exact email)")] = None,
        query: Annotated[str | None, Arg("Part of the topic (case-insensitive)",
                                         min_length=1)] = None,
        limit: paging.Limit = 20,
        cursor: paging.Cursor = None,
) -> MeetingList:
    """List the user's meetings (hosted or invited to), filtered by status, date range
    (inclusive), participant or topic."""
    lo, hi = _date(from_date, "from_date"), _date(to_date, "to_date")
    if lo and hi and lo > hi:
        raise ToolError(f"from_date {lo} is after to_date {hi}")
    who = resolve(s, participant)["person_id"] if participant is not None else None
    wanted = {"upcoming": ("scheduled", "in_progress"), "past": ("ended",),
              "cancelled": ("cancelled",), "all": ("scheduled", "in_progress", "ended",
                                                    "cancelled")}[status]
    q = query.lower() if query else None
    rows = [m for m in s["meetings"].rows()
            if m["status"] in wanted and (lo is None or m["start"][:10] >= lo)
            and (hi is None or m["start"][:10] <= hi)
            and (who is None or any(p["person_id"] == who for p in m["participants"]))
            and (q is None or q in m["topic"].lower())]
    rows.sort(key=lambda m: m["start"], reverse=status != "upcoming")
    pg = paging.page(rows, limit, cursor, key="meeting_id")
    return {"meetings": [summary(s, m) for m in pg.rows], "total": len(rows),
            "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=True)
def get_meeting(s: State, meeting_id: MeetingId) -> Meeting:
    """Get a meeting: time, host, join link and passcode, settings, participants with their
    RSVP (and attendance once it ended), recordings, and overlapping meetings."""
    return meeting_out(s, s["meetings"].get(meeting_id))


@DOMAIN.tool(read_only=False)
def schedule_meeting(
        s: State, topic: Topic,
        start: Annotated[str, Arg(
            "Start 'YYYY-MM-DDTHH:MM' in your local time (or with a 'Z' or '+hh:mm' offset), "
            "e.g. '2026-06-17T14:00'")],
        duration_minutes: Duration, participants: People,
        agenda: Annotated[str, Arg("Agenda shown in the invitation", max_length=2000)] = "",
        waiting_room: Annotated[bool, Arg("Hold joiners until the host admits them")] = True,
        auto_record: Annotated[bool, Arg("Record to the cloud automatically")] = False,
) -> Meeting:
    """Schedule a meeting hosted by the user and invite people from the directory. The
    result lists any of the user's meetings it overlaps (scheduling still succeeds)."""
    when = parse_start(s, start)
    return _create(s, topic, when, duration_minutes, participants, agenda, waiting_room,
                   auto_record, "scheduled")


@DOMAIN.tool(read_only=False)
def update_meeting(
        s: State, meeting_id: MeetingId,
        topic: Annotated[str | None, Arg("New title", min_length=1, max_length=200)] = None,
        start: Annotated[str | None, Arg(
            "New start 'YYYY-MM-DDTHH:MM' in your local time (or with a 'Z' or '+hh:mm' "
            "offset)")] = None,
        duration_minutes: Annotated[int | None, Arg("New length in minutes", minimum=15,
                                                    maximum=480)] = None,
        agenda: Annotated[str | None, Arg("New agenda", max_length=2000)] = None,
        waiting_room: Annotated[bool | None, Arg("Turn the waiting room on or off")] = None,
        auto_record: Annotated[bool | None, Arg("Turn cloud recording on or off")] = None,
) -> Meeting:
    """Change or reschedule a scheduled meeting the user hosts. Moving it (new start or
    length) re-sends the invitation, so attendees' RSVPs go back to pending."""
    row = s["meetings"].get(meeting_id)
    editable(s, row, "change it")
    changes = {k: v for k, v in (("topic", topic), ("agenda", agenda),
                                 ("waiting_room", waiting_room), ("auto_record", auto_record),
                                 ("duration_minutes", duration_minutes)) if v is not None}
    if start is not None:
        if row["status"] == "in_progress":
            raise ToolError(f"meeting {meeting_id} is already in progress; its start can't "
                            "move")
        changes["start"] = world_clock.stamp(parse_start(s, start))
    if not changes:
        raise ToolError("give at least one field to change (topic, start, duration_minutes, "
                        "agenda, waiting_room, auto_record)")
    if "topic" in changes:
        changes["topic"] = changes["topic"].strip()
        if not changes["topic"]:
            raise ToolError("topic must not be blank")
    moved = any(k in changes and changes[k] != row[k] for k in ("start", "duration_minutes"))
    if moved:
        changes["participants"] = [{**p, "rsvp": "pending"} if p["role"] != "host" else p
                                   for p in row["participants"]]
    tick(s)
    return meeting_out(s, s["meetings"].update(meeting_id, **changes))


@DOMAIN.tool(read_only=False)
def cancel_meeting(
        s: State, meeting_id: MeetingId,
        reason: Annotated[str | None, Arg("Note sent to participants", max_length=300)] = None,
) -> Meeting:
    """Cancel a scheduled meeting the user hosts (participants are notified). On a meeting
    in progress, this ends it for everyone."""
    row = s["meetings"].get(meeting_id)
    editable(s, row, "cancel it")
    if row["status"] == "in_progress":
        started = dt.datetime.fromisoformat(row["start"])
        minutes = max(1, int((clock(s) - started).total_seconds() // 60))
        tick(s)
        return meeting_out(s, s["meetings"].update(
            meeting_id, status="ended", duration_minutes=minutes,
            participants=[{**p, "attended": p["role"] == "host"} for p in row["participants"]]))
    tick(s)
    return meeting_out(s, s["meetings"].update(meeting_id, status="cancelled",
                                               cancel_reason=reason or "Cancelled by the host"))


@DOMAIN.tool(read_only=False)
def add_participants(s: State, meeting_id: MeetingId, participants: Annotated[list[str], Arg(
        "People to invite: directory ids like 'p_waqgg5' or exact emails", min_length=1,
        max_length=MAX_PARTICIPANTS)]) -> ParticipantChange:
    """Invite more people to a scheduled (or running) meeting the user hosts. People already
    invited are reported, not added twice."""
    row = s["meetings"].get(meeting_id)
    rows = resolve_all(s, participants)
    editable(s, row, "invite people")
    _check_invitees(s, rows)
    present = {p["person_id"] for p in row["participants"]}
    new = [r for r in rows if r["person_id"] not in present]
    already = [r["email"] for r in rows if r["person_id"] in present]
    if not new:
        raise ToolError(f"everyone listed is already invited to meeting {meeting_id}: "
                        f"{', '.join(already)}")
    if len(present) + len(new) > MAX_PARTICIPANTS:
        raise ToolError(f"meetings hold at most {MAX_PARTICIPANTS} participants; meeting "
                        f"{meeting_id} has {len(present)}")
    tick(s)
    row = s["meetings"].update(meeting_id,
                               participants=row["participants"] + [_entry(r) for r in new])
    out = meeting_out(s, row)["participants"]
    added_ids = {r["person_id"] for r in new}
    return {"meeting_id": meeting_id, "added": [p for p in out if p["person_id"] in added_ids],
            "already_invited": already, "removed": None,
            "participant_count": len(row["participants"])}


@DOMAIN.tool(read_only=False)
def remove_participant(
        s: State, meeting_id: MeetingId,
        participant: Annotated[str, Arg("Person to remove: id like 'p_waqgg5' or exact email")],
) -> ParticipantChange:
    """Remove one invited person from a scheduled (or running) meeting the user hosts."""
    row = s["meetings"].get(meeting_id)
    person = resolve(s, participant)
    editable(s, row, "remove people")
    entry = next((p for p in row["participants"] if p["person_id"] == person["person_id"]),
                 None)
    if entry is None:
        raise ToolError(f"{person['name']} ({person['email']}) is not invited to meeting "
                        f"{meeting_id}; get_meeting lists its participants")
    if entry["role"] == "host":
        raise ToolError("the host can't be removed from their own meeting; cancel_meeting "
                        "cancels it instead")
    tick(s)
    before = meeting_out(s, row)["participants"]
    row = s["meetings"].update(meeting_id, participants=[
        p for p in row["participants"] if p["person_id"] != person["person_id"]])
    return {"meeting_id": meeting_id, "added": [], "already_invited": [],
            "removed": next(p for p in before if p["person_id"] == person["person_id"]),
            "participant_count": len(row["participants"])}


def _recording(s: State, rec: Row) -> Recording:
    meeting = s["meetings"].get(rec["meeting_id"])
    return {"recording_id": rec["recording_id"], "meeting_id": rec["meeting_id"],
            "topic": meeting["topic"], "host_name": s["people"].get(meeting["host_id"])["name"],
            "start": rec["start"], "duration_minutes": rec["duration_minutes"],
            "size_mb": rec["size_mb"], "share_url": rec["share_url"],
            "transcript_status": rec["transcript_status"]}


@DOMAIN.tool(read_only=True)
def list_recordings(
        s: State,
        meeting_id: Annotated[str | None, Arg("Only recordings of this meeting")] = None,
        from_date: DateArg = None, to_date: DateArg = None,
        query: Annotated[str | None, Arg("Part of the meeting topic (case-insensitive)",
                                         min_length=1)] = None,
        limit: paging.Limit = 20,
        cursor: paging.Cursor = None,
) -> RecordingList:
    """List cloud recordings (newest first) with their transcript status: ready, processing
    or none (transcription was off)."""
    if meeting_id is not None:
        s["meetings"].get(meeting_id)
    lo, hi = _date(from_date, "from_date"), _date(to_date, "to_date")
    q = query.lower() if query else None
    out = [_recording(s, r) for r in s["recordings"].rows()
           if (meeting_id is None or r["meeting_id"] == meeting_id)
           and (lo is None or r["start"][:10] >= lo) and (hi is None or r["start"][:10] <= hi)]
    out = [r for r in out if q is None or q in r["topic"].lower()]
    out.sort(key=lambda r: r["start"], reverse=True)
    pg = paging.page(out, limit, cursor, key="recording_id")
    return {"recordings": pg.rows, "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=True)
def get_recording_transcript(
        s: State,
        recording_id: Annotated[str, Arg("Recording id, e.g. 'rec_s9pz5y' (from "
                                         "list_recordings)")],
        speaker: Annotated[str | None, Arg(
            "Only what this person said (id like 'p_waqgg5' or exact email)")] = None,
        query: Annotated[str | None, Arg("Only segments containing this text "
                                         "(case-insensitive)", min_length=1)] = None,
) -> Transcript:
    """Read a recording's transcript: who said what, at which offset into the recording."""
    rec = s["recordings"].get(recording_id)
    who = resolve(s, speaker)["person_id"] if speaker is not None else None
    if rec["transcript_status"] == "processing":
        raise ToolError(f"the transcript of recording {recording_id} is still being processed; "
                        "the recording itself can be watched at " + rec["share_url"])
    if rec["transcript_status"] == "none":
        raise ToolError(f"recording {recording_id} has no transcript (transcription was off "
                        "for that meeting); watch it at " + rec["share_url"])
    meeting = s["meetings"].get(rec["meeting_id"])
    q = query.lower() if query else None
    segments = []
    for seg in rec["transcript"]:
        if (who is None or seg["person_id"] == who) and (q is None or q in seg["text"].lower()):
            person = s["people"].get(seg["person_id"])
            segments.append({"offset": seg["offset"], "speaker_id": person["person_id"],
                             "speaker_name": person["name"], "speaker_email": person["email"],
                             "text": seg["text"]})
    return {"recording_id": recording_id, "meeting_id": rec["meeting_id"],
            "topic": meeting["topic"], "segments": segments,
            "total_segments": len(rec["transcript"])}


@DOMAIN.tool(read_only=False)
def start_instant_meeting(
        s: State, topic: Topic,
        participants: Annotated[list[str], Arg(
            "People to invite right away: ids like 'p_waqgg5' or exact emails",
            max_length=MAX_PARTICIPANTS)] = [],  # noqa: B006 - never mutated
        auto_record: Annotated[bool, Arg("Record to the cloud")] = False,
) -> Meeting:
    """Start a meeting now, hosted by the user, and invite people to join. The user can host
    one running meeting at a time (end it with cancel_meeting)."""
    running = [m for m in s["meetings"].rows()
               if m["status"] == "in_progress" and m["host_id"] == s.var("user_id")]
    if running:
        raise ToolError(f"you are already hosting '{running[0]['topic']}' "
                        f"({running[0]['meeting_id']}), which is in progress; invite people to "
                        "it with add_participants, or end it with cancel_meeting first")
    return _create(s, topic, clock(s), 60, participants, "", False, auto_record, "in_progress")
