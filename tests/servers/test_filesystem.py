"""Domain behaviour of the filesystem server: paths, permissions, all-or-nothing edits."""

from __future__ import annotations

import time

import pytest

from servers.core.runtime import Runtime
from servers.core.world import make_world
from servers.filesystem import DOMAIN
from tests.servers.common import (
    assert_world_varies,
    digest,
    examples,
    fails,
    ok,
    ok_all,
    runtime_fixture,
    state,
)

PATH_PARAMS = ("path", "source", "destination", "other_path", "paths")


rt = runtime_fixture(DOMAIN)


def home(rt: Runtime) -> str:
    return rt.session(None).state.var("home")


# The seeded tree varies by seed (names, counts): tests find the files they need by content.
def files_in(rt: Runtime, folder: str) -> list[str]:
    """Home-relative paths of the files directly in ~/`folder`, sorted."""
    parent = f"{home(rt)}/{folder}"
    return sorted(r["path"][len(home(rt)) + 1:] for r in state(rt)["nodes"].rows()
                  if r["parent"] == parent and r["type"] == "file")


def seeded(rt: Runtime, folder: str, starts: str) -> str:
    """The first file in ~/`folder` whose content starts with `starts` (home-relative)."""
    found = [p for p in files_in(rt, folder)
             if state(rt)["nodes"].get(f"{home(rt)}/{p}")["content"].startswith(starts)]
    assert found, f"no file in ~/{folder} starting {starts!r}"
    return found[0]


def todo(rt: Runtime) -> str:
    return seeded(rt, "notes", "TODO")


def sales(rt: Runtime) -> list[str]:
    """The quarterly sales reports (CSV), oldest quarter first."""
    return [p for p in files_in(rt, "reports") if p.startswith("reports/sales_")]


def a_service(rt: Runtime) -> tuple[str, str]:
    """A code project with tests: its folder and its app module's file name."""
    test = next(r for r in state(rt)["nodes"].rows() if r["name"].startswith("test_"))
    folder = test["parent"].rsplit("/", 1)[0][len(home(rt)) + 1:]
    return folder, test["name"].removeprefix("test_").removesuffix(".py") + "_app.py"


def test_seed_tree_is_rich_and_under_home(rt):
    files = ok_all(rt, "find", {"path": "/", "type": "file"}, "paths")
    mine = [p for p in files if p.startswith(home(rt) + "/")]
    assert len(mine) >= 20
    for sub in ("documents", "projects", "notes", "reports", "photos", "downloads"):
        assert ok(rt, "file_exists", {"path": f"~/{sub}"})["type"] == "directory"
    people = [p.name for p in make_world(0).people[1:]]
    text = "".join(ok(rt, "cat", {"path": p})["content"] for p in mine)
    assert sum(name in text for name in people) >= 10
    assert ok(rt, "get_disk_usage", {})["used_bytes"] > 5000


def test_every_path_param_reports_a_missing_path_and_changes_nothing(rt):
    """Like the contract's nonexistent-id check, for path parameters (run along EXAMPLES)."""
    checked = set()
    for tool, args in examples("filesystem"):
        for param in PATH_PARAMS:
            if param not in DOMAIN.tools[tool].input_schema["properties"]:
                continue
            ghost = "ghost_dir/ghost.txt"
            bad = {**args, param: [ghost] if param == "paths" else ghost}
            if tool == "mkdir":
                bad["parents"] = False  # mkdir -p would legitimately create it
            if tool == "file_exists":
                assert ok(rt, tool, bad)["exists"] is False
            else:
                fails(rt, tool, bad, "ghost_dir")
            checked.add((tool, param))
        ok(rt, tool, args)
    tools_with_paths = {(t, p) for t, spec in DOMAIN.tools.items() for p in PATH_PARAMS
                        if p in spec.input_schema["properties"]}
    assert checked == tools_with_paths


@pytest.mark.parametrize("tool,args", [
    ("cd", {"path": "../../.."}),
    ("cd", {"path": "/.."}),
    ("ls", {"path": "../../../etc"}),
    ("cat", {"path": "/home/../../etc/passwd"}),
    ("write_file", {"path": "../../../evil.txt", "content": "x"}),
    ("mkdir", {"path": "../../../../tmp/x", "parents": True}),
    ("rm", {"path": "../../..", "recursive": True}),
    ("mv", {"source": ".bashrc", "destination": "../../../../todo.txt"}),
    ("cp", {"source": "../../../../..", "destination": "x", "recursive": True}),
    ("file_exists", {"path": "/../home"}),
    ("grep", {"pattern": "root", "path": "../../../etc", "recursive": True}),
    ("create_archive", {"paths": ["notes", "../../../.."], "name": "escape"}),
    ("extract_archive", {"archive_id": None, "destination": "../../../.."}),
])
def test_paths_escaping_the_root_are_refused(rt, tool, args):
    if "archive_id" in args:  # one the seed built
        args = {**args, "archive_id": state(rt)["archives"].rows()[0]["archive_id"]}
    fails(rt, tool, args, "escapes the root directory")


def test_relative_paths_dots_and_home(rt):
    h = home(rt)
    assert ok(rt, "cd", {"path": "projects/../notes/./"})["cwd"] == f"{h}/notes"
    assert ok(rt, "pwd", {})["cwd"] == f"{h}/notes"
    first = sales(rt)[0]
    assert ok(rt, "cat", {"path": f"../{first}"})["path"] == f"{h}/{first}"
    assert ok(rt, "cd", {"path": "/"})["cwd"] == "/"
    assert ok(rt, "cd", {"path": "~"})["cwd"] == h
    fails(rt, "cd", {"path": todo(rt)}, "not a directory")


def test_mv_directory_moves_the_subtree_and_the_cwd_follows(rt):
    h = home(rt)
    project, app = a_service(rt)
    name = project.removeprefix("projects/")
    before = ok(rt, "checksum", {"path": f"{project}/{app}"})["digest"]
    ok(rt, "cd", {"path": f"{project}/tests"})
    ok(rt, "mv", {"source": f"~/{project}", "destination": "~/documents"})
    assert ok(rt, "pwd", {})["cwd"] == f"{h}/documents/{name}/tests"
    assert not ok(rt, "file_exists", {"path": f"{h}/{project}"})["exists"]
    assert ok(rt, "checksum", {"path": f"../{app}"})["digest"] == before
    fails(rt, "mv", {"source": "~/documents", "destination": f"~/documents/{name}"},
          "into itself")


def test_read_only_files_refuse_every_change_until_chmod(rt):
    path = seeded(rt, "reports", "Annual summary")
    assert ok(rt, "stat", {"path": path})["read_only"] is True
    fails(rt, "write_file", {"path": path, "content": "x"}, "read-only")
    fails(rt, "append_file", {"path": path, "content": "x"}, "read-only")
    fails(rt, "edit_replace", {"path": path, "find": "Revenue", "replace": "R"}, "read-only")
    fails(rt, "rm", {"path": path}, "read-only")
    fails(rt, "mv", {"source": path, "destination": "notes"}, "read-only")
    fails(rt, "rm", {"path": "reports", "recursive": True}, "read-only",
          path.rsplit("/", 1)[1])
    ok(rt, "chmod", {"path": path, "read_only": False})
    assert ok(rt, "append_file", {"path": path, "content": "Reviewed"})["lines"] == 7


def test_system_directories_are_protected(rt):
    fails(rt, "mkdir", {"path": "/projects"}, "read-only")
    fails(rt, "write_file", {"path": "/home/intruder.txt", "content": "x"}, "read-only")
    fails(rt, "chmod", {"path": "/home", "read_only": False}, "owned by root")
    fails(rt, "rm", {"path": "/tmp", "recursive": True}, "permission denied")
    fails(rt, "rm", {"path": "~", "recursive": True}, "permission denied")
    assert ok(rt, "write_file", {"path": "/tmp/scratch.txt", "content": "ok"})["created"]


def test_rm_and_rmdir_rules(rt):
    fails(rt, "rm", {"path": "photos"}, "recursive=true")
    fails(rt, "rmdir", {"path": "photos"}, "not empty")
    ok(rt, "cd", {"path": "photos"})
    fails(rt, "rm", {"path": "~/photos", "recursive": True}, "current directory")
    ok(rt, "cd", {"path": ".."})
    photos = files_in(rt, "photos")
    assert len(photos) >= 4
    out = ok(rt, "rm", {"path": "photos", "recursive": True})
    assert len(out["removed"]) == len(photos) + 1 and out["freed_bytes"] > 0
    fails(rt, "cat", {"path": photos[-1]}, "no such file")


def test_cp_makes_an_independent_copy(rt):
    original = sales(rt)[-1]
    copy = original.replace("reports/", "reports_copy/")
    summary = seeded(rt, "reports", "Annual summary").replace("reports/", "reports_copy/")
    ok(rt, "cp", {"source": "reports", "destination": "reports_copy", "recursive": True})
    a = ok(rt, "checksum", {"path": original})["digest"]
    assert ok(rt, "checksum", {"path": copy})["digest"] == a
    assert ok(rt, "stat", {"path": summary})["read_only"] is False
    ok(rt, "edit_replace", {"path": copy, "find": "city", "replace": "town"})
    assert ok(rt, "checksum", {"path": original})["digest"] == a
    d = ok(rt, "diff", {"path": original, "other_path": copy})
    assert not d["identical"] and d["added"] == 1 and d["removed"] == 1
    fails(rt, "cp", {"source": todo(rt), "destination": sales(rt)[0]}, "overwrite=true")
    fails(rt, "cp", {"source": "notes", "destination": "n2"}, "recursive=true")


def test_edit_replace_and_grep_validate_patterns(rt):
    path = todo(rt)
    fails(rt, "edit_replace", {"path": path, "find": "zzz", "replace": "y"},
          "not found")
    fails(rt, "edit_replace", {"path": path, "find": "(unclosed", "replace": "y",
                               "regex": True}, "invalid regular expression")
    fails(rt, "grep", {"pattern": "[oops", "path": path}, "invalid regular")
    for template in (r"\9", r"\g<x>", r"\d"):
        fails(rt, "edit_replace", {"path": path, "find": r"- (\w+)",
                                   "replace": template, "regex": True}, "or replacement")
    out = ok(rt, "edit_replace", {"path": path, "find": r"- (\w+)",
                                  "replace": r"* \1", "regex": True, "count": 2})
    assert out["replacements"] == 2
    lines = ok(rt, "head", {"path": path, "lines": 4})["lines"]
    assert lines[1] == "* renew passport" and lines[2].startswith("* call ")
    assert lines[3].startswith("- book dinner")
    assert ok(rt, "grep", {"pattern": "^\\* ", "path": path})["total"] == 2


# (a|aa)+$ backtracks through every way to split the a's (Fibonacci-many): minutes unbounded.
SLOW = {"pattern": "(a|aa)+$", "line": "a" * 40 + "b"}


def test_a_catastrophic_grep_pattern_fails_fast_and_the_server_keeps_serving(rt):
    ok(rt, "write_file", {"path": "slow.txt", "content": SLOW["line"]})
    started = time.monotonic()
    fails(rt, "grep", {"pattern": SLOW["pattern"], "path": "slow.txt"}, "took longer than",
          "fixed_string=true")
    assert time.monotonic() - started < 5  # a 1 s budget, with room for a loaded machine
    assert ok(rt, "grep", {"pattern": "a+b$", "path": "slow.txt"})["total"] == 1
    # the textbook (a+)+$ is either matched quickly or refused the same way; never a hang
    started = time.monotonic()
    rt.call("grep", {"pattern": "(a+)+$", "path": "slow.txt"})
    assert time.monotonic() - started < 5


def test_a_catastrophic_edit_replace_fails_fast_and_changes_nothing(rt):
    ok(rt, "write_file", {"path": "slow.txt", "content": SLOW["line"]})
    started = time.monotonic()
    fails(rt, "edit_replace", {"path": "slow.txt", "find": SLOW["pattern"], "replace": "x",
                               "regex": True}, "took longer than", "regex=false")
    assert time.monotonic() - started < 5
    assert ok(rt, "edit_replace", {"path": "slow.txt", "find": "a+b$", "replace": "x",
                                   "regex": True})["replacements"] == 1


def test_quota_is_enforced_and_a_refused_write_leaves_no_trace(rt):
    free = ok(rt, "get_disk_usage", {})["free_bytes"]
    chunk = "x" * 100_000
    n = 0
    while free >= 100_000:
        ok(rt, "write_file", {"path": f"big_{n}.txt", "content": chunk})
        free -= 100_000
        n += 1
    fails(rt, "write_file", {"path": "one_too_many.txt", "content": chunk}, "quota exceeded")
    fails(rt, "cp", {"source": "big_0.txt", "destination": "big_copy.txt"}, "quota exceeded")
    ok(rt, "rm", {"path": "big_0.txt"})
    ok(rt, "write_file", {"path": "one_too_many.txt", "content": chunk})


def test_archive_round_trip_restores_identical_files(rt):
    reports = files_in(rt, "reports")
    sums = {p: ok(rt, "checksum", {"path": p})["digest"]
            for p in (sales(rt)[0], seeded(rt, "reports", "person,project,hours"))}
    ok(rt, "chmod", {"path": "reports", "read_only": False, "recursive": True})
    arc = ok(rt, "create_archive", {"paths": ["reports"], "name": "q", "format": "tar.gz",
                                    "remove_sources": True})
    assert arc["name"] == "q.tar.gz" and arc["entry_count"] == len(reports) + 1
    assert not ok(rt, "file_exists", {"path": "reports"})["exists"]
    fails(rt, "create_archive", {"paths": ["notes"], "name": "q.tar.gz", "format": "tar.gz"},
          "already exists")
    ok(rt, "extract_archive", {"archive_id": arc["archive_id"]})
    for p, s in sums.items():
        assert ok(rt, "checksum", {"path": p})["digest"] == s
    fails(rt, "extract_archive", {"archive_id": arc["archive_id"]}, "overwrite=true")
    out = ok(rt, "extract_archive", {"archive_id": arc["archive_id"], "overwrite": True})
    assert len(out["overwritten"]) == len(reports) >= 5
    fails(rt, "extract_archive", {"archive_id": "arc_0999"}, "arc_0999", "list_archives")


def test_modified_times_come_from_the_world_clock(rt):
    a = ok(rt, "write_file", {"path": "notes/a.txt", "content": "1"})["modified_at"]
    b = ok(rt, "append_file", {"path": "notes/a.txt", "content": "2"})["modified_at"]
    # seed 0's home is Berlin: the world's now is 12:00 there (+02:00 in June)
    assert a == "2026-06-15T12:01+02:00" and b == "2026-06-15T12:02+02:00"
    recent = ok(rt, "list_recent", {"limit": 2})["files"]
    assert recent[0]["path"].endswith("notes/a.txt")
    assert ok(rt, "cat", {"path": "notes/a.txt"})["content"] == "1\n2\n"
    assert Runtime(DOMAIN, default_seed=0).session(None).state.digest() != digest(rt)


def test_tags(rt):
    ideas = seeded(rt, "notes", "# Ideas")
    work = [r for r in state(rt)["nodes"].rows() if "work" in r["tags"]]
    assert not any(r["path"].startswith(f"{home(rt)}/notes/") for r in work)
    ok(rt, "tag_file", {"path": ideas, "tag": "work"})
    fails(rt, "tag_file", {"path": ideas, "tag": "work"}, "already has tag")
    fails(rt, "tag_file", {"path": ideas, "tag": "nope", "remove": True}, "no tag")
    counts = {t["tag"]: t["count"] for t in ok(rt, "list_tags", {})["tags"]}
    assert counts["work"] == len(work) + 1 >= 4  # the sales reports, summary and contract
    found = ok(rt, "search_by_tag", {"tag": "work", "path": "notes"})["files"]
    assert [f["name"] for f in found] == [ideas.rsplit("/", 1)[1]]
    fails(rt, "tag_file", {"path": ideas, "tag": "Bad Tag"}, "must match")


def test_csv_tools_and_sort(rt):
    report = sales(rt)[0]
    n_rows = ok(rt, "wc", {"path": report})["lines"] - 1  # less the header
    out = ok(rt, "cut_columns", {"path": report, "columns": ["city", "5"]})
    assert out["header"] == ["city", "revenue"] and out["total_rows"] == n_rows >= 6
    fails(rt, "cut_columns", {"path": report, "columns": ["price"]},
          "price", "city, rep, customer, units, revenue")
    fails(rt, "sort", {"path": report, "column": 4, "numeric": True}, "header=true")
    lines = ok(rt, "sort", {"path": report, "column": 4, "numeric": True,
                            "header": True})["lines"]
    units = [int(line.split(",")[3]) for line in lines[1:]]
    assert units == sorted(units) and lines[0].startswith("city,")
    dup = ok(rt, "uniq", {"path": seeded(rt, "notes", "Reading list"), "all_duplicates": True,
                          "only_repeated": True})["lines"]
    assert {d["count"] for d in dup} == {2} and len(dup) == 2


def test_rename_and_mkdir_rules(rt):
    ideas = seeded(rt, "notes", "# Ideas").rsplit("/", 1)[1]
    fails(rt, "rename", {"path": todo(rt), "new_name": ideas}, "already exists")
    fails(rt, "rename", {"path": todo(rt), "new_name": "../x"}, "invalid name")
    fails(rt, "mkdir", {"path": "notes"}, "already exists")
    fails(rt, "mkdir", {"path": "a/b/c"}, "parents=true")
    assert len(ok(rt, "mkdir", {"path": "a/b/c", "parents": True})["created"]) == 3
    assert ok(rt, "mkdir", {"path": "a/b/c", "parents": True})["created"] == []


def file_names(seed: int) -> set[str]:
    nodes = Runtime(DOMAIN, default_seed=seed).session(None).state["nodes"].rows()
    return {r["name"] for r in nodes if r["type"] == "file"}


def test_world_varies_by_seed():
    assert_world_varies("filesystem", {"nodes": "type", "archives": "format"})
    a, b = file_names(11), file_names(12)
    assert len(a & b) <= 0.5 * min(len(a), len(b)), sorted(a & b)
