"""Alternatives of read steps (issue 23, item 4) on the toy world: probed on the live state
right after the read, recorded only when the probe's result really surfaces what the step is
for, never for a failed probe or a hidden tool; then on real servers: every recorded
alternative runs where it stands on a fresh session."""

from __future__ import annotations

import asyncio
import json
import random

from prove_jax.synthesis.alternatives import select_alternatives
from prove_jax.synthesis.machine import execute_chain
from prove_jax.synthesis.revalidate import revalidate
from prove_jax.tools.manager import CallResult
from tests.synthesis import toy

LIST = {"name": "list_items", "arguments": {}}


def _run(chain, manager=None, info="complete", seed=0):
    c = toy.cfg()
    manager = manager or toy.ScriptedManager()
    run = asyncio.run(execute_chain(toy.plan(chain, info=info), toy.graph(), c, toy.filler(c),
                                    manager, toy.Episode(), {"toy": toy.context()}, toy.NAMES,
                                    random.Random(seed)))
    return run, manager


def _listing(items):
    return lambda args: CallResult("toy", "list_items", True, {"items": items})


def test_a_read_the_user_asked_for_gets_the_list_that_shows_the_same_record():
    # get_item(i_2) -> archive it: list_items, called right after get_item, shows i_2 with
    # every field equal, and the request named i_2 ("archive that one" finds it there too)
    run, mgr = _run(["get_item", "archive_item"])
    get = run.steps[0]
    assert get.name == "get_item" and get.probes[0].name == "list_items"
    calls = [t for t, _ in mgr.calls]
    assert calls.index("list_items") == calls.index("get_item") + 1  # before the write
    assert run.stats["probe_calls"] == 1 and run.stats["calls"] == 2
    select_alternatives(run.steps)
    assert get.alternatives == [LIST] and get.probes == []
    assert run.steps[1].alternatives == []  # a write has none
    assert get.truth_call() == {"name": "get_item", "arguments": get.args,
                                "alternatives": [LIST]}


def test_only_verified_probes_become_alternatives():
    changed = [dict(i, status="archived") for i in toy.ITEMS]  # the record differs
    missing = [i for i in toy.ITEMS if i["item_id"] != "i_2"]  # the record is not there
    for script in ([toy.fail("list_items")], [_listing(changed)], [_listing(missing)]):
        run, _ = _run(["get_item", "archive_item"], toy.ScriptedManager(
            {"list_items": script}))
        assert run.steps[0].args == {"item_id": "i_2"} and run.steps[0].probes
        select_alternatives(run.steps)
        assert run.steps[0].alternatives == [], script
    # a tool the task hides is never recorded, verified or not
    run, _ = _run(["get_item", "archive_item"])
    select_alternatives(run.steps, hidden="toy.list_items")
    assert run.steps[0].alternatives == []


def test_a_back_reference_must_still_single_the_value_out():
    # find_items("Blue") shows one item and the user then says "archive that one": list_items
    # shows all three, so "that one" would not say which: no alternative
    run, _ = _run(["find_items", "archive_item"], seed=2)
    assert run.steps[0].args == {"query": "Blue"} and len(run.steps[0].payload["items"]) == 1
    assert [p.name for p in run.steps[0].probes] == ["list_items"]
    select_alternatives(run.steps)
    assert run.steps[0].alternatives == []


def test_a_lookup_gets_the_other_lookup_tool_by_the_name_the_user_says():
    # seed 0: the look-up is find_items("Blue chair"); list_items lists Blue chair once, with
    # its id: an alternative. Seed 1: the look-up is list_items; find_items("Red lamp") is.
    run, _ = _run(["archive_item", "get_item"], info="minimal", seed=0)
    lookup = run.steps[0]
    assert lookup.lookup and (lookup.name, lookup.args) == ("find_items",
                                                            {"query": "Blue chair"})
    select_alternatives(run.steps)
    assert lookup.alternatives == [LIST]
    run, _ = _run(["archive_item", "get_item"], info="minimal", seed=1)
    assert (run.steps[0].name, run.steps[0].args) == ("list_items", {})
    select_alternatives(run.steps)
    assert run.steps[0].alternatives == [{"name": "find_items",
                                          "arguments": {"query": "Red lamp"}}]
    # two items called "Blue chair": the name no longer ties one id, so no alternative
    twin = [*toy.ITEMS, {"item_id": "i_9", "name": "Blue chair", "status": "active"}]
    run, _ = _run(["archive_item", "get_item"], toy.ScriptedManager(
        {"list_items": [_listing(twin)]}), info="minimal", seed=0)
    assert run.steps[0].name == "find_items" and run.steps[0].probes[0].payload["items"] == twin
    select_alternatives(run.steps)
    assert run.steps[0].alternatives == []


def test_real_rows_carry_alternatives_that_run_where_they_stand(dataset):
    rows = [json.loads(line) for name in ("train.jsonl", "test.jsonl")
            for line in dataset.paths[name].read_text().splitlines()]
    with_alts = [r for r in rows if any(c.get("alternatives") for s in r["truth"]["steps"]
                                        for c in s)]
    assert with_alts  # 240 rows over six servers: some reads have another valid path
    for conv in dataset.kept:
        for s in conv.steps:
            assert not s.alternatives or s.node.read_only
            assert s.name not in {a["name"] for a in s.alternatives}
    report = asyncio.run(revalidate(with_alts, len(with_alts), transport="inprocess"))
    assert report["alternatives"] > 0 and report["alternative_failures"] == {}
    assert report["passed"] and report["errors"] == 0
