"""Reminder tools: add, list and delete reminders on upcoming events."""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict

from servers.calendar.common import DOMAIN, EventId, Reminder, as_reminder, next_start
from servers.core import paging
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State


class ReminderList(TypedDict):
    reminders: list[Reminder]
    total: int
    next_cursor: str | None


class DeletedReminder(TypedDict):
    reminder_id: str
    deleted: bool


@DOMAIN.tool(read_only=False)
def add_reminder(
        s: State, event_id: EventId,
        minutes_before: Annotated[int, Arg("How long before the start (0 to 4 weeks)",
                                           minimum=0, maximum=40320)],
        method: Annotated[Literal["popup", "email"], Arg("How to remind")] = "popup"
        ) -> Reminder:
    """Add a reminder to an upcoming event (at most 5 per event)."""
    row = s["events"].get(event_id)
    if next_start(s, row) is None:
        raise ToolError(f"event {event_id} '{row['title']}' is already over; reminders only "
                        "work for upcoming events")
    existing = s["reminders"].rows(lambda r: r["event_id"] == event_id)
    if any(r["minutes_before"] == minutes_before and r["method"] == method for r in existing):
        raise ToolError(f"event {event_id} already has a {method} reminder {minutes_before} "
                        "minutes before")
    if len(existing) >= 5:
        raise ToolError(f"event {event_id} already has 5 reminders; delete one first "
                        "(delete_reminder)")
    rem = s["reminders"].insert({"reminder_id": s.next_id("rem"), "event_id": event_id,
                                 "minutes_before": minutes_before, "method": method})
    return as_reminder(s, rem)


@DOMAIN.tool(read_only=True)
def list_reminders(
        s: State,
        event_id: Annotated[str | None, Arg("Only this event's reminders (default: all)")
                            ] = None,
        limit: paging.Limit = 20, cursor: paging.Cursor = None) -> ReminderList:
    """List reminders, soonest first (reminders of past events last)."""
    if event_id is not None:
        s["events"].get(event_id)
    rems = [as_reminder(s, r) for r in s["reminders"].rows()
            if event_id is None or r["event_id"] == event_id]
    rems.sort(key=lambda r: (r["remind_at"] is None, r["remind_at"] or "", r["reminder_id"]))
    pg = paging.page(rems, limit, cursor, key="reminder_id")
    return {"reminders": pg.rows, "total": len(rems), "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=False)
def delete_reminder(
        s: State,
        reminder_id: Annotated[str, Arg("Reminder id, e.g. 'rem_tdb2ag' (list_reminders)")]
        ) -> DeletedReminder:
    """Delete one reminder."""
    s["reminders"].delete(reminder_id)
    return {"reminder_id": reminder_id, "deleted": True}
