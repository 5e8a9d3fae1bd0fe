"""Token log-probabilities without materialising [B, T, V] logits.

The LM head is applied one time-chunk at a time inside a rematerialised scan, so the forward
keeps only [B, c, V] live and the backward recomputes each chunk's logits instead of storing them.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from prove_jax.models.decoder import project_logits


def token_logprobs(hidden: jax.Array, head: jax.Array, targets: jax.Array, *,
                   logits_scaling: float = 1.0, chunk_size: int = 1024,
                   dtype: str | jnp.dtype = jnp.float32, temperature: float = 1.0,
                   with_entropy: bool = False) -> jax.Array | tuple[jax.Array, jax.Array]:
    """log p(targets[b, t] | hidden[b, t]) as float32 [B, T] (and entropy [B, T] if asked).

    hidden [B, T, D] are final normed hidden states, head [V, D] the LM head matrix.
    """
    b, t, d = hidden.shape
    if targets.shape != (b, t):
        raise ValueError(f"targets shape {targets.shape} does not match hidden {hidden.shape[:2]}")
    chunk = max(1, min(chunk_size, t))
    n = -(-t // chunk)
    pad = n * chunk - t
    h = jnp.pad(hidden, ((0, 0), (0, pad), (0, 0))).reshape(b, n, chunk, d).swapaxes(0, 1)
    y = jnp.pad(targets, ((0, 0), (0, pad))).reshape(b, n, chunk).swapaxes(0, 1)

    @jax.checkpoint
    def one_chunk(h_c: jax.Array, y_c: jax.Array) -> tuple[jax.Array, jax.Array]:
        logits = project_logits(h_c, head, logits_scaling, dtype)  # B c V
        if temperature != 1.0:
            logits = logits / temperature
        logz = jax.nn.logsumexp(logits, axis=-1)
        picked = jnp.take_along_axis(logits, y_c[..., None].astype(jnp.int32), axis=-1)[..., 0]
        logp = picked - logz
        if not with_entropy:
            return logp, jnp.zeros_like(logp)
        probs = jax.nn.softmax(logits, axis=-1)
        return logp, logz - jnp.sum(probs * logits, axis=-1)

    def step(carry: None, xs: tuple[jax.Array, jax.Array]) -> tuple[None, tuple]:
        return carry, one_chunk(*xs)

    _, (logp, ent) = jax.lax.scan(step, None, (h, y))
    logp = logp.swapaxes(0, 1).reshape(b, n * chunk)[:, :t]
    if with_entropy:
        return logp, ent.swapaxes(0, 1).reshape(b, n * chunk)[:, :t]
    return logp
