"""move_event: move an event to another calendar and/or time. Its own module, imported last,
because it is the last tool in the calendar's tool list."""

from __future__ import annotations

import datetime as dt
from typing import Annotated

from servers.calendar.common import (
    DOMAIN,
    AllowOverlap,
    Event,
    EventId,
    as_event,
    check_free,
    check_organizer,
)
from servers.calendar.times import fmt, parse_dt
from servers.core import clock
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State


@DOMAIN.tool(read_only=False)
def move_event(
        s: State, event_id: EventId,
        calendar_id: Annotated[str | None, Arg("Calendar to move the event to")] = None,
        new_start: Annotated[str | None, Arg(
            "New start, e.g. '2026-06-17T14:00'; the duration is kept")] = None,
        allow_overlap: AllowOverlap = False) -> Event:
    """Move an event to another calendar and/or another time (keeping its length). Only the
    organizer can move an event in time."""
    row = s["events"].get(event_id)
    if calendar_id is None and new_start is None:
        raise ToolError("give calendar_id, new_start or both")
    changes: dict = {}
    if calendar_id is not None:
        s["calendars"].get(calendar_id)
        if calendar_id == row["calendar_id"] and new_start is None:
            raise ToolError(f"event {event_id} is already in {calendar_id}")
        changes["calendar_id"] = calendar_id
    if new_start is not None:
        check_organizer(s, row, "move it in time")
        a = parse_dt(new_start, "new_start", clock.zone(s))
        b = a + (dt.datetime.fromisoformat(row["end"]) - dt.datetime.fromisoformat(row["start"]))
        if fmt(a) == row["start"]:
            raise ToolError(f"event {event_id} already starts at {row['start']}")
        check_free(s, a, b, event_id, allow_overlap)
        changes.update(start=fmt(a), end=fmt(b))
    return as_event(s["events"].update(event_id, **changes))
