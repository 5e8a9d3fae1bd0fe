"""The habit terms on live episodes: the engine tells the reward whether the episode ended on the
model's answer, so an episode cut by the turn cap loses w_finish and a repeated call costs
w_repeat, while the paper's reward (the default) scores the three episodes alike."""

from __future__ import annotations

import pytest

from prove_jax.rewards import RewardConfig
from prove_jax.rollout.engine import RolloutEngine
from prove_jax.rollout.task import RolloutConfig, Task
from prove_jax.tools.manager import MCPManager, ServerSpec
from tests.rollout.scripted import ScriptedPolicy, call

pytestmark = pytest.mark.anyio
SEARCH = ("search_contacts", {"query": "@"})
TRUTH = {"steps": [[{"name": SEARCH[0], "arguments": SEARCH[1]}]]}


def _script(kind: str):
    def turn(seed: int, t: int):
        if kind == "answers":
            return [call(*SEARCH)] if t == 0 else "Here are your contacts."
        if kind == "repeats":
            return [call(*SEARCH)] if t < 2 else "Here are your contacts."
        return [call(*SEARCH)]  # "capped": calls on every turn; the turn cap ends it
    return turn


async def _run(chat, reward: RewardConfig) -> dict[str, dict[str, float]]:
    kinds = ("answers", "repeats", "capped")
    policy = ScriptedPolicy(chat, {k: _script(k) for k in kinds})
    tasks = {k: Task(k, ("payments",), (f"[task {k}] list my contacts",), TRUTH, seed=2)
             for k in kinds}
    async with MCPManager([ServerSpec("payments", "inprocess")]) as mgr:
        out = {}
        for k, turns in (("answers", 4), ("repeats", 4), ("capped", 1)):
            engine = RolloutEngine(policy, mgr, chat,
                                   RolloutConfig(reward=reward, max_assistant_turns=turns))
            (traj,) = await engine.run([(tasks[k], 7, 0)])
            out[k] = dict(traj.rewards, reason=traj.finish_reason, calls=len(traj.calls))
    return out


async def test_the_engine_feeds_the_finish_and_repeat_terms(chat):
    got = await _run(chat, RewardConfig(w_repeat=0.25, w_finish=0.2))
    assert [got[k]["reason"] for k in ("answers", "repeats", "capped")] == [
        "answered", "answered", "max_assistant_turns"]
    assert (got["answers"]["finish"], got["capped"]["finish"]) == (1.0, 0.0)
    assert got["repeats"]["calls"] == 2 and got["repeats"]["repeat"] == -1.0
    assert got["answers"]["repeat"] == 0.0
    assert got["answers"]["total"] - got["capped"]["total"] == pytest.approx(0.2)
    assert got["answers"]["total"] - got["repeats"]["total"] == pytest.approx(0.25)


async def test_the_paper_reward_cannot_tell_them_apart(chat):
    got = await _run(chat, RewardConfig())
    totals = {k: v["total"] for k, v in got.items()}
    assert totals["answers"] == pytest.approx(totals["repeats"])
    assert totals["answers"] == pytest.approx(totals["capped"])
    assert all("finish" not in v and "repeat" not in v for v in got.values())
