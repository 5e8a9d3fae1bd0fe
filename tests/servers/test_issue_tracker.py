"""issue_tracker domain rules: the workflow, blockers and duplicates, membership, time logging,
sprint lifecycle, and users that are the world's people.

Ids of users and sprints are opaque and seeds vary the projects, sprints and issues, so each
test looks up the entities it needs by their properties (at seed 0)."""

from __future__ import annotations

from servers.core import ids
from servers.core.runtime import Runtime
from servers.core.world import make_world
from servers.issue_tracker import DOMAIN
from servers.issue_tracker.data import UNRESOLVED
from tests.servers.common import (
    assert_world_varies,
    fails,
    ok,
    row_where,
    rows_where,
    runtime_fixture,
    state,
)

rt = runtime_fixture(DOMAIN)


def _issue(rt: Runtime, issue_id: str) -> dict:
    return ok(rt, "get_issue", {"issue_id": issue_id})


def _user_id(rt: Runtime) -> str:
    return state(rt).var("user_id")


def _member(rt: Runtime, project_id: str, *besides: str | None) -> str:
    """A member of the project other than the user and `besides`."""
    members = row_where(rt, "projects", project_id=project_id)["member_ids"]
    return next(m for m in members if m not in (_user_id(rt), *besides))


def _outsider(rt: Runtime, project_id: str) -> str:
    """A user who is not a member of the project."""
    members = row_where(rt, "projects", project_id=project_id)["member_ids"]
    return next(u["user_id"] for u in rows_where(rt, "users") if u["user_id"] not in members)


def _sprint(rt: Runtime, project_id: str, sprint_state: str) -> str:
    return row_where(rt, "sprints", project_id=project_id, state=sprint_state)["sprint_id"]


def _linked(rt: Runtime, issue_id: str) -> list[dict]:
    return [lk for lk in rows_where(rt, "links")
            if issue_id in (lk["source_issue_id"], lk["target_issue_id"])]


def _blockers(rt: Runtime, issue_id: str) -> list[str]:
    """The unresolved issues that block `issue_id`."""
    status = {i["issue_id"]: i["status"] for i in rows_where(rt, "issues")}
    return [lk["source_issue_id"] for lk in rows_where(rt, "links", link_type="blocks")
            if lk["target_issue_id"] == issue_id and status[lk["source_issue_id"]] in UNRESOLVED]


def _web_issue(rt: Runtime, *tests) -> str:
    """The first WEB issue that passes every test (functions of the issue row)."""
    return next(i["issue_id"] for i in rows_where(rt, "issues", project_id="WEB")
                if all(t(i) for t in tests))


def test_world_varies_by_seed():
    assert_world_varies("issue_tracker", {"projects": None, "sprints": "state",
                                          "issues": "status", "links": "link_type",
                                          "comments": None})


def test_users_are_the_worlds_people(rt):
    world = make_world(0)
    people = {ids.opaque(world.seed, p.id): p for p in world.people}  # as the state shows ids
    users = ok(rt, "list_users", {"limit": 100})
    assert users["total"] == len(world.people)
    for u in users["users"]:
        person = people[u["user_id"]]
        assert (u["name"], u["email"]) == (person.name, person.email)
    members = ok(rt, "get_project", {"project_id": "WEB"})["members"]
    assert members[0]["user_id"] == ids.opaque(world.seed, world.user.id)  # on every project


def test_workflow_transitions_and_their_preconditions(rt):
    key = _web_issue(rt, lambda i: i["status"] == "open" and i["assignee_id"] is None,
                     lambda i: not _blockers(rt, i["issue_id"]))
    fails(rt, "transition_issue", {"issue_id": key, "status": "in_review"},
          "allowed: in_progress, resolved, closed")
    fails(rt, "transition_issue", {"issue_id": key, "status": "in_progress"},
          "no assignee")
    fails(rt, "transition_issue", {"issue_id": key, "status": "in_progress",
                                   "resolution": "fixed"}, "only for resolved or closed")
    fails(rt, "transition_issue", {"issue_id": key, "status": "resolved"},
          "needs a resolution")
    ok(rt, "assign_issue", {"issue_id": key, "assignee_id": _member(rt, "WEB")})
    for status in ("in_progress", "in_review"):
        ok(rt, "transition_issue", {"issue_id": key, "status": status})
    done = ok(rt, "transition_issue", {"issue_id": key, "status": "resolved",
                                       "resolution": "done", "comment": "Shipped in 4.3"})
    assert done["resolution"] == "done" and done["allowed_transitions"] == ["closed", "open"]
    closed = ok(rt, "transition_issue", {"issue_id": key, "status": "closed"})
    assert closed["resolution"] == "done"  # kept from resolving
    assert _issue(rt, key)["comments"][-1]["body"] == "Shipped in 4.3"
    fails(rt, "update_issue", {"issue_id": key, "priority": "low"}, "read-only")
    reopened = ok(rt, "transition_issue", {"issue_id": key, "status": "open"})
    assert reopened["resolution"] is None and reopened["status"] == "open"


def test_unresolved_blockers_prevent_fixing(rt):
    # an unresolved issue with exactly one unresolved blocker
    key = next(i["issue_id"] for i in rows_where(rt, "issues") if i["status"] in UNRESOLVED
               and len(_blockers(rt, i["issue_id"])) == 1)
    source = row_where(rt, "issues", issue_id=_blockers(rt, key)[0])
    links = _issue(rt, key)["links"]
    blocker = next(lk for lk in links if lk["relation"] == "is blocked by"
                   and lk["issue_id"] == source["issue_id"])
    assert blocker["status"] == source["status"] and blocker["status"] in UNRESOLVED
    fails(rt, "transition_issue", {"issue_id": key, "status": "resolved",
                                   "resolution": "fixed"},
          f"blocked by unresolved {source['issue_id']} ({source['status']})")
    ok(rt, "remove_issue_link", {"link_id": blocker["link_id"]})
    assert ok(rt, "transition_issue", {"issue_id": key, "status": "resolved",
                                       "resolution": "fixed"})["status"] == "resolved"
    fails(rt, "remove_issue_link", {"link_id": blocker["link_id"]}, blocker["link_id"])


def test_duplicate_resolution_needs_a_duplicates_link(rt):
    dup = _web_issue(rt, lambda i: i["status"] == "open", lambda i: not _linked(rt, i["issue_id"]))
    original = _web_issue(rt, lambda i: i["status"] != "closed" and i["issue_id"] != dup,
                          lambda i: not _linked(rt, i["issue_id"]))
    fails(rt, "transition_issue", {"issue_id": dup, "status": "closed",
                                   "resolution": "duplicate"}, "link_issues")
    link = ok(rt, "link_issues", {"issue_id": original, "link_type": "is_duplicated_by",
                                  "target_issue_id": dup})
    assert (link["source_issue_id"], link["target_issue_id"]) == (dup, original)
    assert link["summary"] == f"{dup} duplicates {original}"
    ok(rt, "transition_issue", {"issue_id": dup, "status": "closed",
                                "resolution": "duplicate"})
    views = _issue(rt, original)["links"]
    assert {"relation": "is duplicated by", "issue_id": dup}.items() <= next(
        v for v in views if v["link_id"] == link["link_id"]).items()


def test_link_rules(rt):
    link = row_where(rt, "links", link_type="blocks")
    source, target = link["source_issue_id"], link["target_issue_id"]
    fails(rt, "link_issues", {"issue_id": target, "link_type": "relates_to",
                              "target_issue_id": target}, "itself")
    fails(rt, "link_issues", {"issue_id": source, "link_type": "blocks",
                              "target_issue_id": target}, "already recorded")
    fails(rt, "link_issues", {"issue_id": target, "link_type": "blocks",
                              "target_issue_id": source}, "each other")
    unknown = f"{target.split('-')[0]}-99"
    fails(rt, "link_issues", {"issue_id": target, "link_type": "blocks",
                              "target_issue_id": unknown}, unknown)


def test_assignment_membership_and_watchers(rt):
    me = _user_id(rt)
    key = _web_issue(rt, lambda i: i["status"] != "closed", lambda i: me not in i["watcher_ids"])
    member = _member(rt, "WEB", row_where(rt, "issues", issue_id=key)["assignee_id"])
    fails(rt, "assign_issue", {"issue_id": key, "assignee_id": _outsider(rt, "WEB")},
          "not a member of project WEB")
    issue = ok(rt, "assign_issue", {"issue_id": key, "assignee_id": member})
    assert issue["assignee_name"] == row_where(rt, "users", user_id=member)["name"]
    assert member in issue["watcher_ids"]
    fails(rt, "assign_issue", {"issue_id": key, "assignee_id": member},
          "already assigned")
    working = _web_issue(rt, lambda i: i["status"] in ("in_progress", "in_review"))
    fails(rt, "assign_issue", {"issue_id": working}, "needs an assignee")
    fails(rt, "add_watcher", {"issue_id": key, "user_id": member}, "already watches")
    watchers = ok(rt, "add_watcher", {"issue_id": key})["watchers"]
    assert [w["user_id"] for w in watchers][-1] == me
    ok(rt, "remove_watcher", {"issue_id": key})
    fails(rt, "remove_watcher", {"issue_id": key}, "does not watch")


def test_time_logging_accumulates_and_checks_dates(rt):
    key = _web_issue(rt, lambda i: i["status"] != "closed",
                     lambda i: i["created_at"][:10] > "2026-05-01")
    before = _issue(rt, key)["issue"]["time_spent_minutes"]
    out = ok(rt, "log_work", {"issue_id": key, "minutes": 45, "note": "Review fixes"})
    assert out["issue_time_spent_minutes"] == before + 45
    assert _issue(rt, key)["issue"]["time_spent_minutes"] == before + 45
    fails(rt, "log_work", {"issue_id": key, "minutes": 30, "work_date": "2026-06-16"},
          "in the future")
    fails(rt, "log_work", {"issue_id": key, "minutes": 30, "work_date": "2026-05-01"},
          f"before {key} was created")
    closed = _web_issue(rt, lambda i: i["status"] == "closed")
    fails(rt, "log_work", {"issue_id": closed, "minutes": 30}, "read-only")


def test_create_issue_numbering_and_validation(rt):
    base = {"project_id": "WEB", "title": "Signup flow rejects plus-addressed emails",
            "type": "bug"}
    built = len(rows_where(rt, "issues", project_id="WEB"))
    fails(rt, "create_issue", {**base, "story_points": 4}, "Fibonacci")
    fails(rt, "create_issue", {**base, "assignee_id": _outsider(rt, "WEB")}, "not a member")
    fails(rt, "create_issue", {**base, "sprint_id": _sprint(rt, "API", "future")},
          "belongs to project API")
    fails(rt, "create_issue", {**base, "sprint_id": _sprint(rt, "WEB", "closed")}, "is closed")
    fails(rt, "create_issue", {**base, "type": "epic", "sprint_id": _sprint(rt, "WEB", "active")},
          "epics")
    first = ok(rt, "create_issue", {**base, "labels": ["Customer Reported", "ux"]})
    assert first["issue_id"] == f"WEB-{built + 1}"
    assert first["labels"] == ["customer-reported", "ux"]
    assert first["reporter_id"] == _user_id(rt) and first["watcher_ids"] == [_user_id(rt)]
    fails(rt, "create_issue", base, "already tracks")
    second = ok(rt, "create_issue", {**base, "title": "Signup flow loses the referral code"})
    assert second["issue_id"] == f"WEB-{built + 2}"
    found = ok(rt, "search_issues", {"query": "referral", "project_id": "WEB"})["issues"]
    assert [i["issue_id"] for i in found] == [second["issue_id"]]


def test_sprint_lifecycle(rt):
    active, future = _sprint(rt, "WEB", "active"), _sprint(rt, "WEB", "future")
    fails(rt, "start_sprint", {"sprint_id": future}, "complete_sprint first")
    live = _web_issue(rt, lambda i: i["status"] != "closed")
    fails(rt, "move_issue_to_sprint", {"issue_id": live,
                                       "sprint_id": _sprint(rt, "API", "future")},
          "belongs to project API")
    fails(rt, "complete_sprint", {"sprint_id": future}, "only the active sprint")
    before = ok(rt, "get_sprint", {"sprint_id": active})["issues"]
    unresolved = [i["issue_id"] for i in before if i["status"] in ("open", "in_progress",
                                                                   "in_review")]
    assert unresolved
    out = ok(rt, "complete_sprint", {"sprint_id": active,
                                     "move_open_issues_to_sprint_id": future})
    assert set(out["moved_issue_ids"]) == set(unresolved) and out["sprint"]["state"] == "closed"
    assert out["sprint"]["open_issue_count"] == 0
    moved = {i["issue_id"] for i in ok(rt, "get_sprint", {"sprint_id": future})["issues"]}
    assert set(unresolved) <= moved
    started = ok(rt, "start_sprint", {"sprint_id": future, "end_date": "2026-06-26"})
    assert (started["state"], started["start_date"]) == ("active", "2026-06-15")
    projects = ok(rt, "list_projects", {})["projects"]
    assert next(p for p in projects if p["project_id"] == "WEB")["active_sprint_id"] == future
    fails(rt, "complete_sprint", {"sprint_id": active}, "is closed")
