"""τ²-bench through our dialogue loop, against tau2's real environments and evaluators.

The oracle (gold actions as calls, communicate_info in its answer) opposite the scripted user
must pass tau2's checks; a trajectory missing a gold write or the required information must
not (the LLM user's tests are in test_tau2_user.py). Subsets keep the file under 90 s: tau2
rebuilds two environments per score (about 1 s per airline task on one core).
"""

from __future__ import annotations

import asyncio
import json
import math

import pytest
from tau2.data_model.message import ToolMessage

from prove_jax.eval.dialogue import DialogueConfig, play_dialogue
from prove_jax.eval.tau2 import Tau2Oracle, run_tau2
from prove_jax.eval.tau2_env import (
    Tau2Env,
    environment_constructor,
    episode_id,
    gold_segments,
    greeting,
    load_tasks,
)
from prove_jax.eval.tau2_score import pass_hat_ks, score_episode
from prove_jax.eval.tau2_user import (
    ScriptedUser,
    user_factory_from_config,
)
from prove_jax.rollout.engine import sampling_seed
from prove_jax.rollout.policy import Generation, GenerationRequest
from prove_jax.tools.chat import ChatFormat
from tests.eval.tau2_support import ScriptPolicy, calls_text, play
from tests.rollout.tokenizers import qwen3_tokenizer

SCRIPTED = user_factory_from_config({}, "oracle")


@pytest.fixture(scope="module")
def chat() -> ChatFormat:
    return ChatFormat(qwen3_tokenizer(), "qwen3")


# ---------------------------------------------------------------------------- the oracle
def test_oracle_passes_tau2_checks_on_airline_retail_and_telecom(chat):
    limits = {"airline": 12, "retail": 20, "telecom": 20}
    oracle = Tau2Oracle(chat, {episode_id(d, t): t for d, n in limits.items()
                               for t in load_tasks(d, n)})
    rows = []
    for domain, n in limits.items():
        result = asyncio.run(run_tau2(oracle, chat, [domain], user_factory=SCRIPTED, limit=n))
        rows += result["rows"]
        assert result["categories"][domain]["tasks"] == n
    failing = [(r["domain"], r["id"], r["reason"]) for r in rows if not r["success"]]
    print("τ² oracle failures:", failing)
    for domain in limits:
        mine = [r for r in rows if r["domain"] == domain]
        assert all(r["failed"] is None and r["finish_reason"] == "user_done" for r in mine)
        rate = sum(r["success"] for r in mine) / len(mine)
        assert rate >= 0.9, (domain, rate, failing)
    db_rows = [r for r in rows if r["domain"] != "telecom"]
    assert all(r["db_match"] for r in db_rows), failing
    # Telecom's user actions ran on the phone (requestor user) and its assertions held.
    telecom = [r for r in rows if r["domain"] == "telecom"]
    assert all(r["env_assertions_ok"] for r in telecom)


def test_oracle_dropping_the_last_call_fails_the_database_check(chat):
    ids = ["16", "19", "29"]  # each ends with a write (return, return, exchange)
    oracle = Tau2Oracle.for_domains(chat, ["retail"], drop_last_call=True)
    result = asyncio.run(run_tau2(oracle, chat, ["retail"], user_factory=SCRIPTED, task_ids=ids))
    assert [r["id"] for r in result["rows"]] == ids
    assert all(r["db_match"] is False and r["reward"] == 0.0 for r in result["rows"])
    assert result["overall"]["success_rate"] == 0.0


def test_oracle_plan_is_gold_rounds(chat):
    task = next(t for t in load_tasks("telecom") if len(gold_segments(t)) >= 3)
    key = episode_id("telecom", task)
    texts = Tau2Oracle(chat, {key: task}).texts(key)
    rounds = gold_segments(task)
    assert len(texts) == len(rounds)
    for turn, (agent, user) in zip(texts, rounds, strict=True):
        assert len(turn) == (2 if agent else 1)  # calls in one turn, then the answer
        if agent:
            assert turn[0].count("<tool_call>") == len(agent)
        assert all(a.name.replace("_", " ") in turn[-1] for a in user)


# ---------------------------------------------------------------------------- scoring
def _gold_episode(domain: str, task, actions, answer: str) -> Tau2Env:
    async def go() -> Tau2Env:
        env = Tau2Env(domain, task, ScriptedUser(task))
        await env.start()
        for a in actions:
            assert (await env.call(a.name, dict(a.arguments))).kind == "ok"
        assert await env.user_reply(answer, 0) is None  # the scripted user stops
        return env
    return asyncio.run(go())


def test_missing_write_or_information_fails_and_says_why():
    task = next(t for t in load_tasks("retail") if t.id == "16")
    actions = task.evaluation_criteria.actions
    info = task.evaluation_criteria.communicate_info  # ["8276.23"]
    full = _gold_episode("retail", task, actions, f"Refund total: {info[0]}.")
    row = score_episode("retail", task, full.messages)
    assert row["success"] and row["db_match"] and row["communicate_ok"]

    short = _gold_episode("retail", task, actions[:-1], f"Refund total: {info[0]}.")
    row = score_episode("retail", task, short.messages)
    assert row["reward"] == 0.0 and row["db_match"] is False
    assert "database differs" in row["reason"]

    silent = _gold_episode("retail", task, actions, "All done.")
    row = score_episode("retail", task, silent.messages)
    assert row["reward"] == 0.0 and row["db_match"] and row["communicate_ok"] is False
    assert "8276.23" in row["reason"]

    row = score_episode("retail", task, full.messages, finish_reason="max_steps")
    assert row["reward"] == 0.0 and row["db_match"] and "ended early" in row["reason"]
    row = score_episode("retail", task, full.messages, tool_errors=10)
    assert row["reward"] == 0.0 and "too many tool errors" in row["reason"]


def test_trials_and_pass_hat_k_through_run_tau2(chat):
    """Three trials of one task by a policy that plays the gold only on even sampling seeds:
    rows per trial, success per seed, tau2's pass^k over them."""
    task = next(t for t in load_tasks("retail") if t.id == "16")
    key = episode_id("retail", task)
    oracle = Tau2Oracle(chat, {key: task})

    class EvenSeedOracle:
        async def generate(self, requests):
            idle = chat.encode("I cannot help with that." + chat.eot_text)
            return [(await oracle.generate([r]))[0] if r.seed % 2 == 0
                    else Generation(idle, [0.0] * len(idle), "stop") for r in requests]

    result = asyncio.run(run_tau2(EvenSeedOracle(), chat, ["retail"], user_factory=SCRIPTED,
                                  task_ids=["16"], trials=3, seed=5))
    rows = result["rows"]
    expected = [sampling_seed(5, trial, key, 0) % 2 == 0 for trial in range(3)]
    assert [(r["id"], r["trial"]) for r in rows] == [("16", 0), ("16", 1), ("16", 2)]
    assert [r["success"] for r in rows] == expected
    assert all(r["db_match"] is s for r, s in zip(rows, expected, strict=True))
    # rows are episode records too: the idle trials call nothing, the gold ones call tools
    for row, gold in zip(rows, expected, strict=True):
        assert row["schema"] == 1 and row["task_kind"] == "retail" and row["sample"] == row["trial"]
        assert bool(row["calls"]) is gold
        assert [t["call"] for t in row["turns"] if t["role"] == "tool"] == \
            list(range(len(row["calls"])))
        assert row["turns"][-1]["role"] in ("assistant", "user")
    summary = result["categories"]["retail"]
    assert summary["tasks"] == 1 and summary["episodes"] == 3
    c = sum(expected)
    assert 0 < c < 3  # seed 5 mixes successes and failures
    assert {k: summary[f"pass^{k}"] for k in (1, 2, 3)} == {
        k: math.comb(c, k) / math.comb(3, k) for k in (1, 2, 3)}
    assert result["overall"] == summary


def test_pass_hat_k_is_tau2s():
    assert pass_hat_ks({"a": [True, True], "b": [True, False]}) == {1: 0.75, 2: 0.5}
    assert pass_hat_ks({"a": [True, False, True]}) == pytest.approx({1: 2 / 3, 2: 1 / 3,
                                                                      3: 0.0})


# ---------------------------------------------------------------------------- the env
def test_tasks_come_from_tau2s_loaders():
    assert [len(load_tasks(d)) for d in ("airline", "retail", "telecom")] == [50, 114, 114]
    assert [t.id for t in load_tasks("retail", 2, task_ids=["16", "3", "40"])] == ["3", "16"]
    with pytest.raises(ValueError, match="no task ids"):
        load_tasks("airline", task_ids=["nope"])
    with pytest.raises(ValueError, match="unknown τ² domain"):
        load_tasks("banking")


def test_prompt_messages_and_start_order():
    task = load_tasks("airline", 1)[0]
    env = Tau2Env("airline", task, ScriptedUser(task))
    with pytest.raises(RuntimeError, match="start"):
        env.first_messages()
    asyncio.run(env.start())
    system, hello, user = env.first_messages()
    assert system["role"] == "system" and env.environment.get_policy() in system["content"]
    assert "<instructions>" in system["content"] and "customer service agent" in system["content"]
    assert hello == {"role": "assistant", "content": greeting()}
    assert user["role"] == "user" and "EHGLP3" in user["content"]
    names = {s["function"]["name"] for s in env.tools()}
    assert {"get_user_details", "cancel_reservation"} <= names


def test_bad_calls_are_tool_errors_and_the_episode_goes_on(chat):
    task = load_tasks("airline", 1)[0]
    env = Tau2Env("airline", task, ScriptedUser(task))

    async def direct():
        return [await env.call("fly_me_to_the_moon", {}),
                await env.call("get_user_details", {"user": "emma_kim_9957"}),
                await env.call("get_user_details", {"user_id": "nobody_1"}),
                await env.call("get_user_details", {"user_id": "emma_kim_9957"})]

    unknown, schema, failing, fine = asyncio.run(direct())
    assert unknown.kind == "unknown_tool" and "not found" in unknown.text
    assert schema.kind == "schema_error" and schema.text.startswith("Error:")
    assert failing.kind == "execution_error" and "nobody_1" in failing.text
    assert fine.kind == "ok" and json.loads(fine.text)["user_id"] == "emma_kim_9957"
    assert env.tool_errors == 3
    results = [m for m in env.messages if isinstance(m, ToolMessage)]
    assert [m.error for m in results] == [True, True, True, False]

    # Through the loop: a malformed call and a bad argument, then a good call and an answer.
    key = episode_id("airline", task)
    policy = ScriptPolicy(chat, {key: [[
        "<tool_call>\n{not json\n</tool_call>",
        calls_text(("get_user_details", {"user_id": 7})),
        calls_text(("get_user_details", {"user_id": "emma_kim_9957"})),
        "Sorry, that reservation cannot be refunded."]]})
    env = Tau2Env("airline", task, ScriptedUser(task))

    rec = play(env, key, policy, chat)
    assert rec.failed is None and rec.finish_reason == "user_done"
    kinds = [step[0]["kind"] for step in rec.turns[0] if step]
    assert kinds == ["malformed_call", "schema_error", "ok"]  # 7 is not a string id
    assert rec.turns[0][1][0]["result"].startswith("Error:")
    row = score_episode("airline", task, env.messages, finish_reason=rec.finish_reason,
                        tool_errors=env.tool_errors)
    assert row["success"]  # a read-only episode leaves the database as the gold (no actions)


def test_concurrent_episodes_of_one_task_do_not_share_state(chat):
    task = next(t for t in load_tasks("retail") if t.id == "16")  # cancels two orders
    key = episode_id("retail", task)
    oracle = Tau2Oracle(chat, {key: task})
    envs = [Tau2Env("retail", task, ScriptedUser(task)) for _ in range(2)]

    async def oracle_turn(request: GenerationRequest) -> Generation:
        return (await oracle.generate([request]))[0]

    async def both():
        for env in envs:
            await env.start()
        return await asyncio.gather(*(play_dialogue(env, task_id=key,
                                                    policy_generate=oracle_turn, chat=chat,
                                                    config=DialogueConfig(), seed=s)
                                      for s, env in enumerate(envs)))

    recs = asyncio.run(both())
    # Both episodes cancel the same orders: in a shared world the second would be refused.
    for rec, env in zip(recs, envs, strict=True):
        assert rec.failed is None and env.tool_errors == 0
        assert all(c["kind"] == "ok" for turn in rec.turns for step in turn for c in step)
        assert score_episode("retail", task, env.messages)["success"]
    fresh = environment_constructor("retail")().get_db_hash()
    hashes = {env.environment.get_db_hash() for env in envs}
    assert len(hashes) == 1 and fresh not in hashes



def test_tau2_prompts_are_never_parsed_by_two_threads_at_once(monkeypatch):
    """run_tau2 builds envs in worker threads, and CPython's ast.parse is not thread-safe
    (CI once failed an episode with "SystemError: AST constructor recursion depth
    mismatch"): reading tau2's prompts from source must serialize the parses. A parse that
    dawdles widens the window; 8 threads from an empty cache never overlap, and all agree."""
    import ast
    import threading
    import time
    from concurrent.futures import ThreadPoolExecutor

    from prove_jax.eval import tau2_env

    expected = tau2_env.user_system_prompt("scenario", True)
    running, most, lock, parse = [0], [0], threading.Lock(), ast.parse

    def slow_parse(*args, **kwargs):
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.01)
        try:
            return parse(*args, **kwargs)
        finally:
            with lock:
                running[0] -= 1

    def build(_: int) -> str:
        for _ in range(5):
            tau2_env._source_text.cache_clear()
            text = tau2_env.user_system_prompt("scenario", True)
        return text

    monkeypatch.setattr(tau2_env.ast, "parse", slow_parse)
    with ThreadPoolExecutor(8) as pool:
        texts = set(pool.map(build, range(16)))
    monkeypatch.undo()
    tau2_env._source_text.cache_clear()
    assert texts == {expected}
    assert most[0] == 1
