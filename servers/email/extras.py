"""Contacts lookup and custom folders (the last tools in the email server's tool list)."""

from __future__ import annotations

from typing import Annotated, TypedDict

from servers.core import paging
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State
from servers.email.common import DOMAIN, Folder
from servers.email.seed import SYSTEM_FOLDERS

MAX_CUSTOM_FOLDERS = 20


class Contact(TypedDict):
    contact_id: str
    name: str
    email: str
    company: str
    title: str
    phone: str


class ContactList(TypedDict):
    contacts: list[Contact]
    total: int
    next_cursor: str | None


@DOMAIN.tool(read_only=True)
def search_contacts(
        s: State,
        query: Annotated[str, Arg("Part of a name, email or company (case-insensitive)",
                                  min_length=1, max_length=100)],
        limit: paging.Limit = 20, cursor: paging.Cursor = None) -> ContactList:
    """Find contacts by name, email address or company, by name."""
    q = query.strip().lower()
    found = [c for c in s["contacts"].rows()
             if q in c["name"].lower() or q in c["email"] or q in c["company"].lower()]
    found.sort(key=lambda c: c["name"])
    pg = paging.page(found, limit, cursor, key="contact_id")
    return {"contacts": pg.rows, "total": len(found), "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=False)
def create_folder(s: State, name: Annotated[str, Arg("Folder name", min_length=1,
                                                     max_length=40)]) -> Folder:
    """Create a custom folder to file messages into (with move_email)."""
    clean = " ".join(name.split())
    if not clean:
        raise ToolError("folder name must not be blank")
    taken = {f["name"].lower(): f["folder_id"] for f in s["folders"].rows()}
    if clean.lower() in taken or clean.lower() in SYSTEM_FOLDERS:
        raise ToolError(f"a folder named {clean!r} already exists "
                        f"({taken.get(clean.lower(), clean.lower())})")
    if len(s["folders"].rows(lambda f: f["kind"] == "custom")) >= MAX_CUSTOM_FOLDERS:
        raise ToolError(f"at most {MAX_CUSTOM_FOLDERS} custom folders")
    row = s["folders"].insert({"folder_id": s.next_id("folder"), "name": clean,
                               "kind": "custom"})
    return {**row, "total": 0, "unread": 0}
