"""The held-out synthesized split: our tasks, our servers, scored two ways.

Each test task is played once through the training rollout engine (same sessions, caps and
chat formatting as GRPO), then scored with
  - the reward components (`prove_jax.rewards.score`, the training reward), and
  - task success: the episode ended without failure and every server's final state hash equals
    the hash reached by replaying the task's ground truth alone on fresh sessions. State, not
    call text, decides: a model that reaches the same world by other calls succeeds; an
    abstention task succeeds only if nothing changed.
Categories are the task kinds (normal / clarification / abstention); overall is over all tasks.
Rows are episode records (`prove_jax.rollout.record`, the training run's schema) with
success, state_match and truth_errors added.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from prove_jax.rollout.engine import RolloutEngine, sampling_seed
from prove_jax.rollout.policy import Policy
from prove_jax.rollout.record import episode_record
from prove_jax.rollout.task import RolloutConfig, Task
from prove_jax.synthesis.revalidate import replay_row
from prove_jax.tools.chat import ChatFormat

__all__ = ["run_heldout"]


async def run_heldout(policy: Policy, chat: ChatFormat, manager: Any, tasks: Sequence[Task],
                      config: RolloutConfig, seed: int = 0) -> dict[str, Any]:
    """Play and score every task; `manager` is a started MCPManager serving their servers.

    Returns {"categories": {kind: {...}}, "overall": {...}, "rows": [...]}, each summary with
    n, success (fraction) and the mean of every reward component."""
    engine = RolloutEngine(policy, manager, chat, config)
    jobs = [(t, sampling_seed(seed, i, t.id, 0), 0) for i, t in enumerate(tasks)]
    trajectories = await engine.run(jobs)
    rows = []
    for task, traj in zip(tasks, trajectories, strict=True):
        _, errors, truth, _ = await replay_row(manager, task.to_dict())
        # the episode file's schema (prove_jax.rollout.record), plus what success needs
        row = episode_record(task, traj, expected_hashes=truth, reward_config=config.reward)
        row.update(success=traj.failed is None and traj.snapshots == truth,
                   state_match=traj.snapshots == truth, truth_errors=errors)
        rows.append(row)
    by_kind: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        by_kind[row["task_kind"]].append(row)
    return {"categories": {k: _summary(v) for k, v in sorted(by_kind.items())},
            "overall": _summary(rows), "rows": rows}


def _summary(rows: Sequence[dict]) -> dict[str, Any]:
    if not rows:
        return {"n": 0, "success": 0.0}
    out: dict[str, Any] = {"n": len(rows),
                           "success": sum(r["success"] for r in rows) / len(rows),
                           "failed": sum(r["failed"] is not None for r in rows)}
    for key in sorted({k for r in rows for k in r["rewards"]}):
        out[f"reward/{key}"] = statistics.fmean(r["rewards"].get(key, 0.0) for r in rows)
    return out
