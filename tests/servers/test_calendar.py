"""Domain behaviour of the calendar server (seed 0): times, conflicts, invitations, reminders."""

from __future__ import annotations

import datetime as dt

from servers.calendar import DOMAIN
from servers.core import clock
from tests.servers.common import (
    assert_world_varies,
    digest,
    fails,
    ok,
    ok_all,
    runtime_fixture,
    state,
)

rt = runtime_fixture(DOMAIN)
# The seeded calendar ends in July (the world's meetings run three weeks past the reference
# date), so these August days are free but for the weekly series: tests that need a quiet
# day create their own events there.
QUIET_TUE, QUIET_THU = "2026-08-04", "2026-08-06"


def _team_sync(rt) -> str:
    """The weekly team sync's event id (Mondays 10:00-11:00, the same as on video_meeting)."""
    found = ok(rt, "search_events", {"query": "Weekly team sync"})["events"]
    return next(e["event_id"] for e in found if e["recurrence"] == "weekly")


def _one_off_events(rt, upcoming: bool) -> list[dict]:
    """The seeded one-off events still to come (or already over), soonest first."""
    s, now = state(rt), clock.now(state(rt))
    rows = [r for r in s["events"].rows() if r["recurrence"] == "none"
            and (dt.datetime.fromisoformat(r["end"]) > now) == upcoming]
    return sorted(rows, key=lambda r: r["start"])


def _meeting_with_guests(rt) -> dict:
    """An upcoming one-off work event the user organised, with guests from the directory."""
    directory = state(rt)["directory"]
    return next(r for r in _one_off_events(rt, upcoming=True)
                if r["calendar_id"] == "cal_work" and r["invitation_id"] is None
                and r["attendees"] and r["attendees"][0] in directory)


def _budget_pair(rt) -> tuple[str, str]:
    """Two of the user's one-off "Budget planning" events: Tuesday 09:00-10:00 and Thursday
    09:30-10:30 of a quiet week."""
    ids = [ok(rt, "create_event", {"title": "Budget planning", "start": f"{day}T{a}",
                                   "end": f"{day}T{b}"})["event_id"]
           for day, a, b in ((QUIET_TUE, "09:00", "10:00"), (QUIET_THU, "09:30", "10:30"))]
    return ids[0], ids[1]


def test_invalid_times_and_overlaps_are_rejected_without_change(rt):
    before = digest(rt)
    bad = rt.call("create_event", {"title": "x", "start": "2026-06-16T10:00",
                                   "end": "2026-06-16T09:00"})
    assert not bad.ok and "must be after start" in bad.error
    bad = rt.call("create_event", {"title": "x", "start": "2026-06-16 nine",
                                   "end": "2026-06-16T09:00"})
    assert not bad.ok and "not a valid date-time" in bad.error
    # Monday 10:00 is the weekly team sync
    clash = rt.call("create_event", {"title": "x", "start": "2026-06-22T10:30",
                                     "end": "2026-06-22T11:30"})
    assert not clash.ok and _team_sync(rt) in clash.error and "allow_overlap" in clash.error
    assert digest(rt) == before
    forced = rt.call("create_event", {"title": "x", "start": "2026-06-22T10:30",
                                      "end": "2026-06-22T11:30", "allow_overlap": True})
    assert forced.ok


def test_weekly_series_expands_into_occurrences(rt):
    events = ok_all(rt, "list_events", {"start_date": "2026-06-15", "end_date": "2026-07-12",
                                         "calendar_id": "cal_work"}, "events")
    sync = [e["start"] for e in events if e["event_id"] == _team_sync(rt)]
    # seed 0's home is Berlin: stamps carry its June offset
    assert sync == ["2026-06-15T10:00+02:00", "2026-06-22T10:00+02:00",
                    "2026-06-29T10:00+02:00", "2026-07-06T10:00+02:00"]
    assert [e["start"] for e in events] == sorted(e["start"] for e in events)


def test_free_slots_skip_busy_time_and_weekends(rt):
    day = QUIET_TUE
    ok(rt, "create_event", {"title": "Focus", "start": f"{day}T10:00", "end": f"{day}T11:30"})
    slots = ok(rt, "find_free_slots", {"date": day, "duration_minutes": 90})["slots"]
    assert slots == [{"start": f"{day}T11:30+02:00", "end": f"{day}T17:00+02:00"}]
    slots = ok(rt, "find_free_slots", {"date": day, "duration_minutes": 60})["slots"]
    assert slots == [{"start": f"{day}T09:00+02:00", "end": f"{day}T10:00+02:00"},
                     {"start": f"{day}T11:30+02:00", "end": f"{day}T17:00+02:00"}]
    weekend = rt.call("find_free_slots", {"date": "2026-06-20", "duration_minutes": 30})
    assert not weekend.ok and "Saturday" in weekend.error


def test_accepting_then_declining_an_invitation(rt):
    inv = ok(rt, "list_invitations", {"status": "pending"})["invitations"][0]
    inv_id = inv["invitation_id"]
    assert inv["event_id"] is None
    out = ok(rt, "respond_to_invitation", {"invitation_id": inv_id, "response": "accepted"})
    event_id = out["event_id"]
    event = ok(rt, "get_event", {"event_id": event_id})
    assert event["invitation_id"] == inv_id
    assert event["organizer"] == inv["organizer"] != state(rt).var("user_email")
    day = event["start"][:10]
    listed = ok(rt, "list_events", {"start_date": day, "end_date": day})["events"]
    assert event_id in [e["event_id"] for e in listed]
    # the organizer owns the time; the user can only respond
    moved = rt.call("move_event", {"event_id": event_id, "new_start": f"{day}T16:00"})
    assert not moved.ok and "only the organizer" in moved.error
    ok(rt, "respond_to_invitation", {"invitation_id": inv_id, "response": "declined"})
    assert event_id not in state(rt)["events"]
    before = digest(rt)
    again = rt.call("respond_to_invitation", {"invitation_id": inv_id,
                                              "response": "declined"})
    assert not again.ok and "already declined" in again.error
    assert digest(rt) == before


def test_deleting_an_invited_event_declines_it_and_drops_reminders(rt):
    inv = ok(rt, "list_invitations", {"status": "accepted"})["invitations"][0]
    inv_id, event_id = inv["invitation_id"], inv["event_id"]
    n_rem = len(ok(rt, "list_reminders", {"event_id": event_id})["reminders"])
    ok(rt, "add_reminder", {"event_id": event_id, "minutes_before": 5})
    out = ok(rt, "delete_event", {"event_id": event_id})
    assert out["reminders_deleted"] == n_rem + 1 and out["invitation_id"] == inv_id
    assert state(rt)["invitations"].get(inv_id)["status"] == "declined"
    assert not rt.call("get_event", {"event_id": event_id}).ok


def test_availability_comes_from_shared_events(rt):
    event_id = _meeting_with_guests(rt)["event_id"]
    event = ok(rt, "get_event", {"event_id": event_id})
    guest = event["attendees"][0]
    busy = ok(rt, "check_availability", {"email": guest, "start": event["start"],
                                          "end": event["end"]})
    assert not busy["available"] and busy["busy"][0]["event_id"] == event_id
    unknown = rt.call("check_availability", {"email": "nobody@example.com",
                                             "start": event["start"], "end": event["end"]})
    assert not unknown.ok and "directory" in unknown.error


def test_reminders_duplicate_and_past_events(rt):
    seeded = len(state(rt)["reminders"].rows())
    upcoming = _meeting_with_guests(rt)["event_id"]
    ok(rt, "add_reminder", {"event_id": upcoming, "minutes_before": 45})
    dup = rt.call("add_reminder", {"event_id": upcoming, "minutes_before": 45})
    assert not dup.ok and "already has" in dup.error
    over = _one_off_events(rt, upcoming=False)[0]["event_id"]
    past = rt.call("add_reminder", {"event_id": over, "minutes_before": 10})
    assert not past.ok and "already over" in past.error
    rems = ok_all(rt, "list_reminders", {}, "reminders")
    times = [r["remind_at"] for r in rems]
    assert times == sorted(times) and len(rems) == seeded + 1 > 21


def test_update_event_keeps_the_14_day_limit_of_create_event(rt):
    first, _ = _budget_pair(rt)
    too_long = {"start": f"{QUIET_TUE}T09:00", "end": "2026-08-19T09:00",
                "allow_overlap": True}
    created = fails(rt, "create_event", {"title": "x", **too_long}, "at most 14 days")
    updated = fails(rt, "update_event", {"event_id": first, **too_long})
    assert updated.removeprefix("update_event: ") == created.removeprefix("create_event: ")
    ok(rt, "update_event", {"event_id": first, "end": "2026-08-18T09:00",
                            "allow_overlap": True})


def test_update_event_checks_clashes_when_only_the_recurrence_changes(rt):
    first, second = _budget_pair(rt)
    fails(rt, "update_event", {"event_id": first, "recurrence": "daily"},
          second, "allow_overlap")
    out = ok(rt, "update_event", {"event_id": first, "recurrence": "daily",
                                  "allow_overlap": True})
    assert out["recurrence"] == "daily"


def test_clash_messages_give_both_events_start_and_end_with_dates(rt):
    # the weekly team sync meets Mondays 10:00-11:00
    error = fails(rt, "create_event", {"title": "x", "start": "2026-06-22T10:30",
                                       "end": "2026-06-22T11:30"})
    assert (f"2026-06-22T10:30+02:00–2026-06-22T11:30+02:00 overlaps event {_team_sync(rt)} "
            "'Weekly team sync' (2026-06-22T10:00+02:00–2026-06-22T11:00+02:00)") in error
    first, second = _budget_pair(rt)
    # the same wall time given as UTC: converted to the world's zone
    error = fails(rt, "update_event", {"event_id": first, "start": f"{QUIET_THU}T07:00Z"})
    assert (f"{QUIET_THU}T09:00+02:00–{QUIET_THU}T10:00+02:00 overlaps event {second} "
            f"'Budget planning' ({QUIET_THU}T09:30+02:00–{QUIET_THU}T10:30+02:00)") in error
    error = fails(rt, "update_event", {"event_id": first, "recurrence": "daily"})
    assert (f"{QUIET_THU}T09:00+02:00–{QUIET_THU}T10:00+02:00 overlaps event {second} "
            f"'Budget planning' ({QUIET_THU}T09:30+02:00–{QUIET_THU}T10:30+02:00)") in error


def test_world_varies_by_seed():
    assert_world_varies("calendar", {"events": "status", "invitations": "status",
                                     "reminders": "method"})
