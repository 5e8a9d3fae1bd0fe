"""The evaluation episode: our policy in a conversation with a benchmark's environment.

Benchmarks differ in where tools run (BFCL's Python classes, τ²'s databases, our MCP servers)
and in who speaks for the user (a fixed script, new functions revealed mid-dialogue, an LLM user
simulator). They all plug in as an `EvalEnv`, and one loop plays them the way the RL rollout
plays a task (`prove_jax.rollout.episode`): the policy's sampled tokens and the template's
deltas grow one token sequence, never re-rendered from text, so a model is evaluated on exactly
the token stream it was trained on, through the same chat formatting and call parser.

Differences from the training rollout, each because benchmarks define them so:
  - the calls of one assistant turn run sequentially, in the order written (BFCL executes a
    step's calls in order; τ²'s orchestrator too), not concurrently;
  - the step cap is per user turn (BFCL: 20 steps), not per episode;
  - the user side is asked for its next turn (`user_reply`) instead of reading a fixed list,
    and may reveal new tools; the system prompt's tool list is never re-rendered (that would
    change tokens already in the sequence), so the env writes the new tools' docs into the
    user message and the parser accepts their names from then on.

An env that raises, a policy failure or the timeout fail the episode with its reason; the other
episodes go on.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from asyncio_pool import AioPool

from prove_jax.rollout.batcher import Batcher
from prove_jax.rollout.engine import sampling_seed
from prove_jax.rollout.episode import Generate
from prove_jax.rollout.policy import GenerationRequest, Policy
from prove_jax.rollout.record import SCHEMA
from prove_jax.rollout.trajectory import Trajectory, outcome_of
from prove_jax.tools.chat import ChatFormat

__all__ = ["DialogueConfig", "DialogueRecord", "EvalEnv", "ToolOutcome", "UserTurn",
           "play_dialogue", "run_dialogues"]


@dataclass(frozen=True)
class ToolOutcome:
    kind: str  # ok | execution_error | schema_error | unknown_tool | malformed_call (parser)
    text: str  # what the model reads back


@dataclass(frozen=True)
class UserTurn:
    content: str
    new_tools: tuple[dict, ...] = ()  # schemas callable from now on (docs are in `content`)


class EvalEnv(Protocol):
    """One episode's world and user; never shared between episodes.

    An env may also define `callable_names() -> Iterable[str]`: names the parser accepts
    although they are not offered (BFCL executes any method of its classes a model names,
    withheld ones included); without it only offered and revealed tools parse as known."""

    def tools(self) -> list[dict]: ...
    def first_messages(self) -> list[dict]: ...
    async def call(self, name: str, arguments: dict) -> ToolOutcome: ...
    async def user_reply(self, assistant_text: str, user_turn: int) -> UserTurn | None: ...


@dataclass(frozen=True)
class DialogueConfig:
    max_steps_per_turn: int = 20  # assistant turns per user turn (BFCL's limit)
    max_user_turns: int = 50
    max_total_tokens: int = 32_768
    max_new_tokens: int = 4_096
    episode_timeout_s: float = 900.0
    max_concurrent_episodes: int = 64
    batch_wait_s: float = 0.02

    def __post_init__(self) -> None:
        for name in ("max_steps_per_turn", "max_user_turns", "max_total_tokens",
                     "max_new_tokens", "max_concurrent_episodes"):
            if getattr(self, name) < 1:
                raise ValueError(f"DialogueConfig.{name} must be >= 1, got "
                                 f"{getattr(self, name)}")
        if self.episode_timeout_s <= 0:
            raise ValueError(f"DialogueConfig.episode_timeout_s must be > 0, got "
                             f"{self.episode_timeout_s}")


@dataclass
class DialogueRecord:
    task_id: str
    # Per user turn, per assistant step, the calls made: {"name", "arguments", "kind",
    # "result", "error": the parse error or None}; a step without calls is []. Malformed calls
    # are recorded, never executed.
    turns: list[list[list[dict]]] = field(default_factory=list)
    answers: list[str] = field(default_factory=list)  # every assistant text, in order
    messages: list[dict] = field(default_factory=list)  # the conversation as text
    finish_reason: str = "running"  # user_done | max_user_turns | max_steps |
    #                                 max_total_tokens | length | timeout | failed
    failed: str | None = None
    trajectory: Trajectory = field(default_factory=lambda: Trajectory("", 0, 0))
    seconds: float = 0.0
    # the episode file's conversation (prove_jax.rollout.record's schema); its tool entries
    # index the calls of `turns` in order
    transcript: list[dict] = field(default_factory=list)

    def fail(self, reason: str, finish_reason: str = "failed") -> None:
        if self.failed is None:
            self.failed = reason
        self.finish_reason = finish_reason

    def episode(self, task_kind: str, sample: int = 0) -> dict:
        """The fields of an episode record (`prove_jax.rollout.record`) this benchmark has: no
        PROVE rewards, truth or state hashes."""
        calls = [{"turn": turn, "name": c["name"], "arguments": c["arguments"],
                  "outcome": outcome_of(c["kind"]), "kind": c["kind"], "server": None,
                  "result": c["result"], "error": c.get("error")}
                 for turn, step in enumerate(s for user_turn in self.turns for s in user_turn)
                 for c in step]
        return {"schema": SCHEMA, "task_id": self.task_id, "task_kind": task_kind,
                "sample": sample, "seed": self.trajectory.seed, "world_seed": None,
                "servers": [], "turns": self.transcript, "calls": calls,
                "finish_reason": self.finish_reason, "failed": self.failed,
                "assistant_turns": self.trajectory.assistant_turns,
                "user_turns": len(self.turns)}

    def to_dict(self) -> dict:
        """The record without its token arrays (results files)."""
        return {"task_id": self.task_id, "turns": self.turns, "answers": self.answers,
                "finish_reason": self.finish_reason, "failed": self.failed,
                "seconds": round(self.seconds, 3)}


async def play_dialogue(env: EvalEnv, *, task_id: str, policy_generate: Generate,
                        chat: ChatFormat, config: DialogueConfig,
                        seed: int = 0) -> DialogueRecord:
    """Play one episode to its end; never raises (failures are recorded)."""
    rec = DialogueRecord(task_id, trajectory=Trajectory(task_id, 0, seed))
    start = time.perf_counter()
    try:
        async with asyncio.timeout(config.episode_timeout_s):
            await _turns(rec, env, policy_generate, chat, config, seed)
    except TimeoutError:
        rec.fail(f"timeout: episode exceeded {config.episode_timeout_s}s", "timeout")
    except Exception as err:  # the episode's failure, not the run's
        rec.fail(f"{type(err).__name__}: {err}")
    rec.seconds = time.perf_counter() - start
    return rec


async def _turns(rec: DialogueRecord, env: EvalEnv, generate: Generate, chat: ChatFormat,
                 config: DialogueConfig, seed: int) -> None:
    traj, schemas = rec.trajectory, list(env.tools())
    names = {s["function"]["name"] for s in schemas}
    names.update(getattr(env, "callable_names", tuple)())
    rec.messages = [dict(m) for m in env.first_messages()]
    rec.transcript = [{"role": m["role"], "text": m["content"]} for m in rec.messages]
    traj.append(chat.prompt_tokens(rec.messages, schemas))
    traj.prompt_len = len(traj.tokens)
    rec.turns.append([])
    step = n_calls = 0
    while True:
        budget = min(config.max_new_tokens, config.max_total_tokens - len(traj.tokens))
        if budget < 1:
            rec.finish_reason = "max_total_tokens"
            return
        gen = await generate(GenerationRequest(
            list(traj.tokens), budget, seed, rec.task_id, len(rec.turns) - 1,
            traj.assistant_turns, step))
        if len(gen.tokens) > budget:
            raise RuntimeError(f"policy returned {len(gen.tokens)} tokens for a budget of "
                               f"{budget}")
        traj.append(gen.tokens, sampled=True, logprobs=gen.logprobs)
        traj.assistant_turns += 1
        step += 1
        if not gen.tokens or gen.tokens[-1] != chat.eot_id:
            rec.answers.append(chat.decode(gen.tokens))
            rec.transcript.append({"role": "assistant", "text": rec.answers[-1], "calls": [],
                                   "complete": False})
            rec.finish_reason = ("max_total_tokens" if len(traj.tokens) >= config.max_total_tokens
                                 else "length")
            return
        text = chat.decode(gen.tokens)
        text = text[:text.rindex(chat.eot_text)]
        rec.answers.append(text)
        rec.messages.append({"role": "assistant", "content": text})
        turn = chat.parse(text, names)
        calls: list[dict] = []
        rec.turns[-1].append(calls)
        first = n_calls
        n_calls += len(turn.calls)
        rec.transcript.append({"role": "assistant", "text": text,
                               "calls": list(range(first, first + len(turn.calls))),
                               "complete": True})
        if turn.calls:
            new = []
            for call in turn.calls:  # in order: a later call may depend on an earlier one
                outcome = (await env.call(call.name, dict(call.arguments)) if call.ok
                           else ToolOutcome(call.kind, f"Error: {call.error}"))
                rec.transcript.append({"role": "tool", "call": first + len(calls)})
                calls.append({"name": call.name, "arguments": call.arguments,
                              "kind": outcome.kind, "result": outcome.text,
                              "error": None if call.ok else call.error})
                new.append(chat.tool_message(outcome.text, call.name))
            if step >= config.max_steps_per_turn:
                rec.finish_reason = "max_steps"
                return
        else:
            if len(rec.turns) >= config.max_user_turns:
                rec.finish_reason = "max_user_turns"
                return
            reply = await env.user_reply(text, len(rec.turns) - 1)
            if reply is None:
                rec.finish_reason = "user_done"
                return
            for schema in reply.new_tools:
                names.add(schema["function"]["name"])
            new = [{"role": "user", "content": reply.content}]
            rec.turns.append([])
            step = 0
        delta = chat.continuation(rec.messages, new, schemas)
        if len(traj.tokens) + len(delta) >= config.max_total_tokens:
            rec.finish_reason = "max_total_tokens"
            return
        traj.append(delta)
        traj.user_turns = len(rec.turns)
        rec.messages.extend(new)
        rec.transcript.extend({"role": "user", "text": m["content"]} for m in new
                              if m["role"] == "user")


async def run_dialogues(policy: Policy, chat: ChatFormat,
                        jobs: Sequence[tuple[str, Callable[[], EvalEnv]]],
                        config: DialogueConfig, seed: int = 0) -> list[DialogueRecord]:
    """Play every (task id, env factory) job, many at once, policy turns batched through one
    `Batcher`; one record per job, in job order. Each episode's sampling seed is derived from
    (seed, position, task id) as in training, so a rerun samples the same way."""

    async def one(batcher: Batcher, index: int, task_id: str,
                  make_env: Callable[[], EvalEnv]) -> DialogueRecord:
        batcher.enter()
        try:
            try:
                env = make_env()
            except Exception as err:
                rec = DialogueRecord(task_id)
                rec.fail(f"env: {type(err).__name__}: {err}")
                return rec
            return await play_dialogue(env, task_id=task_id, policy_generate=batcher.generate,
                                       chat=chat, config=config,
                                       seed=sampling_seed(seed, index, task_id, 0))
        finally:
            batcher.leave()

    async with (Batcher(policy, config.batch_wait_s) as batcher,
                AioPool(size=config.max_concurrent_episodes) as pool):
        futures = [await pool.spawn(one(batcher, i, task_id, make_env))
                   for i, (task_id, make_env) in enumerate(jobs)]
    return [f.result() for f in futures]
