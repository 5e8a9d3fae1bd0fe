"""issue_tracker tools: projects, users and sprint planning."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from servers.core import paging
from servers.core.clock import parse_date
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State
from servers.issue_tracker.common import (
    DATE,
    DOMAIN,
    IssueId,
    ProjectId,
    SprintId,
    editable,
    issue_order,
    issue_out,
    sprint_out,
    summary_out,
    touch,
    user_out,
)
from servers.issue_tracker.data import PRIORITIES, TODAY, TRANSITIONS, UNRESOLVED
from servers.issue_tracker.models import (
    Issue,
    Project,
    ProjectDetail,
    ProjectList,
    Sprint,
    SprintCompleted,
    SprintDetail,
    SprintList,
    UserList,
)

SprintState = Literal["closed", "active", "future"]


def _project_out(s: State, row: Row) -> Project:
    active = s["sprints"].rows(lambda sp: sp["project_id"] == row["project_id"]
                               and sp["state"] == "active")
    return {k: v for k, v in row.items() if k != "member_ids"} | {
        "lead_name": s["users"].get(row["lead_id"])["name"],
        "member_count": len(row["member_ids"]),
        "open_issue_count": len(s["issues"].rows(
            lambda i: i["project_id"] == row["project_id"] and i["status"] in UNRESOLVED)),
        "active_sprint_id": active[0]["sprint_id"] if active else None}


def _sprints_of(s: State, project_id: str) -> list[Row]:
    return sorted(s["sprints"].rows(lambda sp: sp["project_id"] == project_id),
                  key=lambda sp: (sp["start_date"], sp["sprint_id"]))


@DOMAIN.tool(read_only=True)
def list_projects(s: State) -> ProjectList:
    """List the projects you can see, with their lead, open issue count and active sprint."""
    rows = [_project_out(s, p) for p in s["projects"].rows()]
    return {"projects": rows, "total": len(rows)}


@DOMAIN.tool(read_only=True)
def get_project(s: State, project_id: ProjectId) -> ProjectDetail:
    """Get a project with its members, issue counts per status and its sprints."""
    project = s["projects"].get(project_id)
    issues = s["issues"].rows(lambda i: i["project_id"] == project_id)
    counts = [{"status": st, "count": sum(1 for i in issues if i["status"] == st)}
              for st in TRANSITIONS]
    return {"project": _project_out(s, project),
            "members": [user_out(s["users"].get(u)) for u in project["member_ids"]],
            "status_counts": counts,
            "sprints": [sprint_out(s, sp) for sp in _sprints_of(s, project_id)]}


@DOMAIN.tool(read_only=True)
def list_users(
        s: State,
        query: Annotated[str | None, Arg("Part of a name, username or email, e.g. 'hiro'",
                                         min_length=1, max_length=100)] = None,
        project_id: Annotated[str | None, Arg("Only members of this project (those who can be "
                                              "assigned its issues)")] = None,
        limit: paging.Limit = 20, cursor: paging.Cursor = None) -> UserList:
    """Find users (people) by name, username or email; user ids are person ids."""
    members = s["projects"].get(project_id)["member_ids"] if project_id is not None else None
    words = query.lower().split() if query else []
    rows = [u for u in s["users"].rows()
            if all(w in f"{u['name']} {u['username']} {u['email']}".lower() for w in words)
            and (members is None or u["user_id"] in members)]
    rows.sort(key=lambda u: u["name"])
    pg = paging.page(rows, limit, cursor, key="user_id")
    return {"users": [user_out(u) for u in pg.rows], "total": len(rows),
            "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=True)
def list_sprints(
        s: State,
        project_id: Annotated[str | None, Arg("Only sprints of this project (key, e.g. "
                                              "'WEB')")] = None,
        state: Annotated[SprintState | None, Arg("Only sprints in this state")] = None,
) -> SprintList:
    """List sprints (closed, active, future) with their dates and story-point progress."""
    if project_id is not None:
        s["projects"].get(project_id)
    rows = sorted(s["sprints"].rows(lambda sp: (project_id is None
                                                or sp["project_id"] == project_id)
                                    and (state is None or sp["state"] == state)),
                  key=lambda sp: (sp["project_id"], sp["start_date"], sp["sprint_id"]))
    return {"sprints": [sprint_out(s, sp) for sp in rows], "total": len(rows)}


@DOMAIN.tool(read_only=True)
def get_sprint(s: State, sprint_id: SprintId) -> SprintDetail:
    """Get a sprint and its issues (highest priority first)."""
    sprint = s["sprints"].get(sprint_id)
    issues = sorted(s["issues"].rows(lambda i: i["sprint_id"] == sprint_id),
                    key=lambda i: (PRIORITIES.index(i["priority"]), issue_order(i["issue_id"])))
    return {"sprint": sprint_out(s, sprint), "issues": [summary_out(s, i) for i in issues]}


@DOMAIN.tool(read_only=False)
def move_issue_to_sprint(
        s: State, issue_id: IssueId,
        sprint_id: Annotated[str | None, Arg(
            "Active or future sprint of the issue's project (from list_sprints); leave out "
            "to move the issue to the backlog")] = None) -> Issue:
    """Plan an unresolved issue into a sprint of its project, or move it back to the
    backlog."""
    issue = s["issues"].get(issue_id)
    sprint = s["sprints"].get(sprint_id) if sprint_id is not None else None
    editable(issue)
    if issue["status"] not in UNRESOLVED:
        raise ToolError(f"{issue_id} is {issue['status']}; only unresolved issues can be "
                        "planned (reopen it first)")
    if sprint_id == issue["sprint_id"]:
        where = f"sprint {sprint_id}" if sprint_id else "the backlog"
        raise ToolError(f"{issue_id} is already in {where}")
    if sprint is not None:
        if sprint["project_id"] != issue["project_id"]:
            raise ToolError(f"sprint {sprint_id} belongs to project {sprint['project_id']}, "
                            f"but {issue_id} is in {issue['project_id']}; use list_sprints "
                            f"with project_id='{issue['project_id']}'")
        if sprint["state"] == "closed":
            raise ToolError(f"sprint {sprint_id} ({sprint['name']}) is closed; pick the "
                            "active or a future sprint")
        if issue["type"] == "epic":
            raise ToolError("epics span sprints and cannot be put in one; plan their child "
                            "issues instead")
    return issue_out(s, touch(s, issue_id, sprint_id=sprint_id))


@DOMAIN.tool(read_only=False, requires=("complete_sprint",))
def start_sprint(
        s: State, sprint_id: SprintId,
        end_date: Annotated[str | None, Arg("Last day (YYYY-MM-DD), 1 to 28 days from today; "
                                            "default: two weeks", pattern=DATE)] = None,
        goal: Annotated[str | None, Arg("Sprint goal (replaces the planned one)",
                                        min_length=3, max_length=200)] = None) -> Sprint:
    """Start a future sprint today. A project has one active sprint at a time, so complete
    the current one (complete_sprint) first."""
    sprint = s["sprints"].get(sprint_id)
    if sprint["state"] != "future":
        raise ToolError(f"sprint {sprint_id} ({sprint['name']}) is {sprint['state']}; only "
                        "future sprints can be started")
    active = s["sprints"].rows(lambda sp: sp["project_id"] == sprint["project_id"]
                               and sp["state"] == "active")
    if active:
        raise ToolError(f"project {sprint['project_id']} already has an active sprint "
                        f"{active[0]['sprint_id']} ({active[0]['name']}); finish it with "
                        "complete_sprint first")
    end = (parse_date(end_date, "end_date") if end_date
           else TODAY + dt.timedelta(days=13))
    if not TODAY < end <= TODAY + dt.timedelta(days=28):
        raise ToolError(f"end_date {end.isoformat()} must be 1 to 28 days after today "
                        f"({TODAY.isoformat()})")
    changes = {"state": "active", "start_date": TODAY.isoformat(), "end_date": end.isoformat()}
    if goal is not None:
        changes["goal"] = goal.strip()
    return sprint_out(s, s["sprints"].update(sprint_id, **changes))


@DOMAIN.tool(read_only=False)
def complete_sprint(
        s: State, sprint_id: SprintId,
        move_open_issues_to_sprint_id: Annotated[str | None, Arg(
            "A future sprint of the same project to carry unfinished issues into; default: "
            "the backlog")] = None) -> SprintCompleted:
    """Close the active sprint; its unresolved issues move to the given future sprint or to
    the backlog."""
    sprint = s["sprints"].get(sprint_id)
    target = (s["sprints"].get(move_open_issues_to_sprint_id)
              if move_open_issues_to_sprint_id is not None else None)
    if sprint["state"] != "active":
        raise ToolError(f"sprint {sprint_id} ({sprint['name']}) is {sprint['state']}; only "
                        "the active sprint can be completed")
    if target is not None and (target["project_id"] != sprint["project_id"]
                               or target["state"] != "future"):
        raise ToolError(f"unfinished issues can only move to a future sprint of project "
                        f"{sprint['project_id']}; {target['sprint_id']} is a {target['state']} "
                        f"sprint of {target['project_id']}")
    done, moved = [], []
    for issue in sorted(s["issues"].rows(lambda i: i["sprint_id"] == sprint_id),
                        key=lambda i: issue_order(i["issue_id"])):
        if issue["status"] in UNRESOLVED:
            touch(s, issue["issue_id"], sprint_id=move_open_issues_to_sprint_id)
            moved.append(issue["issue_id"])
        else:
            done.append(issue["issue_id"])
    end = min(TODAY.isoformat(), sprint["end_date"])
    row = s["sprints"].update(sprint_id, state="closed", end_date=end)
    return {"sprint": sprint_out(s, row), "completed_issue_ids": done,
            "moved_issue_ids": moved, "moved_to_sprint_id": move_open_issues_to_sprint_id}
