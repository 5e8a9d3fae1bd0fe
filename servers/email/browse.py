"""Read-only mailbox tools: folders, messages in a folder, one message, search."""

from __future__ import annotations

from typing import Annotated, TypedDict

from servers.core import clock, paging
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State
from servers.email.common import (
    DOMAIN,
    Email,
    EmailId,
    EmailSummary,
    Folder,
    as_email,
    newest_first,
    summarize,
)


class FolderList(TypedDict):
    folders: list[Folder]


class EmailList(TypedDict):
    folder_id: str
    emails: list[EmailSummary]
    total: int
    unread: int
    next_cursor: str | None


class SearchResult(TypedDict):
    emails: list[EmailSummary]
    total: int
    next_cursor: str | None


@DOMAIN.tool(read_only=True)
def list_folders(s: State) -> FolderList:
    """List mail folders (system and custom) with total and unread counts."""
    out = []
    for f in s["folders"].rows():
        inside = s["emails"].rows(lambda r, f=f: r["folder_id"] == f["folder_id"])
        out.append({**f, "total": len(inside),
                    "unread": sum(1 for r in inside if not r["is_read"])})
    return {"folders": out}


@DOMAIN.tool(read_only=True)
def list_emails(
        s: State,
        folder_id: Annotated[str, Arg("Folder id: inbox, sent, drafts, archive, trash or a "
                                      "custom folder id from list_folders")] = "inbox",
        unread_only: Annotated[bool, Arg("Only unread messages")] = False,
        label: Annotated[str | None, Arg("Only messages with this label")] = None,
        limit: paging.Limit = 20, cursor: paging.Cursor = None) -> EmailList:
    """List messages in a folder, newest first."""
    s["folders"].get(folder_id)
    want = label.strip().lower() if label else None
    inside = [r for r in s["emails"].rows() if r["folder_id"] == folder_id]
    rows = [r for r in inside if (not unread_only or not r["is_read"])
            and (want is None or want in r["labels"])]
    pg = paging.page(newest_first(rows), limit, cursor, key="email_id")
    return {"folder_id": folder_id, "emails": [summarize(r) for r in pg.rows],
            "total": len(rows), "unread": sum(1 for r in inside if not r["is_read"]),
            "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=True)
def get_email(s: State, email_id: EmailId) -> Email:
    """Get one message in full: body, recipients, attachments (does not mark it read)."""
    return as_email(s["emails"].get(email_id))


@DOMAIN.tool(read_only=True)
def search_emails(
        s: State,
        query: Annotated[str | None, Arg("Words to find in subject or body (case-insensitive)",
                                         max_length=200)] = None,
        from_email: Annotated[str | None, Arg("Sender address or name, or part of either, e.g. "
                                              "'@bluelabs.com'")] = None,
        folder_id: Annotated[str | None, Arg("Only this folder (default: all but trash)")
                             ] = None,
        date_from: Annotated[str | None, Arg("Sent on or after this day, 'YYYY-MM-DD'")] = None,
        date_to: Annotated[str | None, Arg("Sent on or before this day, 'YYYY-MM-DD'")] = None,
        has_attachments: Annotated[bool | None, Arg("Only messages with (true) or without "
                                                    "(false) attachments")] = None,
        limit: paging.Limit = 20, cursor: paging.Cursor = None) -> SearchResult:
    """Search messages by text, sender, folder, date range and attachments; give at least one
    criterion. Trash is searched only when folder_id is 'trash'."""
    if folder_id is not None:
        s["folders"].get(folder_id)
    if all(v is None for v in (query, from_email, folder_id, date_from, date_to,
                               has_attachments)):
        raise ToolError("give at least one search criterion (query, from_email, folder_id, "
                        "date_from, date_to or has_attachments)")
    lo, hi = _day(date_from, "date_from"), _day(date_to, "date_to")
    if lo and hi and hi < lo:
        raise ToolError(f"date_to {hi} is before date_from {lo}")
    words = (query or "").lower().split()
    sender = (from_email or "").strip().lower()
    rows = [r for r in s["emails"].rows()
            if (r["folder_id"] == folder_id if folder_id else r["folder_id"] != "trash")
            and all(w in f"{r['subject']} {r['body']}".lower() for w in words)
            and (sender in r["from_email"] or sender in r["from_name"].lower())
            and (lo is None or r["sent_at"][:10] >= lo)
            and (hi is None or r["sent_at"][:10] <= hi)
            and (has_attachments is None or bool(r["attachments"]) == has_attachments)]
    rows = newest_first(rows)
    pg = paging.page(rows, limit, cursor, key="email_id")
    return {"emails": [summarize(r) for r in pg.rows], "total": len(rows),
            "next_cursor": pg.next_cursor}


def _day(value: str | None, field: str) -> str | None:
    return None if value is None else clock.parse_date(value, field).isoformat()
