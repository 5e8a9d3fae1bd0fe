"""What the GRPO and SFT loops share: the training state (parameters, optimizer state, step),
the jitted train step on the mesh, Orbax save/restore with the data iterator's state, metrics.

A subclass implements `train_step()` (one optimisation step, returning its metrics); `run()`
steps to `steps`, writing metrics and checkpoints. Everything a resumed run needs is in the
checkpoint: parameters, optimizer state, step, and the data iterator's state; every random
choice derives from (seed, step), so a restarted run continues exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import optax
from flax import nnx

from prove_jax.checkpoint.train_state import TrainCheckpointer
from prove_jax.distributed import host_array
from prove_jax.rl.batch import micro_batching
from prove_jax.rl.flops import device_peak, mfu, shared_step_flops, step_flops
from prove_jax.rl.length_buckets import BUCKETS, compact_widths, packed_widths
from prove_jax.rl.losses import LossConfig
from prove_jax.rl.metrics import MetricsWriter
from prove_jax.rl.train_step import jit_train_step, make_train_step

__all__ = ["Trainer"]


class Trainer:
    def __init__(self, *, steps: int, model: nnx.Module, mesh: Any,
                 optimizer: optax.GradientTransformation, loss: LossConfig, loader: Iterator,
                 objective: str, rows: int, micro_batches: int = 0, chunk_size: int = 1024,
                 temperature: float = 1.0, seed: int = 0,
                 writer: MetricsWriter | None = None,
                 checkpointer: TrainCheckpointer | None = None,
                 on_step: Callable[[int, dict], None] | None = None,
                 shared_prefix: bool = False, group_size: int = 1,
                 length_buckets: int = BUCKETS):
        self.steps, self.model, self.mesh, self.loss = steps, model, mesh, loss
        self.loader, self.seed = loader, seed
        self.writer, self.checkpointer, self.on_step = writer, checkpointer, on_step
        dp = mesh.shape["data"] * mesh.shape["fsdp"]
        if shared_prefix:
            # group-packed batches: whole groups per data shard (their count a multiple of
            # the shards); micro-batches split each group's suffixes (default: one each)
            self.micro_batches = micro_batches or group_size
            if group_size % self.micro_batches:
                raise ValueError(f"train.micro_batches={micro_batches} must divide "
                                 f"rollout.group_size={group_size} with train.shared_prefix "
                                 "(micro-batches split each group's rollouts)")
            self.rows_multiple = dp
            # one group per data shard at a time: a micro-batch holds one prompt per shard
            group_chunks = -(-rows // group_size // dp)
        else:
            self.micro_batches, _ = micro_batching(rows, dp, micro_batches)
            self.rows_multiple = dp * self.micro_batches
            group_chunks = 1
        self.group_chunks, self.length_buckets = group_chunks, length_buckets
        self.graphdef, self.params = nnx.split(model, nnx.Param)
        self.opt_state = optimizer.init(self.params)
        step_fn = make_train_step(self.graphdef, optimizer, loss, micro_batches=self.micro_batches,
                                  chunk_size=chunk_size, temperature=temperature,
                                  objective=objective, shared_prefix=shared_prefix,
                                  group_chunks=group_chunks, length_buckets=length_buckets)
        self._step = jit_train_step(step_fn, self.params, self.opt_state, mesh,
                                    optimizer)
        self.step = 0
        # MFU's denominator: the spec sheet's bf16 peak of an accelerator, measured on a CPU
        self.peak_flops, self.peak_label = device_peak(mesh.devices.flat[0])

    def throughput(self, batch: dict[str, Any], real_tokens: float, seconds: float,
                   iterations: int = 1) -> dict[str, float]:
        """What `iterations` optimizer passes over the global `batch` achieved in `seconds` of
        train-step time (a step that compiled includes its compile): model FLOPs
        (`prove_jax.rl.flops`: forward + backward, the compact head on the sampled positions
        only, each micro-batch at the length bucket it ran at), real (unpadded) tokens per
        second per device, and MFU against `peak_label`."""
        devices = self.mesh.devices.size
        # the whole batch's row lengths pick each micro-batch's bucket (with several
        # processes the mask spans them: every process gathers it, as every one calls this)
        mask = host_array(batch["attention_mask"])
        if "prefix_tokens" in batch:  # group-packed: each prefix once
            groups, size, suffix = batch["tokens"].shape
            widths = packed_widths(mask, self.micro_batches,
                                   self.group_chunks, self.length_buckets)
            flops = shared_step_flops(self.model.cfg, groups, size,
                                      batch["prefix_tokens"].shape[1], suffix,
                                      batch["target_index"].shape[-1], iterations=iterations,
                                      widths=widths)
        else:
            rows, seq = batch["tokens"].shape
            compact = "target_index" in batch  # only compact rows are cut to a bucket
            targets = batch["target_index"].shape[1] if compact else seq - 1
            widths = (compact_widths(mask, self.micro_batches,
                                     self.length_buckets) if compact else None)
            flops = step_flops(self.model.cfg, rows, seq, targets, iterations=iterations,
                               widths=widths)
        return {"model_flops": flops,
                "train_tokens_per_s_per_device": real_tokens * iterations
                / max(seconds, 1e-9) / devices,
                "mfu": mfu(flops, seconds, devices, self.peak_flops)}

    def restore(self) -> int:
        """Continue from the newest finished checkpoint, if any; returns the step."""
        if self.checkpointer is None or self.checkpointer.latest_step() is None:
            return self.step
        step, params, opt_state, record = self.checkpointer.restore(self.params, self.opt_state)
        self.params, self.opt_state, self.step = params, opt_state, step
        if record.get("loader") is not None:
            self.loader.set_state(record["loader"])  # type: ignore[attr-defined]
        nnx.update(self.model, self.params)
        return step

    def record(self) -> dict[str, Any]:
        state = self.loader.get_state() if hasattr(self.loader, "get_state") else None
        return {"step": self.step, "loader": state, "seed": self.seed}

    def save(self, force: bool = False) -> None:
        if self.checkpointer is not None:
            self.checkpointer.save(self.step, self.params, self.opt_state, self.record(),
                                   force=force)

    async def train_step(self) -> dict[str, Any]:
        raise NotImplementedError

    async def run(self) -> list[dict[str, Any]]:
        """Train from the current step to `steps`; returns each step's metrics."""
        history = []
        while self.step < self.steps:
            metrics = await self.train_step()
            history.append(metrics)
            if self.writer is not None:
                self.writer.write(self.step, metrics)
            if self.on_step is not None:
                self.on_step(self.step, metrics)
            self.save(force=self.step == self.steps)
        if self.checkpointer is not None:
            self.checkpointer.wait()
        nnx.update(self.model, self.params)
        return history
