"""Micro-batches cut to their own length: a step's rows are right-padded to its longest, and
one long episode widens every row of the step. Each micro-batch runs at the shortest of a few
lengths (quarters of the width) that holds its longest row, through a `lax.switch` over one
compiled branch per length; the positions cut are padding, so the result is the full-width
one. Used by both accumulators (`prove_jax.rl.train_step.accumulate` for compact rows,
`prove_jax.rl.shared_prefix.accumulate_shared` for suffixes)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

__all__ = ["BUCKETS", "POSITION_KEYS", "SHORTEST", "compact_widths", "cut_lengths",
           "packed_widths", "run_at_shortest"]

# Quarters of the width: in the SmolLM2 recipe's GRPO steps most suffixes were a quarter of
# the width or less (16 suffixes of ~300 tokens at widths of 768-1,536).
BUCKETS = 4
# No cut below this many tokens: a shorter one saves less than its compiled branch costs
# (the tiny test models' steps are faster than their compiles).
SHORTEST = 256
# Arrays whose last axis is the token position; per-prediction arrays (target_index,
# loss_mask, old_logp of compact batches) point into the kept positions and stay whole.
POSITION_KEYS = ("tokens", "attention_mask", "positions")


def cut_lengths(width: int, buckets: int = BUCKETS, shortest: int = SHORTEST
                ) -> tuple[int, ...]:
    """The lengths (multiples of 8, the last `width`, none under `shortest`) a micro-batch
    `width` wide is cut to: `buckets` steps of width / buckets."""
    cuts = {min(width, -(-width * k // buckets // 8) * 8) for k in range(1, buckets + 1)}
    return tuple(sorted(n for n in cuts if n >= shortest or n == width))


def run_at_shortest(fn: Callable[..., Any], mb: dict[str, jax.Array], *args: Any,
                    lengths: Sequence[int]) -> Any:
    """fn(mb cut to n, *args) for the shortest n of `lengths` that holds mb's longest row
    (attention_mask 1 on a row's real tokens, right-padded)."""
    def at(n: int) -> Callable[..., Any]:
        def run(mb: dict[str, jax.Array], *args: Any) -> Any:
            return fn({k: v[..., :n] if k in POSITION_KEYS else v for k, v in mb.items()},
                      *args)
        return run

    if len(lengths) == 1:
        return at(lengths[0])(mb, *args)
    longest = jnp.max(jnp.sum(mb["attention_mask"].astype(jnp.int32), axis=-1))
    which = jnp.minimum(jnp.searchsorted(jnp.asarray(lengths), longest), len(lengths) - 1)
    return jax.lax.switch(which, [at(n) for n in lengths], mb, *args)


# Host mirrors of the choice above, for counting the FLOPs a step really ran
# (`prove_jax.rl.flops`): each micro-batch's width, in the accumulators' order.

def _shortest_holding(longest: np.ndarray, lengths: Sequence[int]) -> list[int]:
    which = np.minimum(np.searchsorted(np.asarray(lengths), longest), len(lengths) - 1)
    return [int(lengths[i]) for i in np.ravel(which)]


def compact_widths(attention_mask: np.ndarray, micro_batches: int, buckets: int = BUCKETS,
                   shortest: int = SHORTEST) -> list[int]:
    """The width each of `prove_jax.rl.train_step.accumulate`'s micro-batches of a compact
    [B, T] batch runs at (micro-batch i: rows i*B/m to (i+1)*B/m)."""
    mask = np.asarray(attention_mask)
    rows, width = mask.shape
    longest = mask.reshape(micro_batches, rows // micro_batches, width).sum(-1).max(-1)
    return _shortest_holding(longest, cut_lengths(width, buckets, shortest))


def packed_widths(attention_mask: np.ndarray, micro_batches: int, group_chunks: int = 1,
                  buckets: int = BUCKETS, shortest: int = SHORTEST) -> list[int]:
    """The width each suffix micro-batch of `prove_jax.rl.shared_prefix.accumulate_shared`
    runs at over a packed [N, G, S] suffix mask: chunk c holds groups c, c + chunks, ...;
    part p of a chunk, suffixes p*G/m to (p+1)*G/m of each of its groups."""
    mask = np.asarray(attention_mask)
    _, g, width = mask.shape
    per_row = mask.sum(-1)  # [N, G]
    part = g // micro_batches
    longest = np.array([[per_row[c::group_chunks, p * part:(p + 1) * part].max()
                         for p in range(micro_batches)] for c in range(group_chunks)])
    return _shortest_holding(longest, cut_lengths(width, buckets, shortest))
