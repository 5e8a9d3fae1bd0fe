"""How users ask for calendar's tools (see prove_jax/synthesis/phrasebook/__init__.py)."""

PHRASES: dict[str, tuple[str, ...]] = {
    "add_attendees": (
        "invite {emails} to {event_id}",
        "add {emails} to the guest list of {event_id}",
        "send an invitation for {event_id} to {emails}",
    ),
    "add_reminder": (
        "remind me {minutes_before} minutes before {event_id}[ by {method}]",
        "add a reminder to {event_id}, {minutes_before} minutes ahead",
        "set up a {method} reminder for {event_id} {minutes_before} minutes before it starts",
        "make sure I get a heads-up {minutes_before} minutes before {event_id}"
        "[ (as a {method})]",
        "add a reminder for {event_id}[, {minutes_before} minutes ahead][ by {method}]",
    ),
    "check_availability": (
        "check whether {email} is free between {start} and {end}",
        "find out if {email} is available from {start} to {end}",
        "see if {email} has anything on between {start} and {end}",
    ),
    "create_event": (
        "create an event called {title} from {start} to {end}[ at {location}]"
        "[ in {calendar_id}]",
        "schedule {title} for {start} until {end}[ and invite {attendees}]",
        "put {title} on my calendar, {start} to {end}[, repeating {recurrence}]"
        "[ until {recurrence_until}]",
        "book a slot from {start} to {end} titled {title}[ with the notes {description}]"
        "[ {allow_overlap?even if it overlaps something|only if it overlaps nothing}]",
    ),
    "delete_event": (
        "delete {event_id}",
        "remove {event_id} from my calendar",
        "cancel {event_id}, the whole series if it repeats",
    ),
    "delete_reminder": (
        "delete {reminder_id}",
        "remove {reminder_id}, I don't need it",
        "turn off {reminder_id}",
    ),
    "find_free_slots": (
        "find a free {duration_minutes}-minute slot on {date}[ that also works for {attendees}]",
        "tell me when I'm free for {duration_minutes} minutes on {date}",
        "look for an opening of {duration_minutes} minutes on {date}"
        "[ when {attendees} are free too]",
        # the length in an optional part: a clarification that leaves it open still has
        # words ("find me a free slot on June 23"), not the tool's own description
        "find me a free slot on {date}[ of {duration_minutes} minutes]",
    ),
    "get_event": (
        "show me the details of {event_id}",
        "look up {event_id} and its reminders",
        "tell me when and where {event_id} is",
    ),
    "list_calendars": (
        "show me my calendars",
        "list the calendars I have and how many events are in each",
        "tell me which calendars I have",
    ),
    "list_events": (
        "show me my events[ from {start_date}][ to {end_date}]",
        "check what's on my calendar between {start_date} and {end_date}[ in {calendar_id}]",
        "list what I have scheduled[ in {calendar_id}][ starting {start_date}]"
        "[ (just the first {limit})]",
        "tell me what I have coming up[ from {start_date} on]",
    ),
    "list_invitations": (
        "show me my meeting invitations[ that are {status}]",
        "list the invites I've received[ with status {status}]"
        "[, {include_past?past ones included|upcoming ones only}]",
        "go through the invitations people sent me[ (just the first {limit})]",
    ),
    "list_reminders": (
        "show me my reminders[ for {event_id}]",
        "list the reminders I have set[ on {event_id}]",
        "tell me which reminders are coming up[ (just the first {limit})]",
    ),
    "move_event": (
        "move {event_id} to {new_start}"
        "[ {allow_overlap?even if it overlaps something|as long as it overlaps nothing}]",
        "move {event_id} over to {calendar_id}",
        "reschedule {event_id} to start at {new_start}[ and put it in {calendar_id}]",
        "shift {event_id}[ to {calendar_id}][, starting {new_start} instead]",
    ),
    "remove_attendee": (
        "remove {email} from {event_id}",
        "take {email} off the guest list of {event_id}",
        "uninvite {email} from {event_id}",
    ),
    "respond_to_invitation": (
        "respond to {invitation_id} with {response}",
        "reply {response} to {invitation_id}[ and put it in {calendar_id}]",
        "set my reply to {invitation_id} to {response}",
        "mark my answer to {invitation_id} as {response}",
        "answer {invitation_id}",  # which answer left to ask
    ),
    "search_events": (
        "search for {query}[ in {calendar_id}]",
        "find events mentioning {query}[ (just the first {limit})]",
        "look for anything about {query} on my calendar",
    ),
    "update_event": (
        "rename {event_id} to {title}",
        "change {event_id}[ to start at {start}][, ending at {end}][ with the location {location}]",
        "update {event_id}[ with the description {description}][, repeating {recurrence}]",
        "edit {event_id}[: new title {title}][, new location {location}]"
        "[ {allow_overlap?even if it overlaps something|only if it overlaps nothing}]",
    ),
}
