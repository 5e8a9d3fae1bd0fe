"""Held-out split: the oracle succeeds on every task (its final states equal the truth's
replay); dropping each turn's last call fails most writing tasks; results files are written."""

from __future__ import annotations

import asyncio
import json

import pytest

from prove_jax.data.tasks import load_tasks
from prove_jax.eval.heldout import run_heldout
from prove_jax.eval.report import markdown_table, write_results
from prove_jax.rollout.oracle import OraclePolicy, load_meta
from prove_jax.rollout.task import RolloutConfig
from prove_jax.synthesis.run import run
from prove_jax.synthesis.settings import SynthConfig
from prove_jax.tools.chat import ChatFormat
from prove_jax.tools.manager import MCPManager, ServerSpec
from tests.rollout.tokenizers import qwen3_tokenizer

SERVERS = ("payments", "budget")
CONFIG = RolloutConfig(max_assistant_turns=16, batch_wait_s=0.05)


@pytest.fixture(scope="module")
def split(tmp_path_factory):
    out = tmp_path_factory.mktemp("synth")
    run(SynthConfig(num_examples=40, seed=3, servers=SERVERS, out_dir=str(out), progress=False,
                    test_frac=0.5))
    tasks = load_tasks(out / "test.jsonl")
    assert len(tasks) >= 12
    return tasks, load_meta(out)


def _run(tasks, meta, drop: bool) -> dict:
    chat = ChatFormat(qwen3_tokenizer(), "qwen3")
    policy = OraclePolicy(chat, {t.id: t for t in tasks}, meta=meta, drop_last_call=drop)

    async def go():
        async with MCPManager([ServerSpec(s, "inprocess") for s in SERVERS]) as mgr:
            return await run_heldout(policy, chat, mgr, tasks, CONFIG, seed=0)

    return asyncio.run(go())


def test_oracle_succeeds_everywhere_and_dropping_calls_fails(split, tmp_path):
    tasks, meta = split
    full = _run(tasks, meta, drop=False)
    assert full["overall"]["n"] == len(tasks)
    assert full["overall"]["success"] == 1.0, [r for r in full["rows"] if not r["success"]]
    assert all(r["truth_errors"] == 0 for r in full["rows"])
    assert set(full["categories"]) <= {"normal", "clarification", "abstention"}

    dropped = _run(tasks, meta, drop=True)
    writing = [r for r, t in zip(dropped["rows"], tasks, strict=True) if t.truth["steps"]]
    assert sum(r["success"] for r in writing) < 0.5 * len(writing)
    assert dropped["overall"]["success"] < full["overall"]["success"]
    assert dropped["overall"]["reward/total"] < full["overall"]["reward/total"] - 0.1

    paths = write_results(tmp_path / "out", full, {"benchmark": "heldout", "policy": "oracle"})
    saved = json.loads(paths["json"].read_text())
    assert saved["overall"]["success"] == 1.0 and saved["benchmark"] == "heldout"
    assert "| overall |" in paths["md"].read_text()
    assert len(paths["episodes"].read_text().splitlines()) == len(tasks)


def test_markdown_table_columns():
    table = markdown_table({"categories": {"a": {"n": 2, "acc": 0.5}},
                            "overall": {"n": 2, "acc": 0.5, "extra": True}}, "t")
    lines = table.splitlines()
    assert lines[2] == "| category | n | acc | extra |"
    assert lines[4] == "| a | 2 | 0.5000 |  |" and lines[5] == "| overall | 2 | 0.5000 | True |"
