"""One episode: a task played by the policy against its own MCP sessions, token in / token out.

Loop: policy turn -> parse calls -> execute them (a turn's parallel calls concurrently) ->
append the tokenized results -> next policy turn, until the model answers without a call (then
the next scripted user turn, if any) or a cap is hit. The sequence only grows: the policy's
sampled tokens as they came (mask 1, sampler log-probs) and the template's delta for what the
environment says (mask 0). A text mirror of the conversation is kept only so the template can
be asked what follows an assistant turn; it is never re-encoded.

Failures stay inside the episode: a server that cannot open a session, a session lost to a
crash, an exception, or the timeout mark this trajectory failed with its reason and end it;
the run goes on. Rewards are computed for every trajectory, failed ones included (for the
logs: the GRPO trainer keeps failed ones out of group statistics, the filter and the loss).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from prove_jax.rewards import score
from prove_jax.rollout.policy import Generation, GenerationRequest
from prove_jax.rollout.task import RolloutConfig, Task
from prove_jax.rollout.trajectory import CallRecord, Trajectory, outcome_of
from prove_jax.tools.chat import ChatFormat, ParsedCall
from prove_jax.tools.compact import compact_schema

__all__ = ["Generate", "ToolHost", "play_episode"]

Generate = Callable[[GenerationRequest], Awaitable[Generation]]


class ToolHost(Protocol):
    """What an episode needs from `prove_jax.tools.manager.MCPManager`."""

    async def open_episode(self, servers: Any, seed: int) -> Any: ...
    async def call(self, episode: Any, tool: str, arguments: Any) -> Any: ...
    async def snapshot(self, episode: Any, include_state: bool = False,
                       clock_free: bool = False) -> dict[str, dict]: ...
    async def close_episode(self, episode: Any) -> None: ...


async def play_episode(task: Task, *, generate: Generate, tools: ToolHost, chat: ChatFormat,
                       config: RolloutConfig, seed: int, sample: int = 0) -> Trajectory:
    """Play `task` once with sampling seed `seed`; never raises (failures are recorded)."""
    traj = Trajectory(task.id, sample, seed)
    start = time.perf_counter()
    session = None
    try:
        session = await tools.open_episode(task.servers, task.seed)
        async with asyncio.timeout(config.episode_timeout_s):
            await _turns(traj, task, session, generate, tools, chat, config)
    except TimeoutError:
        traj.fail(f"timeout: episode exceeded {config.episode_timeout_s}s", "timeout")
    except Exception as err:  # the episode's failure, not the run's
        traj.fail(f"{type(err).__name__}: {err}")
    # the state term compares clock-free hashes with the truth's end state, where it has one
    clock_free = task.truth.get("end_state") is not None
    if session is not None:
        try:
            snaps = (await tools.snapshot(session, clock_free=True) if clock_free
                     else await tools.snapshot(session))
            traj.snapshots = {s: v["hash"] for s, v in snaps.items()}
            if clock_free:
                traj.end_state = {s: v["clock_free_hash"] for s, v in snaps.items()}
        except Exception as err:
            traj.fail(f"snapshot: {type(err).__name__}: {err}")
        try:
            await tools.close_episode(session)
        except Exception as err:  # closing is best effort; the record is complete
            traj.fail(f"close: {type(err).__name__}: {err}")
    try:
        traj.rewards = score(traj.reward_calls(), task.truth, config.reward, traj.end_state,
                             finished=traj.failed is None and traj.finish_reason == "answered")
    except ValueError as err:
        traj.fail(f"reward: {err}")
    traj.timings["total_s"] = time.perf_counter() - start
    return traj


async def _turns(traj: Trajectory, task: Task, session: Any, generate: Generate,
                 tools: ToolHost, chat: ChatFormat, config: RolloutConfig) -> None:
    schemas = task.offered(session.schemas)
    if config.compact_schemas:
        schemas = [compact_schema(s) for s in schemas]
    names = [s["function"]["name"] for s in schemas]
    messages = task.messages()
    traj.transcript.extend({"role": m["role"], "text": m["content"]} for m in messages)
    traj.append(chat.prompt_tokens(messages, schemas))
    traj.prompt_len = len(traj.tokens)
    traj.user_turns = 1
    if traj.prompt_len >= config.max_total_tokens:
        traj.finish_reason = "max_total_tokens"
        return
    step = 0  # assistant turns since the latest user turn
    while True:
        if traj.assistant_turns >= config.max_assistant_turns:
            traj.finish_reason = "max_assistant_turns"
            return
        budget = min(config.max_new_tokens, config.max_total_tokens - len(traj.tokens))
        if budget < 1:
            traj.finish_reason = "max_total_tokens"
            return
        t0 = time.perf_counter()
        gen = await generate(GenerationRequest(list(traj.tokens), budget, traj.seed, task.id,
                                               traj.user_turns - 1, traj.assistant_turns, step))
        traj.timings["generate_s"] += time.perf_counter() - t0
        if len(gen.tokens) > budget:
            raise RuntimeError(f"policy returned {len(gen.tokens)} tokens for a budget of "
                               f"{budget}")
        traj.append(gen.tokens, sampled=True, logprobs=gen.logprobs)
        traj.assistant_turns += 1
        step += 1
        if not gen.tokens or gen.tokens[-1] != chat.eot_id:  # no complete turn to act on
            traj.transcript.append({"role": "assistant", "text": chat.decode(gen.tokens),
                                    "calls": [], "complete": False})
            traj.finish_reason = _unfinished(gen, len(traj.tokens), config)
            return
        text = chat.decode(gen.tokens)
        turn = chat.parse(text, names)
        messages.append({"role": "assistant", "content": text[:text.rindex(chat.eot_text)]})
        first = len(traj.calls)
        traj.transcript.append({"role": "assistant", "text": messages[-1]["content"],
                                "calls": list(range(first, first + len(turn.calls))),
                                "complete": True})
        if turn.calls:
            t0 = time.perf_counter()
            records = await asyncio.gather(*(_execute(tools, session, c, traj.assistant_turns - 1)
                                             for c in turn.calls))
            traj.timings["tools_s"] += time.perf_counter() - t0
            traj.calls.extend(records)
            traj.transcript.extend({"role": "tool", "call": i}
                                   for i in range(first, first + len(records)))
            lost = [r for r in records if r.kind == "session_lost"]
            if lost:
                traj.fail(f"session_lost: {lost[0].error}")
                return
            new = [chat.tool_message(r.result, r.name) for r in records]
        elif traj.user_turns >= len(task.user_turns):
            traj.finish_reason = "answered"
            return
        elif traj.user_turns >= config.max_user_turns:
            traj.finish_reason = "max_user_turns"
            return
        else:
            new = [{"role": "user", "content": task.user_turns[traj.user_turns]}]
            traj.user_turns += 1
            step = 0
        delta = chat.continuation(messages, new, schemas)
        if len(traj.tokens) + len(delta) >= config.max_total_tokens:
            traj.finish_reason = "max_total_tokens"  # no room left for a policy turn after it
            return
        traj.append(delta)
        messages.extend(new)
        traj.transcript.extend({"role": "user", "text": m["content"]} for m in new
                               if m["role"] == "user")  # tool results are already in


def _unfinished(gen: Generation, n_tokens: int, config: RolloutConfig) -> str:
    """Why a turn without the end-of-turn token ends the episode."""
    if n_tokens >= config.max_total_tokens:
        return "max_total_tokens"
    # "stop_token": the sampler stopped on another stop token (e.g. EOS) than the family's end
    # of turn; the template cannot continue such a turn, so it is not guessed at.
    return "length" if gen.finish_reason == "length" else "stop_token"


async def _execute(tools: ToolHost, session: Any, call: ParsedCall, turn: int) -> CallRecord:
    """Run one parsed call; a call that did not parse is not sent, its error is the result."""
    if not call.ok:
        return CallRecord(turn, call.name, call.arguments, outcome_of(call.kind), call.kind,
                          f"Error: {call.error}", None, call.error)
    result = await tools.call(session, call.name, call.arguments)
    return CallRecord(turn, call.name, call.arguments, outcome_of(result.kind), result.kind,
                      result.text(), result.server, result.error)
