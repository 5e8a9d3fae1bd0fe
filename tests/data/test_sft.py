"""SFT rows from the oracle: the loss mask covers exactly the assistant's turns, the rest holds
the servers' real tool results; rows round-trip through JSONL and a Grain source."""

from __future__ import annotations

import json
import pickle
import re

import grain
import pytest

from prove_jax.data.sft import SFTSource, repeat_kinds, sft_examples, write_sft_jsonl
from prove_jax.data.tasks import load_tasks
from prove_jax.rollout.oracle import OraclePolicy, load_meta
from prove_jax.rollout.task import RolloutConfig
from prove_jax.synthesis.run import run
from prove_jax.synthesis.settings import SynthConfig
from prove_jax.tools.chat import ChatFormat
from prove_jax.tools.manager import MCPManager, ServerSpec
from tests.rollout.tokenizers import qwen3_tokenizer

pytestmark = pytest.mark.anyio
SERVERS = ("payments", "banking")
EOT = "<|im_end|>"


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    out = tmp_path_factory.mktemp("synth")
    run(SynthConfig(num_examples=16, seed=3, servers=SERVERS, out_dir=str(out), progress=False))
    return load_tasks(out / "train.jsonl") + load_tasks(out / "test.jsonl"), load_meta(out)


@pytest.fixture(scope="module")
def chat() -> ChatFormat:
    return ChatFormat(qwen3_tokenizer(), "qwen3")


def _runs(tokens: list[int], mask: list[int], value: int) -> list[list[int]]:
    """Maximal runs of tokens whose mask equals `value`, in order."""
    out: list[list[int]] = []
    prev = None
    for tok, m in zip(tokens, mask, strict=True):
        if m == value:
            if prev != value:
                out.append([])
            out[-1].append(tok)
        prev = m
    return out


async def _truth_results(mgr: MCPManager, task) -> list[str]:
    """The servers' answers to the truth calls, replayed on a fresh session of the world."""
    episode = await mgr.open_episode(task.servers, task.seed)
    try:
        return [(await mgr.call(episode, c["name"], c["arguments"])).text()
                for step in task.truth["steps"] for c in step]
    finally:
        await mgr.close_episode(episode)


async def test_mask_is_exactly_the_assistant_turns(dataset, chat, tmp_path):
    tasks, meta = dataset
    by_id = {t.id: t for t in tasks}
    config = RolloutConfig(max_assistant_turns=16, batch_wait_s=0.02)
    async with MCPManager([ServerSpec(s, "inprocess") for s in SERVERS]) as mgr:
        rows = await sft_examples(tasks, chat, mgr, config, meta=meta)
        results = {t.id: await _truth_results(mgr, t) for t in tasks}
    assert rows.dropped == {} and [r["task_id"] for r in rows] == [t.id for t in tasks]
    oracle = OraclePolicy(chat, by_id, meta=meta)
    for row in rows:
        task, tokens, mask = by_id[row["task_id"]], row["tokens"], row["loss_mask"]
        assert len(tokens) == len(mask) and set(mask) == {0, 1} and mask[-1] == 1
        said = [chat.decode(run_) for run_ in _runs(tokens, mask, 1)]
        planned = [t + EOT for turn in oracle.texts(task.id) for t in turn]
        # every assistant turn, and nothing else, is masked: the calls as planned, then one
        # answer per user turn (an answer reports results only the episode saw, below)
        assert [t for t in said if "<tool_call>" in t] == \
            [t for t in planned if "<tool_call>" in t], task.id
        assert len(said) == len(planned), task.id
        shown = "".join(results[task.id])
        for answer in (t for t in said if "<tool_call>" not in t and t not in planned):
            quoted = re.findall(r"'([^']+)'", answer)
            assert all(q.removesuffix("...") in shown for q in quoted), (task.id, answer)
        # Independently of the oracle's text: the call turns carry the truth's calls in order,
        # and each user turn ends with a call-free answer.
        calls = [json.loads(block.split("</tool_call>")[0])
                 for s in said for block in s.split("<tool_call>\n")[1:]]
        assert calls == [{"name": c["name"], "arguments": c["arguments"]}  # no alternatives
                         for step in task.truth["steps"] for c in step]
        answers = [s for s in said if "<tool_call>" not in s]
        assert len(answers) == len(task.user_turns) and all(a.endswith(EOT) for a in answers)
        # The unmasked part is the environment: prompt, user turns and the real tool results.
        env = "".join(chat.decode(run_) for run_ in _runs(tokens, mask, 0))
        assert all(u in env for u in task.user_turns)
        for result in results[task.id]:
            assert f"<tool_response>\n{result}\n</tool_response>" in env
        assert env.count("<tool_response>") == len(results[task.id])

    path = write_sft_jsonl(rows, tmp_path / "sft" / "train.jsonl")
    source = SFTSource(path)
    assert len(source) == len(rows) and source[0] == rows[0] and source[-1] == rows[-1]
    ds = grain.MapDataset.source(pickle.loads(pickle.dumps(source))).shuffle(seed=0)
    assert sorted(r["task_id"] for r in ds) == sorted(r["task_id"] for r in rows)


async def test_incomplete_episodes_are_dropped_and_counted(dataset, chat):
    tasks, meta = dataset
    cap = 3  # assistant turns: shorter than every multi-step, multi-turn demonstration
    config = RolloutConfig(max_assistant_turns=cap)
    oracle = OraclePolicy(chat, {t.id: t for t in tasks}, meta=meta)
    fits = {t.id for t in tasks if sum(len(turn) for turn in oracle.texts(t.id)) <= cap}
    async with MCPManager([ServerSpec(s, "inprocess") for s in SERVERS]) as mgr:
        rows = await sft_examples(tasks, chat, mgr, config, meta=meta)
    assert {r["task_id"] for r in rows} == fits and len(fits) < len(tasks)
    assert rows.dropped == {"max_assistant_turns": len(tasks) - len(fits)}


def test_write_rejects_misaligned_rows(tmp_path):
    with pytest.raises(ValueError, match="3 tokens but 2 loss-mask"):
        write_sft_jsonl([{"task_id": "a", "tokens": [1, 2, 3], "loss_mask": [0, 1]}],
                        tmp_path / "x.jsonl")


def test_repeated_kinds_show_that_many_times_in_place():
    rows = [{"task_id": t, "tokens": [i], "loss_mask": [1]} for i, t in enumerate("abcd")]
    kinds = {"a": "normal", "b": "abstention", "c": "clarification", "d": "abstention"}
    out = repeat_kinds(rows, kinds, {"abstention": 3, "clarification": 2})
    assert [r["task_id"] for r in out] == list("abbbccddd")
    assert repeat_kinds(rows, kinds, {}) == rows


@pytest.mark.parametrize("repeats,kinds,match", [
    ({"abstain": 2}, {}, "unknown task kind 'abstain'"),
    ({"abstention": 0}, {}, "abstention must be an integer >= 1, got 0"),
    ({"normal": True}, {}, "normal must be an integer >= 1, got True"),
    ({"normal": 2}, {"b": "normal"}, "no task 'a' to take its kind from"),
])
def test_bad_kind_repeats_name_the_cause(repeats, kinds, match):
    with pytest.raises(ValueError, match=match):
        repeat_kinds([{"task_id": "a", "tokens": [1], "loss_mask": [1]}], kinds, repeats)
