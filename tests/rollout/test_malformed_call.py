"""A call whose text is not JSON keeps its own kind (malformed_call) through an episode and
scores as the rewards score an unknown tool: R_val 0 for it, ToolRL format 0."""

from __future__ import annotations

import pytest

from prove_jax.rewards import RewardConfig
from prove_jax.rollout.engine import RolloutEngine
from prove_jax.rollout.task import RolloutConfig, Task
from prove_jax.tools.chat import ChatFormat
from prove_jax.tools.manager import MCPManager, ServerSpec
from tests.rollout.scripted import ScriptedPolicy, call, raw
from tests.rollout.tokenizers import qwen3_tokenizer

pytestmark = pytest.mark.anyio
TRUTH = {"steps": [[{"name": "get_wallet", "arguments": {}}]]}
SCRIPTS = {"bad": lambda seed, t: [
    [raw('<tool_call>\n{"name": "get_wallet", "arguments": {\n</tool_call>'),
     call("get_wallet", {})],
    "You have money."][t]}


async def _play(reward: RewardConfig):
    chat = ChatFormat(qwen3_tokenizer(), "qwen3")
    task = Task("bad", ("payments",), ("[task bad] How much do I have?",), TRUTH)
    async with MCPManager([ServerSpec("payments", "inprocess")]) as mgr:
        engine = RolloutEngine(ScriptedPolicy(chat, SCRIPTS), mgr, chat,
                               RolloutConfig(reward=reward))
        (traj,) = await engine.run([(task, 7, 0)])
    return traj


async def test_invalid_json_is_malformed_and_scores_as_an_unknown_tool():
    traj = await _play(RewardConfig())
    assert traj.failed is None
    assert [(c.kind, c.outcome) for c in traj.calls] == [("malformed_call", "unknown_tool"),
                                                         ("ok", "ok")]
    assert traj.calls[0].name == "" and "not valid JSON" in traj.calls[0].error
    # By hand (REFERENCE.md §3), calls [malformed, get_wallet ok] against truth [get_wallet]:
    # val (0 + 1) / 2; cov 1; eff 0 (2 calls, budget 1 + ceil(0.5) = 2); name 1/2; arg 1
    # (a truth call without arguments). Scored as an execution error, val would be 5/6.
    expected = {"val": 0.5, "cov": 1.0, "eff": 0.0, "name": 0.5, "arg": 1.0,
                "total": 0.5 * 0.5 + 0.5 * 1.0 + 0.2 * 0.5 + 0.1 * 1.0}
    assert traj.rewards == pytest.approx(expected)


async def test_invalid_json_fails_the_toolrl_format():
    traj = await _play(RewardConfig(kind="toolrl"))
    # By hand (prove_jax/rewards/toolrl.py's rule): format 0 (a call scored unknown_tool);
    # names ["", get_wallet] vs [get_wallet]: Jaccard 1/2; the get_wallet pair: key Jaccard 1
    # (both empty), 0 values; S = 1.5 of S_max = 1 + (1 + 0) = 2, correct = 6 * 1.5 / 2 - 3.
    # Scored as an execution error, format would be 1.
    expected = {"format": 0.0, "name": 0.5, "param": 1.0, "value": 0.0, "correct": 1.5,
                "total": 1.5}
    assert traj.rewards == pytest.approx(expected)
