"""The evaluation dialogue loop: sequential calls, per-turn step caps, revealed tools, failures.

A toy counter env and a policy that answers from (task_id, user_turn, turn_step) — the fields
oracle policies rely on — drive the loop through the real Qwen3 tokenizer and our parser.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from prove_jax.eval.dialogue import (
    DialogueConfig,
    ToolOutcome,
    UserTurn,
    play_dialogue,
    run_dialogues,
)
from prove_jax.rollout.policy import Generation, GenerationRequest
from prove_jax.tools.chat import ChatFormat
from tests.rollout.tokenizers import qwen3_tokenizer


def _schema(name: str) -> dict:
    return {"type": "function", "function": {"name": name, "description": name,
            "parameters": {"type": "object", "properties": {"n": {"type": "integer"}},
                           "required": ["n"]}}}


class CounterEnv:
    """add(n) adds to a counter; double(n) (revealed at user turn 1) multiplies by n; the
    user speaks twice then stops."""

    def __init__(self, fail_on: str | None = None):
        self.value, self.log, self.fail_on = 0, [], fail_on

    def tools(self) -> list[dict]:
        return [_schema("add")]

    def first_messages(self) -> list[dict]:
        return [{"role": "user", "content": "count"}]

    async def call(self, name: str, arguments: dict) -> ToolOutcome:
        if name == self.fail_on:
            raise RuntimeError("env broke")
        self.log.append((name, arguments))
        if name == "add":
            self.value += arguments["n"]
        elif name == "double":
            self.value *= arguments["n"]
        else:
            return ToolOutcome("unknown_tool", f"no tool {name}")
        return ToolOutcome("ok", str(self.value))

    async def user_reply(self, assistant_text: str, user_turn: int) -> UserTurn | None:
        if user_turn == 0:
            return UserTurn("now double it", (_schema("double"),))
        return None


def _calls(*calls: tuple[str, dict]) -> str:
    return "\n".join("<tool_call>\n" + json.dumps({"name": n, "arguments": a}) + "\n</tool_call>"
                     for n, a in calls)


class TurnPolicy:
    """Plays scripts[task_id][user_turn][turn_step] (the last entry repeats)."""

    def __init__(self, chat: ChatFormat, scripts: dict[str, list[list[str]]]):
        self.chat, self.scripts, self.requests = chat, scripts, []

    async def generate(self, requests: list[GenerationRequest]) -> list[Generation]:
        out = []
        for r in requests:
            self.requests.append(r)
            turn = self.scripts[r.task_id][r.user_turn]
            ids = self.chat.encode(turn[min(r.turn_step, len(turn) - 1)] + self.chat.eot_text)
            out.append(Generation(ids[:r.max_new_tokens], [0.0] * len(ids[:r.max_new_tokens]),
                                  "stop"))
        return out


@pytest.fixture(scope="module")
def chat() -> ChatFormat:
    return ChatFormat(qwen3_tokenizer(), "qwen3")


SCRIPT = [[_calls(("add", {"n": 2}), ("add", {"n": 3})), "five"],
          [_calls(("double", {"n": 4})), "twenty"]]


def test_sequential_calls_revealed_tool_and_record(chat):
    env = CounterEnv()
    policy = TurnPolicy(chat, {"t": SCRIPT})
    rec = asyncio.run(play_dialogue(env, task_id="t", policy_generate=lambda r: _one(policy, r),
                                    chat=chat, config=DialogueConfig()))
    assert rec.failed is None and rec.finish_reason == "user_done"
    assert env.log == [("add", {"n": 2}), ("add", {"n": 3}), ("double", {"n": 4})]
    assert env.value == 20
    assert [[[c["name"] for c in step] for step in turn] for turn in rec.turns] == \
        [[["add", "add"], []], [["double"], []]]
    assert rec.turns[0][0][1]["result"] == "5" and rec.answers[-1] == "twenty"
    assert [(r.user_turn, r.turn_step) for r in policy.requests] == [(0, 0), (0, 1), (1, 0),
                                                                     (1, 1)]
    traj = rec.trajectory
    assert len(traj.tokens) == len(traj.loss_mask) and traj.user_turns == 2
    # The sampled tokens are exactly the policy's four turns.
    sampled = [t for t, m in zip(traj.tokens, traj.loss_mask, strict=True) if m]
    assert chat.decode(sampled).count(chat.eot_text) == 4


def test_tool_not_yet_revealed_is_an_error_the_model_sees(chat):
    env = CounterEnv()
    script = [[_calls(("double", {"n": 4})), "done"], ["ok"]]
    rec = asyncio.run(play_dialogue(env, task_id="t",
                                    policy_generate=lambda r: _one(TurnPolicy(
                                        chat, {"t": script}), r),
                                    chat=chat, config=DialogueConfig()))
    first = rec.turns[0][0][0]
    assert first["kind"] == "unknown_tool" and first["result"].startswith("Error:")
    assert env.log == [] and rec.failed is None


def test_step_cap_and_env_failure(chat):
    looping = [[_calls(("add", {"n": 1}))]]
    policy = TurnPolicy(chat, {"loop": looping, "ok": SCRIPT, "bad": SCRIPT})
    envs = {"loop": CounterEnv, "ok": CounterEnv, "bad": lambda: CounterEnv(fail_on="add")}

    def broken():
        raise FileNotFoundError("no data")

    jobs = [(k, envs[k]) for k in ("loop", "ok", "bad")] + [("ok", broken)]
    recs = asyncio.run(run_dialogues(policy, chat, jobs, DialogueConfig(max_steps_per_turn=3)))
    assert [r.task_id for r in recs] == ["loop", "ok", "bad", "ok"]
    assert recs[0].finish_reason == "max_steps" and len(recs[0].turns[0]) == 3
    assert recs[1].failed is None and recs[1].finish_reason == "user_done"
    assert recs[2].failed == "RuntimeError: env broke"
    assert recs[3].failed.startswith("env: FileNotFoundError")


def test_token_cap_ends_the_episode(chat):
    rec = asyncio.run(play_dialogue(CounterEnv(), task_id="t",
                                    policy_generate=lambda r: _one(TurnPolicy(
                                        chat, {"t": SCRIPT}), r),
                                    chat=chat, config=DialogueConfig(max_total_tokens=200)))
    assert rec.finish_reason == "max_total_tokens"
    assert len(rec.trajectory.tokens) <= 200


async def _one(policy: TurnPolicy, request: GenerationRequest) -> Generation:
    return (await policy.generate([request]))[0]
