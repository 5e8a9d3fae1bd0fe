"""crm tools: logged activities (calls, meetings, emails, notes) and follow-up tasks."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from servers.core import clock, paging
from servers.core.clock import future_date, parse_date
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State
from servers.crm.common import (
    DATE,
    DOMAIN,
    ActivityKind,
    Priority,
    TaskId,
    activity_out,
    check_contact_in_account,
    clean,
    now,
    rep,
    task_out,
)
from servers.crm.data import TODAY
from servers.crm.models import Activity, Task, TaskList


def _link(s: State, contact_id: str | None, deal_id: str | None) -> Row | None:
    """Check the contact/deal pair a record is attached to; returns the deal row."""
    deal = s["deals"].get(deal_id) if deal_id is not None else None
    if contact_id is not None:
        if deal is not None:
            check_contact_in_account(s, contact_id, deal["account_id"])
        else:
            s["contacts"].get(contact_id)
    return deal


@DOMAIN.tool(read_only=False)
def log_activity(
        s: State,
        kind: Annotated[ActivityKind, Arg("What happened: a call, a meeting, an email or an "
                                          "internal note")],
        subject: Annotated[str, Arg("Short subject, e.g. 'Pricing follow-up call'",
                                    min_length=3, max_length=120)],
        contact_id: Annotated[str | None, Arg("The person it was with (person id from "
                                              "search_contacts)")] = None,
        deal_id: Annotated[str | None, Arg("The deal it concerns (from list_deals)")] = None,
        body: Annotated[str, Arg("Details / minutes", max_length=2000)] = "",
        duration_minutes: Annotated[int | None, Arg(
            "Length of a call or meeting in minutes", minimum=1, maximum=480)] = None,
        outcome: Annotated[Literal["connected", "left_voicemail", "no_answer"] | None, Arg(
            "Result of a call (calls only)")] = None,
        occurred_on: Annotated[str | None, Arg(
            "Date it happened (YYYY-MM-DD, not in the future; default: now)",
            pattern=DATE)] = None) -> Activity:
    """Log a call, meeting, email or note against a contact and/or a deal (at least one).
    Calls, meetings and emails update the contact's last_contacted_at."""
    deal = _link(s, contact_id, deal_id)
    if contact_id is None and deal is None:
        raise ToolError("an activity must be attached to a contact_id, a deal_id or both; "
                        "find them with search_contacts or list_deals")
    if duration_minutes is not None and kind not in ("call", "meeting"):
        raise ToolError(f"duration_minutes is only for calls and meetings, not a {kind}")
    if outcome is not None and kind != "call":
        raise ToolError(f"outcome is only for calls, not a {kind}")
    subject = clean(subject, "subject")
    day = parse_date(occurred_on, "occurred_on") if occurred_on is not None else TODAY
    if day > TODAY:
        raise ToolError(f"occurred_on {occurred_on} is in the future (today is "
                        f"{TODAY.isoformat()}); log activities after they happen and use "
                        "create_task for planned follow-ups")
    # a past day's activity is logged at its local noon, with the zone's offset
    when = now(s) if day == TODAY else clock.stamp(clock.local(day, dt.time(12), clock.zone(s)))
    row = s["activities"].insert({
        "activity_id": s.next_id("act"), "kind": kind, "subject": subject,
        "body": body, "contact_id": contact_id, "deal_id": deal_id,
        "logged_by_id": s.var("user_id"), "occurred_at": when,
        "duration_minutes": duration_minutes, "outcome": outcome})
    if contact_id is not None and kind != "note":
        last = s["contacts"].get(contact_id)["last_contacted_at"]
        if last is None or when > last:
            s["contacts"].update(contact_id, last_contacted_at=when)
    return activity_out(s, row)


@DOMAIN.tool(read_only=False)
def create_task(
        s: State,
        title: Annotated[str, Arg("What to do, e.g. 'Send revised proposal to Hiro'",
                                  min_length=3, max_length=120)],
        due_date: Annotated[str, Arg("Due date (YYYY-MM-DD), today or later", pattern=DATE)],
        assignee_id: Annotated[str | None, Arg("Sales rep to do it (person id; default: you)"
                                               )] = None,
        contact_id: Annotated[str | None, Arg("Related contact (person id)")] = None,
        deal_id: Annotated[str | None, Arg("Related deal")] = None,
        priority: Annotated[Priority, Arg("Priority")] = "normal",
        notes: Annotated[str, Arg("Extra details", max_length=1000)] = "") -> Task:
    """Create a follow-up task, optionally tied to a contact and/or deal, and assign it."""
    assignee = assignee_id or s.var("user_id")
    rep(s, assignee)
    _link(s, contact_id, deal_id)
    due = future_date(due_date, "due_date")
    title = clean(title, "title")
    row = s["tasks"].insert({
        "task_id": s.next_id("tsk"), "title": title, "notes": notes, "due_date": due,
        "priority": priority, "status": "open", "assignee_id": assignee,
        "contact_id": contact_id, "deal_id": deal_id, "created_at": now(s),
        "completed_at": None})
    return task_out(s, row)


@DOMAIN.tool(read_only=True)
def list_tasks(
        s: State,
        status: Annotated[Literal["open", "overdue", "completed", "all"], Arg(
            "open: not done yet; overdue: open and past due")] = "open",
        assignee_id: Annotated[str | None, Arg("Only tasks assigned to this sales rep (person "
                                               "id)")] = None,
        contact_id: Annotated[str | None, Arg("Only tasks about this contact")] = None,
        deal_id: Annotated[str | None, Arg("Only tasks about this deal")] = None,
        due_before: Annotated[str | None, Arg("Only tasks due on or before this date "
                                              "(YYYY-MM-DD)", pattern=DATE)] = None,
        limit: paging.Limit = 20, cursor: paging.Cursor = None) -> TaskList:
    """List tasks, earliest due date first."""
    if assignee_id is not None:
        rep(s, assignee_id)
    if contact_id is not None:
        s["contacts"].get(contact_id)
    if deal_id is not None:
        s["deals"].get(deal_id)
    until = parse_date(due_before, "due_before").isoformat() if due_before else None
    today = TODAY.isoformat()
    rows = [t for t in s["tasks"].rows()
            if (status == "all" or (status == "completed" and t["status"] == "completed")
                or (status == "open" and t["status"] == "open")
                or (status == "overdue" and t["status"] == "open" and t["due_date"] < today))
            and (assignee_id is None or t["assignee_id"] == assignee_id)
            and (contact_id is None or t["contact_id"] == contact_id)
            and (deal_id is None or t["deal_id"] == deal_id)
            and (until is None or t["due_date"] <= until)]
    rows.sort(key=lambda t: (t["due_date"], t["task_id"]))
    pg = paging.page(rows, limit, cursor, key="task_id")
    return {"tasks": [task_out(s, t) for t in pg.rows], "total": len(rows),
            "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=False)
def update_task(
        s: State, task_id: TaskId,
        status: Annotated[Literal["open", "completed"] | None, Arg(
            "'completed' marks it done; 'open' reopens a completed task")] = None,
        assignee_id: Annotated[str | None, Arg("Reassign to this sales rep (person id)")] = None,
        due_date: Annotated[str | None, Arg("New due date (YYYY-MM-DD), today or later",
                                            pattern=DATE)] = None,
        priority: Annotated[Priority | None, Arg("New priority")] = None,
        notes: Annotated[str | None, Arg("Replace the notes", max_length=1000)] = None) -> Task:
    """Complete, reopen, reassign or reschedule a task."""
    task = s["tasks"].get(task_id)
    if assignee_id is not None:
        rep(s, assignee_id)
    changes: dict = {k: v for k, v in (("assignee_id", assignee_id), ("priority", priority),
                                       ("notes", notes)) if v is not None}
    if due_date is not None:
        changes["due_date"] = future_date(due_date, "due_date")
    if status is None and not changes:
        raise ToolError("nothing to update; pass at least one of status, assignee_id, "
                        "due_date, priority, notes")
    if status is not None and status == task["status"]:
        raise ToolError(f"task {task_id} is already {status}")
    if task["status"] == "completed" and status != "open" and changes:
        raise ToolError(f"task {task_id} is completed; reopen it (status='open') to change it")
    if status == "completed":
        changes.update(status="completed", completed_at=now(s))
    elif status == "open":
        changes.update(status="open", completed_at=None)
    return task_out(s, s["tasks"].update(task_id, **changes))
