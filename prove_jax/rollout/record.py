"""Episodes on disk, for people: one JSON object per episode, the same schema for training
(`<workdir>/episodes/step_NNNNNN.jsonl`) and evaluation (`episodes.jsonl`), read by
`launch.view`.

Schema (version 1). Always present: schema, task_id, task_kind, sample, seed, world_seed,
servers, turns, calls, finish_reason, failed, assistant_turns, user_turns. Present where the
run has them (a benchmark without PROVE truth leaves them out or null): step, group, rewards,
advantage, truth, alignment, final_hashes, expected_hashes, state_match.
  turns    the conversation in order: {"role": "system"|"user", "text"}, {"role": "assistant",
           "text", "calls": [indices into calls], "complete": false when the turn was cut},
           {"role": "tool", "call": index into calls}
  calls    {"turn", "name", "arguments", "outcome", "kind", "server", "error", "result"};
           a call that did not parse has kind "malformed_call" and its parse error
  alignment  per truth call: which call covered it (`prove_jax.rewards.alignment`)

A size cap keeps whole episodes, a seeded sample of them (never a truncated one), in their
original order.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from prove_jax.rewards import alignment
from prove_jax.rollout.task import Task
from prove_jax.rollout.trajectory import Trajectory

__all__ = ["SCHEMA", "episode_record", "write_episodes"]

SCHEMA = 1


def episode_record(task: Task, traj: Trajectory, *, step: int | None = None,
                   group: int | None = None, advantage: float | None = None,
                   expected_hashes: Mapping[str, str] | None = None,
                   reward_config: Any = None) -> dict[str, Any]:
    """The episode file's object for one played trajectory of `task`."""
    calls = [asdict(c) for c in traj.calls]
    try:
        aligned = alignment(traj.reward_calls(), task.truth, reward_config)
    except ValueError:  # the reward already failed this trajectory; show it unaligned
        aligned = None
    record: dict[str, Any] = {
        "schema": SCHEMA, "step": step, "task_id": task.id, "task_kind": task.kind,
        "group": group, "sample": traj.sample, "seed": traj.seed, "world_seed": task.seed,
        "servers": list(task.servers), "turns": traj.transcript, "calls": calls,
        "rewards": dict(traj.rewards), "advantage": advantage,
        "finish_reason": traj.finish_reason, "failed": traj.failed,
        "assistant_turns": traj.assistant_turns, "user_turns": traj.user_turns,
        "truth": {"steps": task.truth.get("steps", []), "edges": task.truth.get("edges", [])},
        "alignment": aligned, "final_hashes": dict(traj.snapshots),
        "expected_hashes": dict(expected_hashes) if expected_hashes is not None else None,
    }
    record["state_match"] = (None if expected_hashes is None
                             else traj.failed is None and traj.snapshots == expected_hashes)
    return record


def write_episodes(path: str | Path, records: Sequence[Mapping[str, Any]],
                   max_bytes: int | None = None, seed: int = 0) -> dict[str, int]:
    """Write `records` as JSON lines; over `max_bytes`, a seeded sample of whole episodes.
    Returns {"written", "dropped", "bytes"}."""
    lines = [json.dumps(r, ensure_ascii=False) + "\n" for r in records]
    keep = range(len(lines))
    if max_bytes is not None and sum(len(x.encode()) for x in lines) > max_bytes:
        order = list(range(len(lines)))
        random.Random(seed).shuffle(order)
        chosen, total = [], 0
        for i in order:
            size = len(lines[i].encode())
            if total + size <= max_bytes:
                chosen.append(i)
                total += size
        keep = sorted(chosen)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "".join(lines[i] for i in keep)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)  # a reader never sees half a file
    return {"written": len(keep), "dropped": len(lines) - len(keep),
            "bytes": len(text.encode())}
