"""issue_tracker tools: finding, creating, editing, transitioning and assigning issues."""

from __future__ import annotations

from typing import Annotated, Literal

from servers.core import paging
from servers.core.clock import future_date, parse_date
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State
from servers.issue_tracker.common import (
    DATE,
    DOMAIN,
    IssueId,
    IssueType,
    Priority,
    ProjectId,
    Resolution,
    Status,
    add_watcher_id,
    check_member,
    check_points,
    clean,
    editable,
    issue_order,
    issue_out,
    labels_of,
    now,
    summary_out,
    touch,
    user_name,
)
from servers.issue_tracker.data import PRIORITIES, TRANSITIONS, UNRESOLVED
from servers.issue_tracker.models import Issue, IssueDetail, IssueList

StatusFilter = Literal["open", "in_progress", "in_review", "resolved", "closed", "unresolved"]


def _check_sprint(s: State, project_id: str, sprint_id: str, kind: str) -> Row:
    sprint = s["sprints"].get(sprint_id)
    if sprint["project_id"] != project_id:
        raise ToolError(f"sprint {sprint_id} ({sprint['name']}) belongs to project "
                        f"{sprint['project_id']}, not {project_id}; use list_sprints with "
                        f"project_id='{project_id}'")
    if sprint["state"] == "closed":
        raise ToolError(f"sprint {sprint_id} ({sprint['name']}) is closed; pick the active or "
                        "a future sprint from list_sprints")
    if kind == "epic":
        raise ToolError("epics span sprints and cannot be put in one; plan their child "
                        "issues instead")
    return sprint


@DOMAIN.tool(read_only=True)
def search_issues(
        s: State,
        query: Annotated[str | None, Arg("Words to match in the issue key, title or "
                                         "description, e.g. 'checkout crash'", min_length=1,
                                         max_length=200)] = None,
        project_id: Annotated[str | None, Arg("Only issues of this project (key, e.g. 'WEB')"
                                              )] = None,
        status: Annotated[StatusFilter | None, Arg(
            "Only this status; 'unresolved' = open, in_progress or in_review")] = None,
        type: Annotated[IssueType | None, Arg("Only this issue type")] = None,
        priority: Annotated[Priority | None, Arg("Only this priority")] = None,
        assignee_id: Annotated[str | None, Arg("Only issues assigned to this user (person id "
                                               "from list_users)")] = None,
        unassigned_only: Annotated[bool, Arg("Only issues nobody is assigned to")] = False,
        reporter_id: Annotated[str | None, Arg("Only issues reported by this user")] = None,
        label: Annotated[str | None, Arg("Only issues with this label", min_length=1,
                                         max_length=30)] = None,
        sprint_id: Annotated[str | None, Arg("Only issues in this sprint")] = None,
        due_before: Annotated[str | None, Arg("Only issues due on or before this date "
                                              "(YYYY-MM-DD)", pattern=DATE)] = None,
        sort: Annotated[Literal["updated", "created", "priority", "due_date"], Arg(
            "Order: most recently updated/created first, highest priority first, or "
            "earliest due date first")] = "updated",
        limit: paging.Limit = 20, cursor: paging.Cursor = None) -> IssueList:
    """Search and filter issues across projects."""
    if project_id is not None:
        s["projects"].get(project_id)
    for uid in (assignee_id, reporter_id):
        if uid is not None:
            s["users"].get(uid)
    if sprint_id is not None:
        s["sprints"].get(sprint_id)
    if assignee_id is not None and unassigned_only:
        raise ToolError("assignee_id and unassigned_only=true contradict each other; pass one")
    until = parse_date(due_before, "due_before").isoformat() if due_before else None
    words = query.lower().split() if query else []
    lab = label.strip().lower() if label else None

    def hit(i: Row) -> bool:
        hay = f"{i['issue_id']} {i['title']} {i['description']}".lower()
        return (all(w in hay for w in words)
                and (project_id is None or i["project_id"] == project_id)
                and (status is None or i["status"] == status
                     or (status == "unresolved" and i["status"] in UNRESOLVED))
                and (type is None or i["type"] == type)
                and (priority is None or i["priority"] == priority)
                and (assignee_id is None or i["assignee_id"] == assignee_id)
                and (not unassigned_only or i["assignee_id"] is None)
                and (reporter_id is None or i["reporter_id"] == reporter_id)
                and (lab is None or lab in i["labels"])
                and (sprint_id is None or i["sprint_id"] == sprint_id)
                and (until is None or (i["due_date"] is not None and i["due_date"] <= until)))

    rows = s["issues"].rows(hit)
    if sort == "priority":
        rows.sort(key=lambda i: (PRIORITIES.index(i["priority"]), issue_order(i["issue_id"])))
    elif sort == "due_date":
        rows.sort(key=lambda i: (i["due_date"] is None, i["due_date"] or "",
                                 issue_order(i["issue_id"])))
    else:
        field = "updated_at" if sort == "updated" else "created_at"
        rows.sort(key=lambda i: (i[field], issue_order(i["issue_id"])), reverse=True)
    pg = paging.page(rows, limit, cursor, key="issue_id")
    return {"issues": [summary_out(s, i) for i in pg.rows], "total": len(rows),
            "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=True)
def get_issue(s: State, issue_id: IssueId) -> IssueDetail:
    """Get one issue with its comments, links to other issues, and work logs."""
    issue = s["issues"].get(issue_id)
    comments = sorted(s["comments"].rows(lambda c: c["issue_id"] == issue_id),
                      key=lambda c: (c["created_at"], c["comment_id"]))
    links = []
    for row in s["links"].rows(lambda r: issue_id in (r["source_issue_id"],
                                                      r["target_issue_id"])):
        outgoing = row["source_issue_id"] == issue_id
        relation = {"blocks": ("blocks", "is blocked by"),
                    "duplicates": ("duplicates", "is duplicated by"),
                    "relates_to": ("relates to", "relates to")}[row["link_type"]]
        other = s["issues"].get(row["target_issue_id" if outgoing else "source_issue_id"])
        links.append({"link_id": row["link_id"], "relation": relation[0 if outgoing else 1],
                      "issue_id": other["issue_id"], "title": other["title"],
                      "status": other["status"]})
    worklogs = sorted(s["worklogs"].rows(lambda w: w["issue_id"] == issue_id),
                      key=lambda w: (w["work_date"], w["worklog_id"]))
    return {"issue": issue_out(s, issue),
            "comments": [{**c, "author_name": user_name(s, c["author_id"])} for c in comments],
            "links": links,
            "worklogs": [{**w, "author_name": user_name(s, w["author_id"])} for w in worklogs]}


@DOMAIN.tool(read_only=False)
def create_issue(
        s: State, project_id: ProjectId,
        title: Annotated[str, Arg("One-line summary", min_length=5, max_length=150)],
        type: Annotated[IssueType, Arg("Issue type")],
        priority: Annotated[Priority, Arg("Priority")] = "medium",
        description: Annotated[str, Arg("Details: steps to reproduce, acceptance criteria",
                                        max_length=5000)] = "",
        assignee_id: Annotated[str | None, Arg("Project member to assign (person id from "
                                               "list_users); default: unassigned")] = None,
        labels: Annotated[list[str] | None, Arg(
            "Labels, e.g. ['regression', 'customer-reported']", max_length=10)] = None,
        due_date: Annotated[str | None, Arg("Due date (YYYY-MM-DD), today or later",
                                            pattern=DATE)] = None,
        story_points: Annotated[int | None, Arg("Estimate on the Fibonacci scale (0, 1, 2, "
                                                "3, 5, 8, 13, 21)", minimum=0,
                                                maximum=21)] = None,
        sprint_id: Annotated[str | None, Arg("Put it straight into this (active or future) "
                                             "sprint of the project; default: backlog"
                                             )] = None) -> Issue:
    """Create an issue in a project; you are the reporter and first watcher. It starts
    'open'."""
    project = s["projects"].get(project_id)
    title = clean(title, "title")
    if assignee_id is not None:
        check_member(s, project_id, assignee_id)
    if sprint_id is not None:
        _check_sprint(s, project_id, sprint_id, type)
    if story_points is not None:
        check_points(story_points, type)
    due = future_date(due_date, "due_date") if due_date else None
    tags = labels_of(labels or [], "labels")
    for other in s["issues"].rows(lambda i: i["project_id"] == project_id
                                  and i["status"] in UNRESOLVED):
        if other["title"].lower() == title.lower():
            raise ToolError(f"{other['issue_id']} already tracks {other['title']!r} in "
                            f"{project['name']}; comment on it instead of filing a duplicate")
    n = s.var(f"__seq_issue_{project_id}", 0) + 1
    s.set_var(f"__seq_issue_{project_id}", n)
    me = s.var("user_id")
    when = now(s)
    watchers = [me] if assignee_id in (None, me) else [me, assignee_id]
    row = s["issues"].insert({
        "issue_id": f"{project_id}-{n}", "project_id": project_id, "title": title,
        "description": description, "type": type, "priority": priority, "status": "open",
        "resolution": None, "assignee_id": assignee_id, "reporter_id": me, "labels": tags,
        "due_date": due, "story_points": story_points, "sprint_id": sprint_id,
        "watcher_ids": watchers, "created_at": when, "updated_at": when})
    return issue_out(s, row)


@DOMAIN.tool(read_only=False)
def update_issue(
        s: State, issue_id: IssueId,
        title: Annotated[str | None, Arg("New summary", min_length=5, max_length=150)] = None,
        description: Annotated[str | None, Arg("New description (replaces the old one)",
                                               max_length=5000)] = None,
        type: Annotated[IssueType | None, Arg("New issue type")] = None,
        priority: Annotated[Priority | None, Arg("New priority")] = None,
        due_date: Annotated[str | None, Arg("New due date (YYYY-MM-DD), today or later",
                                            pattern=DATE)] = None,
        story_points: Annotated[int | None, Arg("New estimate (0, 1, 2, 3, 5, 8, 13, 21)",
                                                minimum=0, maximum=21)] = None,
        add_labels: Annotated[list[str] | None, Arg("Labels to add", max_length=10)] = None,
        remove_labels: Annotated[list[str] | None, Arg("Labels to remove (must be on the "
                                                       "issue)", max_length=10)] = None,
) -> Issue:
    """Edit an issue's fields and labels (use transition_issue for status, assign_issue for
    the assignee, move_issue_to_sprint for the sprint)."""
    issue = s["issues"].get(issue_id)
    editable(issue)
    changes: dict = {k: v for k, v in (("title", title and clean(title, "title")),
                                       ("description", description), ("type", type),
                                       ("priority", priority)) if v is not None}
    kind = type or issue["type"]
    if kind == "epic" and issue["sprint_id"] is not None:
        raise ToolError(f"{issue_id} is in sprint {issue['sprint_id']}; epics cannot be in a "
                        "sprint, move it to the backlog first (move_issue_to_sprint)")
    if story_points is not None:
        changes["story_points"] = check_points(story_points, kind)
    elif kind == "epic" and issue["story_points"] is not None:
        changes["story_points"] = None
    if due_date is not None:
        changes["due_date"] = future_date(due_date, "due_date")
    if add_labels or remove_labels:
        labels = list(issue["labels"])
        for label in labels_of(remove_labels or [], "remove_labels"):
            if label not in labels:
                raise ToolError(f"{issue_id} has no label {label!r}; its labels: "
                                f"{', '.join(labels) or '(none)'}")
            labels.remove(label)
        for label in labels_of(add_labels or [], "add_labels"):
            if label not in labels:
                labels.append(label)
        if len(labels) > 10:
            raise ToolError("an issue can carry at most 10 labels")
        changes["labels"] = labels
    if not changes:
        raise ToolError("nothing to update; pass at least one of title, description, type, "
                        "priority, due_date, story_points, add_labels, remove_labels")
    if all(issue[k] == v for k, v in changes.items()):
        raise ToolError(f"{issue_id} already has those values; nothing changed")
    return issue_out(s, touch(s, issue_id, **changes))


def _open_blockers(s: State, issue_id: str) -> list[Row]:
    blockers = []
    for link in s["links"].rows(lambda r: r["link_type"] == "blocks"
                                and r["target_issue_id"] == issue_id):
        blocker = s["issues"].get(link["source_issue_id"])
        if blocker["status"] in UNRESOLVED:
            blockers.append(blocker)
    return blockers


@DOMAIN.tool(read_only=False)
def transition_issue(
        s: State, issue_id: IssueId,
        status: Annotated[Status, Arg("Target status; must be in the issue's "
                                      "allowed_transitions (see get_issue)")],
        resolution: Annotated[Resolution | None, Arg(
            "Required when resolving or closing an unresolved issue; 'fixed'/'done' need "
            "every blocking issue resolved, 'duplicate' needs a 'duplicates' link")] = None,
        comment: Annotated[str | None, Arg("Optional comment to add with the change",
                                           min_length=1, max_length=5000)] = None) -> Issue:
    """Move an issue through the workflow: open -> in_progress -> in_review -> resolved ->
    closed (plus stop progress, send back from review, resolve/close directly, and reopen)."""
    issue = s["issues"].get(issue_id)
    current = issue["status"]
    if status == current:
        raise ToolError(f"{issue_id} is already {status}")
    if status not in TRANSITIONS[current]:
        raise ToolError(f"{issue_id} cannot go from {current} to {status}; allowed: "
                        f"{', '.join(TRANSITIONS[current])}")
    changes: dict = {"status": status}
    if status in UNRESOLVED:
        if resolution is not None:
            raise ToolError(f"resolution is only for resolved or closed, not {status}; leave "
                            "it out")
        changes["resolution"] = None
        if status == "in_progress" and issue["assignee_id"] is None:
            raise ToolError(f"{issue_id} has no assignee; assign it with assign_issue before "
                            "starting progress")
    else:
        if resolution is None and current in UNRESOLVED:
            raise ToolError(f"moving {issue_id} to {status} needs a resolution (fixed, done, "
                            "wont_fix, duplicate or cannot_reproduce)")
        final = resolution or issue["resolution"]
        if final in ("fixed", "done"):
            blockers = _open_blockers(s, issue_id)
            if blockers:
                listed = ", ".join(f"{b['issue_id']} ({b['status']})" for b in blockers)
                raise ToolError(f"{issue_id} is blocked by unresolved {listed}; resolve the "
                                "blockers first, or remove the link with remove_issue_link")
        if final == "duplicate" and not s["links"].rows(
                lambda r: r["link_type"] == "duplicates" and r["source_issue_id"] == issue_id):
            raise ToolError(f"to resolve {issue_id} as a duplicate, first link it to the "
                            "original with link_issues link_type='duplicates'")
        changes["resolution"] = final
    row = touch(s, issue_id, **changes)
    if comment is not None:
        s["comments"].insert({"comment_id": s.next_id("cmt"), "issue_id": issue_id,
                              "author_id": s.var("user_id"), "body": comment,
                              "created_at": row["updated_at"]})
    return issue_out(s, row)


@DOMAIN.tool(read_only=False)
def assign_issue(
        s: State, issue_id: IssueId,
        assignee_id: Annotated[str | None, Arg(
            "Project member to assign (person id from list_users); leave out to unassign"
        )] = None) -> Issue:
    """Assign an issue to a project member (who then watches it), or unassign it."""
    issue = s["issues"].get(issue_id)
    if assignee_id is not None:
        check_member(s, issue["project_id"], assignee_id)
    editable(issue)
    if assignee_id == issue["assignee_id"]:
        who = user_name(s, assignee_id) if assignee_id else "nobody"
        raise ToolError(f"{issue_id} is already assigned to {who}")
    if assignee_id is None and issue["status"] in ("in_progress", "in_review"):
        raise ToolError(f"{issue_id} is {issue['status']} and needs an assignee; reassign it "
                        "to someone else, or move it back to open first")
    touch(s, issue_id, assignee_id=assignee_id)
    if assignee_id is not None:
        add_watcher_id(s, issue_id, assignee_id)
    return issue_out(s, s["issues"].get(issue_id))

