"""The GRPO loop: prompts -> rollouts with the current parameters -> rewards -> advantages ->
batch -> train step(s) -> metrics and checkpoints.

The policy samples with the parameters being trained: before each rollout phase the model the
sampler holds is pointed at the newest parameter arrays (`nnx.update`, no copy). A resumed run
restores the state `Trainer` checkpoints; rollout seeds derive from (run seed, step, round), so
a run restarted from a checkpoint plays and trains exactly what the uninterrupted run would.

`collect(tasks, seed, first_index)` plays each task `group_size` times and returns one list of
trajectories per task, rewards filled in (`RolloutEngine.run_groups` over MCP sessions in a real
run; tests may pass any coroutine with that contract). `first_index` is the global position of
`tasks[0]` in the step's batch, so episode seeds do not depend on how many processes share it.

With several processes (`prove_jax.distributed`) each plays its own block of every batch and
samples from its own copy of the parameters (`publish`); their rows become one global batch,
rollout metrics are computed over every process's episodes, and a dynamic-sampling refill goes
on until every process has enough groups, so all of them draw the same batches.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import jax
import numpy as np
from flax import nnx

from prove_jax import distributed
from prove_jax.checkpoint.train_state import TrainCheckpointer
from prove_jax.rl.advantages import advantages as group_advantages
from prove_jax.rl.advantages import informative_groups, usable_groups
from prove_jax.rl.batch import rollout_batch
from prove_jax.rl.episode_log import EpisodeLog
from prove_jax.rl.group_batch import grouped_batch
from prove_jax.rl.length_buckets import BUCKETS
from prove_jax.rl.losses import LossConfig
from prove_jax.rl.metrics import MetricsWriter, episode_records, summarize_episodes
from prove_jax.rl.reference import ReferenceLogprobs
from prove_jax.rl.trainer import Trainer
from prove_jax.rollout.continuous import rollout_split
from prove_jax.rollout.engine import sampling_seed
from prove_jax.rollout.task import Task
from prove_jax.rollout.trajectory import Trajectory

log = logging.getLogger(__name__)

__all__ = ["Collect", "GRPOSettings", "GRPOTrainer", "round_seed"]

Collect = Callable[[list[Task], int, int], Awaitable[list[list[Trajectory]]]]


@dataclass(frozen=True)
class GRPOSettings:
    steps: int
    group_size: int
    prompts_per_step: int
    estimator: str = "grpo"
    iterations: int = 1  # optimisation passes per rollout batch
    dynamic_sampling: bool = False
    max_refills: int = 2
    micro_batches: int = 0  # 0: one sequence per data-parallel shard per micro-batch
    seq_multiple: int = 256
    logprob_chunk: int = 1024
    temperature: float = 1.0  # the sampler's; the ratio's log-probs use the same
    seed: int = 0
    checkpoint_every: int = 25
    shared_prefix: bool = False  # group-packed batches: each group's prompt trained on once
    length_buckets: int = BUCKETS  # micro-batches cut to quarters of the width

    def __post_init__(self) -> None:
        for name in ("steps", "group_size", "prompts_per_step", "iterations", "seq_multiple",
                     "logprob_chunk", "checkpoint_every", "length_buckets"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be >= 1, got {getattr(self, name)}")
        if self.micro_batches < 0 or self.max_refills < 0:
            raise ValueError("micro_batches and max_refills must be >= 0")
        if self.temperature <= 0:
            raise ValueError(f"GRPO needs a sampling temperature > 0, got {self.temperature}")
        if not isinstance(self.shared_prefix, bool):
            raise ValueError(f"train.shared_prefix must be True or False, got "
                             f"{self.shared_prefix!r}")

    @property
    def rows(self) -> int:
        return self.prompts_per_step * self.group_size


def round_seed(seed: int, step: int, round_: int) -> int:
    """The rollout seed of one collection round of one step (stable across processes)."""
    return sampling_seed(seed, step, "grpo-round", round_)


class GRPOTrainer(Trainer):
    """The GRPO loop; `await run()` trains to `settings.steps`."""

    def __init__(self, settings: GRPOSettings, *, model: nnx.Module, mesh: Any,
                 optimizer: Any, loss: LossConfig, loader: Iterator[list[Task]],
                 collect: Collect, writer: MetricsWriter | None = None,
                 checkpointer: TrainCheckpointer | None = None,
                 on_step: Callable[[int, dict], None] | None = None,
                 publish: Callable[[Any], None] | None = None,
                 episode_log: EpisodeLog | None = None):
        super().__init__(steps=settings.steps, model=model, mesh=mesh, optimizer=optimizer,
                         loss=loss, loader=loader, objective="grpo", rows=settings.rows,
                         micro_batches=settings.micro_batches,
                         chunk_size=settings.logprob_chunk, temperature=settings.temperature,
                         seed=settings.seed, writer=writer, checkpointer=checkpointer,
                         on_step=on_step, shared_prefix=settings.shared_prefix,
                         group_size=settings.group_size,
                         length_buckets=settings.length_buckets)
        self.settings, self.collect = settings, collect
        self.episode_log = episode_log
        # how the sampler gets the newest parameters: the trainer's own arrays (no copy), or
        # with several processes a process-local copy (`distributed.local_copy`)
        self.publish = publish or (lambda params: nnx.update(self.model, params))
        self.processes = jax.process_count()
        shards = mesh.shape["data"] * mesh.shape["fsdp"]
        if settings.shared_prefix and settings.prompts_per_step % shards:
            log.warning("train.shared_prefix: %d prompts per step over %d data shards leaves "
                        "%d shard(s) a padding group in the last chunk; a multiple of %d "
                        "fills them (or --config.train.shared_prefix=False)",
                        settings.prompts_per_step, shards,
                        shards - settings.prompts_per_step % shards, shards)
        if settings.prompts_per_step % self.processes:
            raise ValueError(f"prompts_per_step={settings.prompts_per_step} does not split over "
                             f"{self.processes} processes")
        if self.processes > 1:
            from prove_jax.sharding import batch_sharding

            distributed.check_batch_layout(batch_sharding(mesh, 2), self.rows_multiple)
        self.reference = (ReferenceLogprobs(self.graphdef, self.params, mesh,
                                            settings.logprob_chunk, self.micro_batches,
                                            settings.temperature, model.cfg.dtype)
                          if loss.kl_coef > 0 else None)

    async def collect_groups(self) -> tuple[list[Task], list[list[Trajectory]], dict[str, float]]:
        """Groups to train on, and the metrics of every rollout played for them."""
        s = self.settings
        self.publish(self.params)  # the sampler sees the newest parameters
        share = s.prompts_per_step // self.processes  # this process's block of every batch
        first = jax.process_index() * share
        played_tasks: list[Task] = []
        played: list[list[Trajectory]] = []
        played_ids: list[int] = []  # group ids, unique over the step's rounds and processes
        trained: list[bool] = []
        kept_tasks: list[Task] = []
        kept: list[list[Trajectory]] = []
        rounds = 1 + (s.max_refills if s.dynamic_sampling else 0)
        sampler_stats = getattr(self.collect, "sampler_stats", None)
        before = sampler_stats() if sampler_stats is not None else None
        for r in range(rounds):
            tasks = next(self.loader)
            groups = await self.collect(tasks, round_seed(s.seed, self.step, r), first)
            if len(groups) != len(tasks) or any(len(g) != s.group_size for g in groups):
                raise RuntimeError("collect must return group_size trajectories per task")
            played_tasks += tasks
            played += groups
            played_ids += [r * s.prompts_per_step + first + j for j in range(len(tasks))]
            rewards, usable = _rewards(groups), _usable(groups)
            # failed rollouts compare with nothing: a group needs two usable ones, and dynamic
            # sampling keeps only groups whose usable rewards differ
            use = (informative_groups(rewards, usable) if s.dynamic_sampling
                   else usable_groups(usable))
            rank = len(kept)
            for u in use:  # the batch takes the first `share` kept groups
                trained.append(bool(u) and rank < share)
                rank += bool(u)
            kept_tasks += [t for t, u in zip(tasks, use, strict=True) if u]
            kept += [g for g, u in zip(groups, use, strict=True) if u]
            if distributed.all_true(len(kept) >= share):
                break
        failed = [t.failed for g in played for t in g if t.failed is not None]
        if failed:  # infrastructure trouble (a lost server, a timeout) must be visible
            log.warning("step %d: %d of %d episodes failed (this process); first: %s",
                        self.step + 1, len(failed), sum(map(len, played)), failed[0])
        if self.episode_log is not None and self.episode_log.due(self.step + 1):
            adv = (group_advantages(_rewards(played), s.estimator, usable=_usable(played))
                   if played else [])
            await self.episode_log.log(self.step + 1, played_tasks, played, played_ids,
                                       np.asarray(adv), trained)
        everyone = distributed.allgather_json(episode_records(played_tasks, played))
        records = [r for process in everyone for r in process]
        metrics = summarize_episodes(records)
        metrics["groups_kept"] = float(distributed.global_sum(min(len(kept), share)))
        metrics["rollout_rounds"] = float(r + 1)
        if before is not None:
            metrics.update(rollout_split(before, sampler_stats()))
        return kept_tasks[:share], kept[:share], metrics

    def build_batch(self, groups: Sequence[Sequence[Trajectory]]) -> tuple[dict[str, Any], float,
                                                                       str]:
        """(batch, real tokens in it, digest): the global batch of this step (each process
        builds its block of rows)."""
        s = self.settings
        trajs = [t for g in groups for t in g]
        adv = (np.asarray(group_advantages(_rewards(groups), s.estimator,
                                           usable=_usable(groups))).reshape(-1)
               if groups else np.zeros(0))
        if s.shared_prefix:
            return self._packed_batch(groups, adv)
        # Fixed rows per step (dynamic sampling may keep fewer groups): one compiled shape.
        batch: dict[str, Any] = rollout_batch(
            trajs or [_empty()], list(adv) or [0.0], seq_multiple=s.seq_multiple,
            rows_multiple=self.rows_multiple // self.processes,
            min_rows=s.rows // self.processes)
        real = distributed.global_sum(float(np.sum(batch["attention_mask"])))
        batch, digest = self._global(batch)
        if self.reference is not None:
            batch["ref_logp"] = self.reference(batch["tokens"], batch["attention_mask"],
                                               batch["target_index"])
        return batch, real, digest

    def _global(self, batch: dict[str, Any]) -> tuple[dict[str, Any], str]:
        """(the global batch, its digest) from this process's block of rows or groups: with
        several processes the blocks agree on widths and join along the leading axis."""
        if self.processes > 1:
            batch = distributed.align_widths(batch)
        rows = [r for block in distributed.allgather_json(_row_digests(batch)) for r in block]
        digest = hashlib.sha256("".join(rows).encode()).hexdigest()[:16]
        if self.processes > 1:
            batch = distributed.global_batch(batch, self.mesh)
        return batch, digest

    def _packed_batch(self, groups: Sequence[Sequence[Trajectory]], adv: np.ndarray
                      ) -> tuple[dict[str, Any], float, str]:
        """`build_batch` in the group-packed layout (`prove_jax.rl.group_batch`): fixed
        groups per step (padding groups where fewer were kept), so one compiled shape. With
        several processes each packs its block of groups (whole groups never span processes)
        and the blocks join along the group axis like the unpacked rows."""
        s = self.settings
        if not groups:
            groups, adv = [[_empty()] * s.group_size], np.zeros(s.group_size)
        batch: dict[str, Any] = grouped_batch(
            groups, adv.reshape(len(groups), s.group_size), seq_multiple=s.seq_multiple,
            groups_multiple=self.rows_multiple // self.processes,
            min_groups=s.prompts_per_step // self.processes)
        real = distributed.global_sum(float(sum(len(t.tokens) for g in groups for t in g)))
        batch, digest = self._global(batch)
        if self.reference is not None:
            batch["ref_logp"] = self.reference.packed(batch)
        return batch, real, digest

    async def train_step(self) -> dict[str, float]:
        t0 = time.perf_counter()
        _, groups, metrics = await self.collect_groups()
        t1 = time.perf_counter()
        if distributed.global_sum(float(len(groups))) == 0:
            # No group can teach anything (every one uniform, or too few usable rollouts):
            # no batch, no reference pass, no optimizer update (AdamW would still move the
            # parameters along its momentum and advance the schedule).
            self.step += 1
            metrics.update(nothing_to_learn=1.0, updates=0.0, rollout_s=t1 - t0, train_s=0.0,
                           step_s=t1 - t0)
            return metrics
        batch, real, digest = self.build_batch(groups)
        t_step = time.perf_counter()
        outs = []
        for _ in range(self.settings.iterations):  # dispatched back to back, read once below
            self.params, self.opt_state, out = self._step(self.params, self.opt_state, batch)
            outs.append(out)
        outs = jax.device_get(outs)
        step_s = time.perf_counter() - t_step
        updates = sum(1.0 - max(float(o["nothing_to_learn"]), float(o["skipped_nonfinite"]))
                      for o in outs)
        out = {k: float(v) for k, v in outs[-1].items()}
        t2 = time.perf_counter()
        self.step += 1
        metrics["batch_digest"] = digest
        metrics.update(out)
        metrics.update(updates=updates, rollout_s=t1 - t0, train_s=t2 - t1, step_s=t2 - t0,
                       train_tokens_per_s=real * self.settings.iterations / max(t2 - t1, 1e-9),
                       seq_len_padded=float(batch["tokens"].shape[-1]), optimizer_s=step_s)
        metrics.update(self.throughput(batch, real, step_s, self.settings.iterations))
        return metrics


def _row_digests(batch: dict[str, Any]) -> list[str]:
    """A fingerprint per row of what was trained on; the step's `batch_digest` hashes them in
    order, so it does not depend on how many processes built the batch (resume and
    multi-process checks compare it)."""
    out = []
    for i in range(len(batch["tokens"])):
        h = hashlib.sha256()
        for key in ("tokens", "loss_mask", "old_logp", "advantages"):
            h.update(np.ascontiguousarray(batch[key][i]).tobytes())
        out.append(h.hexdigest()[:16])
    return out


def _rewards(groups: Sequence[Sequence[Trajectory]]) -> np.ndarray:
    return np.asarray([[t.rewards.get("total", 0.0) for t in g] for g in groups], np.float32)


def _usable(groups: Sequence[Sequence[Trajectory]]) -> np.ndarray:
    """[N, G]: rollouts that were played to the end (a failed one teaches nothing)."""
    return np.asarray([[t.failed is None for t in g] for g in groups], bool).reshape(
        len(groups), -1)


def _empty() -> Trajectory:
    t = Trajectory("", 0, 0)
    t.append([0])
    return t
