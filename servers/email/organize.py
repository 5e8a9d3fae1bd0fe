"""Filing tools: move between folders, read/unread, labels, delete."""

from __future__ import annotations

import re
from typing import Annotated, TypedDict

from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State
from servers.email.common import DOMAIN, EmailId, refuse_draft

LABEL_RE = re.compile(r"[a-z0-9][a-z0-9 _-]{0,29}")
MAX_LABELS = 10


class MoveOut(TypedDict):
    email_id: str
    from_folder: str
    to_folder: str


class ReadOut(TypedDict):
    email_id: str
    is_read: bool
    changed: bool


class LabelOut(TypedDict):
    email_id: str
    labels: list[str]


class DeleteOut(TypedDict):
    email_id: str
    result: str
    folder_id: str | None


def _label(label: str) -> str:
    name = label.strip().lower()
    if not LABEL_RE.fullmatch(name):
        raise ToolError(f"label {label!r} is not valid: use 1-30 letters, digits, spaces, '-' "
                        "or '_', starting with a letter or digit")
    return name


@DOMAIN.tool(read_only=False)
def move_email(
        s: State, email_id: EmailId,
        folder_id: Annotated[str, Arg("Target folder id: inbox, archive, trash or a custom "
                                      "folder id from list_folders")]) -> MoveOut:
    """Move a message to another folder (e.g. archive it, or restore it from trash)."""
    row = s["emails"].get(email_id)
    s["folders"].get(folder_id)
    refuse_draft(row, "move")
    if folder_id in ("drafts", "sent"):
        raise ToolError(f"messages cannot be moved into {folder_id}; pick inbox, archive, "
                        "trash or a custom folder")
    if row["folder_id"] == folder_id:
        raise ToolError(f"{email_id} is already in {folder_id}")
    src = row["folder_id"]
    s["emails"].update(email_id, folder_id=folder_id)
    return {"email_id": email_id, "from_folder": src, "to_folder": folder_id}


@DOMAIN.tool(read_only=False)
def mark_as_read(
        s: State, email_id: EmailId,
        read: Annotated[bool, Arg("true: mark read; false: mark unread")] = True) -> ReadOut:
    """Mark a message read or unread."""
    row = s["emails"].get(email_id)
    changed = row["is_read"] != read
    if changed:
        s["emails"].update(email_id, is_read=read)
    return {"email_id": email_id, "is_read": read, "changed": changed}


LabelArg = Annotated[str, Arg("Label name, e.g. 'important' (1-30 letters, digits, spaces, "
                              "'-', '_')", min_length=1, max_length=30)]


@DOMAIN.tool(read_only=False)
def add_label(s: State, email_id: EmailId, label: LabelArg) -> LabelOut:
    """Add a label to a message (labels are lower-case; at most 10 per message)."""
    row = s["emails"].get(email_id)
    name = _label(label)
    if name in row["labels"]:
        raise ToolError(f"{email_id} already has label {name!r}")
    if len(row["labels"]) >= MAX_LABELS:
        raise ToolError(f"{email_id} already has {MAX_LABELS} labels; remove one first")
    row = s["emails"].update(email_id, labels=[*row["labels"], name])
    return {"email_id": email_id, "labels": row["labels"]}


@DOMAIN.tool(read_only=False)
def remove_label(s: State, email_id: EmailId, label: LabelArg) -> LabelOut:
    """Remove a label from a message."""
    row = s["emails"].get(email_id)
    name = label.strip().lower()
    if name not in row["labels"]:
        have = ", ".join(row["labels"]) or "none"
        raise ToolError(f"{email_id} has no label {name!r}; its labels: {have}")
    row = s["emails"].update(email_id, labels=[x for x in row["labels"] if x != name])
    return {"email_id": email_id, "labels": row["labels"]}


@DOMAIN.tool(read_only=False)
def delete_email(s: State, email_id: EmailId) -> DeleteOut:
    """Delete a message: it moves to trash; a message already in trash, or a draft, is
    deleted permanently."""
    row = s["emails"].get(email_id)
    if row["folder_id"] in ("trash", "drafts"):
        s["emails"].delete(email_id)
        return {"email_id": email_id, "result": "deleted_permanently", "folder_id": None}
    s["emails"].update(email_id, folder_id="trash")
    return {"email_id": email_id, "result": "moved_to_trash", "folder_id": "trash"}
