"""The training run's episodes on disk: every `every` steps, each process builds the records
of the rollouts it played (`prove_jax.rollout.record`), process 0 gathers them all and writes
`<directory>/step_NNNNNN.jsonl` under a size cap (a seeded sample of whole episodes)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from prove_jax import distributed
from prove_jax.rollout.record import episode_record, write_episodes
from prove_jax.rollout.task import Task
from prove_jax.rollout.trajectory import Trajectory

__all__ = ["EpisodeLog"]

log = logging.getLogger(__name__)

TruthHashes = Callable[[Task], Awaitable[dict[str, str]]]


@dataclass
class EpisodeLog:
    directory: Path
    every: int  # 0: never
    max_bytes: int | None = None
    seed: int = 0
    truth_hashes: TruthHashes | None = None  # the servers' state after the truth alone
    reward_config: Any = None

    def due(self, step: int) -> bool:
        return self.every > 0 and step % self.every == 0

    async def log(self, step: int, tasks: Sequence[Task], groups: Sequence[Sequence[Trajectory]],
                  group_ids: Sequence[int], advantages: Any, trained: Sequence[bool]) -> None:
        """Gather this step's episodes from every process; process 0 writes them. Every
        process must call it on the same steps (it is a collective)."""
        mine = []
        for task, group, gid, adv, kept in zip(tasks, groups, group_ids, advantages, trained,
                                              strict=True):
            expected = await self._expected(task)
            for traj, a in zip(group, adv, strict=True):
                record = episode_record(task, traj, step=step, group=gid, advantage=float(a),
                                        expected_hashes=expected,
                                        reward_config=self.reward_config)
                record["trained"] = bool(kept)
                mine.append(record)
        everyone = distributed.allgather_json(mine)
        if distributed.is_primary():
            records = sorted((r for block in everyone for r in block),
                             key=lambda r: (r["group"], r["sample"]))
            write_episodes(self.directory / f"step_{step:06d}.jsonl", records, self.max_bytes,
                           seed=self.seed + step)

    async def _expected(self, task: Task) -> dict[str, str] | None:
        if self.truth_hashes is None:
            return None
        try:
            return await self.truth_hashes(task)
        except Exception as err:  # a log must not stop training; the record shows none
            log.warning("episode log: replaying the truth of task %s failed (%s: %s); its "
                        "records carry no expected hashes", task.id, type(err).__name__, err)
            return None
