"""Domain behaviour of the video_meeting server: participants are the world's people, only
the host edits, reschedules re-send invitations, transcripts and instant meetings follow
their rules, failures change nothing."""

from __future__ import annotations

import functools

import pytest

from servers.core import ids
from servers.core.runtime import Runtime
from servers.core.world import make_world
from servers.video_meeting import DOMAIN
from tests.servers.common import assert_world_varies, fails, ok, runtime_fixture, state

rt = runtime_fixture(DOMAIN)
CUSTOMER = ("Customer call: ", "Partnership intro: ", "Contract renewal: ")


@functools.cache
def _seeded() -> dict[str, dict]:
    """Seed 0's meetings the tests need, looked up (ids move when the world changes)."""
    fresh = Runtime(DOMAIN, default_seed=0)
    listed = ok(fresh, "list_meetings", {"status": "all", "limit": 100})["meetings"]
    upcoming = [m for m in listed if m["status"] == "scheduled"]
    return {"hosted": next(m for m in upcoming if m["is_host"] and m["topic"].startswith(
                CUSTOMER) and m["participant_count"] == 4),  # a customer call the user hosts
            "not_hosted": next(m for m in upcoming if not m["is_host"]),
            "long": next(m for m in upcoming if m["duration_minutes"] >= 45),
            "past": next(m for m in listed if m["status"] == "ended")}


def _person(rt, n: int) -> str:
    """The opaque id of the world's `n`th person (0: the user), as the people table holds it."""
    return ids.opaque(state(rt).id_salt, make_world(0).people[n].id)


def _hosted() -> str:
    return _seeded()["hosted"]["meeting_id"]


def _not_hosted() -> str:
    return _seeded()["not_hosted"]["meeting_id"]


def test_participants_are_world_people_with_exact_names_and_emails(rt):
    world = make_world(0)
    by_id = {ids.opaque(world.seed, p.id): p for p in world.people}  # as the state holds them
    for m in ok(rt, "list_meetings", {"status": "all", "limit": 100})["meetings"]:
        for p in ok(rt, "get_meeting", {"meeting_id": m["meeting_id"]})["participants"]:
            assert (p["name"], p["email"]) == (by_id[p["person_id"]].name,
                                               by_id[p["person_id"]].email)
    guest = world.people[7]
    new = ok(rt, "schedule_meeting", {"topic": "Intro", "start": "2026-06-22T10:00",
                                       "duration_minutes": 30,
                                       "participants": [guest.email.upper()]})
    assert [(p["person_id"], p["name"], p["role"]) for p in new["participants"]] == [
        (_person(rt, 0), world.user.name, "host"), (_person(rt, 7), guest.name, "attendee")]


@pytest.mark.parametrize("args, needle", [
    ({"start": "2026-06-14T10:00"}, "in the past"),
    ({"start": "2026-06-20 10:00"}, "YYYY-MM-DDTHH:MM"),
    ({"start": "2027-07-01T10:00"}, "more than a year"),
    ({"participants": ["nobody@nowhere.com"]}, "not a person id or email"),
    ({"participants": [1, 1]}, "more than once"),
    ({"participants": [0]}, "you are the host"),
])
def test_bad_schedules_fail_and_change_nothing(rt, args, needle):
    if "participants" in args:  # a number n stands for the world's nth person (0: the user)
        args = {"participants": [_person(rt, p) if isinstance(p, int) else p
                                 for p in args["participants"]]}
    base = {"topic": "Sync", "start": "2026-06-20T10:00", "duration_minutes": 30,
            "participants": [_person(rt, 1)]}
    fails(rt, "schedule_meeting", {**base, **args}, needle)


def test_schedule_reports_overlapping_meetings(rt):
    long = _seeded()["long"]  # 45 minutes or more: a half hour from its 15th minute is inside
    start = long["start"][:11] + "{:02d}:{:02d}".format(*divmod(
        int(long["start"][11:13]) * 60 + int(long["start"][14:16]) + 15, 60))
    new = ok(rt, "schedule_meeting", {"topic": "Overlap", "start": start,
                                       "duration_minutes": 30, "participants": []})
    assert new["conflicts"] == [long["meeting_id"]]
    assert new["meeting_id"] in ok(rt, "get_meeting", {"meeting_id": long["meeting_id"]})[
        "conflicts"]


def test_only_the_host_can_change_or_cancel(rt):
    not_hosted = _not_hosted()
    host = ok(rt, "get_meeting", {"meeting_id": not_hosted})["host_name"]
    fails(rt, "update_meeting", {"meeting_id": not_hosted, "topic": "Mine now"},
           "only its host", host)
    fails(rt, "cancel_meeting", {"meeting_id": not_hosted}, "only its host")
    fails(rt, "add_participants", {"meeting_id": not_hosted,
                                   "participants": [_person(rt, 1)]}, "only its host")


def test_cancel_twice_fails_the_second_time(rt):
    hosted = _hosted()
    out = ok(rt, "cancel_meeting", {"meeting_id": hosted, "reason": "Customer postponed"})
    assert out["status"] == "cancelled" and out["cancel_reason"] == "Customer postponed"
    fails(rt, "cancel_meeting", {"meeting_id": hosted}, "was cancelled")
    upcoming = ok(rt, "list_meetings", {"limit": 100})["meetings"]
    assert hosted not in [m["meeting_id"] for m in upcoming]
    assert [m["start"] for m in upcoming] == sorted(m["start"] for m in upcoming)


def test_rescheduling_resets_rsvps_but_a_title_change_does_not(rt):
    hosted = _hosted()
    before = ok(rt, "get_meeting", {"meeting_id": hosted})["participants"]
    renamed = ok(rt, "update_meeting", {"meeting_id": hosted, "topic": "Renamed"})
    assert renamed["participants"] == before
    moved = ok(rt, "update_meeting", {"meeting_id": hosted, "start": "2026-06-24T09:00",
                                       "duration_minutes": 60})
    # naive input is the world's local time (seed 0: Berlin, +02:00 in June)
    assert moved["start"] == "2026-06-24T09:00+02:00" and moved["end"] == "2026-06-24T10:00+02:00"
    assert {p["rsvp"] for p in moved["participants"] if p["role"] == "attendee"} == {"pending"}
    assert moved["participants"][0]["rsvp"] == "accepted"  # the host
    fails(rt, "update_meeting", {"meeting_id": _seeded()["past"]["meeting_id"], "topic": "x"},
          "already took place")
    fails(rt, "update_meeting", {"meeting_id": hosted}, "at least one field")


def test_add_and_remove_participants(rt):
    hosted = _hosted()
    invited = ok(rt, "get_meeting", {"meeting_id": hosted})["participants"]
    guest = invited[1]["email"]  # already invited
    new = next(_person(rt, n) for n in range(1, 20)
               if _person(rt, n) not in [p["person_id"] for p in invited])
    out = ok(rt, "add_participants", {"meeting_id": hosted, "participants": [new, guest]})
    assert [p["person_id"] for p in out["added"]] == [new]
    assert out["already_invited"] == [guest]
    fails(rt, "add_participants", {"meeting_id": hosted, "participants": [new]},
           "already invited")
    out = ok(rt, "remove_participant", {"meeting_id": hosted, "participant": new})
    assert out["removed"]["person_id"] == new and out["participant_count"] == 4
    fails(rt, "remove_participant", {"meeting_id": hosted, "participant": new},
           "is not invited")
    fails(rt, "remove_participant", {"meeting_id": hosted, "participant": _person(rt, 0)},
           "host can't be removed")


def test_transcripts_filter_by_speaker_and_respect_status(rt):
    recs = ok(rt, "list_recordings", {})["recordings"]
    by_status = {r["transcript_status"]: r["recording_id"] for r in recs}
    fails(rt, "get_recording_transcript", {"recording_id": by_status["processing"]},
           "still being processed")
    fails(rt, "get_recording_transcript", {"recording_id": by_status["none"]},
           "no transcript")
    full = ok(rt, "get_recording_transcript", {"recording_id": by_status["ready"]})
    speaker = full["segments"][1]["speaker_email"]
    mine = ok(rt, "get_recording_transcript", {"recording_id": by_status["ready"],
                                                "speaker": speaker})
    assert mine["segments"] and {s["speaker_email"] for s in mine["segments"]} == {speaker}
    assert mine["total_segments"] == len(full["segments"])


def test_one_running_instant_meeting_at_a_time(rt):
    first = ok(rt, "start_instant_meeting", {"topic": "Huddle",
                                                   "participants": [_person(rt, 5)]})
    assert first["status"] == "in_progress" and first["start"].startswith("2026-06-15T12:0")
    fails(rt, "start_instant_meeting", {"topic": "Another"}, first["meeting_id"],
           "cancel_meeting")
    ended = ok(rt, "cancel_meeting", {"meeting_id": first["meeting_id"]})
    assert ended["status"] == "ended"
    assert ok(rt, "start_instant_meeting", {"topic": "Another"})["status"] == "in_progress"


@pytest.mark.parametrize("start", ["2026-06-22T08:00Z", "2026-06-22T08:00:00+00:00",
                                   "2026-06-22T04:00-04:00", "2026-06-22T10:00:00"])
def test_a_start_with_another_offset_is_converted_to_the_worlds_zone(rt, start):
    new = ok(rt, "schedule_meeting", {"topic": "Offsets", "start": start,
                                       "duration_minutes": 30, "participants": []})
    assert (new["start"], new["end"]) == ("2026-06-22T10:00+02:00", "2026-06-22T10:30+02:00")


def test_world_varies_by_seed():
    assert_world_varies("video_meeting", {"meetings": "status",
                                          "recordings": "transcript_status"})
