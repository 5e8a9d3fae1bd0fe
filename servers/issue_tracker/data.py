"""issue_tracker state: users are the world's people (user id = person id, same name and email
as on email and team_chat), three to five projects with members and a lead, two-week sprints
(one to three closed, one active, one planned per project), issues through a workflow,
comments, issue links (blocks / duplicates / relates to), watchers and work logs.

The seed draws which projects exist (WEB and API always do), how long each one's sprint history
is, how many issues each holds in each status, and how many links and comments there are.
"""

from __future__ import annotations

import datetime as dt
import random

from servers.core.state import State
from servers.core.world import World, days_ago

TODAY = dt.date(2026, 6, 15)  # REFERENCE_DATE of every world

# The workflow: status -> statuses it may move to.
TRANSITIONS = {
    "open": ["in_progress", "resolved", "closed"],
    "in_progress": ["open", "in_review", "resolved"],
    "in_review": ["in_progress", "resolved"],
    "resolved": ["closed", "open"],
    "closed": ["open"],
}
UNRESOLVED = ("open", "in_progress", "in_review")
PRIORITIES = ["highest", "high", "medium", "low", "lowest"]
POINTS = (0, 1, 2, 3, 5, 8, 13, 21)

PROJECTS = [
    ("WEB", "Web App", "Customer-facing web application (React front end).",
     ["checkout page", "login form", "dashboard", "settings page", "search bar",
      "invoice view", "signup flow"]),
    ("API", "Platform API", "Public REST API, auth and billing services.",
     ["/orders endpoint", "auth service", "rate limiter", "webhooks", "billing API",
      "user API", "token refresh"]),
    ("MOB", "Mobile App", "iOS and Android apps.",
     ["iOS onboarding", "Android push notifications", "offline sync", "photo upload",
      "profile screen", "payment sheet", "deep links"]),
    ("OPS", "Infrastructure", "Clusters, CI/CD, databases and on-call tooling.",
     ["Kubernetes cluster", "CI pipeline", "Postgres replica", "backup job", "CDN config",
      "log shipping", "alerting rules"]),
    ("DATA", "Data Pipeline", "Ingestion, warehouse, ETL and reporting.",
     ["nightly ETL", "events warehouse", "revenue report", "ingestion service",
      "dbt models", "feature store", "GDPR export job"]),
]
TITLES = {
    "bug": ["{area} crashes when {cond}", "Wrong totals shown in {area}",
            "{area} returns 500 when {cond}", "Timeout in {area} under load",
            "{area} ignores the user's timezone", "Duplicate entries in {area}",
            "Memory leak in {area}", "{area} fails silently when {cond}"],
    "task": ["Upgrade dependencies of {area}", "Add monitoring for {area}",
             "Write runbook for {area}", "Remove dead feature flags from {area}",
             "Add integration tests for {area}", "Document the {area} config"],
    "story": ["Export {area} data to CSV", "Dark mode for {area}", "SSO login for {area}",
              "Paginate results in {area}", "Audit log for {area}", "Localize {area} to Spanish"],
    "epic": ["{area} redesign", "Migrate {area} to v2", "{area} reliability push"],
}
CONDITIONS = ["the session expires", "the cart is empty", "the user has no avatar",
              "the locale is de-DE", "two requests race", "the input contains emoji",
              "the network drops"]
DESCRIPTIONS = {
    "bug": "Steps to reproduce:\n1. Open the {area}\n2. Trigger the failing case\n\n"
           "Expected: it works.\nActual: {title_lc}. Seen by several customers.",
    "task": "Housekeeping for the {area}. Done when the change is merged and deployed.",
    "story": "As a user I want: {title_lc}.\n\nAcceptance criteria:\n- works in the {area}\n"
             "- covered by tests",
    "epic": "Umbrella for all work on: {title_lc}.",
}
LABELS = ["frontend", "backend", "regression", "customer-reported", "tech-debt", "security",
          "performance", "ux", "flaky-test", "docs"]
GOALS = ["Ship the {area} improvements", "Burn down customer-reported bugs",
         "Stabilize the release", "Finish the {area} migration", "Cut p95 latency by 20%"]
COMMENTS = ["I can reproduce this on staging.", "Can we get logs from the affected accounts?",
            "Fix is up for review.", "This is blocking the release, raising priority.",
            "Looks related to last week's deploy.", "Pairing on this tomorrow.",
            "Added a test that covers the edge case.", "Customer confirmed the workaround.",
            "Moving to next sprint, not enough capacity.", "Verified on production."]
WORK_NOTES = ["Investigation", "Implementation", "Code review fixes", "Writing tests",
              "Debugging on staging", "Deploy and verification"]
# The company-wide two-week cadence: a project keeps the last one to three closed sprints.
SPRINT_DATES = [("2026-04-27", "2026-05-10", "closed"), ("2026-05-11", "2026-05-24", "closed"),
                ("2026-05-25", "2026-06-07", "closed"), ("2026-06-08", "2026-06-21", "active"),
                ("2026-06-22", "2026-07-05", "future")]
# status -> how many issues of a project are in it (drawn per project)
STATUS_COUNTS = {"open": (3, 8), "in_progress": (2, 6), "in_review": (1, 3),
                 "resolved": (2, 6), "closed": (2, 6)}
LINK_COUNTS = {"blocks": (9, 17), "relates_to": (4, 10), "duplicates": (2, 6)}
ALWAYS = ("WEB", "API")  # the core product; the other projects exist at some seeds only


def _date(days_from_today: int) -> str:
    return (TODAY + dt.timedelta(days=days_from_today)).isoformat()


def _projects(rng: random.Random) -> list[tuple]:
    """The projects of this world, in PROJECTS order: WEB and API and some of the others."""
    optional = [p[0] for p in PROJECTS if p[0] not in ALWAYS]
    kept = set(rng.sample(optional, rng.randint(1, len(optional))))
    return [p for p in PROJECTS if p[0] in ALWAYS or p[0] in kept]


def _sprint_dates(rng: random.Random) -> list[tuple[str, str, str]]:
    """A project's sprints: its last one to three closed ones, the active one, the next."""
    return SPRINT_DATES[3 - rng.randint(1, 3):]


def _status_plan(rng: random.Random) -> list[str]:
    plan = [status for status, (lo, hi) in STATUS_COUNTS.items()
            for _ in range(rng.randint(lo, hi))]
    rng.shuffle(plan)
    return plan


def build(s: State, world: World, rng: random.Random) -> None:
    user = world.user
    s.set_var("user_id", user.id)
    s.table("users", key="user_id", kind="user",
            hint="use list_users to find user ids (the person's id, e.g. 'p_waqgg5')").load([
                {"user_id": p.id, "name": p.name, "email": p.email, "username": p.username,
                 "title": p.title} for p in world.people])
    others = [p.id for p in world.people[1:]]
    projects, sprints, issues = [], [], []
    n_sprint = 0
    for key, name, desc, areas in _projects(rng):
        team = rng.sample(others, 8)
        members = [user.id, *team]
        projects.append({"project_id": key, "name": name, "description": desc,
                         "lead_id": team[0], "member_ids": members})
        base = rng.randint(8, 30)
        project_sprints = []
        for k, (start, end, state) in enumerate(_sprint_dates(rng)):
            n_sprint += 1
            row = {"sprint_id": f"spr_{n_sprint:03d}", "project_id": key,
                   "name": f"{key} Sprint {base + k}", "state": state,
                   "goal": rng.choice(GOALS).format(area=rng.choice(areas)),
                   "start_date": start, "end_date": end}
            sprints.append(row)
            project_sprints.append(row["sprint_id"])
        *closed_sprints, active_sprint, future_sprint = project_sprints
        plan = _status_plan(rng)
        titles: list[str] = []
        for i, status in enumerate(plan):
            kind = rng.choice(["bug"] * 7 + ["task"] * 6 + ["story"] * 6 + ["epic"])
            area = rng.choice(areas)
            title = rng.choice(TITLES[kind]).format(area=area, cond=rng.choice(CONDITIONS))
            while title in titles:
                area = rng.choice(areas)
                title = rng.choice(TITLES[kind]).format(area=area, cond=rng.choice(CONDITIONS))
            titles.append(title)
            if not title.startswith(("iOS", "dbt", "/")):  # keep brand/path spellings
                title = title[0].upper() + title[1:]
            done = status not in UNRESOLVED
            assignee = (rng.choice(members) if status != "open" or rng.random() < 0.6
                        else None)
            reporter = rng.choice(members)
            if kind == "epic":
                sprint = None
            elif done:
                sprint = rng.choice([*closed_sprints, *closed_sprints, active_sprint])
            elif status != "open":
                sprint = active_sprint
            else:
                sprint = rng.choice([active_sprint, future_sprint, None])
            age = rng.randint(4, 150)
            watchers = [reporter]
            for w in (assignee, rng.choice(members) if rng.random() < 0.4 else None):
                if w is not None and w not in watchers:
                    watchers.append(w)
            created = days_ago(world, age, rng)
            issues.append({
                "issue_id": f"{key}-{i + 1}", "project_id": key, "title": title,
                "description": DESCRIPTIONS[kind].format(area=area, title_lc=title.lower()),
                "type": kind, "priority": rng.choice(["highest"] + ["high"] * 3
                                                     + ["medium"] * 5 + ["low"] * 2
                                                     + ["lowest"]),
                "status": status,
                "resolution": (None if not done else rng.choice(
                    ["fixed", "fixed", "fixed", "wont_fix", "cannot_reproduce"])
                    if kind == "bug" else "done"),
                "assignee_id": assignee, "reporter_id": reporter,
                "labels": sorted(rng.sample(LABELS, rng.choice([0, 1, 1, 2]))),
                "due_date": (_date(rng.randint(-20, -1) if done else rng.randint(-5, 40))
                             if rng.random() < 0.35 else None),
                "story_points": (None if kind == "epic" or (kind == "bug" and rng.random() < .5)
                                 else rng.choice([1, 2, 3, 5, 8])),
                "sprint_id": sprint, "watcher_ids": watchers,
                "created_at": created,
                "updated_at": max(created, days_ago(world, max(1, rng.randint(0, min(age, 20))),
                                                     rng))})
        s.set_var(f"__seq_issue_{key}", len(plan))
    by_id = {i["issue_id"]: i for i in issues}
    members_of = {p["project_id"]: p["member_ids"] for p in projects}

    # Links: mostly within a project; no pair linked twice, no blocking cycles.
    links, pairs = [], set()
    plan = [kind for kind, (lo, hi) in LINK_COUNTS.items() for _ in range(rng.randint(lo, hi))]
    for kind in plan:
        for _ in range(50):
            a = rng.choice(issues)
            pool = [i for i in issues if i["project_id"] == a["project_id"]] \
                if rng.random() < 0.8 else issues
            b = rng.choice(pool)
            if a is b or (a["issue_id"], b["issue_id"]) in pairs \
                    or (b["issue_id"], a["issue_id"]) in pairs:
                continue
            if kind == "duplicates" and (a["status"] != "closed" or b["status"] == "closed"):
                continue  # the duplicate was closed in favour of a live original
            if kind == "blocks" and ("epic" in (a["type"], b["type"]) or (
                    b["status"] not in UNRESOLVED and a["status"] in UNRESOLVED)):
                continue  # a resolved issue was never blocked by a still-open one
            break
        else:
            continue
        pairs.add((a["issue_id"], b["issue_id"]))
        links.append({"link_id": f"lnk_{len(links) + 1:04d}", "link_type": kind,
                      "source_issue_id": a["issue_id"], "target_issue_id": b["issue_id"]})
        if kind == "duplicates":
            by_id[a["issue_id"]]["resolution"] = "duplicate"
    s.table("issues", key="issue_id", kind="issue",
            hint="use search_issues to find issue ids (e.g. 'WEB-3')").load(issues)
    s.table("projects", key="project_id", kind="project",
            hint="use list_projects to see project ids (e.g. 'WEB')").load(projects)
    s.table("sprints", key="sprint_id", kind="sprint",
            hint="use list_sprints to see sprint ids (e.g. 'spr_gqcsyp')").load(sprints)
    s.table("links", key="link_id", kind="issue link",
            hint="get_issue lists an issue's links with their link ids").load(links)
    s.set_var("__seq_lnk", len(links))

    comments = []
    for i in range(rng.randint(len(issues) + 20, 2 * len(issues) + 20)):
        issue = rng.choice(issues)
        age = (TODAY - dt.date.fromisoformat(issue["created_at"][:10])).days
        comments.append({"comment_id": f"cmt_{i + 1:04d}", "issue_id": issue["issue_id"],
                         "author_id": rng.choice(members_of[issue["project_id"]]),
                         "body": rng.choice(COMMENTS),
                         "created_at": days_ago(world, max(1, rng.randint(0, age)), rng)})
    comments.sort(key=lambda c: (c["created_at"], c["comment_id"]))
    s.table("comments", key="comment_id", kind="comment",
            hint="get_issue lists an issue's comments").load(
        [{**c, "comment_id": f"cmt_{k + 1:04d}"} for k, c in enumerate(comments)])
    s.set_var("__seq_cmt", len(comments))

    worklogs = []
    for issue in issues:
        if issue["assignee_id"] is None or issue["status"] == "open":
            continue
        age = (TODAY - dt.date.fromisoformat(issue["created_at"][:10])).days
        for _ in range(rng.randint(1, 3)):
            back = rng.randint(1, max(1, age))
            worklogs.append({
                "worklog_id": "", "issue_id": issue["issue_id"],
                "author_id": issue["assignee_id"],
                "minutes": rng.choice([30, 45, 60, 90, 120, 180, 240]),
                "work_date": _date(-back), "note": rng.choice(WORK_NOTES),
                "created_at": days_ago(world, back, rng)})
    worklogs.sort(key=lambda w: (w["created_at"], w["issue_id"]))
    s.table("worklogs", key="worklog_id", kind="work log",
            hint="get_issue lists an issue's work logs").load(
        [{**w, "worklog_id": f"wl_{k + 1:04d}"} for k, w in enumerate(worklogs)])
    s.set_var("__seq_wl", len(worklogs))
