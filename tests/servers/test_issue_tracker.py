"""issue_tracker domain rules: the workflow, blockers and duplicates, membership, time logging,
sprint lifecycle, and users that are the world's people."""

from __future__ import annotations

from servers.core.runtime import Runtime
from servers.core.world import make_world
from servers.issue_tracker import DOMAIN
from tests.servers.common import fails, ok, runtime_fixture

rt = runtime_fixture(DOMAIN)


def _issue(rt: Runtime, issue_id: str) -> dict:
    return ok(rt, "get_issue", {"issue_id": issue_id})


def test_users_are_the_worlds_people(rt):
    world = make_world(0)
    users = ok(rt, "list_users", {"limit": 100})
    assert users["total"] == len(world.people)
    for u in users["users"]:
        person = world.person(u["user_id"])
        assert (u["name"], u["email"]) == (person.name, person.email)
    members = ok(rt, "get_project", {"project_id": "WEB"})["members"]
    assert members[0]["user_id"] == world.user.id  # the user is on every project


def test_workflow_transitions_and_their_preconditions(rt):
    fails(rt, "transition_issue", {"issue_id": "WEB-2", "status": "in_review"},
           "allowed: in_progress, resolved, closed")
    fails(rt, "transition_issue", {"issue_id": "WEB-2", "status": "in_progress"},
           "no assignee")
    fails(rt, "transition_issue", {"issue_id": "WEB-2", "status": "in_progress",
                                    "resolution": "fixed"}, "only for resolved or closed")
    fails(rt, "transition_issue", {"issue_id": "WEB-2", "status": "resolved"},
           "needs a resolution")
    ok(rt, "assign_issue", {"issue_id": "WEB-2", "assignee_id": "p_047"})
    for status in ("in_progress", "in_review"):
        ok(rt, "transition_issue", {"issue_id": "WEB-2", "status": status})
    done = ok(rt, "transition_issue", {"issue_id": "WEB-2", "status": "resolved",
                                        "resolution": "done", "comment": "Shipped in 4.3"})
    assert done["resolution"] == "done" and done["allowed_transitions"] == ["closed", "open"]
    closed = ok(rt, "transition_issue", {"issue_id": "WEB-2", "status": "closed"})
    assert closed["resolution"] == "done"  # kept from resolving
    assert _issue(rt, "WEB-2")["comments"][-1]["body"] == "Shipped in 4.3"
    fails(rt, "update_issue", {"issue_id": "WEB-2", "priority": "low"}, "read-only")
    reopened = ok(rt, "transition_issue", {"issue_id": "WEB-2", "status": "open"})
    assert reopened["resolution"] is None and reopened["status"] == "open"


def test_unresolved_blockers_prevent_fixing(rt):
    links = _issue(rt, "WEB-9")["links"]
    blocker = next(lk for lk in links if lk["relation"] == "is blocked by")
    assert blocker["issue_id"] == "WEB-8" and blocker["status"] == "open"
    fails(rt, "transition_issue", {"issue_id": "WEB-9", "status": "resolved",
                                    "resolution": "fixed"}, "blocked by unresolved WEB-8 (open)")
    ok(rt, "remove_issue_link", {"link_id": blocker["link_id"]})
    assert ok(rt, "transition_issue", {"issue_id": "WEB-9", "status": "resolved",
                                        "resolution": "fixed"})["status"] == "resolved"
    fails(rt, "remove_issue_link", {"link_id": blocker["link_id"]}, blocker["link_id"])


def test_duplicate_resolution_needs_a_duplicates_link(rt):
    fails(rt, "transition_issue", {"issue_id": "WEB-11", "status": "closed",
                                    "resolution": "duplicate"}, "link_issues")
    link = ok(rt, "link_issues", {"issue_id": "WEB-10", "link_type": "is_duplicated_by",
                                   "target_issue_id": "WEB-11"})
    assert (link["source_issue_id"], link["target_issue_id"]) == ("WEB-11", "WEB-10")
    assert link["summary"] == "WEB-11 duplicates WEB-10"
    ok(rt, "transition_issue", {"issue_id": "WEB-11", "status": "closed",
                                 "resolution": "duplicate"})
    views = _issue(rt, "WEB-10")["links"]
    assert {"relation": "is duplicated by", "issue_id": "WEB-11"}.items() <= next(
        v for v in views if v["link_id"] == link["link_id"]).items()


def test_link_rules(rt):
    fails(rt, "link_issues", {"issue_id": "WEB-8", "link_type": "relates_to",
                               "target_issue_id": "WEB-8"}, "itself")
    fails(rt, "link_issues", {"issue_id": "WEB-10", "link_type": "blocks",
                               "target_issue_id": "WEB-8"}, "already recorded")
    fails(rt, "link_issues", {"issue_id": "WEB-8", "link_type": "blocks",
                               "target_issue_id": "WEB-10"}, "each other")
    fails(rt, "link_issues", {"issue_id": "WEB-8", "link_type": "blocks",
                               "target_issue_id": "WEB-99"}, "WEB-99")


def test_assignment_membership_and_watchers(rt):
    fails(rt, "assign_issue", {"issue_id": "WEB-8", "assignee_id": "p_003"},
           "not a member of project WEB")
    issue = ok(rt, "assign_issue", {"issue_id": "WEB-8", "assignee_id": "p_049"})
    assert issue["assignee_name"] == make_world(0).person("p_049").name
    assert "p_049" in issue["watcher_ids"]
    fails(rt, "assign_issue", {"issue_id": "WEB-8", "assignee_id": "p_049"},
           "already assigned")
    fails(rt, "assign_issue", {"issue_id": "WEB-9"}, "needs an assignee")
    fails(rt, "add_watcher", {"issue_id": "WEB-8", "user_id": "p_049"}, "already watches")
    watchers = ok(rt, "add_watcher", {"issue_id": "WEB-8"})["watchers"]
    assert [w["user_id"] for w in watchers][-1] == "p_001"
    ok(rt, "remove_watcher", {"issue_id": "WEB-8"})
    fails(rt, "remove_watcher", {"issue_id": "WEB-8"}, "does not watch")


def test_time_logging_accumulates_and_checks_dates(rt):
    before = _issue(rt, "WEB-9")["issue"]["time_spent_minutes"]
    out = ok(rt, "log_work", {"issue_id": "WEB-9", "minutes": 45, "note": "Review fixes"})
    assert out["issue_time_spent_minutes"] == before + 45
    assert _issue(rt, "WEB-9")["issue"]["time_spent_minutes"] == before + 45
    fails(rt, "log_work", {"issue_id": "WEB-9", "minutes": 30, "work_date": "2026-06-16"},
           "in the future")
    fails(rt, "log_work", {"issue_id": "WEB-9", "minutes": 30, "work_date": "2026-05-01"},
           "before WEB-9 was created")
    fails(rt, "log_work", {"issue_id": "WEB-6", "minutes": 30}, "read-only")


def test_create_issue_numbering_and_validation(rt):
    base = {"project_id": "WEB", "title": "Signup flow rejects plus-addressed emails",
            "type": "bug"}
    fails(rt, "create_issue", {**base, "story_points": 4}, "Fibonacci")
    fails(rt, "create_issue", {**base, "assignee_id": "p_003"}, "not a member")
    fails(rt, "create_issue", {**base, "sprint_id": "spr_007"}, "belongs to project API")
    fails(rt, "create_issue", {**base, "sprint_id": "spr_001"}, "is closed")
    fails(rt, "create_issue", {**base, "type": "epic", "sprint_id": "spr_003"}, "epics")
    first = ok(rt, "create_issue", {**base, "labels": ["Customer Reported", "ux"]})
    assert first["issue_id"] == "WEB-21" and first["labels"] == ["customer-reported", "ux"]
    assert first["reporter_id"] == "p_001" and first["watcher_ids"] == ["p_001"]
    fails(rt, "create_issue", base, "already tracks")
    second = ok(rt, "create_issue", {**base, "title": "Signup flow loses the referral code"})
    assert second["issue_id"] == "WEB-22"
    found = ok(rt, "search_issues", {"query": "referral", "project_id": "WEB"})["issues"]
    assert [i["issue_id"] for i in found] == ["WEB-22"]


def test_sprint_lifecycle(rt):
    fails(rt, "start_sprint", {"sprint_id": "spr_004"}, "complete_sprint first")
    fails(rt, "move_issue_to_sprint", {"issue_id": "WEB-8", "sprint_id": "spr_007"},
           "belongs to project API")
    fails(rt, "complete_sprint", {"sprint_id": "spr_004"}, "only the active sprint")
    before = ok(rt, "get_sprint", {"sprint_id": "spr_003"})["issues"]
    unresolved = [i["issue_id"] for i in before if i["status"] in ("open", "in_progress",
                                                                   "in_review")]
    assert unresolved
    out = ok(rt, "complete_sprint", {"sprint_id": "spr_003",
                                      "move_open_issues_to_sprint_id": "spr_004"})
    assert set(out["moved_issue_ids"]) == set(unresolved) and out["sprint"]["state"] == "closed"
    assert out["sprint"]["open_issue_count"] == 0
    moved = {i["issue_id"] for i in ok(rt, "get_sprint", {"sprint_id": "spr_004"})["issues"]}
    assert set(unresolved) <= moved
    started = ok(rt, "start_sprint", {"sprint_id": "spr_004", "end_date": "2026-06-26"})
    assert (started["state"], started["start_date"]) == ("active", "2026-06-15")
    projects = ok(rt, "list_projects", {})["projects"]
    assert next(p for p in projects if p["project_id"] == "WEB")["active_sprint_id"] == "spr_004"
    fails(rt, "complete_sprint", {"sprint_id": "spr_003"}, "is closed")
