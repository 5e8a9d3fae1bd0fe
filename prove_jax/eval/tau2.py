"""τ²-bench through our dialogue loop: `run_tau2` plays every task of the chosen domains
`trials` times with our policy against tau2's environments and a user simulator, and scores
each episode with tau2's evaluators (pass^k over the trials).

Pieces: `tau2_env` (tasks, prompts, `Tau2Env`), `tau2_user` (`ScriptedUser`, `OpenAIUser`,
the user factory from the eval config), `tau2_score` (tau2's reward, pass^k). Here:

  - `Tau2Oracle`, a `Policy` that replays each task's gold actions: per conversation round
    (`gold_segments`) its agent actions as calls in one assistant turn, executed in order, then
    a final answer that states every `communicate_info` string and asks the user to do the
    round's user actions (telecom; the `ScriptedUser` then does them on its phone tools). It
    answers from (task_id, user_turn, turn_step) only, so concurrent episodes cannot disturb it.
  - `run_tau2`. Episodes are played by `dialogue.play_dialogue` under one `Batcher`, as
    `run_dialogues` does, plus one step it has no hook for: `await env.start()` before the
    dialogue, since an LLM user writes the conversation's first message. Each episode is
    scored as soon as it ends (in a thread: tau2 rebuilds two environments per score), so only
    the running episodes hold a database in memory.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from asyncio_pool import AioPool
from tau2.data_model.tasks import Action, Task

from prove_jax.eval.dialogue import DialogueConfig, DialogueRecord, play_dialogue
from prove_jax.eval.tau2_env import DOMAINS, Tau2Env, episode_id, gold_segments, load_tasks
from prove_jax.eval.tau2_score import TAU2_MAX_ERRORS, score_episode, summarize
from prove_jax.eval.tau2_user import (
    OpenAIUser,
    ScriptedUser,
    UserEndpoint,
    UserFactory,
    user_factory_from_config,
)
from prove_jax.rollout.batcher import Batcher
from prove_jax.rollout.engine import sampling_seed
from prove_jax.rollout.oracle import OraclePolicy
from prove_jax.rollout.policy import Generation, GenerationRequest, Policy
from prove_jax.tools.chat import ChatFormat

# The public τ² surface in one place (the pieces live in tau2_env / tau2_user / tau2_score).
__all__ = ["DOMAINS", "OpenAIUser", "ScriptedUser", "Tau2Env", "Tau2Oracle", "UserEndpoint",
           "episode_id", "load_tasks", "oracle_answer", "run_tau2", "score_episode",
           "user_factory_from_config"]


def oracle_answer(task: Task, user_actions: Sequence[Action]) -> str:
    """The oracle's text after a round: what tau2 checks the agent said, and what the user
    has to do next."""
    parts = ["I have taken care of that."]
    info = (task.evaluation_criteria and task.evaluation_criteria.communicate_info) or []
    if info:
        parts.append("For your records: " + "; ".join(info) + ".")
    if user_actions:
        steps = "; ".join(a.name.replace("_", " ") + (f" {a.arguments}" if a.arguments else "")
                          for a in user_actions)
        parts.append(f"Please now do the following on your phone: {steps}.")
    return " ".join(parts)


class Tau2Oracle:
    """A `Policy` that plays τ² tasks' gold actions (module docstring).

    tasks: episode task_id (`episode_id(domain, task)`) -> tau2 Task. `drop_last_call` leaves
    out the last agent action of every round (a harness check: it must score lower)."""

    def __init__(self, chat: ChatFormat, tasks: Mapping[str, Task], drop_last_call: bool = False):
        self.chat = chat
        writer = OraclePolicy(chat, {})  # only for its call syntax (`calls_text`)
        self._texts: dict[str, list[list[str]]] = {}
        for key, task in tasks.items():
            turns = []
            for agent, user in gold_segments(task):
                agent = agent[:-1] if drop_last_call else agent
                texts = [writer.calls_text([{"name": a.name, "arguments": dict(a.arguments)}
                                            for a in agent])] if agent else []
                turns.append([*texts, oracle_answer(task, user)])
            self._texts[key] = turns
        self._tokens = {key: [[chat.encode(t + chat.eot_text) for t in turn] for turn in turns]
                        for key, turns in self._texts.items()}

    @classmethod
    def for_domains(cls, chat: ChatFormat, domains: Sequence[str], limit: int | None = None,
                    split: str | None = None, drop_last_call: bool = False) -> Tau2Oracle:
        """The oracle of every task `run_tau2` plays for these arguments."""
        return cls(chat, {episode_id(d, t): t for d in domains
                          for t in load_tasks(d, limit, split)}, drop_last_call)

    def texts(self, task_id: str) -> list[list[str]]:
        """The planned assistant turns' text, per user turn."""
        return [list(turn) for turn in self._texts[task_id]]

    async def generate(self, requests: list[GenerationRequest]) -> list[Generation]:
        return [self._one(r) for r in requests]

    def _one(self, request: GenerationRequest) -> Generation:
        turns = self._tokens.get(request.task_id)
        if turns is None:
            raise KeyError(f"Tau2Oracle: no task {request.task_id!r} (it knows "
                           f"{len(self._tokens)} tasks)")
        # Past the plan (a cap, or a user that goes on): repeat the last round's answer.
        turn = turns[min(request.user_turn, len(turns) - 1)]
        tokens = turn[min(request.turn_step, len(turn) - 1)][:request.max_new_tokens]
        finish = "stop" if tokens and tokens[-1] == self.chat.eot_id else "length"
        return Generation(tokens, [0.0] * len(tokens), finish)


async def run_tau2(policy: Policy, chat: ChatFormat, domains: Sequence[str] = DOMAINS, *,
                   user_factory: UserFactory, limit: int | None = None, trials: int = 1,
                   config: DialogueConfig | None = None, seed: int = 0,
                   split: str | None = None, task_ids: Collection[str] | None = None,
                   max_errors: int = TAU2_MAX_ERRORS) -> dict[str, Any]:
    """Play and score `trials` episodes of every task (`load_tasks` per domain: `split`,
    `task_ids`, then the first `limit`).

    Returns {"categories": {domain: summary}, "overall": summary, "rows": [...]}: a summary
    (`tau2_score.summarize`) has "tasks", "episodes", "success_rate", "avg_reward", "failed",
    "pass^1" .. "pass^trials"; a row per episode has "domain", "id", "trial", "reward",
    "success", "db_match", "communicate_ok", "env_assertions_ok", "actions_ok", "reason",
    "finish_reason", "failed", "tool_errors", "seconds", and the fields of an episode record
    (`prove_jax.rollout.record`: turns, calls, ...; no PROVE rewards, truth or hashes)."""
    if trials < 1:
        raise ValueError(f"τ²: trials must be >= 1, got {trials}")
    config = config or DialogueConfig()
    jobs = [(domain, task, trial) for domain in domains
            for task in load_tasks(domain, limit, split, task_ids) for trial in range(trials)]

    async def one(batcher: Batcher, index: int, domain: str, task: Task,
                  trial: int) -> dict[str, Any]:
        task_id = episode_id(domain, task)
        rec, env = DialogueRecord(task_id), None
        try:  # building the env loads a database: off the event loop
            env = await asyncio.to_thread(Tau2Env, domain, task, user_factory(domain, task))
            await env.start()
        except Exception as err:
            rec.fail(f"env: {type(err).__name__}: {err}")
        else:  # joins the batcher only now: a slow first user message holds no batch back
            batcher.enter()
            try:
                rec = await play_dialogue(env, task_id=task_id, policy_generate=batcher.generate,
                                          chat=chat, config=config,
                                          seed=sampling_seed(seed, index, task_id, 0))
            finally:
                batcher.leave()
        row = await asyncio.to_thread(
            score_episode, domain, task, env.messages if env else [],
            finish_reason=rec.finish_reason, failed=rec.failed,
            tool_errors=env.tool_errors if env else 0, max_errors=max_errors)
        return {**rec.episode(domain, trial), "domain": domain, "id": task.id,
                "trial": trial, **row, "finish_reason": rec.finish_reason,
                "failed": rec.failed, "tool_errors": env.tool_errors if env else 0,
                "seconds": round(rec.seconds, 3)}

    async with (Batcher(policy, config.batch_wait_s) as batcher,
                AioPool(size=config.max_concurrent_episodes) as pool):
        futures = [await pool.spawn(one(batcher, i, *job)) for i, job in enumerate(jobs)]
    rows = [f.result() for f in futures]
    return {"categories": {d: summarize([r for r in rows if r["domain"] == d])
                           for d in domains},
            "overall": summarize(rows), "rows": rows}
