"""issue_tracker tools: comments, issue links, watchers and time logging."""

from __future__ import annotations

from typing import Annotated, Literal

from servers.core.clock import parse_date
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State
from servers.issue_tracker.common import (
    DATE,
    DOMAIN,
    IssueId,
    add_watcher_id,
    clean,
    editable,
    link_out,
    now,
    time_spent,
    touch,
    user_name,
    user_out,
)
from servers.issue_tracker.data import TODAY
from servers.issue_tracker.models import Comment, Link, RemovedLink, Watchers, WorklogOut

LinkType = Literal["blocks", "is_blocked_by", "duplicates", "is_duplicated_by", "relates_to"]
WatcherId = Annotated[str | None, Arg("User (person id from list_users); default: you")]


@DOMAIN.tool(read_only=False)
def add_comment(s: State, issue_id: IssueId,
                body: Annotated[str, Arg("Comment text (plain text or Markdown)", min_length=1,
                                         max_length=5000)]) -> Comment:
    """Comment on an issue as yourself; commenting also makes you a watcher."""
    s["issues"].get(issue_id)
    body = clean(body, "body")
    me = s.var("user_id")
    row = touch(s, issue_id)
    comment = s["comments"].insert({"comment_id": s.next_id("cmt"), "issue_id": issue_id,
                                    "author_id": me, "body": body,
                                    "created_at": row["updated_at"]})
    add_watcher_id(s, issue_id, me)
    return {**comment, "author_name": user_name(s, me)}


@DOMAIN.tool(read_only=False)
def link_issues(
        s: State, issue_id: IssueId,
        link_type: Annotated[LinkType, Arg(
            "How issue_id relates to target_issue_id, e.g. 'blocks' = issue_id blocks the "
            "target; 'duplicates' = issue_id is a duplicate of the target")],
        target_issue_id: Annotated[str, Arg("The other issue's key, e.g. 'API-7'")]) -> Link:
    """Link two issues (blocks / is blocked by / duplicates / is duplicated by / relates to).
    An issue cannot be resolved as fixed or done while an issue that blocks it is
    unresolved."""
    s["issues"].get(issue_id)
    s["issues"].get(target_issue_id)
    if issue_id == target_issue_id:
        raise ToolError("an issue cannot be linked to itself; pass two different issue keys")
    kind, source, target = {
        "blocks": ("blocks", issue_id, target_issue_id),
        "is_blocked_by": ("blocks", target_issue_id, issue_id),
        "duplicates": ("duplicates", issue_id, target_issue_id),
        "is_duplicated_by": ("duplicates", target_issue_id, issue_id),
        "relates_to": ("relates_to", issue_id, target_issue_id)}[link_type]
    for row in s["links"].rows(lambda r: {r["source_issue_id"], r["target_issue_id"]}
                               == {issue_id, target_issue_id}):
        if row["link_type"] == kind and (kind == "relates_to" or row["source_issue_id"]
                                         == source):
            raise ToolError(f"{link_out(row)['summary']} is already recorded as link "
                            f"{row['link_id']}")
        if row["link_type"] == kind:
            raise ToolError(f"{link_out(row)['summary']} already ({row['link_id']}); two issues "
                            f"cannot {kind.replace('_', ' ')} each other; remove that link "
                            "first with remove_issue_link")
    row = s["links"].insert({"link_id": s.next_id("lnk"), "link_type": kind,
                             "source_issue_id": source, "target_issue_id": target})
    touch(s, issue_id)
    return link_out(row)


@DOMAIN.tool(read_only=False)
def remove_issue_link(s: State, link_id: Annotated[str, Arg(
        "Link id, e.g. 'lnk_dxzryg' (get_issue lists an issue's links)")]) -> RemovedLink:
    """Remove a link between two issues."""
    row = s["links"].delete(link_id)
    touch(s, row["source_issue_id"])
    return {"removed": link_out(row)}


def _watchers(s: State, issue_id: str) -> Watchers:
    ids = s["issues"].get(issue_id)["watcher_ids"]
    return {"issue_id": issue_id, "watchers": [user_out(s["users"].get(u)) for u in ids]}


@DOMAIN.tool(read_only=False)
def add_watcher(s: State, issue_id: IssueId, user_id: WatcherId = None) -> Watchers:
    """Add a watcher to an issue (they get notified of changes); any user can watch."""
    issue = s["issues"].get(issue_id)
    uid = user_id or s.var("user_id")
    user = s["users"].get(uid)
    if uid in issue["watcher_ids"]:
        raise ToolError(f"{user['name']} ({uid}) already watches {issue_id}")
    add_watcher_id(s, issue_id, uid)
    return _watchers(s, issue_id)


@DOMAIN.tool(read_only=False)
def remove_watcher(s: State, issue_id: IssueId, user_id: WatcherId = None) -> Watchers:
    """Stop a user (default: you) from watching an issue."""
    issue = s["issues"].get(issue_id)
    uid = user_id or s.var("user_id")
    user = s["users"].get(uid)
    if uid not in issue["watcher_ids"]:
        raise ToolError(f"{user['name']} ({uid}) does not watch {issue_id}; its watchers: "
                        f"{', '.join(issue['watcher_ids']) or '(none)'}")
    s["issues"].update(issue_id, watcher_ids=[w for w in issue["watcher_ids"] if w != uid])
    return _watchers(s, issue_id)


@DOMAIN.tool(read_only=False)
def log_work(
        s: State, issue_id: IssueId,
        minutes: Annotated[int, Arg("Time spent in minutes (e.g. 90 for 1h30m)", minimum=1,
                                    maximum=1440)],
        work_date: Annotated[str | None, Arg("Day the work was done (YYYY-MM-DD, not in the "
                                             "future; default: today)", pattern=DATE)] = None,
        note: Annotated[str, Arg("What was done", max_length=500)] = "") -> WorklogOut:
    """Log time you spent on an issue."""
    issue = s["issues"].get(issue_id)
    editable(issue)
    day = parse_date(work_date, "work_date") if work_date else TODAY
    if day > TODAY:
        raise ToolError(f"work_date {day.isoformat()} is in the future (today is "
                        f"{TODAY.isoformat()}); log work once it is done")
    if day.isoformat() < issue["created_at"][:10]:
        raise ToolError(f"work_date {day.isoformat()} is before {issue_id} was created "
                        f"({issue['created_at'][:10]})")
    me = s.var("user_id")
    row = s["worklogs"].insert({
        "worklog_id": s.next_id("wl"), "issue_id": issue_id, "author_id": me,
        "minutes": minutes, "work_date": day.isoformat(), "note": note, "created_at": now(s)})
    touch(s, issue_id)
    return {"worklog": {**row, "author_name": user_name(s, me)},
            "issue_time_spent_minutes": time_spent(s, issue_id)}
