"""The optional end-state term: the truth's end state (clock-free hashes after replaying it)
against the episode's, so a valid reordering of independent calls scores like the truth's
order and a call that changes the wrong thing does not; weight 0 keeps the paper's total."""

from __future__ import annotations

import pytest

from prove_jax.rewards import RewardConfig
from prove_jax.rollout.engine import RolloutEngine
from prove_jax.rollout.task import RolloutConfig, Task
from prove_jax.tools.manager import MCPManager, ServerSpec
from tests.rollout.scripted import ScriptedPolicy, call

pytestmark = pytest.mark.anyio
SEED = 2


async def _contacts(mgr: MCPManager) -> list[str]:
    episode = await mgr.open_episode(["payments"], SEED)
    try:
        found = await mgr.call(episode, "search_contacts", {"query": "@"})
        return [c["contact_id"] for c in found.payload["contacts"][:2]]
    finally:
        await mgr.close_episode(episode)


async def _end_state(mgr: MCPManager, calls: list[tuple[str, dict]]) -> dict[str, str]:
    """The clock-free hash after `calls` on a fresh session (what synthesis records)."""
    episode = await mgr.open_episode(["payments"], SEED)
    try:
        for name, args in calls:
            assert (await mgr.call(episode, name, args)).ok
        snap = await mgr.snapshot(episode, clock_free=True)
        return {"payments": snap["payments"]["clock_free_hash"]}
    finally:
        await mgr.close_episode(episode)


async def test_reordered_independent_calls_reach_the_truth_end_state(chat):
    async with MCPManager([ServerSpec("payments", "inprocess")]) as mgr:
        a, b = await _contacts(mgr)
        pay = ("send_payment", {"contact_id": a, "amount": 4.0, "note": "coffee"})
        ask = ("request_payment", {"contact_id": b, "amount": 9.0, "note": "tickets"})
        wrong = ("send_payment", {"contact_id": b, "amount": 4.0, "note": "coffee"})
        end = await _end_state(mgr, [pay, ask])
        truth = {"steps": [[{"name": pay[0], "arguments": pay[1]}],
                           [{"name": ask[0], "arguments": ask[1]}]], "end_state": end}
        scripts = {"same": [pay, ask], "swapped": [ask, pay], "wrong": [wrong, ask]}
        policy = ScriptedPolicy(chat, {k: (lambda seed, t, c=c: [call(*x) for x in c]
                                           if t == 0 else "Done.")
                                       for k, c in scripts.items()})
        reward = RewardConfig(w_state=0.5)
        tasks = [Task(k, ("payments",), (f"[task {k}] pay and ask",), truth, seed=SEED)
                 for k in scripts]
        engine = RolloutEngine(policy, mgr, chat, RolloutConfig(reward=reward))
        trajs = {t.task_id: t for t in await engine.run([(t, 7, 0) for t in tasks])}
    for k in ("same", "swapped"):
        assert trajs[k].end_state == end and trajs[k].rewards["state"] == 1.0, k
    assert trajs["wrong"].rewards["state"] == 0.0 and trajs["wrong"].end_state != end
    # the term is weighted: the swap loses order credit in cov, never the end state
    same, wrong = trajs["same"].rewards, trajs["wrong"].rewards
    assert same["total"] == pytest.approx(
        0.5 * same["val"] + 0.5 * same["cov"] + 0.15 * same["eff"] + 0.2 * same["name"]
        + 0.1 * same["arg"] + 0.5)
    assert wrong["total"] == pytest.approx(
        0.5 * wrong["val"] + 0.5 * wrong["cov"] + 0.15 * wrong["eff"] + 0.2 * wrong["name"]
        + 0.1 * wrong["arg"])
