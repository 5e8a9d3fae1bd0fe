"""calendar: the user's work and personal calendars, invitations from others, and reminders.

Events are stored as series (a one-off event is a series of one); list/free-slot/availability
tools expand daily and weekly series into occurrences. Attendees are world people's emails, so
tasks can span servers ("invite the person who emailed me", "meet at the cafe found on maps").
Modules: times (clock, parsing, recurrence), seed (initial state), common (domain, shared
helpers), browse, edit, invitations, availability, reminders, move.
"""

from __future__ import annotations

import importlib

from servers.calendar.common import DOMAIN

# Importing a module registers its tools; this order is their order in tools/list.
for _module in ("browse", "edit", "invitations", "availability", "reminders", "move"):
    importlib.import_module(f"servers.calendar.{_module}")

__all__ = ["DOMAIN", "EXAMPLES"]

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
                      "location": "Willow Bakery, Friedrichstraße 162, Berlin",
                      "description": "H2 roadmap draft.",
                      "attendees": ["nikolai.patel@cedarlogistics.com"]}),
    ("update_event", {"event_id": "evt_0122", "title": "Roadmap planning (H2)",
                      "start": "2026-06-17T11:00"}),
    ("add_attendees", {"event_id": "evt_0122", "emails": ["amara.okafor@silverenergy.com"]}),
    ("remove_attendee", {"event_id": "evt_0122", "email": "amara.okafor@silverenergy.com"}),
    ("add_reminder", {"event_id": "evt_0122", "minutes_before": 30, "method": "email"}),
    ("list_reminders", {"event_id": "evt_0122"}),
    ("delete_reminder", {"reminder_id": "rem_0030"}),
    ("move_event", {"event_id": "evt_0122", "calendar_id": "cal_personal",
                    "new_start": "2026-06-18T09:00"}),
    ("list_invitations", {"status": "pending"}),
    ("respond_to_invitation", {"invitation_id": "inv_0018", "response": "accepted",
                               "calendar_id": "cal_work"}),
    ("delete_event", {"event_id": "evt_0122"}),
]
