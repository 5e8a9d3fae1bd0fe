"""Rollouts to the train step's arrays, through a Grain pipeline.

Each trajectory becomes one right-padded row of a [B, T] batch: T is the longest sequence
rounded up to a bucket (`padded_length`: few distinct shapes, so the jitted step compiles a
logarithmic number of times), and B is padded with filler rows (one attended pad token, loss
mask 0) up to `min_rows` and then to a multiple of `rows_multiple` (data-parallel shards x
micro-batches). Failed episodes (a lost session, a timeout) keep their row but get loss mask 0
and advantage 0: an infrastructure failure must not teach the policy anything (their rewards
are also kept out of the group statistics, `prove_jax.rl.advantages`). The batch is compact
(see `prove_jax.rl.objectives`): only the sampled tokens' predictions are listed
(`target_index`), with their sampler log-probs (`old_logp`), so the LM head runs on the
response tokens only.
"""

from __future__ import annotations

from collections.abc import Sequence

import grain
import numpy as np

from prove_jax.rollout.trajectory import Trajectory

__all__ = ["TARGET_MULTIPLE", "micro_batching", "padded_length", "rollout_batch", "sft_batch"]

# Head positions per row are bucketed to multiples of this (with `padded_length`).
TARGET_MULTIPLE = 32


def micro_batching(rows: int, data_ways: int, micro_batches: int = 0) -> tuple[int, int]:
    """(micro-batches, padded rows) of a step of `rows` sequences over `data_ways` batch shards
    (data x fsdp): micro_batches 0 means one sequence per shard per micro-batch; rows pad up to
    a multiple of data_ways x micro-batches, so any mesh splits them."""
    micro = micro_batches or max(1, -(-rows // data_ways))
    multiple = data_ways * micro
    return micro, -(-rows // multiple) * multiple


def padded_length(n: int, multiple: int) -> int:
    """The smallest of multiple x (1, 2, 3, 4, 6, 8, 12, ...) that holds n tokens: at most a
    third of a row is padding, and the jitted step sees O(log T) distinct lengths."""
    p = 1
    while True:
        for factor in (p, p * 3 // 2) if p >= 2 else (p,):
            if multiple * factor >= n:
                return max(2, multiple * factor)
        p *= 2


def _row(seq_len: int, n_targets: int):
    def pad(row: dict) -> dict[str, np.ndarray]:
        n = len(row["tokens"])
        if n > seq_len:
            raise ValueError(f"sequence of {n} tokens exceeds the batch length {seq_len}")
        tokens = np.zeros((seq_len,), np.int32)
        tokens[:n] = row["tokens"]
        attention = np.zeros((seq_len,), np.int32)
        attention[:n] = row.get("attention_mask", 0)
        # Targets: the loss-mask tokens (position p >= 1), predicted at p - 1.
        mask = np.asarray(row.get("loss_mask", [0] * n), np.int32)
        where = np.flatnonzero(mask[1:]) + 1
        index = np.zeros((n_targets,), np.int32)
        index[:len(where)] = where - 1
        target_mask = np.zeros((n_targets,), np.int32)
        target_mask[:len(where)] = 1
        old = np.zeros((n_targets,), np.float32)
        if "old_logp" in row:
            old[:len(where)] = np.asarray(row["old_logp"], np.float32)[where]
        return {"tokens": tokens, "attention_mask": attention, "target_index": index,
                "loss_mask": target_mask, "old_logp": old,
                "advantages": np.float32(row.get("advantage", 0.0))}
    return pad


def _batch(rows: list[dict], seq_multiple: int, rows_multiple: int,
           target_multiple: int, min_rows: int = 0) -> dict[str, np.ndarray]:
    if not rows:
        raise ValueError("no rollouts to batch")
    seq_len = padded_length(max(len(r["tokens"]) for r in rows), seq_multiple)
    most = max(int(np.sum(np.asarray(r.get("loss_mask", [0]))[1:])) for r in rows)
    n_targets = padded_length(most, target_multiple)
    n_rows = -(-max(len(rows), min_rows) // rows_multiple) * rows_multiple
    rows = rows + [{"tokens": [0], "attention_mask": [1]} for _ in range(n_rows - len(rows))]
    ds = grain.MapDataset.source(rows).map(_row(seq_len, n_targets)).batch(n_rows)
    return ds[0]


def rollout_batch(trajectories: Sequence[Trajectory], advantages: Sequence[float], *,
                  seq_multiple: int = 256, rows_multiple: int = 1,
                  target_multiple: int = TARGET_MULTIPLE,
                  min_rows: int = 0) -> dict[str, np.ndarray]:
    """GRPO batch in the train step's compact form: tokens, attention_mask [B, T];
    target_index, loss_mask, old_logp [B, R] (the sampled tokens' positions, R the most in a
    row, bucketed); advantages [B]. Rows are padded (masks 0) to at least `min_rows`, so a
    step that kept fewer groups still has the step's one compiled shape."""
    if len(trajectories) != len(advantages):
        raise ValueError(f"{len(trajectories)} trajectories but {len(advantages)} advantages")
    rows = []
    for traj, adv in zip(trajectories, advantages, strict=True):
        usable = traj.failed is None
        rows.append({"tokens": traj.tokens, "attention_mask": [1] * len(traj.tokens),
                     "loss_mask": traj.loss_mask if usable else [0] * len(traj.tokens),
                     "old_logp": traj.logprobs, "advantage": float(adv) if usable else 0.0})
    return _batch(rows, seq_multiple, rows_multiple, target_multiple, min_rows)


def sft_batch(examples: Sequence[dict], *, seq_multiple: int = 256, rows_multiple: int = 1,
              target_multiple: int = TARGET_MULTIPLE, min_rows: int = 0) -> dict[str, np.ndarray]:
    """SFT batch from {"tokens", "loss_mask"} rows (loss on the assistant's tokens only),
    compact like `rollout_batch`."""
    rows = [{"tokens": ex["tokens"], "attention_mask": [1] * len(ex["tokens"]),
             "loss_mask": ex["loss_mask"]} for ex in examples]
    batch = _batch(rows, seq_multiple, rows_multiple, target_multiple, min_rows)
    return {k: batch[k] for k in ("tokens", "attention_mask", "target_index", "loss_mask")}
