"""maps tools: the user's saved-place lists (Favorites and lists they create)."""

from __future__ import annotations

from typing import Annotated

from servers.core import clock
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State
from servers.maps.common import DOMAIN, PlaceId, list_out, summary
from servers.maps.models import RemoveOut, SavedList, SavedListDetail, SavedListList, SavedPlace

ListId = Annotated[str, Arg("Saved list id, e.g. 'lst_uvvdhg' (from list_saved_lists)")]
MAX_LISTS = 20
MAX_PER_LIST = 100


def _now(s: State) -> str:
    """The world clock, one minute further per save; it never wraps (the old private clock
    went back to 12:00 every 60 saves)."""
    return clock.tick(s)


def _entry(s: State, row: Row) -> SavedPlace:
    return {"saved_id": row["saved_id"], "list_id": row["list_id"],
            "place": summary(s, s["places"].get(row["place_id"])), "note": row["note"],
            "saved_at": row["saved_at"]}


def _in_list(s: State, list_id: str, place_id: str) -> Row | None:
    return next(iter(s["saved_places"].rows(
        lambda r: r["list_id"] == list_id and r["place_id"] == place_id)), None)


@DOMAIN.tool(read_only=True)
def list_saved_lists(s: State) -> SavedListList:
    """List the user's saved-place lists (Favorites is the default) with place counts."""
    rows = sorted(s["saved_lists"].rows(), key=lambda r: r["list_id"])
    return {"lists": [list_out(s, r) for r in rows]}


@DOMAIN.tool(read_only=True)
def get_saved_list(s: State, list_id: ListId) -> SavedListDetail:
    """The places saved in one list, most recently saved first, with notes."""
    row = s["saved_lists"].get(list_id)
    entries = sorted(s["saved_places"].rows(lambda r: r["list_id"] == list_id),
                     key=lambda r: (r["saved_at"], r["saved_id"]), reverse=True)
    return {"list": list_out(s, row), "places": [_entry(s, e) for e in entries]}


@DOMAIN.tool(read_only=False)
def create_saved_list(
        s: State, name: Annotated[str, Arg("Name of the new list", min_length=1, max_length=60)],
        description: Annotated[str | None, Arg("What the list is for", max_length=200)] = None
) -> SavedList:
    """Create a new, empty list to save places in."""
    clean = " ".join(name.split())
    if not clean:
        raise ToolError("the list name must not be blank")
    taken = next((r for r in s["saved_lists"].rows() if r["name"].lower() == clean.lower()),
                 None)
    if taken is not None:
        raise ToolError(f"a list named {taken['name']!r} already exists ({taken['list_id']}); "
                        "pick another name or save places into that list")
    if len(s["saved_lists"]) >= MAX_LISTS:
        raise ToolError(f"at most {MAX_LISTS} lists; remove places from an old list instead")
    row = s["saved_lists"].insert({"list_id": s.next_id("lst"), "name": clean,
                                   "description": description, "is_default": False,
                                   "created_at": _now(s)})
    return list_out(s, row)


@DOMAIN.tool(read_only=False)
def save_place(
        s: State, place_id: PlaceId,
        list_id: Annotated[str | None, Arg(
            "List to save into, e.g. 'lst_uvvdhg' (default: Favorites)")] = None,
        note: Annotated[str | None, Arg("A private note about the place", max_length=200)
                        ] = None) -> SavedPlace:
    """Save a place to one of the user's lists (Favorites by default)."""
    place = s["places"].get(place_id)
    if list_id is None:
        list_id = next(r for r in s["saved_lists"].rows() if r["is_default"])["list_id"]
    target = s["saved_lists"].get(list_id)
    existing = _in_list(s, list_id, place_id)
    if existing is not None:
        raise ToolError(f"{place['name']} ({place_id}) is already saved in "
                        f"{target['name']!r} ({list_id})")
    if len(s["saved_places"].rows(lambda r: r["list_id"] == list_id)) >= MAX_PER_LIST:
        raise ToolError(f"list {list_id} is full ({MAX_PER_LIST} places); use another list")
    row = s["saved_places"].insert({"saved_id": s.next_id("sv"), "list_id": list_id,
                                    "place_id": place_id, "note": note,
                                    "saved_at": _now(s)})
    return _entry(s, row)


@DOMAIN.tool(read_only=False)
def remove_saved_place(s: State, place_id: PlaceId, list_id: ListId) -> RemoveOut:
    """Remove a place from one of the user's saved lists."""
    place = s["places"].get(place_id)
    target = s["saved_lists"].get(list_id)
    entry = _in_list(s, list_id, place_id)
    if entry is None:
        raise ToolError(f"{place['name']} ({place_id}) is not in {target['name']!r} "
                        f"({list_id}); get_saved_list shows the places in a list")
    s["saved_places"].delete(entry["saved_id"])
    return {"list": list_out(s, target), "removed_place_id": place_id}
