"""Every kept example is a valid, grounded task: it loads, its truth scores the maximum when
played back as the model's calls, every entity it names exists in its world, credentials are
traceable, and an independent replay on fresh stdio server processes reproduces it."""

from __future__ import annotations

import asyncio
import json
import os
import re

import pytest

from prove_jax.data import TaskSource
from prove_jax.rewards import score
from prove_jax.rollout.task import Task
from prove_jax.synthesis.revalidate import revalidate
from prove_jax.synthesis.validate import credential_problems, is_secret_arg, replay
from prove_jax.tools.manager import MCPManager, ServerSpec
from tests.synthesis.common import SERVERS

# The acceptance check re-validates 500 kept examples; the unit test a smaller sample.
REVALIDATE = int(os.environ.get("PROVE_SYNTH_REVALIDATE", "100"))
ID = re.compile(r"\b[a-z]{1,6}_\d{2,6}\b")


def _rows(dataset):
    return [json.loads(line) for name in ("train.jsonl", "test.jsonl")
            for line in dataset.paths[name].read_text().splitlines()]


def test_rows_load_and_truth_scores_the_maximum(dataset):
    rows = _rows(dataset)
    assert len(rows) == 240
    kinds = {r["truth"]["kind"] for r in rows}
    assert kinds == {"normal", "clarification", "abstention"}
    for row in rows:
        task = Task.from_dict(row)
        assert Task.from_dict(task.to_dict()) == task
        calls = [{**c, "outcome": "ok"} for step in row["truth"]["steps"] for c in step]
        result = score(calls, row["truth"])
        if task.kind == "abstention":
            assert result["total"] == 1.0 and not calls
        else:
            assert result["total"] == pytest.approx(1.3), (row["id"], result)


def test_source_reads_what_was_written(dataset):
    source = TaskSource(dataset.paths["train.jsonl"])
    lines = dataset.paths["train.jsonl"].read_text().splitlines()
    assert len(source) == len(lines) and source[-1] == json.loads(lines[-1])


def test_entities_named_in_queries_exist_in_the_seeded_state(dataset):
    async def states():
        async with MCPManager([ServerSpec(s, "inprocess") for s in SERVERS]) as mgr:
            out = {}
            for conv in dataset.kept:
                key = (tuple(conv.plan.servers), conv.plan.world_seed)
                if key in out:
                    continue
                ep = await mgr.open_episode(conv.plan.servers, conv.plan.world_seed)
                snap = await mgr.snapshot(ep, include_state=True)
                out[key] = {s: json.dumps(v["state"], ensure_ascii=False) for s, v in snap.items()}
                await mgr.close_episode(ep)
            return out

    worlds = asyncio.run(states())
    checked = 0
    for conv in dataset.kept:
        state = worlds[(tuple(conv.plan.servers), conv.plan.world_seed)]
        everything = " ".join(state.values())
        text = " ".join(conv.user_turns)
        for m in conv.mentions:
            if m["how"] in ("id", "entity"):
                assert f'"{m["id"]}"' in state[m["server"]], (conv.plan.id, m)
                if m["label"]:
                    assert json.dumps(m["label"], ensure_ascii=False)[1:-1] in everything
                    assert m["label"] in text
                checked += 1
        for token in ID.findall(text):  # every id-like token the user says exists
            assert f'"{token}"' in everything, (conv.plan.id, token)
    assert checked > 50


def test_credentials_are_traceable(dataset):
    assert all(not credential_problems(c) for c in dataset.kept)
    assert is_secret_arg("password") and is_secret_arg("api_key") and is_secret_arg("pin")
    assert is_secret_arg("code") and not is_secret_arg("postal_code")
    assert not is_secret_arg("shipping_method")


def test_independent_replay_on_fresh_stdio_processes(dataset):
    """A sample of written rows replayed as stored (exposed names, arguments, world seed) on
    new server processes over stdio: no call errors and final state hashes equal to an
    in-process replay's."""
    report = asyncio.run(revalidate(_rows(dataset), REVALIDATE, seed=0, transport="stdio"))
    assert report["checked"] == min(REVALIDATE, sum(1 for c in dataset.kept if c.steps))
    assert report["errors"] == 0 and report["passed"], report


def test_replay_in_process_matches_generation(dataset):
    """The validator's own replay: every kept example reproduces its recorded outputs."""
    async def go():
        servers = sorted({s for c in dataset.kept for s in c.plan.servers})
        async with MCPManager([ServerSpec(s, "inprocess") for s in servers]) as mgr:
            return [await replay(mgr, c) for c in dataset.kept[:60]]

    assert all(r.errors == 0 and r.mismatches == 0 for r in asyncio.run(go()))


def test_500_kept_examples_over_all_servers_replay_on_fresh_stdio_processes(
        tmp_path_factory, graph_cache):
    """The acceptance size: 500 kept rows over all 20 servers (default knobs) replayed as
    stored on new server processes over stdio."""
    from servers.registry import available
    from tests.synthesis.common import config, run

    out = tmp_path_factory.mktemp("synth_all")
    # Blocks of 25 go round-robin over the servers: 28 blocks cover all 20.
    data = run(config(out, graph_cache, num_examples=700, servers=tuple(available()),
                      context_refresh_k=25))
    rows = _rows(data)
    assert len({s for r in rows for s in r["servers"]}) == len(available()) == 20
    report = asyncio.run(revalidate(rows, 500, seed=0, transport="stdio"))
    assert report["checked"] == 500, report
    assert report["errors"] == 0 and report["passed"], report
