"""The SFT baseline's loop: cross-entropy on the assistant's tokens of ground-truth
demonstrations (`prove_jax.data.sft`), on the same machinery as GRPO (mesh, jitted step with
micro-batches, Orbax checkpoints with the data iterator's state, metrics)."""

from __future__ import annotations

import time
from typing import Any

import jax
import numpy as np

from prove_jax.rl.batch import sft_batch
from prove_jax.rl.trainer import Trainer

__all__ = ["SFTTrainer"]


class SFTTrainer(Trainer):
    """`loader` yields lists of {"tokens", "loss_mask"} rows, `batch_size` per step."""

    def __init__(self, *, batch_size: int, seq_multiple: int = 256, **kwargs: Any):
        super().__init__(objective="sft", rows=batch_size, **kwargs)
        self.batch_size, self.seq_multiple = batch_size, seq_multiple

    async def train_step(self) -> dict[str, Any]:
        t0 = time.perf_counter()
        rows = next(self.loader)
        batch = sft_batch(rows, seq_multiple=self.seq_multiple,
                          rows_multiple=self.rows_multiple, min_rows=self.batch_size)
        t_step = time.perf_counter()
        self.params, self.opt_state, out = self._step(self.params, self.opt_state, batch)
        metrics: dict[str, Any] = {k: float(v) for k, v in jax.device_get(out).items()}
        t_end = time.perf_counter()
        elapsed = t_end - t0
        real = float(np.sum(batch["attention_mask"]))
        self.step += 1
        metrics.update(step_s=elapsed, examples=float(len(rows)),
                       train_tokens_per_s=real / elapsed,
                       seq_len_padded=float(batch["tokens"].shape[1]),
                       optimizer_s=t_end - t_step)
        metrics.update(self.throughput(batch, real, t_end - t_step))
        return metrics
