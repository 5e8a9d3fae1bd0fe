"""Writing mail: send, reply, forward, and drafts (create, list, send)."""

from __future__ import annotations

from typing import Annotated, TypedDict

from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State
from servers.email.common import (
    DOMAIN,
    MAX_RECIPIENTS,
    Email,
    EmailId,
    EmailSummary,
    Limit,
    as_email,
    check_addresses,
    new_message,
    newest_first,
    refuse_draft,
    summarize,
)


class DraftList(TypedDict):
    drafts: list[EmailSummary]
    total: int


Recipients = Annotated[list[str], Arg("Recipient email addresses", min_length=1,
                                      max_length=MAX_RECIPIENTS)]
Cc = Annotated[list[str] | None, Arg("Cc email addresses", max_length=MAX_RECIPIENTS)]
Subject = Annotated[str, Arg("Subject line", min_length=1, max_length=200)]
Body = Annotated[str, Arg("Message text", min_length=1, max_length=20000)]


@DOMAIN.tool(read_only=False)
def send_email(s: State, to: Recipients, subject: Subject, body: Body, cc: Cc = None) -> Email:
    """Send a new message; a copy goes to the sent folder."""
    to_, cc_ = check_addresses(s, to, cc)
    return as_email(new_message(s, "sent", to_, cc_, subject, body))


def _re(subject: str, prefix: str) -> str:
    return subject if subject.lower().startswith(prefix.lower()) else f"{prefix} {subject}"


@DOMAIN.tool(read_only=False)
def reply_to_email(
        s: State, email_id: EmailId, body: Body,
        reply_all: Annotated[bool, Arg("Also reply to the other recipients and cc")] = False
        ) -> Email:
    """Reply to a message in the same thread (to its sender; to its recipients if the user
    sent it)."""
    src = s["emails"].get(email_id)
    refuse_draft(src, "reply to")
    me = s.var("user_email")
    mine = src["from_email"] == me
    to = list(src["to"]) if mine else [src["from_email"]]
    cc: list[str] = []
    if reply_all:
        to += [a for a in src["to"] if a not in to and a != me]
        cc = [a for a in src["cc"] if a not in to and a != me]
    to = [a for a in to if a != me] or to
    quoted = "\n".join(f"> {line}" for line in src["body"].splitlines())
    text = f"{body}\n\nOn {src['sent_at'].replace('T', ' ')}, {src['from_name']} wrote:\n{quoted}"
    row = new_message(s, "sent", to, cc, _re(src["subject"], "Re:"), text,
                      thread_id=src["thread_id"], in_reply_to=email_id)
    if not src["is_read"]:
        s["emails"].update(email_id, is_read=True)  # answering a message means it was read
    return as_email(row)


@DOMAIN.tool(read_only=False)
def forward_email(
        s: State, email_id: EmailId, to: Recipients,
        note: Annotated[str, Arg("Text to put above the forwarded message", max_length=5000)
                        ] = "") -> Email:
    """Forward a message, with its attachments, to other people."""
    src = s["emails"].get(email_id)
    refuse_draft(src, "forward")
    to_, _ = check_addresses(s, to, None)
    header = (f"---------- Forwarded message ----------\nFrom: {src['from_name']} "
              f"<{src['from_email']}>\nDate: {src['sent_at'].replace('T', ' ')}\n"
              f"Subject: {src['subject']}\nTo: {', '.join(src['to'])}\n\n")
    body = (f"{note}\n\n" if note else "") + header + src["body"]
    row = new_message(s, "sent", to_, [], _re(src["subject"], "Fwd:"), body,
                      attachments=list(src["attachments"]))
    return as_email(row)


@DOMAIN.tool(read_only=False)
def create_draft(s: State, to: Recipients, subject: Subject, body: Body, cc: Cc = None
                 ) -> Email:
    """Save a message as a draft without sending it (send it later with send_draft)."""
    to_, cc_ = check_addresses(s, to, cc)
    return as_email(new_message(s, "drafts", to_, cc_, subject, body))


@DOMAIN.tool(read_only=True)
def list_drafts(s: State, limit: Limit = 20) -> DraftList:
    """List unsent drafts, newest first."""
    rows = newest_first(s["emails"].rows(lambda r: r["folder_id"] == "drafts"))
    return {"drafts": [summarize(r) for r in rows[:limit]], "total": len(rows)}


@DOMAIN.tool(read_only=False)
def send_draft(s: State, draft_id: Annotated[str, Arg(
        "Draft id, e.g. 'draft_ppnur5' (from list_drafts)")]) -> Email:
    """Send a draft; it leaves the drafts folder and appears in sent with a new email id."""
    draft = s["emails"].get(draft_id)
    if draft["folder_id"] != "drafts":
        raise ToolError(f"{draft_id} is not a draft (it is in {draft['folder_id']}); use "
                        "list_drafts to see draft ids")
    s["emails"].delete(draft_id)
    row = new_message(s, "sent", draft["to"], draft["cc"], draft["subject"], draft["body"],
                      thread_id=draft["thread_id"], attachments=list(draft["attachments"]),
                      labels=list(draft["labels"]))
    return as_email(row)
