"""The oracle policy replays synthesized tasks' ground truth through the real rollout engine
(in-process MCP servers, the real Qwen3 tokenizer): it must reach the truth's own final state
and the maximum reward; dropping the last call of every user turn must score clearly lower."""

from __future__ import annotations

import json
import statistics

import pytest

from prove_jax.data.tasks import load_tasks
from prove_jax.rollout.engine import RolloutEngine
from prove_jax.rollout.oracle import OraclePolicy, Reply, load_meta, plan_turns
from prove_jax.rollout.policy import GenerationRequest
from prove_jax.rollout.task import RolloutConfig, Task
from prove_jax.synthesis.revalidate import replay_row
from prove_jax.synthesis.run import run
from prove_jax.synthesis.settings import SynthConfig
from prove_jax.tools.chat import ChatFormat
from prove_jax.tools.manager import MCPManager, ServerSpec
from tests.rollout.tokenizers import granite_tokenizer

pytestmark = pytest.mark.anyio
SERVERS = ("payments", "banking", "calendar", "email")
MAX = {"normal": 1.3, "clarification": 1.3, "abstention": 1.0}  # PROVE defaults' best total
CONFIG = RolloutConfig(max_assistant_turns=16, batch_wait_s=0.05)


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    out = tmp_path_factory.mktemp("synth")
    run(SynthConfig(num_examples=48, seed=0, servers=SERVERS, out_dir=str(out), progress=False))
    tasks = load_tasks(out / "train.jsonl") + load_tasks(out / "test.jsonl")
    return tasks, load_meta(out)


def _manager() -> MCPManager:
    return MCPManager([ServerSpec(s, "inprocess") for s in SERVERS])


async def _truth_hashes(mgr: MCPManager, task: Task) -> tuple[dict, dict]:
    """(final hashes of replaying the truth, hashes of the untouched world) on fresh sessions."""
    row = task.to_dict()
    _, errors, final, _ = await replay_row(mgr, row)
    assert errors == 0, task.id
    _, _, fresh, _ = await replay_row(mgr, {**row, "truth": {"steps": []}})
    return final, fresh


async def test_oracle_reaches_truth_state_and_max_reward(dataset, chat):
    tasks, meta = dataset
    kinds = {t.kind for t in tasks}
    assert len(tasks) >= 40 and kinds == {"normal", "clarification", "abstention"}
    assert len({s for t in tasks for s in t.servers}) >= 3
    policy = OraclePolicy(chat, {t.id: t for t in tasks}, meta=meta)
    async with _manager() as mgr:
        engine = RolloutEngine(policy, mgr, chat, CONFIG)
        groups = await engine.run_groups(tasks, 2, seed=1)
        changed = 0
        for task, group in zip(tasks, groups, strict=True):
            final, fresh = await _truth_hashes(mgr, task)
            changed += final != fresh
            n_calls = sum(len(s) for s in task.truth["steps"])
            for tr in group:
                assert tr.failed is None and tr.finish_reason == "answered", (task.id, tr.failed)
                # Same world as the truth replayed alone: the two rollouts of a group did not
                # share a session (their writes would have stacked).
                assert tr.snapshots == final, task.id
                assert [c.outcome for c in tr.calls] == ["ok"] * n_calls, task.id
                assert [(c.name, c.arguments) for c in tr.calls] == [
                    (c["name"], c["arguments"]) for s in task.truth["steps"] for c in s]
                assert tr.rewards["total"] == pytest.approx(MAX[task.kind]), task.id
                assert tr.user_turns == len(task.user_turns)
                assert all(lp == 0.0 for lp in tr.logprobs)
    assert changed >= 10  # enough tasks write for the no-shared-state check to bite
    assert max(engine.batch_sizes) > 1  # requests of different episodes shared a batch

    by_id = {t.id: (t, g[0]) for t, g in zip(tasks, groups, strict=True)}
    for tid, (task, tr) in by_id.items():
        text = chat.decode(tr.tokens[tr.prompt_len:])
        if task.kind == "abstention":
            assert not tr.calls and text.count("Sorry, I can't do that") == len(task.user_turns)
        gap = meta[tid].get("gap")
        if task.kind == "clarification":  # asks for the withheld value before it is given
            asked = text.index(f"which {gap['arg'].replace('_', ' ')} should I use?")
            assert asked < text.index(task.user_turns[1])


async def test_drop_last_call_scores_clearly_lower(dataset, chat):
    tasks, meta = dataset
    policy = OraclePolicy(chat, {t.id: t for t in tasks}, meta=meta, drop_last_call=True)
    async with _manager() as mgr:
        groups = await RolloutEngine(policy, mgr, chat, CONFIG).run_groups(tasks, 1)
    totals = []
    for task, (tr,) in zip(tasks, groups, strict=True):
        assert tr.failed is None and tr.finish_reason == "answered"
        n_calls = sum(len(s) for s in task.truth["steps"])
        if task.kind == "abstention":
            assert tr.rewards["total"] == 1.0 and not tr.calls
            continue
        assert len(tr.calls) == n_calls - len({u for u in _turns_with_calls(task, meta)})
        assert tr.rewards["total"] < MAX[task.kind] - 0.05, task.id
        totals.append(tr.rewards["total"])
    assert statistics.mean(totals) < 1.3 - 0.3, statistics.mean(totals)


def _turns_with_calls(task: Task, meta: dict) -> list[int]:
    st = meta[task.id]["step_turn"]
    return [u for u, step in zip(st, task.truth["steps"], strict=True) if step]


async def test_granite_format(dataset):
    tasks, meta = dataset
    chat = ChatFormat(granite_tokenizer(), "granite")
    sample = [t for t in tasks if t.kind != "abstention"][:6] + \
        [t for t in tasks if t.kind == "abstention"][:1]
    policy = OraclePolicy(chat, {t.id: t for t in sample}, meta=meta)
    async with _manager() as mgr:
        groups = await RolloutEngine(policy, mgr, chat, CONFIG).run_groups(sample, 1)
    for task, (tr,) in zip(sample, groups, strict=True):
        assert tr.failed is None and tr.finish_reason == "answered", tr.failed
        assert tr.rewards["total"] == pytest.approx(MAX[task.kind]), task.id
        text = chat.decode(tr.tokens[tr.prompt_len:])
        assert "<tool_call>\n" not in text  # Granite's inline form
        if task.truth["steps"]:
            assert '<tool_call>{"name": ' in text and "<|end_of_text|>" in text


async def test_answers_depend_only_on_the_request(dataset, chat):
    tasks, meta = dataset
    task = next(t for t in tasks if t.kind == "clarification")
    policy = OraclePolicy(chat, {t.id: t for t in tasks}, meta=meta)
    texts = policy.texts(task.id)
    reqs = [GenerationRequest([1, 2, 3], 4096, seed, task.id, u, a)
            for seed, (u, a) in enumerate([(0, 0), (1, len(texts[0])), (0, len(texts[0]) - 1)])]
    forward = await policy.generate(reqs)
    backward = await policy.generate(reqs[::-1])
    assert [g.tokens for g in forward] == [g.tokens for g in backward[::-1]]
    assert [chat.decode(g.tokens) for g in forward] == [
        texts[0][0] + "<|im_end|>", texts[1][0] + "<|im_end|>", texts[0][-1] + "<|im_end|>"]
    assert all(g.finish_reason == "stop" for g in forward)
    short = (await policy.generate([GenerationRequest([1], 3, 0, task.id, 0, 0)]))[0]
    assert len(short.tokens) == 3 and short.finish_reason == "length"
    with pytest.raises(KeyError, match="no task 'nope'"):
        await policy.generate([GenerationRequest([1], 9, 0, "nope")])


def _task(turns: int, steps: list[list[dict]], kind: str = "normal") -> Task:
    return Task("t", ("payments",), tuple(f"turn {i}" for i in range(turns)),
                {"steps": steps, "edges": [], "kind": kind})


def _c(name: str, **args) -> dict:
    return {"name": name, "arguments": args}


def test_plan_turns_maps_steps_gaps_and_drops():
    steps = [[_c("get_wallet")], [_c("send_payment", contact_id="p_1"), _c("get_wallet")],
             [_c("list_payments")]]
    task = _task(2, steps, "clarification")
    meta = {"step_turn": [0, 0, 1], "gap": {"step": 2, "arg": "status", "value": "x"}}
    plan = plan_turns(task, meta)
    assert plan[0][:2] == steps[:2] and plan[1][:1] == steps[2:]
    assert plan[0][2] == Reply("ask", "t", 0, tuple(steps[0] + steps[1]), missing="status")
    assert plan[1][1].kind == "done" and plan[1][1].calls == tuple(steps[2])
    dropped = plan_turns(task, meta, drop_last_call=True)
    # Turn 0 loses the parallel step's last call; turn 1 loses its only step.
    assert dropped[0][:2] == [steps[0], steps[1][:1]] and len(dropped[1]) == 1
    assert [s for s in task.truth["steps"]] == steps  # the task is not modified

    abst = plan_turns(_task(2, [], "abstention"),
                      {"step_turn": [], "intended": [_c("banking.pay_payee"), _c("x.y")]})
    assert [t[-1].tool for t in abst] == ["banking.pay_payee", "x.y"]
    hidden = plan_turns(_task(2, steps[:1]), {"step_turn": [0], "variant": "missing_function"})
    assert [t[-1].kind for t in hidden] == ["done", "refuse"]
    single = plan_turns(_task(1, steps))  # one user turn: no meta needed
    assert len(single) == 1 and len(single[0]) == 4
    with pytest.raises(ValueError, match="no meta row with 'step_turn'"):
        plan_turns(_task(2, steps))
    with pytest.raises(ValueError, match="does not fit"):
        plan_turns(_task(2, steps), {"step_turn": [1, 0, 1]})


def test_load_meta(tmp_path):
    (tmp_path / "meta.jsonl").write_text(json.dumps({"id": "a", "step_turn": [0]}) + "\n")
    assert load_meta(tmp_path) == {"a": {"id": "a", "step_turn": [0]}}
    with pytest.raises(FileNotFoundError):
        load_meta(tmp_path / "nope")
