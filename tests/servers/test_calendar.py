"""Domain behaviour of the calendar server (seed 0): times, conflicts, invitations, reminders."""

from __future__ import annotations

from servers.calendar import DOMAIN
from tests.servers.common import digest, fails, ok, ok_all, runtime_fixture, state

rt = runtime_fixture(DOMAIN)


def test_invalid_times_and_overlaps_are_rejected_without_change(rt):
    before = digest(rt)
    bad = rt.call("create_event", {"title": "x", "start": "2026-06-16T10:00",
                                   "end": "2026-06-16T09:00"})
    assert not bad.ok and "must be after start" in bad.error
    bad = rt.call("create_event", {"title": "x", "start": "2026-06-16 nine",
                                   "end": "2026-06-16T09:00"})
    assert not bad.ok and "not a valid date-time" in bad.error
    # Monday 10:00 is the weekly team sync (evt_0001)
    clash = rt.call("create_event", {"title": "x", "start": "2026-06-22T10:30",
                                     "end": "2026-06-22T11:30"})
    assert not clash.ok and "evt_0001" in clash.error and "allow_overlap" in clash.error
    assert digest(rt) == before
    forced = rt.call("create_event", {"title": "x", "start": "2026-06-22T10:30",
                                      "end": "2026-06-22T11:30", "allow_overlap": True})
    assert forced.ok


def test_weekly_series_expands_into_occurrences(rt):
    events = ok_all(rt, "list_events", {"start_date": "2026-06-15", "end_date": "2026-07-12",
                                         "calendar_id": "cal_work"}, "events")
    sync = [e["start"] for e in events if e["event_id"] == "evt_0001"]
    # seed 0's home is Berlin: stamps carry its June offset
    assert sync == ["2026-06-15T10:00+02:00", "2026-06-22T10:00+02:00",
                    "2026-06-29T10:00+02:00", "2026-07-06T10:00+02:00"]
    assert [e["start"] for e in events] == sorted(e["start"] for e in events)


def test_free_slots_skip_busy_time_and_weekends(rt):
    ok(rt, "create_event", {"title": "Focus", "start": "2026-06-16T10:00",
                             "end": "2026-06-16T11:30"})
    slots = ok(rt, "find_free_slots", {"date": "2026-06-16", "duration_minutes": 90})["slots"]
    assert slots == [{"start": "2026-06-16T11:30+02:00", "end": "2026-06-16T17:00+02:00"}]
    slots = ok(rt, "find_free_slots", {"date": "2026-06-16", "duration_minutes": 60})["slots"]
    assert slots == [{"start": "2026-06-16T09:00+02:00", "end": "2026-06-16T10:00+02:00"},
                     {"start": "2026-06-16T11:30+02:00", "end": "2026-06-16T17:00+02:00"}]
    weekend = rt.call("find_free_slots", {"date": "2026-06-20", "duration_minutes": 30})
    assert not weekend.ok and "Saturday" in weekend.error


def test_accepting_then_declining_an_invitation(rt):
    out = ok(rt, "respond_to_invitation", {"invitation_id": "inv_0001",
                                            "response": "accepted"})
    event_id = out["event_id"]
    event = ok(rt, "get_event", {"event_id": event_id})
    assert event["invitation_id"] == "inv_0001"
    assert event["organizer"] == "emma.tanaka@novacapital.com"
    day = event["start"][:10]
    listed = ok(rt, "list_events", {"start_date": day, "end_date": day})["events"]
    assert event_id in [e["event_id"] for e in listed]
    # the organizer owns the time; the user can only respond
    moved = rt.call("move_event", {"event_id": event_id, "new_start": f"{day}T16:00"})
    assert not moved.ok and "only the organizer" in moved.error
    ok(rt, "respond_to_invitation", {"invitation_id": "inv_0001", "response": "declined"})
    assert event_id not in state(rt)["events"]
    before = digest(rt)
    again = rt.call("respond_to_invitation", {"invitation_id": "inv_0001",
                                              "response": "declined"})
    assert not again.ok and "already declined" in again.error
    assert digest(rt) == before


def test_deleting_an_invited_event_declines_it_and_drops_reminders(rt):
    inv = state(rt)["invitations"].get("inv_0012")
    event_id = inv["event_id"]
    n_rem = len(ok(rt, "list_reminders", {"event_id": event_id})["reminders"])
    ok(rt, "add_reminder", {"event_id": event_id, "minutes_before": 5})
    out = ok(rt, "delete_event", {"event_id": event_id})
    assert out["reminders_deleted"] == n_rem + 1 and out["invitation_id"] == "inv_0012"
    assert state(rt)["invitations"].get("inv_0012")["status"] == "declined"
    assert not rt.call("get_event", {"event_id": event_id}).ok


def test_availability_comes_from_shared_events(rt):
    event = ok(rt, "get_event", {"event_id": "evt_0027"})
    guest = event["attendees"][0]
    busy = ok(rt, "check_availability", {"email": guest, "start": event["start"],
                                          "end": event["end"]})
    assert not busy["available"] and busy["busy"][0]["event_id"] == "evt_0027"
    unknown = rt.call("check_availability", {"email": "nobody@example.com",
                                             "start": event["start"], "end": event["end"]})
    assert not unknown.ok and "directory" in unknown.error


def test_reminders_duplicate_and_past_events(rt):
    ok(rt, "add_reminder", {"event_id": "evt_0027", "minutes_before": 45})
    dup = rt.call("add_reminder", {"event_id": "evt_0027", "minutes_before": 45})
    assert not dup.ok and "already has" in dup.error
    past = rt.call("add_reminder", {"event_id": "evt_0005", "minutes_before": 10})
    assert not past.ok and "already over" in past.error
    rems = ok_all(rt, "list_reminders", {}, "reminders")
    times = [r["remind_at"] for r in rems]
    assert times == sorted(times) and len(rems) == 25


# evt_0037 is the user's one-off "Budget planning", Wednesday 2026-06-24 09:00-10:00; evt_0049
# is another of theirs on 2026-07-08 09:30-10:30.


def test_update_event_keeps_the_14_day_limit_of_create_event(rt):
    too_long = {"start": "2026-06-24T09:00", "end": "2026-07-09T09:00", "allow_overlap": True}
    created = fails(rt, "create_event", {"title": "x", **too_long}, "at most 14 days")
    updated = fails(rt, "update_event", {"event_id": "evt_0037", **too_long})
    assert updated.removeprefix("update_event: ") == created.removeprefix("create_event: ")
    ok(rt, "update_event", {"event_id": "evt_0037", "end": "2026-07-08T09:00",
                            "allow_overlap": True})


def test_update_event_checks_clashes_when_only_the_recurrence_changes(rt):
    fails(rt, "update_event", {"event_id": "evt_0037", "recurrence": "daily"},
          "evt_0049", "allow_overlap")
    out = ok(rt, "update_event", {"event_id": "evt_0037", "recurrence": "daily",
                                  "allow_overlap": True})
    assert out["recurrence"] == "daily"


def test_clash_messages_give_both_events_start_and_end_with_dates(rt):
    # the weekly Team sync (evt_0001) meets Mondays 10:00-11:00
    error = fails(rt, "create_event", {"title": "x", "start": "2026-06-22T10:30",
                                       "end": "2026-06-22T11:30"})
    assert ("2026-06-22T10:30+02:00–2026-06-22T11:30+02:00 overlaps event evt_0001 'Team sync' "
            "(2026-06-22T10:00+02:00–2026-06-22T11:00+02:00)") in error
    # the same wall time given as UTC: converted to the world's zone
    error = fails(rt, "update_event", {"event_id": "evt_0037", "start": "2026-07-08T07:00Z"})
    assert ("2026-07-08T09:00+02:00–2026-07-08T10:00+02:00 overlaps event evt_0049 "
            "'Budget planning' (2026-07-08T09:30+02:00–2026-07-08T10:30+02:00)") in error
    error = fails(rt, "update_event", {"event_id": "evt_0037", "recurrence": "daily"})
    assert ("2026-07-08T09:00+02:00–2026-07-08T10:00+02:00 overlaps event evt_0049 "
            "'Budget planning' (2026-07-08T09:30+02:00–2026-07-08T10:30+02:00)") in error
