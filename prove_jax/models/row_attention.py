"""Attention of an extend's new tokens over the slot rows they join, one row at a time.

An extend of k rows at once (`Attention.call_extend_slots`) materialises float32 scores of
every row's query block against its whole window; on XLA:CPU each op then streams hundreds of
MB and the passes of the softmax are memory-bound. One row at a time (`lax.map`), with its keys
and values sliced from the cache inside the loop, each op works on a few MB: on the ~100M Qwen3
shape, 32 rows x 128 new tokens over 2,560 slots took 1.9 ms per query row this way against
4.0 ms for all rows at once (and 1.65 ms with blocks of 256-320 query rows). A decode step is
the same with one query row: there, slicing every row's window out of the cache in one op
copied ~1 GB per step (32 rows x 2,048 slots x 8 layers), and a step took 193 ms against 134
one row at a time."""

from __future__ import annotations

import jax
import jax.numpy as jnp

__all__ = ["ROW_BLOCK", "attend_grouped", "attend_rows", "cpu_kernels", "row_kernels"]

ROW_BLOCK = 512  # most query rows per block of one row's extend (its scores bound it too)


def cpu_kernels() -> bool:
    """Whether attention takes its CPU forms: each kv head's query group as one matrix
    (`attend_grouped`) in prefill blocks, and slot rows one at a time where `row_kernels`
    allows. Accelerators keep every row in one batched product, where a loop over rows would
    serialise small kernels."""
    return jax.default_backend() == "cpu"


def row_kernels() -> bool:
    """Whether slot attention (extends and decode) runs one row at a time (`attend_rows`):
    on the CPU, unless the rows are split over several (fake) host devices, where a row
    picked by a traced index gathers every device's cache first (SmolLM2, 8 rows over 8 host
    devices: 14.5 s and 14.7 GB for a decode step, 534 ms in the batched form)."""
    if not cpu_kernels():
        return False
    mesh = jax.sharding.get_abstract_mesh()
    return mesh.empty or mesh.size == 1


def attend_rows(q: jax.Array, cache: tuple[jax.Array, jax.Array], layer: jax.Array,
                rows: jax.Array, offsets: jax.Array, window: int, block: int,
                scale: float) -> jax.Array:
    """q [k, E, N, H]: row i's E new tokens, at slots offsets[i] + j of slot-cache row rows[i]
    (cache k, v: [L, R, K, C, H], already holding them), each attending causally over that
    row's slots [0, window). Query blocks of `block` rows. Returns [k, E, N, H]."""
    k_all, v_all = cache
    _, _, kv, _, h = k_all.shape
    e = q.shape[1]

    def one(args: tuple[jax.Array, jax.Array, jax.Array]) -> jax.Array:
        q_r, row, offset = args  # [E, N, H], (), ()
        start = (layer, row, 0, 0, 0)
        k_r = jax.lax.dynamic_slice(k_all, start, (1, 1, kv, window, h))[0]  # 1 K W H
        v_r = jax.lax.dynamic_slice(v_all, start, (1, 1, kv, window, h))[0]
        outs = []
        for first in range(0, e, block):
            last = min(first + block, e)
            at = offset + jnp.arange(first, last)  # c
            mask = (jnp.arange(window)[None, :] <= at[:, None])[None, None]  # 1 1 c W
            outs.append(attend_grouped(q_r[None, first:last], k_r, v_r, mask, scale))
        return (outs[0] if len(outs) == 1 else jnp.concatenate(outs, axis=1))[0]

    return jax.lax.map(one, (q, rows, offsets))


def attend_grouped(q: jax.Array, k: jax.Array, v: jax.Array, mask: jax.Array,
                   scale: float) -> jax.Array:
    """`attend_cache`'s grouped-query attention (q [B, T, N, H], k/v [B, K, S, H], mask bool
    [B, 1, T, S]) with each kv head's G query heads and T rows as one [G·T, H] matrix: one
    product per (row, kv head) with G·T rows instead of G products of T (0.80x the time for
    32 x 128 queries over 2,560 slots). Scores and softmax in float32."""
    b, t, n, h = q.shape
    kv = k.shape[1]
    g = n // kv
    qg = (q * scale).reshape(b, t, kv, g, h).transpose(0, 2, 3, 1, 4).reshape(b, kv, g * t, h)
    scores = jnp.einsum("bkmh,bksh->bkms", qg, k, preferred_element_type=jnp.float32)
    keep = jnp.broadcast_to(mask[:, :, None], (b, 1, g, t, mask.shape[-1])).reshape(
        b, 1, g * t, -1)
    scores = jnp.where(keep, scores, jnp.finfo(jnp.float32).min)
    probs = jax.nn.softmax(scores, axis=-1).astype(v.dtype)
    out = jnp.einsum("bkms,bksh->bkmh", probs, v).reshape(b, kv, g, t, h)
    return out.transpose(0, 3, 1, 2, 4).reshape(b, t, n, h)
