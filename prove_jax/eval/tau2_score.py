"""τ² scoring with tau2's own evaluators and metrics.

An episode's reward is tau2's: the environment check (tau2 replays the episode's tool calls on
a fresh environment and compares database hashes with a replay of the gold actions; telecom
adds assertions on the final state), the action check and the communication check
(`communicate_info` strings in the agent's text), multiplied together for the parts the task's
`reward_basis` names. tau2's `evaluate_simulation` does this combination but sits behind its
registry, which imports `litellm`; the three evaluators it calls are used here directly.

As in tau2, an episode that did not end by the user's stop token scores 0 (tau2 scores only
agent/user stops), and so does one with `max_errors` failed tool calls (tau2 ends such an
episode with reward 0). The checks are still computed, so a row says what went wrong.
Success is tau2's `is_successful(reward)`; pass^k is tau2's `pass_hat_k`, averaged over tasks.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from typing import Any

from tau2.data_model.message import Message
from tau2.data_model.tasks import RewardType, Task
from tau2.evaluator.evaluator_action import ActionEvaluator
from tau2.evaluator.evaluator_communicate import CommunicateEvaluator
from tau2.evaluator.evaluator_env import EnvironmentEvaluator
from tau2.metrics.agent_metrics import is_successful, pass_hat_k

from prove_jax.eval.tau2_env import environment_constructor

__all__ = ["TAU2_MAX_ERRORS", "pass_hat_ks", "score_episode", "summarize"]

TAU2_MAX_ERRORS = 10  # tau2's default max_errors
_ENV_BASES = {RewardType.DB, RewardType.ENV_ASSERTION}


def score_episode(domain: str, task: Task, messages: Sequence[Message], *,
                  finish_reason: str = "user_done", failed: str | None = None,
                  tool_errors: int = 0, max_errors: int = TAU2_MAX_ERRORS) -> dict[str, Any]:
    """tau2's reward for one episode, with the checks behind it and why it is below 1.

    Returns {"reward", "success", "db_match", "communicate_ok", "env_assertions_ok",
    "actions_ok", "reason"}; a check the task does not have is None."""
    row: dict[str, Any] = {"reward": 0.0, "success": False, "db_match": None,
                           "communicate_ok": None, "env_assertions_ok": None,
                           "actions_ok": None, "reason": ""}
    why: list[str] = []
    if failed is not None:
        why.append(f"failed: {failed}")
    elif finish_reason != "user_done":
        why.append(f"ended early: {finish_reason}")
    if tool_errors >= max_errors:
        why.append(f"too many tool errors ({tool_errors} >= {max_errors})")
    criteria = task.evaluation_criteria
    reward = 1.0
    if criteria is not None:
        try:
            reward = _checks(domain, task, list(messages), row, why)
        except Exception as err:  # e.g. a recorded result that no longer replays
            why.append(f"evaluator: {type(err).__name__}: {err}")
            reward = 0.0
    if why:
        reward = 0.0
    row.update(reward=reward, success=is_successful(reward), reason="; ".join(why))
    return row


def _checks(domain: str, task: Task, messages: list[Message], row: dict,
            why: list[str]) -> float:
    criteria = task.evaluation_criteria
    basis = set(criteria.reward_basis)
    env = EnvironmentEvaluator.calculate_reward(environment_constructor=
                                                environment_constructor(domain),
                                                task=task, full_trajectory=messages)
    action = ActionEvaluator.calculate_reward(task=task, full_trajectory=messages)
    comm = CommunicateEvaluator.calculate_reward(task=task, full_trajectory=messages)
    if env.db_check is not None:
        row["db_match"] = env.db_check.db_match
    if env.env_assertions:
        row["env_assertions_ok"] = all(c.met for c in env.env_assertions)
    if action.action_checks:
        row["actions_ok"] = all(c.action_match for c in action.action_checks)
    if comm.communicate_checks:
        row["communicate_ok"] = all(c.met for c in comm.communicate_checks)
    reward = 1.0
    if basis & _ENV_BASES:
        reward *= env.reward
        if RewardType.DB in basis and row["db_match"] is False:
            why.append("database differs from the gold actions' database")
        why.extend(f"assertion failed: {c.env_assertion.func_name}"
                   f"({c.env_assertion.arguments})" for c in env.env_assertions or []
                   if RewardType.ENV_ASSERTION in basis and not c.met)
    if RewardType.ACTION in basis:
        reward *= action.reward
        why.extend(f"gold action not taken: {c.action.name}({c.action.arguments})"
                   for c in action.action_checks or [] if not c.action_match)
    if RewardType.COMMUNICATE in basis:
        reward *= comm.reward
        why.extend(f"not communicated: {c.info!r}" for c in comm.communicate_checks or []
                   if not c.met)
    if RewardType.NL_ASSERTION in basis:  # needs tau2's LLM judge, which is not wired here
        why.append("NL_ASSERTION in the reward basis: needs an LLM judge (not supported)")
        reward = 0.0
    return reward


def pass_hat_ks(successes: Mapping[str, Sequence[bool]]) -> dict[int, float]:
    """tau2's pass^k for k = 1 .. the fewest trials any task has, averaged over tasks."""
    if not successes:
        return {}
    trials = min(len(s) for s in successes.values())
    return {k: statistics.fmean(pass_hat_k(len(s), sum(s), k) for s in successes.values())
            for k in range(1, trials + 1)}


def summarize(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Figures over episode rows (with "domain", "id", "success", "reward", "failed"):
    success rate, mean reward, failed episodes and pass^k as "pass^1", "pass^2", ..."""
    by_task: dict[str, list[bool]] = {}
    for row in rows:  # tau2 ids repeat across domains
        by_task.setdefault(f"{row['domain']}/{row['id']}", []).append(bool(row["success"]))
    n = len(rows)
    out: dict[str, Any] = {
        "tasks": len(by_task), "episodes": n,
        "success_rate": sum(r["success"] for r in rows) / n if n else 0.0,
        "avg_reward": statistics.fmean(r["reward"] for r in rows) if n else 0.0,
        "failed": sum(r.get("failed") is not None for r in rows)}
    out.update({f"pass^{k}": v for k, v in pass_hat_ks(by_task).items()})
    return out
