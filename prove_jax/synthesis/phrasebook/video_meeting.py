"""How users ask for video_meeting's tools (see prove_jax/synthesis/phrasebook/__init__.py)."""

PHRASES: dict[str, tuple[str, ...]] = {
    "add_participants": (
        "invite {participants} to {meeting_id}",
        "add {participants} to {meeting_id}",
        "get {participants} into {meeting_id} too",
        "send invites for {meeting_id} to {participants}",
    ),
    "cancel_meeting": (
        "cancel {meeting_id}[ and tell everyone {reason}]",
        "call off {meeting_id}[ with the note {reason}]",
        "end {meeting_id} for everyone",
        "scrap {meeting_id}[, letting people know {reason}]",
    ),
    "get_meeting": (
        "show me {meeting_id}",
        "get me the join link and passcode for {meeting_id}",
        "check who has accepted {meeting_id}",
        "tell me when {meeting_id} is and who's coming",
    ),
    "get_recording_transcript": (
        "show me the transcript of {recording_id}",
        "pull up what {speaker} said in {recording_id}",
        "find where {query} came up in {recording_id}",
        "read me the transcript of {recording_id}[ for just {speaker}][ mentioning {query}]",
    ),
    "list_meetings": (
        "list my {status} meetings",
        "show me my meetings[ from {from_date}][ to {to_date}]",
        "find meetings about {query}[ with {participant}]",
        "check which meetings I have with {participant}[ (just the first {limit})]",
    ),
    "list_recordings": (
        "list my recordings",
        "show me the recordings of {meeting_id}",
        "find recordings of meetings about {query}[ since {from_date}]",
        "show me which recordings have transcripts[ between {from_date} and {to_date}]",
    ),
    "remove_participant": (
        "remove {participant} from {meeting_id}",
        "uninvite {participant} from {meeting_id}",
        "take {participant} off {meeting_id}",
        "drop {participant} from the guest list of {meeting_id}",
    ),
    "schedule_meeting": (
        "set up a meeting called {topic} at {start} for {duration_minutes} minutes"
        "[ with {participants}]",
        "book a {duration_minutes} minute meeting on {topic} at {start} and invite "
        "{participants}",
        "put {topic} on the calendar for {start}[, {duration_minutes} minutes long,] with "
        "{participants}[ and the agenda {agenda}]",
        "invite {participants} to a {duration_minutes} minute call about {topic} "
        "starting {start}",
    ),
    "start_instant_meeting": (
        "start a meeting called {topic} now[ and invite {participants}]",
        "spin up a quick call about {topic}[ with {participants}]",
        "open a meeting right now on {topic}[ and pull in {participants}]",
        "kick off an instant meeting titled {topic}",
    ),
    "update_meeting": (
        "move {meeting_id} to {start}[ and make it {duration_minutes} minutes]",
        "rename {meeting_id} to {topic}",
        "change {meeting_id}[ so it lasts {duration_minutes} minutes][ with the agenda {agenda}]",
        "reschedule {meeting_id} to {start}",
        "update the agenda of {meeting_id} to {agenda}",
    ),
}
