"""issue_tracker domain rules: the workflow, blockers and duplicates, membership, time logging,
sprint lifecycle, and users that are the world's people."""

from __future__ import annotations

import pytest

from servers.core.runtime import Runtime
from servers.core.world import make_world
from servers.issue_tracker import DOMAIN


@pytest.fixture
def rt() -> Runtime:
    return Runtime(DOMAIN, default_seed=0)


def _digest(rt: Runtime) -> str:
    return rt.session(None).state.digest()


def _ok(rt: Runtime, tool: str, args: dict) -> dict:
    out = rt.call(tool, args)
    assert out.ok, f"{tool}({args}): {out.error}"
    return out.payload


def _fails(rt: Runtime, tool: str, args: dict, needle: str) -> None:
    """The call fails, says `needle`, and leaves the state exactly as it was."""
    before = _digest(rt)
    out = rt.call(tool, args)
    assert not out.ok, f"{tool}({args}) succeeded"
    assert needle in out.error, out.error
    assert _digest(rt) == before


def _issue(rt: Runtime, issue_id: str) -> dict:
    return _ok(rt, "get_issue", {"issue_id": issue_id})


def test_users_are_the_worlds_people(rt):
    world = make_world(0)
    users = _ok(rt, "list_users", {"limit": 100})
    assert users["total"] == len(world.people)
    for u in users["users"]:
        person = world.person(u["user_id"])
        assert (u["name"], u["email"]) == (person.name, person.email)
    members = _ok(rt, "get_project", {"project_id": "WEB"})["members"]
    assert members[0]["user_id"] == world.user.id  # the user is on every project


def test_workflow_transitions_and_their_preconditions(rt):
    _fails(rt, "transition_issue", {"issue_id": "WEB-2", "status": "in_review"},
           "allowed: in_progress, resolved, closed")
    _fails(rt, "transition_issue", {"issue_id": "WEB-2", "status": "in_progress"},
           "no assignee")
    _fails(rt, "transition_issue", {"issue_id": "WEB-2", "status": "in_progress",
                                    "resolution": "fixed"}, "only for resolved or closed")
    _fails(rt, "transition_issue", {"issue_id": "WEB-2", "status": "resolved"},
           "needs a resolution")
    _ok(rt, "assign_issue", {"issue_id": "WEB-2", "assignee_id": "p_047"})
    for status in ("in_progress", "in_review"):
        _ok(rt, "transition_issue", {"issue_id": "WEB-2", "status": status})
    done = _ok(rt, "transition_issue", {"issue_id": "WEB-2", "status": "resolved",
                                        "resolution": "done", "comment": "Shipped in 4.3"})
    assert done["resolution"] == "done" and done["allowed_transitions"] == ["closed", "open"]
    closed = _ok(rt, "transition_issue", {"issue_id": "WEB-2", "status": "closed"})
    assert closed["resolution"] == "done"  # kept from resolving
    assert _issue(rt, "WEB-2")["comments"][-1]["body"] == "Shipped in 4.3"
    _fails(rt, "update_issue", {"issue_id": "WEB-2", "priority": "low"}, "read-only")
    reopened = _ok(rt, "transition_issue", {"issue_id": "WEB-2", "status": "open"})
    assert reopened["resolution"] is None and reopened["status"] == "open"


def test_unresolved_blockers_prevent_fixing(rt):
    links = _issue(rt, "WEB-9")["links"]
    blocker = next(lk for lk in links if lk["relation"] == "is blocked by")
    assert blocker["issue_id"] == "WEB-8" and blocker["status"] == "open"
    _fails(rt, "transition_issue", {"issue_id": "WEB-9", "status": "resolved",
                                    "resolution": "fixed"}, "blocked by unresolved WEB-8 (open)")
    _ok(rt, "remove_issue_link", {"link_id": blocker["link_id"]})
    assert _ok(rt, "transition_issue", {"issue_id": "WEB-9", "status": "resolved",
                                        "resolution": "fixed"})["status"] == "resolved"
    _fails(rt, "remove_issue_link", {"link_id": blocker["link_id"]}, blocker["link_id"])


def test_duplicate_resolution_needs_a_duplicates_link(rt):
    _fails(rt, "transition_issue", {"issue_id": "WEB-11", "status": "closed",
                                    "resolution": "duplicate"}, "link_issues")
    link = _ok(rt, "link_issues", {"issue_id": "WEB-10", "link_type": "is_duplicated_by",
                                   "target_issue_id": "WEB-11"})
    assert (link["source_issue_id"], link["target_issue_id"]) == ("WEB-11", "WEB-10")
    assert link["summary"] == "WEB-11 duplicates WEB-10"
    _ok(rt, "transition_issue", {"issue_id": "WEB-11", "status": "closed",
                                 "resolution": "duplicate"})
    views = _issue(rt, "WEB-10")["links"]
    assert {"relation": "is duplicated by", "issue_id": "WEB-11"}.items() <= next(
        v for v in views if v["link_id"] == link["link_id"]).items()


def test_link_rules(rt):
    _fails(rt, "link_issues", {"issue_id": "WEB-8", "link_type": "relates_to",
                               "target_issue_id": "WEB-8"}, "itself")
    _fails(rt, "link_issues", {"issue_id": "WEB-10", "link_type": "blocks",
                               "target_issue_id": "WEB-8"}, "already recorded")
    _fails(rt, "link_issues", {"issue_id": "WEB-8", "link_type": "blocks",
                               "target_issue_id": "WEB-10"}, "each other")
    _fails(rt, "link_issues", {"issue_id": "WEB-8", "link_type": "blocks",
                               "target_issue_id": "WEB-99"}, "WEB-99")


def test_assignment_membership_and_watchers(rt):
    _fails(rt, "assign_issue", {"issue_id": "WEB-8", "assignee_id": "p_003"},
           "not a member of project WEB")
    issue = _ok(rt, "assign_issue", {"issue_id": "WEB-8", "assignee_id": "p_049"})
    assert issue["assignee_name"] == make_world(0).person("p_049").name
    assert "p_049" in issue["watcher_ids"]
    _fails(rt, "assign_issue", {"issue_id": "WEB-8", "assignee_id": "p_049"},
           "already assigned")
    _fails(rt, "assign_issue", {"issue_id": "WEB-9"}, "needs an assignee")
    _fails(rt, "add_watcher", {"issue_id": "WEB-8", "user_id": "p_049"}, "already watches")
    watchers = _ok(rt, "add_watcher", {"issue_id": "WEB-8"})["watchers"]
    assert [w["user_id"] for w in watchers][-1] == "p_001"
    _ok(rt, "remove_watcher", {"issue_id": "WEB-8"})
    _fails(rt, "remove_watcher", {"issue_id": "WEB-8"}, "does not watch")


def test_time_logging_accumulates_and_checks_dates(rt):
    before = _issue(rt, "WEB-9")["issue"]["time_spent_minutes"]
    out = _ok(rt, "log_work", {"issue_id": "WEB-9", "minutes": 45, "note": "Review fixes"})
    assert out["issue_time_spent_minutes"] == before + 45
    assert _issue(rt, "WEB-9")["issue"]["time_spent_minutes"] == before + 45
    _fails(rt, "log_work", {"issue_id": "WEB-9", "minutes": 30, "work_date": "2026-06-16"},
           "in the future")
    _fails(rt, "log_work", {"issue_id": "WEB-9", "minutes": 30, "work_date": "2026-05-01"},
           "before WEB-9 was created")
    _fails(rt, "log_work", {"issue_id": "WEB-6", "minutes": 30}, "read-only")


def test_create_issue_numbering_and_validation(rt):
    base = {"project_id": "WEB", "title": "Signup flow rejects plus-addressed emails",
            "type": "bug"}
    _fails(rt, "create_issue", {**base, "story_points": 4}, "Fibonacci")
    _fails(rt, "create_issue", {**base, "assignee_id": "p_003"}, "not a member")
    _fails(rt, "create_issue", {**base, "sprint_id": "spr_007"}, "belongs to project API")
    _fails(rt, "create_issue", {**base, "sprint_id": "spr_001"}, "is closed")
    _fails(rt, "create_issue", {**base, "type": "epic", "sprint_id": "spr_003"}, "epics")
    first = _ok(rt, "create_issue", {**base, "labels": ["Customer Reported", "ux"]})
    assert first["issue_id"] == "WEB-21" and first["labels"] == ["customer-reported", "ux"]
    assert first["reporter_id"] == "p_001" and first["watcher_ids"] == ["p_001"]
    _fails(rt, "create_issue", base, "already tracks")
    second = _ok(rt, "create_issue", {**base, "title": "Signup flow loses the referral code"})
    assert second["issue_id"] == "WEB-22"
    found = _ok(rt, "search_issues", {"query": "referral", "project_id": "WEB"})["issues"]
    assert [i["issue_id"] for i in found] == ["WEB-22"]


def test_sprint_lifecycle(rt):
    _fails(rt, "start_sprint", {"sprint_id": "spr_004"}, "complete_sprint first")
    _fails(rt, "move_issue_to_sprint", {"issue_id": "WEB-8", "sprint_id": "spr_007"},
           "belongs to project API")
    _fails(rt, "complete_sprint", {"sprint_id": "spr_004"}, "only the active sprint")
    before = _ok(rt, "get_sprint", {"sprint_id": "spr_003"})["issues"]
    unresolved = [i["issue_id"] for i in before if i["status"] in ("open", "in_progress",
                                                                   "in_review")]
    assert unresolved
    out = _ok(rt, "complete_sprint", {"sprint_id": "spr_003",
                                      "move_open_issues_to_sprint_id": "spr_004"})
    assert set(out["moved_issue_ids"]) == set(unresolved) and out["sprint"]["state"] == "closed"
    assert out["sprint"]["open_issue_count"] == 0
    moved = {i["issue_id"] for i in _ok(rt, "get_sprint", {"sprint_id": "spr_004"})["issues"]}
    assert set(unresolved) <= moved
    started = _ok(rt, "start_sprint", {"sprint_id": "spr_004", "end_date": "2026-06-26"})
    assert (started["state"], started["start_date"]) == ("active", "2026-06-15")
    projects = _ok(rt, "list_projects", {})["projects"]
    assert next(p for p in projects if p["project_id"] == "WEB")["active_sprint_id"] == "spr_004"
    _fails(rt, "complete_sprint", {"sprint_id": "spr_003"}, "is closed")
