"""issue_tracker: the tools' output shapes (TypedDicts become the MCP output schemas)."""

from __future__ import annotations

from typing import TypedDict


class User(TypedDict):
    user_id: str
    name: str
    email: str
    username: str
    title: str


class UserList(TypedDict):
    users: list[User]
    total: int
    next_cursor: str | None


class Project(TypedDict):
    project_id: str
    name: str
    description: str
    lead_id: str
    lead_name: str
    member_count: int
    open_issue_count: int
    active_sprint_id: str | None


class ProjectList(TypedDict):
    projects: list[Project]
    total: int


class StatusCount(TypedDict):
    status: str
    count: int


class Sprint(TypedDict):
    sprint_id: str
    project_id: str
    name: str
    state: str
    goal: str
    start_date: str
    end_date: str
    issue_count: int
    open_issue_count: int
    committed_points: int
    completed_points: int


class SprintList(TypedDict):
    sprints: list[Sprint]
    total: int


class ProjectDetail(TypedDict):
    project: Project
    members: list[User]
    status_counts: list[StatusCount]
    sprints: list[Sprint]


class IssueSummary(TypedDict):
    issue_id: str
    project_id: str
    title: str
    type: str
    priority: str
    status: str
    resolution: str | None
    assignee_id: str | None
    assignee_name: str | None
    sprint_id: str | None
    story_points: int | None
    due_date: str | None
    labels: list[str]
    updated_at: str


class IssueList(TypedDict):
    issues: list[IssueSummary]
    total: int
    next_cursor: str | None


class Issue(TypedDict):
    issue_id: str
    project_id: str
    title: str
    description: str
    type: str
    priority: str
    status: str
    resolution: str | None
    allowed_transitions: list[str]
    assignee_id: str | None
    assignee_name: str | None
    reporter_id: str
    reporter_name: str
    labels: list[str]
    due_date: str | None
    story_points: int | None
    sprint_id: str | None
    sprint_name: str | None
    watcher_ids: list[str]
    comment_count: int
    time_spent_minutes: int
    created_at: str
    updated_at: str


class Comment(TypedDict):
    comment_id: str
    issue_id: str
    author_id: str
    author_name: str
    body: str
    created_at: str


class Link(TypedDict):
    link_id: str
    link_type: str
    source_issue_id: str
    target_issue_id: str
    summary: str


class LinkView(TypedDict):
    link_id: str
    relation: str
    issue_id: str
    title: str
    status: str


class Worklog(TypedDict):
    worklog_id: str
    issue_id: str
    author_id: str
    author_name: str
    minutes: int
    work_date: str
    note: str
    created_at: str


class IssueDetail(TypedDict):
    issue: Issue
    comments: list[Comment]
    links: list[LinkView]
    worklogs: list[Worklog]


class RemovedLink(TypedDict):
    removed: Link


class Watchers(TypedDict):
    issue_id: str
    watchers: list[User]


class WorklogOut(TypedDict):
    worklog: Worklog
    issue_time_spent_minutes: int


class SprintDetail(TypedDict):
    sprint: Sprint
    issues: list[IssueSummary]


class SprintCompleted(TypedDict):
    sprint: Sprint
    completed_issue_ids: list[str]
    moved_issue_ids: list[str]
    moved_to_sprint_id: str | None
