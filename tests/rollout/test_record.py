"""Episode records: the transcript as it happened, the calls with their outcome kinds, the
reward's alignment to the truth, the state hashes against the truth's, and a size cap that
keeps whole episodes."""

from __future__ import annotations

import json

import pytest

from prove_jax.rewards import alignment
from prove_jax.rollout.engine import RolloutEngine
from prove_jax.rollout.record import episode_record, write_episodes
from prove_jax.rollout.task import RolloutConfig, Task
from prove_jax.synthesis.revalidate import replay_row
from prove_jax.tools.chat import ChatFormat
from prove_jax.tools.manager import MCPManager, ServerSpec
from tests.rollout.scripted import ScriptedPolicy, call, raw
from tests.rollout.tokenizers import qwen3_tokenizer

pytestmark = pytest.mark.anyio
TRUTH = {"steps": [[{"name": "get_wallet", "arguments": {}}],
                   [{"name": "get_payment", "arguments": {"payment_id": "pay_0001"}}]],
         "edges": [[0, 1]]}
SCRIPTS = {"rec": lambda seed, t: [
    [raw('<tool_call>\n{"name": "get_wallet", "arguments": {\n</tool_call>'),
     call("get_wallet", {"nope": 1})],
    [call("get_wallet", {})],
    "Your wallet is fine.",
    "Done, nothing else."][t]}


async def _play():
    chat = ChatFormat(qwen3_tokenizer(), "qwen3")
    task = Task("rec", ("payments",), ("[task rec] How much do I have?", "Thanks, anything else?"),
                TRUTH, seed=3)
    async with MCPManager([ServerSpec("payments", "inprocess")]) as mgr:
        engine = RolloutEngine(ScriptedPolicy(chat, SCRIPTS), mgr, chat, RolloutConfig())
        (traj,) = await engine.run([(task, 7, 0)])
        _, _, expected, _ = await replay_row(mgr, task.to_dict())
    return task, traj, expected


async def test_the_transcript_and_record_follow_the_episode():
    task, traj, expected = await _play()
    roles = [t["role"] for t in traj.transcript]
    assert roles == ["user", "assistant", "tool", "tool", "assistant", "tool", "assistant",
                     "user", "assistant"]
    first, second = traj.transcript[1], traj.transcript[4]
    assert first["calls"] == [0, 1] and second["calls"] == [2] and first["complete"]
    assert [traj.transcript[i]["call"] for i in (2, 3, 5)] == [0, 1, 2]
    assert traj.transcript[7]["text"] == "Thanks, anything else?"

    record = json.loads(json.dumps(episode_record(task, traj, step=4, group=1, advantage=-0.5,
                                                  expected_hashes=expected)))
    assert [(c["kind"], c["outcome"]) for c in record["calls"]] == [
        ("malformed_call", "unknown_tool"), ("schema_error", "schema_error"), ("ok", "ok")]
    assert "not valid JSON" in record["calls"][0]["error"]
    assert "nope" in record["calls"][1]["result"]
    # truth call 0 (get_wallet) is covered by the first call that matches its keys: call 1
    # (the schema error; the paper's rule matches any outcome); get_payment is missed
    assert [(a["name"], a["call"]) for a in record["alignment"]] == [
        ("get_wallet", 1), ("get_payment", None)]
    assert record["rewards"]["cov"] == 0.5 and record["advantage"] == -0.5
    assert record["expected_hashes"] == expected and record["final_hashes"]
    # get_payment is read-only: the states agree even though the call was missed
    assert record["state_match"] is True
    assert record["finish_reason"] == "answered" and record["failed"] is None


def test_alignment_marks_dependencies_out_of_order():
    calls = [{"name": "get_payment", "arguments": {"payment_id": "pay_0001"}, "outcome": "ok"},
             {"name": "get_wallet", "arguments": {}, "outcome": "ok"}]
    got = alignment(calls, TRUTH)
    assert [(a["call"], a["in_order"]) for a in got] == [(1, True), (0, False)]
    assert got[1]["hits"] == 1 and got[1]["keys"] == 1


def test_the_size_cap_keeps_whole_episodes_a_seeded_sample_in_order(tmp_path):
    records = [{"i": i, "text": "x" * (100 + 37 * i)} for i in range(40)]
    out = tmp_path / "episodes" / "step_000001.jsonl"
    stats = write_episodes(out, records, max_bytes=20_000, seed=5)
    kept = [json.loads(line) for line in out.read_text().splitlines()]
    assert 0 < stats["written"] == len(kept) < 40 and stats["dropped"] == 40 - len(kept)
    assert out.stat().st_size == stats["bytes"] <= 20_000
    assert [r["i"] for r in kept] == sorted(r["i"] for r in kept)
    assert all(r == records[r["i"]] for r in kept)  # none truncated
    again = tmp_path / "again.jsonl"
    write_episodes(again, records, max_bytes=20_000, seed=5)
    assert again.read_text() == out.read_text()
    assert write_episodes(tmp_path / "all.jsonl", records)["written"] == 40
