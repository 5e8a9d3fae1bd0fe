"""Caps end episodes cleanly; failures (server, session loss, timeout, policy) fail only the
episode they hit, with a reason; bad task rows fail at load time."""

from __future__ import annotations

import pytest

from prove_jax.rollout.engine import RolloutEngine
from prove_jax.rollout.task import RolloutConfig, Task
from prove_jax.tools.manager import CallResult, MCPManager, ServerSpec
from tests.rollout.scripted import ScriptedPolicy, call

pytestmark = pytest.mark.anyio
TRUTH = {"steps": [[{"name": "get_wallet", "arguments": {}}]]}
SCRIPTS = {
    "chat": lambda seed, t: f"Answer {t}.",
    "wallet": lambda seed, t: [call("get_wallet", {})] if t == 0 else "You have money.",
}


def task(tid: str, turns: int = 1, **kw) -> Task:
    return Task(tid, kw.pop("servers", ("payments",)),
                tuple(f"[task {tid}] turn {i}" for i in range(turns)), TRUTH, **kw)


async def play(chat, jobs, config=None, tools=None, **policy_kw):
    policy = ScriptedPolicy(chat, SCRIPTS, **policy_kw)
    async with MCPManager([ServerSpec("payments", "inprocess")]) as mgr:
        engine = RolloutEngine(policy, tools(mgr) if tools else mgr, chat, config)
        trajs = await engine.run([(t, 100 + i, 0) for i, t in enumerate(jobs)])
        assert mgr._episodes == {}  # every session was closed, failed episodes included
    return trajs, policy


async def test_user_turn_cap_and_token_caps(chat):
    (capped,), _ = await play(chat, [task("chat", turns=4)], RolloutConfig(max_user_turns=2))
    assert capped.finish_reason == "max_user_turns" and capped.user_turns == 2
    assert capped.assistant_turns == 2 and capped.failed is None

    (done,), _ = await play(chat, [task("chat", turns=3)])
    assert done.finish_reason == "answered" and done.user_turns == 3

    prompt = len(chat.prompt_tokens(task("chat").messages(), None))
    (short,), _ = await play(chat, [task("chat", turns=3, tools=())],
                             RolloutConfig(max_total_tokens=prompt + 12))
    assert short.finish_reason == "max_total_tokens" and len(short.tokens) <= prompt + 12

    (cut,), policy = await play(chat, [task("wallet")], RolloutConfig(max_new_tokens=8),
                                truncate=True)
    assert cut.finish_reason == "length" and cut.n_sampled == 8 and cut.calls == []
    assert policy.records[0].tokens[-1] != chat.eot_id


async def test_failures_stay_in_their_episode(chat):
    jobs = [task("wallet"), task("wallet", servers=("banking_x",)),
            task("wallet", tools=("no_such_tool",)), task("wallet")]
    trajs, _ = await play(chat, jobs)
    ok, no_server, bad_tool, ok2 = trajs
    assert ok.failed is None and ok2.failed is None and ok.finish_reason == "answered"
    assert no_server.finish_reason == "failed" and "banking_x" in no_server.failed
    assert "ManagerError" in no_server.failed and no_server.tokens == []
    assert bad_tool.finish_reason == "failed" and "no_such_tool" in bad_tool.failed
    assert "total" in no_server.rewards  # still scored (no calls), a trainer filters on failed


async def test_timeout_and_policy_errors_fail_the_episode(chat):
    (slow,), _ = await play(chat, [task("wallet")], RolloutConfig(episode_timeout_s=0.05),
                            delay_s=0.5)
    assert slow.finish_reason == "timeout" and slow.failed.startswith("timeout")
    assert slow.snapshots  # the sessions were still read and closed

    class Broken(ScriptedPolicy):
        async def generate(self, requests):
            raise RuntimeError("device lost")

    policy = Broken(chat, SCRIPTS)
    async with MCPManager([ServerSpec("payments", "inprocess")]) as mgr:
        trajs = await RolloutEngine(policy, mgr, chat).run([(task("wallet"), i, i)
                                                            for i in range(3)])
    assert all("policy.generate failed: RuntimeError: device lost" in t.failed for t in trajs)


async def test_session_lost_is_an_execution_error_and_fails_the_episode(chat):
    class Losing:
        def __init__(self, mgr):
            self.mgr = mgr

        def __getattr__(self, name):
            return getattr(self.mgr, name)

        async def call(self, episode, tool, arguments):
            return CallResult("payments", tool, False, error="the payments server crashed",
                              kind="session_lost")

    (lost,), _ = await play(chat, [task("wallet")], tools=Losing)
    assert [(c.outcome, c.kind) for c in lost.calls] == [("execution_error", "session_lost")]
    assert lost.finish_reason == "failed" and lost.failed.startswith("session_lost")
    assert lost.rewards["val"] == pytest.approx(2 / 3)


async def test_batches_respect_max_batch_size(chat):
    trajs, policy = await play(chat, [task("wallet")] * 7, RolloutConfig(max_batch_size=3))
    assert all(t.finish_reason == "answered" for t in trajs)
    assert max(policy.batch_sizes) == 3 and sum(policy.batch_sizes) == 14


def test_task_rows_are_validated_at_load_time():
    with pytest.raises(ValueError, match=r"task 'x': truth\.steps"):
        Task("x", ("payments",), ("hi",), {"steps": []})
    with pytest.raises(ValueError, match="unknown keys"):
        Task.from_dict({"id": "x", "servers": ["payments"], "user_turns": ["hi"],
                        "truth": TRUTH, "prompt": "?"})
    row = task("wallet", turns=2, tools=("get_wallet",), seed=4).to_dict()
    assert Task.from_dict(row) == task("wallet", turns=2, tools=("get_wallet",), seed=4)
    assert Task("a", ("payments",), ("hi",), {"steps": [], "kind": "abstention"}).kind \
        == "abstention"
    with pytest.raises(ValueError, match="max_new_tokens"):
        RolloutConfig(max_new_tokens=0)
