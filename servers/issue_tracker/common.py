"""issue_tracker: the domain object, argument types and helpers shared by the tool modules."""

from __future__ import annotations

import re
from typing import Annotated, Literal

from servers.core.clock import tick
from servers.core.domain import Domain
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State
from servers.issue_tracker.data import POINTS, TRANSITIONS, UNRESOLVED, build
from servers.issue_tracker.models import Issue, IssueSummary, Link, Sprint, User

DOMAIN = Domain("issue_tracker", "A team issue tracker: projects, issues through a workflow, "
                "assignees, comments, issue links, watchers, time logging and sprints.", build)
# fields stamped from the session clock: left out of clock-free state comparisons
DOMAIN.clock_fields = {"issues": ("created_at", "updated_at"), "comments": ("created_at",),
                        "worklogs": ("created_at",), "links": ("created_at",)}

Status = Literal["open", "in_progress", "in_review", "resolved", "closed"]
IssueType = Literal["bug", "task", "story", "epic"]
Priority = Literal["highest", "high", "medium", "low", "lowest"]
Resolution = Literal["fixed", "done", "wont_fix", "duplicate", "cannot_reproduce"]

DATE = r"\d{4}-\d{2}-\d{2}"
IssueId = Annotated[str, Arg("Issue key, e.g. 'WEB-3' (from search_issues)")]
ProjectId = Annotated[str, Arg("Project key, e.g. 'WEB' (from list_projects)")]
SprintId = Annotated[str, Arg("Sprint id, e.g. 'spr_gqcsyp' (from list_sprints)")]
_LABEL = re.compile(r"[a-z0-9][a-z0-9-]{0,29}")


def now(s: State) -> str:
    return tick(s)


def check_points(points: int, kind: str) -> int:
    if kind == "epic":
        raise ToolError("epics are sized by their child issues and take no story_points")
    if points not in POINTS:
        raise ToolError(f"story_points must be on the Fibonacci scale "
                        f"{', '.join(map(str, POINTS))}; got {points}")
    return points


def labels_of(labels: list[str], arg: str) -> list[str]:
    """Normalized labels (lower case, no duplicates, input order kept)."""
    out: list[str] = []
    for raw in labels:
        label = raw.strip().lower().replace(" ", "-")
        if not _LABEL.fullmatch(label):
            raise ToolError(f"{arg}: label {raw!r} is not valid; use 1-30 letters, digits "
                            "or dashes, e.g. 'customer-reported'")
        if label not in out:
            out.append(label)
    return out


def clean(value: str, arg: str) -> str:
    """The text without surrounding whitespace; blank text is an error."""
    value = value.strip()
    if not value:
        raise ToolError(f"{arg} must not be blank")
    return value


def issue_order(issue_id: str) -> tuple[str, int]:
    """Sort key that puts WEB-9 before WEB-10."""
    key, _, num = issue_id.partition("-")
    return key, int(num) if num.isdigit() else 0


def user_name(s: State, user_id: str | None) -> str | None:
    return None if user_id is None else s["users"].get(user_id)["name"]


def check_member(s: State, project_id: str, user_id: str) -> Row:
    """The user, if they belong to the project (only members can be assigned its issues)."""
    user = s["users"].get(user_id)
    project = s["projects"].get(project_id)
    if user_id not in project["member_ids"]:
        raise ToolError(f"{user['name']} ({user_id}) is not a member of project {project_id}; "
                        f"use list_users with project_id='{project_id}' to see its members")
    return user


def editable(issue: Row) -> None:
    if issue["status"] == "closed":
        raise ToolError(f"issue {issue['issue_id']} is closed and read-only; reopen it with "
                        "transition_issue status='open' first")


def touch(s: State, issue_id: str, **changes: object) -> Row:
    return s["issues"].update(issue_id, **changes, updated_at=now(s))


def add_watcher_id(s: State, issue_id: str, user_id: str) -> None:
    watchers = s["issues"].get(issue_id)["watcher_ids"]
    if user_id not in watchers:
        s["issues"].update(issue_id, watcher_ids=[*watchers, user_id])


# ----------------------------------------------------------------------------- outputs
def user_out(row: Row) -> User:
    return {**row}


def summary_out(s: State, row: Row) -> IssueSummary:
    return {k: row[k] for k in ("issue_id", "project_id", "title", "type", "priority",
                                "status", "resolution", "assignee_id", "sprint_id",
                                "story_points", "due_date", "labels", "updated_at")
            } | {"assignee_name": user_name(s, row["assignee_id"])}


def time_spent(s: State, issue_id: str) -> int:
    return sum(w["minutes"] for w in s["worklogs"].rows(lambda w: w["issue_id"] == issue_id))


def issue_out(s: State, row: Row) -> Issue:
    sprint = s["sprints"].find(row["sprint_id"] or "")
    return {**row, "allowed_transitions": list(TRANSITIONS[row["status"]]),
            "assignee_name": user_name(s, row["assignee_id"]),
            "reporter_name": user_name(s, row["reporter_id"]),
            "sprint_name": sprint["name"] if sprint else None,
            "watcher_ids": list(row["watcher_ids"]),
            "comment_count": len(s["comments"].rows(lambda c: c["issue_id"] == row["issue_id"])),
            "time_spent_minutes": time_spent(s, row["issue_id"])}


def link_out(row: Row) -> Link:
    verb = {"blocks": "blocks", "duplicates": "duplicates", "relates_to": "relates to"}
    return {**row, "summary": f"{row['source_issue_id']} {verb[row['link_type']]} "
                              f"{row['target_issue_id']}"}


def sprint_out(s: State, row: Row) -> Sprint:
    issues = s["issues"].rows(lambda i: i["sprint_id"] == row["sprint_id"])
    done = [i for i in issues if i["status"] not in UNRESOLVED]
    return {**row, "issue_count": len(issues), "open_issue_count": len(issues) - len(done),
            "committed_points": sum(i["story_points"] or 0 for i in issues),
            "completed_points": sum(i["story_points"] or 0 for i in done)}
