"""The rollout engine: many episodes at once on one event loop, policy turns batched.

Episodes are coroutines bounded by an `asyncio_pool.AioPool` (the pool size caps live episodes,
hence open server sessions and the batch the policy sees); every policy turn goes through one
`Batcher`, so all episodes waiting at the same moment share a single `policy.generate` call,
unless the policy batches continuously itself (it has `generate_one`, as `ContinuousPolicy`).
An episode's failure (server, timeout, exception) is recorded on its trajectory; `run` always
returns one trajectory per job, in job order.

GRPO: `run_groups` plays each task `group_size` times. Every rollout gets its own sessions
(built from the task's seed, so the whole group starts from the same world) and its own
sampling seed, derived from (run seed, task position, task id, rollout index) so that a rerun
with the same seed samples the same way.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from asyncio_pool import AioPool

from prove_jax.rollout.batcher import Batcher
from prove_jax.rollout.episode import ToolHost, play_episode
from prove_jax.rollout.policy import Policy
from prove_jax.rollout.task import RolloutConfig, Task
from prove_jax.rollout.trajectory import Trajectory
from prove_jax.tools.chat import ChatFormat

__all__ = ["RolloutEngine", "sampling_seed"]


def sampling_seed(run_seed: int, task_index: int, task_id: str, sample: int) -> int:
    """A stable 31-bit seed per rollout (Python's hash() of a str changes per process)."""
    key = f"{run_seed}/{task_index}/{task_id}/{sample}".encode()
    return int.from_bytes(hashlib.sha256(key).digest()[:4], "little") & 0x7FFFFFFF


class RolloutEngine:
    """Plays episodes of `policy` against `tools` (an MCPManager that is already started)."""

    def __init__(self, policy: Policy, tools: ToolHost, chat: ChatFormat,
                 config: RolloutConfig | None = None):
        self.policy, self.tools, self.chat = policy, tools, chat
        self.config = config or RolloutConfig()
        self.batch_sizes: list[int] = []  # every generate call's batch size, across runs

    async def run(self, jobs: Sequence[tuple[Task, int, int]]) -> list[Trajectory]:
        """Play every (task, sampling seed, rollout index) job; trajectories in job order."""
        cfg = self.config
        async with Batcher(self.policy, cfg.batch_wait_s, cfg.max_batch_size) as batcher:
            async with AioPool(size=cfg.max_concurrent_episodes) as pool:
                futures = [await pool.spawn(self._one(batcher, task, seed, sample))
                           for task, seed, sample in jobs]
            self.batch_sizes.extend(batcher.batch_sizes)
        close = getattr(self.policy, "aclose", None)
        if close is not None:  # a continuous policy's scheduler: no task outlives the run
            await close()
        release = getattr(self.policy, "release_cache", None)
        if release is not None:  # kept KV of finished episodes: free it before training
            release()
        return [f.result() for f in futures]

    async def run_groups(self, tasks: Sequence[Task], group_size: int, seed: int = 0,
                         first_index: int = 0) -> list[list[Trajectory]]:
        """Each task `group_size` times (GRPO); one list of trajectories per task.
        `first_index` is tasks[0]'s position in the whole batch (several processes each
        play a block of it and must seed as one process would)."""
        if group_size < 1:
            raise ValueError(f"group_size must be >= 1, got {group_size}")
        jobs = [(task, sampling_seed(seed, i, task.id, g), g)
                for i, task in enumerate(tasks, start=first_index) for g in range(group_size)]
        flat = await self.run(jobs)
        return [flat[i * group_size:(i + 1) * group_size] for i in range(len(tasks))]

    async def _one(self, batcher: Batcher, task: Task, seed: int, sample: int) -> Trajectory:
        batcher.enter()
        # A continuous policy batches by itself, request by request (generate_one).
        generate = getattr(self.policy, "generate_one", None) or batcher.generate
        try:
            return await play_episode(task, generate=generate, tools=self.tools,
                                      chat=self.chat, config=self.config, seed=seed,
                                      sample=sample)
        finally:
            batcher.leave()
            end = getattr(self.policy, "end_episode", None)
            if end is not None:  # a continuous policy frees the episode's KV row
                end(task.id, seed)

