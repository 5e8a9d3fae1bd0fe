"""LM head and per-token objective fused: loss and its gradient in one pass over the vocabulary.

Why: with a 152K vocabulary the LM head is most of a small model's train-step FLOPs. The
chunked log-prob path (`prove_jax.models.logprobs`) never stores [B, T, V] logits, so its
backward recomputes them: four head matmuls per step (forward, recompute, d_hidden, d_head).
When the objective is a sum of per-token terms f_i(log p_i) — the GRPO surrogate, its k3 KL
term and SFT cross-entropy all are — its gradient with respect to the logits is known while the
logits are live: d/dlogits Σ f_i = f_i'(log p_i) · (onehot(y_i) − softmax_i). So the forward
computes, chunk by chunk, the loss, d_hidden and d_head, and the backward only scales them by
the incoming scalar cotangent: three head matmuls, no logits stored (the idea of fused
linear-cross-entropy kernels, written here in plain JAX).

The returned log-probs and entropies are for metrics: they carry no gradient (differentiating
through them gives zero; the loss is the only differentiable output).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

from prove_jax.models.decoder import project_logits

__all__ = ["fused_head_objective"]

TokenLoss = Callable[..., jax.Array]  # (logp [B, c], *consts [B, c]) -> per-token loss [B, c]


def _chunks(x: jax.Array, chunk: int, n: int) -> jax.Array:
    """[B, T, ...] -> [n, B, chunk, ...] (zero-padded along T)."""
    pad = n * chunk - x.shape[1]
    x = jnp.pad(x, ((0, 0), (0, pad)) + ((0, 0),) * (x.ndim - 2))
    return x.reshape(x.shape[0], n, chunk, *x.shape[2:]).swapaxes(0, 1)


def _unchunk(x: jax.Array, t: int) -> jax.Array:
    """[n, B, chunk, ...] -> [B, t, ...]."""
    x = x.swapaxes(0, 1)
    return x.reshape(x.shape[0], -1, *x.shape[3:])[:, :t]


def _chunk_stats(h: jax.Array, head: jax.Array, y: jax.Array, scale: float,
                 dtype: jnp.dtype) -> tuple[jax.Array, ...]:
    logits = project_logits(h, head, 1.0, dtype) * scale  # B c V, float32
    lse = jax.nn.logsumexp(logits, axis=-1)
    picked = jnp.take_along_axis(logits, y[..., None].astype(jnp.int32), axis=-1)[..., 0]
    return logits, lse, picked - lse


@partial(jax.custom_vjp, nondiff_argnums=(0, 5, 6, 7))
def _fused(token_loss: TokenLoss, hidden: jax.Array, head: jax.Array, targets: jax.Array,
           consts: tuple[jax.Array, ...], scale: float, chunk: int, dtype: jnp.dtype
           ) -> tuple[jax.Array, jax.Array, jax.Array]:
    return _forward(token_loss, hidden, head, targets, consts, scale, chunk, dtype, False)[0]


def _forward(token_loss: TokenLoss, hidden: jax.Array, head: jax.Array, targets: jax.Array,
             consts: tuple[jax.Array, ...], scale: float, chunk: int, dtype: jnp.dtype,
             with_grads: bool) -> tuple[tuple, tuple]:
    t = hidden.shape[1]
    n = -(-t // chunk)
    xs = (_chunks(hidden, chunk, n), _chunks(targets, chunk, n),
          tuple(_chunks(c, chunk, n) for c in consts))

    def step(carry: tuple, x: tuple) -> tuple[tuple, tuple]:
        loss, d_head = carry
        h_c, y_c, consts_c = x
        logits, lse, logp = _chunk_stats(h_c, head, y_c, scale, dtype)
        probs = jnp.exp(logits - lse[..., None])
        entropy = lse - jnp.sum(probs * logits, axis=-1)
        part, g = jax.value_and_grad(lambda lp: jnp.sum(token_loss(lp, *consts_c)))(logp)
        if not with_grads:
            return (loss + part, d_head), (logp, entropy, jnp.zeros((), hidden.dtype))
        onehot = jnp.arange(logits.shape[-1]) == y_c[..., None]
        d_logits = (g[..., None] * (onehot - probs) * scale).astype(dtype)  # B c V
        d_h = jnp.einsum("bcv,vd->bcd", d_logits, head.astype(dtype),
                         preferred_element_type=jnp.float32).astype(hidden.dtype)
        d_head = d_head + jnp.einsum("bcv,bcd->vd", d_logits, h_c.astype(dtype),
                                     preferred_element_type=jnp.float32)
        return (loss + part, d_head), (logp, entropy, d_h)

    zero_head = jnp.zeros(head.shape if with_grads else (), jnp.float32)
    (loss, d_head), (logp, entropy, d_h) = jax.lax.scan(
        step, (jnp.zeros((), jnp.float32), zero_head), xs)
    out = (loss, _unchunk(logp, t), _unchunk(entropy, t))
    if not with_grads:
        return out, ()
    return out, (_unchunk(d_h, t), d_head.astype(head.dtype))


def _fused_fwd(token_loss: TokenLoss, hidden: jax.Array, head: jax.Array, targets: jax.Array,
               consts: tuple[jax.Array, ...], scale: float, chunk: int, dtype: jnp.dtype
               ) -> tuple[tuple, tuple]:
    out, grads = _forward(token_loss, hidden, head, targets, consts, scale, chunk, dtype, True)
    return out, (grads, targets, consts)


def _fused_bwd(token_loss: TokenLoss, scale: float, chunk: int, dtype: jnp.dtype,
               res: tuple, cts: tuple) -> tuple:
    (d_hidden, d_head), targets, consts = res
    ct_loss = cts[0]  # the log-prob and entropy outputs are metrics: their cotangents ignored
    zeros = jax.tree.map(jnp.zeros_like, consts)
    return (d_hidden * ct_loss.astype(d_hidden.dtype), d_head * ct_loss.astype(d_head.dtype),
            _int_zero(targets), zeros)


def _int_zero(x: jax.Array) -> np.ndarray:
    return np.zeros(x.shape, jax.dtypes.float0)  # integer inputs take float0 cotangents


_fused.defvjp(_fused_fwd, _fused_bwd)


def fused_head_objective(hidden: jax.Array, head: jax.Array, targets: jax.Array,
                         token_loss: TokenLoss, consts: tuple[jax.Array, ...] = (), *,
                         logits_scaling: float = 1.0, temperature: float = 1.0,
                         chunk_size: int = 1024, dtype: str | jnp.dtype = jnp.float32
                         ) -> tuple[jax.Array, jax.Array, jax.Array]:
    """(Σ token_loss(log p, *consts), log p [B, T], entropy [B, T]) under
    softmax(hidden·headᵀ / (logits_scaling · temperature)).

    hidden [B, T, D] final normed states, head [V, D], targets [B, T] ids, consts arrays
    [B, T] passed through to `token_loss` chunk by chunk (e.g. old log-probs, advantages
    broadcast per token, aggregation weights); `token_loss` must act token by token (the
    gradient of its sum is taken per token). Only the loss is differentiable."""
    b, t, _ = hidden.shape
    if targets.shape != (b, t):
        raise ValueError(f"targets shape {targets.shape} does not match hidden {hidden.shape[:2]}")
    for c in consts:
        if c.shape != (b, t):
            raise ValueError(f"per-token constant of shape {c.shape}, expected {(b, t)}")
    scale = 1.0 / (logits_scaling * temperature)
    chunk = max(1, min(chunk_size, t))
    return _fused(token_loss, hidden, head, targets,
                  tuple(jax.lax.stop_gradient(c) for c in consts), scale, chunk,
                  jnp.dtype(dtype))
