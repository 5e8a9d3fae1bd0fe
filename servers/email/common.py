"""Shared pieces of the email server: the domain, the message shapes, recipient checks, the
message writer (stamped by the world clock) and argument types used by several tool modules."""

from __future__ import annotations

import re
from typing import Annotated, TypedDict

from servers.core import clock
from servers.core.domain import Domain
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State
from servers.email.seed import build

DOMAIN = Domain("email", "Email: folders, messages, labels, drafts and contacts.", build)
# fields stamped from the session clock: left out of clock-free state comparisons
DOMAIN.clock_fields = {"emails": ("sent_at",)}

EMAIL_RE = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")
MAX_RECIPIENTS = 50


class Folder(TypedDict):
    folder_id: str
    name: str
    kind: str
    total: int
    unread: int


class Attachment(TypedDict):
    filename: str
    mime_type: str
    size_kb: int


class EmailSummary(TypedDict):
    email_id: str
    thread_id: str
    folder_id: str
    from_email: str
    from_name: str
    to: list[str]
    subject: str
    snippet: str
    sent_at: str
    is_read: bool
    labels: list[str]
    has_attachments: bool


class Email(TypedDict):
    email_id: str
    thread_id: str
    folder_id: str
    from_email: str
    from_name: str
    to: list[str]
    cc: list[str]
    subject: str
    body: str
    sent_at: str
    is_read: bool
    labels: list[str]
    attachments: list[Attachment]
    in_reply_to: str | None


def _now(s: State) -> str:
    """The world clock, one minute further per message written, so replays agree."""
    return clock.tick(s)


def summarize(row: Row) -> EmailSummary:
    snippet = " ".join(row["body"].split())
    return {"email_id": row["email_id"], "thread_id": row["thread_id"],
            "folder_id": row["folder_id"], "from_email": row["from_email"],
            "from_name": row["from_name"], "to": row["to"], "subject": row["subject"],
            "snippet": snippet[:100] + ("…" if len(snippet) > 100 else ""),
            "sent_at": row["sent_at"], "is_read": row["is_read"], "labels": row["labels"],
            "has_attachments": bool(row["attachments"])}


def as_email(row: Row) -> Email:
    return {k: row[k] for k in Email.__annotations__}  # a fixed key order


def newest_first(rows: list[Row]) -> list[Row]:
    return sorted(rows, key=lambda r: (r["sent_at"], r["email_id"]), reverse=True)


def check_addresses(s: State, to: list[str], cc: list[str] | None) -> tuple[list[str], list[str]]:
    """Validated, lower-cased recipients; no one twice across to and cc."""
    seen: list[str] = []
    out: list[list[str]] = []
    for field, group in (("to", to), ("cc", cc or [])):
        clean = []
        for addr in group:
            a = addr.strip().lower()
            if not EMAIL_RE.fullmatch(a):
                raise ToolError(f"{field}: {addr!r} is not a valid email address "
                                "(name@domain.com); use search_contacts to look one up")
            if a in seen:
                raise ToolError(f"{field}: {a} is listed twice; give each recipient once")
            seen.append(a)
            clean.append(a)
        out.append(clean)
    if len(seen) > MAX_RECIPIENTS:
        raise ToolError(f"{len(seen)} recipients; at most {MAX_RECIPIENTS} per message")
    return out[0], out[1]


def new_message(s: State, folder_id: str, to: list[str], cc: list[str], subject: str,
                body: str, *, thread_id: str | None = None, in_reply_to: str | None = None,
                attachments: list | None = None, labels: list[str] | None = None) -> Row:
    prefix = "draft" if folder_id == "drafts" else "msg"
    new_id = s.next_id(prefix)
    return s["emails"].insert({
        "email_id": new_id, "thread_id": thread_id or s.next_id("thr"), "folder_id": folder_id,
        "from_email": s.var("user_email"), "from_name": s.var("user_name"), "to": to, "cc": cc,
        "subject": subject, "body": body, "sent_at": _now(s), "is_read": True,
        "labels": labels or [], "attachments": attachments or [], "in_reply_to": in_reply_to})


def refuse_draft(row: Row, action: str) -> None:
    if row["folder_id"] == "drafts":
        raise ToolError(f"{row['email_id']} is an unsent draft; you cannot {action} it "
                        "(send it with send_draft first)")


EmailId = Annotated[str, Arg("Email id, e.g. 'msg_vv974x' (from list_emails or search_emails)")]
Limit = Annotated[int, Arg("At most this many, newest first", minimum=1, maximum=100)]
