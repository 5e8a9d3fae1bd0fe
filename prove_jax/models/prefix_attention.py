"""Two-part attention for a group of suffixes that share one prefix (Prefix Grouper's
"shared-prefix forward").

A GRPO group is G sequences that start with the same prompt. Packed, the prompt (the prefix) is
stored once per group and each rollout keeps only its suffix. The prefix attends to itself
(ordinary causal attention, run once per group); every suffix query attends to the prefix's
keys and values plus its own causal suffix, under one softmax over both parts. Dense (no
chunk), the prefix's keys and values enter each group's G suffixes through an einsum over
[N, K, P, H] with no copy per suffix. Chunked (the training default at real lengths), each
suffix row reads them as the lead keys of a flash attention (square blocks, an online softmax,
the suffix's upper triangle skipped), so one block of scores is live at a time rather than a
[rows, heads, chunk, P + S] slab; the per-row view of the prefix lives for one layer's attention,
as an unpacked row's keys would. Either way autodiff sums the G suffixes' contributions into the
prefix's gradient.

Exactness: a suffix row sees exactly the real keys its unpacked row sees (prefix padding is
masked), with the same scores and one softmax over them, so results equal the unpacked row's
to float32 rounding (the two parts' weighted values are added instead of summed in one
contraction).

Axes: N groups, G suffixes per group (B = N x G rows), T suffix query time, S suffix key time,
P prefix time, K kv heads, Q query heads per kv head, H head dim.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from prove_jax.models.attention import causal_query_chunked, use_chunks

__all__ = ["prefix_suffix_attend"]


def _two_part(q: jax.Array, k: tuple[jax.Array, jax.Array], v: tuple[jax.Array, jax.Array],
              mask: jax.Array, scale: float) -> jax.Array:
    """q [B, T, K·Q, H] -> out like q; k/v = (prefix [N, K, P, H], suffix [B, K, S, H]);
    mask bool [B, 1, T, P + S] over the prefix's keys, then the suffix's."""
    k_pre, k_suf = k
    v_pre, v_suf = v
    n, kv, p, h = k_pre.shape
    b, t, heads, _ = q.shape
    g, s = b // n, k_suf.shape[2]
    qg = q.reshape(n, g, t, kv, heads // kv, h)
    scores = jnp.concatenate([
        jnp.einsum("ngtkqh,nksh->ngkqts", qg, k_pre, preferred_element_type=jnp.float32),
        jnp.einsum("ngtkqh,ngksh->ngkqts", qg, k_suf.reshape(n, g, kv, s, h),
                   preferred_element_type=jnp.float32)], axis=-1) * scale
    scores = jnp.where(mask.reshape(n, g, 1, 1, t, p + s), scores, jnp.finfo(jnp.float32).min)
    probs = jax.nn.softmax(scores, axis=-1).astype(v_suf.dtype)
    out = (jnp.einsum("ngkqts,nksh->ngtkqh", probs[..., :p], v_pre)
           + jnp.einsum("ngkqts,ngksh->ngtkqh", probs[..., p:], v_suf.reshape(n, g, kv, s, h)))
    return out.reshape(b, t, heads, h)


def prefix_suffix_attend(q: jax.Array, k_suffix: jax.Array, v_suffix: jax.Array,
                         suffix_mask: jax.Array, k_prefix: jax.Array, v_prefix: jax.Array,
                         prefix_mask: jax.Array, scale: float, chunk: int = 0) -> jax.Array:
    """Suffix queries q [B, T, K·Q, H] (B = groups x suffixes per group, group-major) over
    their group's prefix k/v [N, K, P, H] (prefix_mask bool [N, P]: real prefix tokens) and
    their own k/v [B, K, S, H] (suffix_mask bool [B, 1, T, S]: causal and padding). With
    0 < chunk < T the queries run as flash attention in square blocks of `chunk`
    (`prove_jax.models.attention.causal_query_chunked` with the prefix as its lead keys): every
    query block visits all of the prefix's key blocks and the suffix's up to its own, one
    block of scores live at a time, as in the unpacked step's causal attention."""
    n, p = prefix_mask.shape
    b, _, t, _ = suffix_mask.shape
    pre = jnp.broadcast_to(prefix_mask[:, None, None, None, :], (n, b // n, 1, t, p))
    mask = jnp.concatenate([pre.reshape(b, 1, t, p), suffix_mask], axis=-1)
    if not use_chunks(t, chunk):
        return _two_part(q, (k_prefix, k_suffix), (v_prefix, v_suffix), mask, scale)
    # each row reads its group's prefix keys: a broadcast, whose transpose in the backward
    # sums the group's suffixes' contributions into the prefix's gradient
    rows = lambda x: jnp.broadcast_to(x[:, None], (n, b // n, *x.shape[1:])).reshape(
        b, *x.shape[1:])
    k = jnp.concatenate([rows(k_prefix), k_suffix], axis=2)
    v = jnp.concatenate([rows(v_prefix), v_suffix], axis=2)
    return causal_query_chunked(q, k, v, mask, scale, chunk, lead=p)
