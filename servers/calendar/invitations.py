"""Invitations from others: list them and accept, tentatively accept or decline."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal, TypedDict

from servers.calendar.common import DOMAIN, drop_reminders, find_conflicts
from servers.core import clock, paging
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State

Response = Literal["accepted", "declined", "tentative"]
InvitationStatus = Literal["pending", "accepted", "declined", "tentative"]


class Invitation(TypedDict):
    invitation_id: str
    title: str
    start: str
    end: str
    location: str | None
    description: str
    organizer: str
    organizer_name: str
    attendees: list[str]
    status: str
    received_at: str
    event_id: str | None


class InvitationList(TypedDict):
    invitations: list[Invitation]
    total: int
    next_cursor: str | None


class RespondOut(TypedDict):
    invitation: Invitation
    event_id: str | None
    conflicts: list[str]


@DOMAIN.tool(read_only=True)
def list_invitations(
        s: State,
        status: Annotated[InvitationStatus | None, Arg("Only invitations with this response "
                                                       "status")] = None,
        include_past: Annotated[bool, Arg("Also list invitations to events already over")
                                ] = False,
        limit: paging.Limit = 20, cursor: paging.Cursor = None) -> InvitationList:
    """List meeting invitations the user received from others, soonest first."""
    rows = [r for r in s["invitations"].rows()
            if (status is None or r["status"] == status)
            and (include_past or dt.datetime.fromisoformat(r["end"]) > clock.now(s))]
    rows.sort(key=lambda r: (r["start"], r["invitation_id"]))
    pg = paging.page(rows, limit, cursor, key="invitation_id")
    return {"invitations": pg.rows, "total": len(rows), "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=False)
def respond_to_invitation(
        s: State,
        invitation_id: Annotated[str, Arg("Invitation id, e.g. 'inv_ck6zgx' (list_invitations)")],
        response: Annotated[Response, Arg("accepted or tentative puts the event on the "
                                          "calendar; declined removes it")],
        calendar_id: Annotated[str | None, Arg(
            "Calendar to put the event in when accepting (default: cal_work)")] = None
        ) -> RespondOut:
    """Accept, tentatively accept or decline an invitation."""
    inv = s["invitations"].get(invitation_id)
    if calendar_id is not None:
        s["calendars"].get(calendar_id)
        if response == "declined":
            raise ToolError("calendar_id only applies when accepting; leave it out to decline")
    if dt.datetime.fromisoformat(inv["end"]) <= clock.now(s):
        raise ToolError(f"invitation {invitation_id} is for '{inv['title']}' on "
                        f"{inv['start'][:10]}, which is already over")
    if inv["status"] == response:
        raise ToolError(f"invitation {invitation_id} is already {response}")
    a, b = dt.datetime.fromisoformat(inv["start"]), dt.datetime.fromisoformat(inv["end"])
    event_id = inv["event_id"]
    conflicts: list[str] = []
    if response == "declined":
        if event_id is not None:
            s["events"].delete(event_id)
            drop_reminders(s, event_id)
        event_id = None
    else:
        conflicts = [r["event_id"] for r in find_conflicts(s, a, b, event_id)]
        status = "confirmed" if response == "accepted" else "tentative"
        if event_id is None:
            event_id = s["events"].insert({
                "event_id": s.next_id("evt"), "calendar_id": calendar_id or "cal_work",
                "title": inv["title"], "start": inv["start"], "end": inv["end"],
                "location": inv["location"], "description": inv["description"],
                "attendees": inv["attendees"], "organizer": inv["organizer"],
                "status": status, "recurrence": "none", "recurrence_until": None,
                "invitation_id": invitation_id})["event_id"]
        else:
            cal = calendar_id or s["events"].get(event_id)["calendar_id"]
            s["events"].update(event_id, status=status, calendar_id=cal)
    inv = s["invitations"].update(invitation_id, status=response, event_id=event_id)
    return {"invitation": inv, "event_id": event_id,
            "conflicts": conflicts}
