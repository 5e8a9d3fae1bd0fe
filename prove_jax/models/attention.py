"""Memory-bounded attention over a whole sequence (the training / teacher-forced forward).

Dense attention over all T queries keeps [B, N, T, S] float32 scores, and a backward pass keeps
them (and the probabilities) for every layer: ~106 GB per sequence for Qwen3-4B at the paper's
12,384 + 16,384 = 28,768 tokens. Here the queries run in blocks of `chunk` rows under a scan;
the forward holds one block's [B, N, chunk, S] scores at a time, and the backward recomputes a
block's probabilities from its inputs instead of storing them.

The recompute is a `custom_vjp` (residuals: the block's queries, k, v, the mask and the block's
start) rather than `jax.checkpoint`: a checkpoint nested in the decoder's remat would follow the
outer policy, and "dots" would save every block's scores again. No array is padded or copied
per block: the last block starts at T - chunk, overlapping its neighbour, and only its new rows
are kept.

Exactness: every query row does exactly the dense computation (the same contraction over all S
keys, the same mask row, the same softmax), only fewer rows at a time, so results equal the
dense path's to float32 rounding, forward and gradients, for any padding mask and GQA grouping.
The cost is the dense path's FLOPs plus one recompute of each block in the backward.

Causal masks (the decoder's forward) take `causal_query_chunked` instead: square blocks of
`chunk` rows by `chunk` keys with an online softmax (flash attention), query block i visiting
key blocks 0..i only, so the upper triangle is skipped rather than computed and masked (at
1,792 tokens in blocks of 128, 54% of the dense score FLOPs) and one c x c block of scores is
live at a time. Rows with at least one visible key get the dense result to float32 rounding; a
padding row that sees no key at all averages over fewer masked keys than the dense path does,
a different meaningless value that no real row reads and no loss counts.

On GPU a user may prefer cuDNN's fused flash attention (`jax.nn.dot_product_attention(...,
implementation="cudnn")`, bf16/fp16 only); this file stays pure JAX so that CPU, GPU and TPU
share one exact path.
"""

from __future__ import annotations

from collections.abc import Callable

import jax
import jax.numpy as jnp
import numpy as np

# block(q [B, c, N, H], k, v, mask [B, 1, c, S]) -> out [B, c, N, H]; k/v in any layout.
BlockFn = Callable[[jax.Array, jax.Array, jax.Array, jax.Array], jax.Array]


def use_chunks(t: int, chunk: int) -> bool:
    """Chunk when it is switched on (chunk > 0) and the sequence is longer than one chunk."""
    return chunk > 0 and t > chunk


def _no_grad(x: jax.Array) -> np.ndarray:
    # The cotangent of an integer or boolean input: float0 zeros, which take no memory.
    return np.zeros(x.shape, jax.dtypes.float0)


def _recomputed(block: BlockFn, chunk: int) -> Callable[..., jax.Array]:
    """block over mask rows [start, start + chunk), saving only its inputs for the backward."""

    def run(q_c: jax.Array, k: jax.Array, v: jax.Array, mask: jax.Array,
            start: jax.Array) -> jax.Array:
        m_c = jax.lax.dynamic_slice_in_dim(mask, start, chunk, axis=2)
        return block(q_c, k, v, m_c)

    @jax.custom_vjp
    def f(q_c: jax.Array, k: jax.Array, v: jax.Array, mask: jax.Array,
          start: jax.Array) -> jax.Array:
        return run(q_c, k, v, mask, start)

    def fwd(q_c: jax.Array, k: jax.Array, v: jax.Array, mask: jax.Array,
            start: jax.Array) -> tuple[jax.Array, tuple]:
        return run(q_c, k, v, mask, start), (q_c, k, v, mask, start)

    def bwd(res: tuple, g: jax.Array) -> tuple:
        q_c, k, v, mask, start = res
        _, vjp = jax.vjp(lambda q_c, k, v: run(q_c, k, v, mask, start), q_c, k, v)
        return (*vjp(g), _no_grad(mask), _no_grad(start))

    f.defvjp(fwd, bwd)
    return f


def query_chunked(block: BlockFn, q: jax.Array, k: jax.Array, v: jax.Array, mask: jax.Array,
                  chunk: int) -> jax.Array:
    """`block` over query blocks of `chunk` rows, scanned; returns [B, T, N, H] like
    block(q, k, v, mask) would. q [B, T, N, H], mask bool [B, 1, T, S]; needs chunk <= T."""
    b, t, n, h = q.shape
    blocks = -(-t // chunk)
    # Block starts; the last one is pulled back to T - chunk so no block runs off the end.
    starts = np.minimum(np.arange(blocks) * chunk, t - chunk).astype(np.int32)
    f = _recomputed(block, chunk)

    def step(carry: None, start: jax.Array) -> tuple[None, jax.Array]:
        q_c = jax.lax.dynamic_slice_in_dim(q, start, chunk, axis=1)
        return carry, f(q_c, k, v, mask, start)

    _, out = jax.lax.scan(step, None, jnp.asarray(starts))  # blocks B c N H
    head = out[:-1].swapaxes(0, 1).reshape(b, (blocks - 1) * chunk, n, h)
    tail = out[-1][:, (blocks - 1) * chunk - int(starts[-1]):]  # the last block's new rows
    return jnp.concatenate([head, tail], axis=1)


def causal_query_chunked(q: jax.Array, k: jax.Array, v: jax.Array, mask: jax.Array,
                         scale: float, chunk: int, lead: int = 0) -> jax.Array:
    """Grouped-query attention for a causal `mask` (row t sees no key after t), in square
    blocks of `chunk` rows by `chunk` keys: query block i visits key blocks 0..i only (a loop
    with a traced trip count), merging them with a running max and sum (the online softmax),
    so the upper triangle is neither computed nor stored. q [B, T, N, H], k/v [B, K, T, H],
    mask bool [B, 1, T, T]; returns [B, T, N, H] in q's dtype. The backward recomputes each
    block from the inputs and the rows' log-sum-exp (flash attention's backward, in JAX).
    T need not divide by `chunk`: the sequence is padded with masked keys and dropped rows.

    `lead` > 0: k/v [B, K, lead + T, H] and mask [B, 1, T, lead + T] start with `lead` keys
    before the queries' own (a shared prefix's, `prove_jax.models.prefix_attention`), which
    every query block visits; the mask decides which of them a row sees."""
    b, t, n, h = q.shape
    kv = k.shape[1]
    blocks = -(-t // chunk)
    pad = blocks * chunk - t
    front = -lead % chunk  # masked keys before the lead ones, so that they fill whole blocks
    if pad or front:
        q = jnp.pad(q, ((0, 0), (0, pad), (0, 0), (0, 0)))
        k, v = (jnp.pad(x, ((0, 0), (0, 0), (front, pad), (0, 0))) for x in (k, v))
        mask = jnp.pad(mask, ((0, 0), (0, 0), (0, pad), (front, pad)))
    out = _flash(q.reshape(b, blocks * chunk, kv, n // kv, h), k, v, mask, scale, chunk,
                 (lead + front) // chunk)
    return out.reshape(b, blocks * chunk, n, h)[:, :t].astype(q.dtype)


def _block_scores(q_i: jax.Array, k_j: jax.Array, m_ij: jax.Array, scale: float) -> jax.Array:
    """q_i [B, c, K, G, H], k_j [B, K, c, H], m_ij [B, 1, c, c] -> float32 [B, K, G, c, c]."""
    s = jnp.einsum("btkgh,bksh->bkgts", q_i, k_j, preferred_element_type=jnp.float32) * scale
    return jnp.where(m_ij[:, :, None], s, jnp.finfo(jnp.float32).min)


def _slices(q: jax.Array, k: jax.Array, v: jax.Array, mask: jax.Array, i: jax.Array,
            j: jax.Array, c: int) -> tuple[jax.Array, ...]:
    q_i = jax.lax.dynamic_slice_in_dim(q, i * c, c, axis=1)
    k_j, v_j = (jax.lax.dynamic_slice_in_dim(x, j * c, c, axis=2) for x in (k, v))
    m_ij = jax.lax.dynamic_slice_in_dim(jax.lax.dynamic_slice_in_dim(mask, i * c, c, axis=2),
                                        j * c, c, axis=3)
    return q_i, k_j, v_j, m_ij


def _flash_forward(q: jax.Array, k: jax.Array, v: jax.Array, mask: jax.Array, scale: float,
                   c: int, lead: int) -> tuple[jax.Array, jax.Array]:
    """Output [B, T, K, G, H] (float32) and each row's log-sum-exp [B, K, G, T]. Query block i
    visits key blocks 0..lead + i (`lead` blocks of keys precede the queries' own)."""
    b, t, kv, g, h = q.shape

    def row_block(carry: None, i: jax.Array) -> tuple[None, tuple[jax.Array, jax.Array]]:
        def key_block(j: jax.Array, state: tuple) -> tuple:
            m, total, acc = state
            q_i, k_j, v_j, m_ij = _slices(q, k, v, mask, i, j, c)
            s = _block_scores(q_i, k_j, m_ij, scale)
            m_new = jnp.maximum(m, s.max(-1))
            p = jnp.exp(s - m_new[..., None])
            fix = jnp.exp(m - m_new)
            acc = acc * fix[..., None] + jnp.einsum("bkgts,bksh->bkgth", p.astype(v.dtype), v_j,
                                                     preferred_element_type=jnp.float32)
            return m_new, total * fix + p.sum(-1), acc

        init = (jnp.full((b, kv, g, c), jnp.finfo(jnp.float32).min, jnp.float32),
                jnp.zeros((b, kv, g, c), jnp.float32), jnp.zeros((b, kv, g, c, h), jnp.float32))
        m, total, acc = jax.lax.fori_loop(0, lead + i + 1, key_block, init)
        return carry, (acc / total[..., None], m + jnp.log(total))

    _, (out, lse) = jax.lax.scan(row_block, None, jnp.arange(t // c))
    # out: blocks B K G c H -> B T K G H; lse: blocks B K G c -> B K G T
    out = out.transpose(1, 0, 4, 2, 3, 5).reshape(b, t, kv, g, h)
    lse = lse.transpose(1, 2, 3, 0, 4).reshape(b, kv, g, t)
    return out, lse


def _flash(q: jax.Array, k: jax.Array, v: jax.Array, mask: jax.Array, scale: float,
           c: int, lead: int = 0) -> jax.Array:
    @jax.custom_vjp
    def f(q: jax.Array, k: jax.Array, v: jax.Array, mask: jax.Array) -> jax.Array:
        return _flash_forward(q, k, v, mask, scale, c, lead)[0]

    def fwd(q: jax.Array, k: jax.Array, v: jax.Array, mask: jax.Array) -> tuple:
        out, lse = _flash_forward(q, k, v, mask, scale, c, lead)
        return out, (q, k, v, mask, out, lse)

    def bwd(res: tuple, d_out: jax.Array) -> tuple:
        q, k, v, mask, out, lse = res
        t = q.shape[1]
        # D_t = sum_h dO * O: the softmax backward's row term
        delta = jnp.einsum("btkgh,btkgh->bkgt", d_out, out)

        def row_block(carry: tuple, i: jax.Array) -> tuple:
            dk, dv = carry
            d_i = jax.lax.dynamic_slice_in_dim(d_out, i * c, c, axis=1)  # B c K G H
            lse_i, delta_i = (jax.lax.dynamic_slice_in_dim(x, i * c, c, axis=3)
                              for x in (lse, delta))

            def key_block(j: jax.Array, state: tuple) -> tuple:
                dq_i, dk, dv = state
                q_i, k_j, v_j, m_ij = _slices(q, k, v, mask, i, j, c)
                p = jnp.exp(_block_scores(q_i, k_j, m_ij, scale) - lse_i[..., None])
                dv_j = jnp.einsum("bkgts,btkgh->bksh", p, d_i)
                dp = jnp.einsum("btkgh,bksh->bkgts", d_i, v_j.astype(jnp.float32))
                ds = p * (dp - delta_i[..., None]) * scale
                dq_i = dq_i + jnp.einsum("bkgts,bksh->btkgh", ds, k_j.astype(jnp.float32))
                dk_j = jnp.einsum("bkgts,btkgh->bksh", ds, q_i.astype(jnp.float32))
                dk = jax.lax.dynamic_update_slice_in_dim(
                    dk, jax.lax.dynamic_slice_in_dim(dk, j * c, c, axis=2) + dk_j, j * c, axis=2)
                dv = jax.lax.dynamic_update_slice_in_dim(
                    dv, jax.lax.dynamic_slice_in_dim(dv, j * c, c, axis=2) + dv_j, j * c, axis=2)
                return dq_i, dk, dv

            dq_i = jnp.zeros(d_i.shape, jnp.float32)
            dq_i, dk, dv = jax.lax.fori_loop(0, lead + i + 1, key_block, (dq_i, dk, dv))
            return (dk, dv), dq_i

        zeros = jnp.zeros(k.shape, jnp.float32)
        (dk, dv), dq = jax.lax.scan(row_block, (zeros, zeros), jnp.arange(t // c))
        dq = dq.transpose(1, 0, 2, 3, 4, 5).reshape(q.shape)
        return (dq.astype(q.dtype), dk.astype(k.dtype), dv.astype(v.dtype), _no_grad(mask))

    f.defvjp(fwd, bwd)
    return f(q, k, v, mask)
