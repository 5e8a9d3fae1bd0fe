"""Chunked token log-probs equal the full-logits computation, values and gradients."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from flax import nnx

from prove_jax.models import init_model, preset, token_logprobs


def _full(hidden, head, targets, scaling=1.0, temperature=1.0):
    logits = (hidden @ head.T) / scaling / temperature
    logp = jax.nn.log_softmax(logits, axis=-1)
    picked = jnp.take_along_axis(logp, targets[..., None], axis=-1)[..., 0]
    entropy = -jnp.sum(jnp.exp(logp) * logp, axis=-1)
    return picked, entropy


@pytest.mark.parametrize("chunk", [1, 7, 16, 1000])
def test_values_and_gradients_match(chunk):
    rng = np.random.default_rng(0)
    b, t, d, v = 2, 37, 16, 50  # T not a multiple of most chunks
    hidden = jnp.asarray(rng.normal(size=(b, t, d)), jnp.float32)
    head = jnp.asarray(rng.normal(size=(v, d)), jnp.float32)
    targets = jnp.asarray(rng.integers(0, v, size=(b, t)))
    weights = jnp.asarray(rng.normal(size=(b, t)), jnp.float32)

    def ours(h, w):
        logp, ent = token_logprobs(h, w, targets, logits_scaling=2.0, chunk_size=chunk,
                                   temperature=0.7, with_entropy=True)
        return jnp.sum(logp * weights) + jnp.sum(ent), (logp, ent)

    def ref(h, w):
        logp, ent = _full(h, w, targets, scaling=2.0, temperature=0.7)
        return jnp.sum(logp * weights) + jnp.sum(ent), (logp, ent)

    grad = lambda f: jax.value_and_grad(f, argnums=(0, 1), has_aux=True)(hidden, head)
    (val, (logp, ent)), grads = grad(ours)
    (rval, (rlogp, rent)), rgrads = grad(ref)
    np.testing.assert_allclose(val, rval, rtol=1e-5)
    np.testing.assert_allclose(logp, rlogp, atol=1e-5, rtol=0)
    np.testing.assert_allclose(ent, rent, atol=1e-5, rtol=0)
    for g, rg in zip(grads, rgrads, strict=True):
        np.testing.assert_allclose(g, rg, atol=1e-5, rtol=0)


def test_model_gradient_through_chunked_head():
    model = init_model(preset("tiny", vocab_size=300))
    ids = jnp.asarray(np.random.default_rng(1).integers(0, 300, size=(2, 24)))
    targets = jnp.roll(ids, -1, axis=1)

    def chunked(m):
        h = m.hidden_states(ids)
        return jnp.mean(token_logprobs(h, m.head_matrix(), targets, chunk_size=5))

    def full(m):
        logp = jax.nn.log_softmax(m(ids), axis=-1)
        return jnp.mean(jnp.take_along_axis(logp, targets[..., None], axis=-1))

    v1, g1 = nnx.value_and_grad(chunked)(model)
    v2, g2 = nnx.value_and_grad(full)(model)
    np.testing.assert_allclose(v1, v2, atol=1e-5, rtol=0)
    for a, b in zip(jax.tree.leaves(g1), jax.tree.leaves(g2), strict=True):
        np.testing.assert_allclose(a, b, atol=1e-5, rtol=0)


def test_chunking_bounds_memory():
    """The compiled backward never holds a [B, T, V] buffer: temp memory scales with the chunk."""
    b, t, d, v = 2, 512, 32, 4096
    hidden = jnp.zeros((b, t, d), jnp.float32)
    head = jnp.zeros((v, d), jnp.float32)
    targets = jnp.zeros((b, t), jnp.int32)
    full_logits_bytes = b * t * v * 4

    def temp_bytes(chunk):
        loss = lambda h, w: jnp.sum(token_logprobs(h, w, targets, chunk_size=chunk))
        compiled = jax.jit(jax.grad(loss, argnums=(0, 1))).lower(hidden, head).compile()
        return compiled.memory_analysis().temp_size_in_bytes

    assert temp_bytes(32) < 0.25 * full_logits_bytes
    assert temp_bytes(t) >= full_logits_bytes  # one chunk of everything: the unchunked cost


def test_rejects_mismatched_targets():
    with pytest.raises(ValueError, match="targets shape"):
        token_logprobs(jnp.zeros((2, 5, 4)), jnp.zeros((9, 4)), jnp.zeros((2, 6), jnp.int32))
