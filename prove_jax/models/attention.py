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
The cost is the dense path's FLOPs (the causal upper triangle is masked, not skipped) plus one
recompute of each block in the backward.

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
