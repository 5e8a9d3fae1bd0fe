"""video_meeting: a Zoom-like service for the world's user: meetings they host or were invited
to (participants are world people, by id and exact email), scheduling, rescheduling,
cancelling, participants, instant meetings, cloud recordings and transcripts.

Modules: seed (initial state), common (domain, outputs, shared helpers), tools.
"""

from __future__ import annotations

from servers.video_meeting import tools  # noqa: F401 - registers the tools
from servers.video_meeting.common import DOMAIN

__all__ = ["DOMAIN", "EXAMPLES"]

# Calls that succeed in this order on a fresh session (seed 0).
EXAMPLES: list[tuple[str, dict]] = [
    ("list_meetings", {"status": "upcoming", "from_date": "2026-06-15", "to_date": "2026-06-30",
                       "participant": "diego.horvath@clearfoods.com", "limit": 10}),
    ("get_meeting", {"meeting_id": "mtg_0057"}),
    ("schedule_meeting", {"topic": "Pricing follow-up", "start": "2026-06-18T10:00",
                          "duration_minutes": 45,
                          "participants": ["emma.tanaka@novacapital.com",
                                           "kofi.ito@novacapital.com"],
                          "agenda": "Enterprise tier pricing and SSO timeline",
                          "waiting_room": True, "auto_record": True}),
    ("update_meeting", {"meeting_id": "mtg_0057", "start": "2026-06-23T14:00",
                        "duration_minutes": 60,
                        "topic": "Contract renewal: GreenSystems Inc (v2)"}),
    ("add_participants", {"meeting_id": "mtg_0057",
                          "participants": ["amara.okafor@silverenergy.com"]}),
    ("remove_participant", {"meeting_id": "mtg_0057",
                            "participant": "liam.kim@greensystems.com"}),
    ("cancel_meeting", {"meeting_id": "mtg_0067", "reason": "Merged into the stand-up"}),
    ("list_recordings", {"meeting_id": "mtg_0031", "from_date": "2026-05-01",
                         "to_date": "2026-06-15"}),
    ("get_recording_transcript", {"recording_id": "rec_0015", "query": "budget"}),
    ("start_instant_meeting", {"topic": "Quick huddle",
                               "participants": ["diego.horvath@clearfoods.com"],
                               "auto_record": False}),
]
