"""issue_tracker: a Jira-like tracker (projects, issues through a workflow, assignees,
comments, issue links, watchers, time logging, sprints).

Users are the world's people (user id = person id, e.g. 'p_waqgg5', with the same name and email
as on email and team_chat); the user is the world's principal, a member of every project.
Tools live in issues.py, collab.py and planning.py; importing them registers them on DOMAIN.
"""

from __future__ import annotations

from servers.issue_tracker import collab, issues, planning  # noqa: F401 - registers the tools
from servers.issue_tracker.common import DOMAIN

# Calls that succeed in this order on a fresh session (seed 0): used by the contract tests and
# as documentation of each tool's use.
EXAMPLES: list[tuple[str, dict]] = [
    ("list_projects", {}),
    ("get_project", {"project_id": "WEB"}),
    ("list_users", {"query": "hiro", "project_id": "WEB"}),
    ("search_issues", {"project_id": "WEB", "status": "unresolved", "sort": "priority"}),
    ("get_issue", {"issue_id": "API-16"}),
    ("create_issue", {"project_id": "WEB", "title": "Checkout page shows stale prices after "
                      "a coupon is removed", "type": "bug", "priority": "high",
                      "description": "Remove a coupon: the total keeps the discount.",
                      "assignee_id": "p_004", "labels": ["regression", "customer-reported"],
                      "sprint_id": "spr_002", "story_points": 3}),
    ("update_issue", {"issue_id": "WEB-21", "priority": "highest", "add_labels": ["frontend"],
                      "due_date": "2026-06-19"}),
    ("assign_issue", {"issue_id": "WEB-19", "assignee_id": "p_001"}),
    ("transition_issue", {"issue_id": "WEB-19", "status": "in_progress"}),
    ("transition_issue", {"issue_id": "WEB-12", "status": "resolved", "resolution": "fixed",
                          "comment": "Fixed in release 4.2."}),
    ("add_comment", {"issue_id": "API-16", "body": "Still seeing this on staging; can you "
                     "attach the request logs?"}),
    ("link_issues", {"issue_id": "WEB-21", "link_type": "is_blocked_by",
                     "target_issue_id": "API-9"}),
    ("remove_issue_link", {"link_id": "lnk_0001"}),
    ("add_watcher", {"issue_id": "API-16", "user_id": "p_038"}),
    ("remove_watcher", {"issue_id": "API-6"}),
    ("log_work", {"issue_id": "WEB-19", "minutes": 90, "note": "Reproduced the timezone bug"}),
    ("list_sprints", {"project_id": "WEB"}),
    ("get_sprint", {"sprint_id": "spr_002"}),
    ("move_issue_to_sprint", {"issue_id": "WEB-16", "sprint_id": "spr_002"}),
    ("complete_sprint", {"sprint_id": "spr_002", "move_open_issues_to_sprint_id": "spr_003"}),
    ("start_sprint", {"sprint_id": "spr_003", "goal": "Fix the checkout regressions"}),
]

__all__ = ["DOMAIN", "EXAMPLES"]
