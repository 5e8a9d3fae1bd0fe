"""How users ask for email's tools (see prove_jax/synthesis/phrasebook/__init__.py)."""

PHRASES: dict[str, tuple[str, ...]] = {
    "add_label": (
        "label {email_id}[ as {label}]",
        "tag {email_id} with the label {label}",
        "put the {label} label on {email_id}",
        "file {email_id} under the label {label}",
    ),
    "create_draft": (
        "draft an email to {to}[ with the subject {subject}][ saying {body}], but don't send it",
        "write up a draft for {to} titled {subject} that says {body}[, copying {cc}]",
        "save a draft to {to} with the subject {subject} and the text {body}",
        "prepare a message for {to}[ about {subject}][ reading {body}] and keep it in drafts",
    ),
    "create_folder": (
        "create a new mail folder called {name}",
        "make a folder named {name} for my emails",
        "set up a folder[ named {name}] that I can file messages into",
    ),
    "delete_email": (
        "delete {email_id}",
        "trash {email_id}",
        "get rid of {email_id}, I don't need it anymore",
    ),
    "forward_email": (
        "forward {email_id} to {to}[ with the note {note}]",
        "send {email_id} on to {to}[ and add {note} above it]",
        "pass {email_id} along to {to}",
        "share {email_id} with {to} by forwarding it[, adding the message {note}]",
    ),
    "get_email": (
        "open {email_id} and show me the whole thing",
        "show me the full text of {email_id}",
        "what does {email_id} say",
        "pull up {email_id} with its attachments and recipients",
    ),
    "list_drafts": (
        "show me my drafts",
        "list the emails I haven't sent yet[ (just the newest {limit})]",
        "what drafts do I have waiting",
    ),
    "list_emails": (
        "show me my emails[ in {folder_id}]",
        "list the messages[ in {folder_id}][ labeled {label}]",
        "check my mail[ in {folder_id}][ tagged {label}][ (only the latest {limit})]",
        "go through what's come in[ under the label {label}]",
    ),
    "list_folders": (
        "show me all my mail folders",
        "list my email folders with how many unread messages each has",
        "how many messages are in each of my folders",
    ),
    "mark_as_read": (
        "mark {email_id} as {read?read|unread}",
        "flag {email_id} as {read?read|not read yet}",
        "set {email_id} to {read?read|unread}",
    ),
    "move_email": (
        "move {email_id} to {folder_id}",
        "file {email_id} into {folder_id}",
        "put {email_id}[ in {folder_id}]",
        "take {email_id} out of where it is and drop it into {folder_id}",
    ),
    "remove_label": (
        "take the {label} label off {email_id}",
        "remove the label {label} from {email_id}",
        "untag {email_id}[ so it's no longer marked {label}]",
        "clear {label} from the labels on {email_id}",
    ),
    "reply_to_email": (
        "reply to {email_id}[ saying {body}]",
        "answer {email_id} with {body}",
        "write back on {email_id} and tell them {body}",
        "respond to {email_id} with the message {body}",
    ),
    "search_contacts": (
        "find contacts matching {query}",
        "look up {query} in my contacts",
        "search my address book for {query}[ (just the first {limit})]",
        "check who I have in my contacts[ under {query}]",
    ),
    "search_emails": (
        "search my email[ for {query}][ from {from_email}][ in {folder_id}]",
        "find messages[ from {from_email}][ sent between {date_from} and {date_to}]",
        "look for emails[ mentioning {query}][ sent on or after {date_from}][ up to {date_to}]",
        "dig up any mail[ about {query}][ from {from_email}][ (only the first {limit})]",
    ),
    "send_draft": (
        "send {draft_id}",
        "go ahead and send {draft_id} now",
        "send out {draft_id} I saved earlier",
        "finish up and send {draft_id}",
    ),
    "send_email": (
        "email {to} with the subject {subject} saying {body}[ and cc {cc}]",
        "send {to} a message titled {subject}[ that says {body}][ with {cc} in copy]",
        "write to {to}[ under the subject {subject}] and tell them {body}[, copying in {cc}]",
        "shoot {to} an email[ with subject {subject}] reading {body}",
    ),
}
