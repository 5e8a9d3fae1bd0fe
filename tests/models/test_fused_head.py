"""The fused LM head + per-token objective: value and gradients equal plain autodiff through
materialised logits (with Granite's logits scaling, a sampling temperature, and a chunk size
that does not divide the length); the log-prob output carries no gradient."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from prove_jax.models.fused_head import fused_head_objective


def _data(b=3, t=11, d=8, v=37):
    k = jax.random.split(jax.random.key(0), 5)
    return (jax.random.normal(k[0], (b, t, d)), jax.random.normal(k[1], (v, d)) * 0.5,
            jax.random.randint(k[2], (b, t), 0, v), jax.random.normal(k[3], (b, t)) - 3.0,
            jax.random.uniform(k[4], (b, t)))


def _terms(logp, old, w):
    ratio = jnp.exp(logp - old)
    return (jnp.maximum(-0.7 * ratio, -0.7 * jnp.clip(ratio, 0.8, 1.2)) + 0.3 * logp**2) * w


@pytest.mark.parametrize("chunk", [1, 4, 11, 64])
def test_value_and_gradients_match_autodiff(chunk):
    hidden, head, y, old, w = _data()
    scale, temp = 2.0, 0.7

    def reference(h, hd):
        logits = jnp.einsum("btd,vd->btv", h, hd) / (scale * temp)
        logp = jnp.take_along_axis(jax.nn.log_softmax(logits), y[..., None], -1)[..., 0]
        return jnp.sum(_terms(logp, old, w)), (logp, -jnp.sum(
            jax.nn.softmax(logits) * jax.nn.log_softmax(logits), -1))

    def fused(h, hd):
        loss, logp, ent = fused_head_objective(h, hd, y, _terms, (old, w), logits_scaling=scale,
                                               temperature=temp, chunk_size=chunk)
        return loss, (logp, ent)

    (v0, (lp0, e0)), g0 = jax.value_and_grad(reference, (0, 1), has_aux=True)(hidden, head)
    (v1, (lp1, e1)), g1 = jax.jit(jax.value_and_grad(fused, (0, 1), has_aux=True))(hidden, head)
    np.testing.assert_allclose(v1, v0, rtol=1e-5)
    np.testing.assert_allclose(lp1, lp0, atol=1e-5)
    np.testing.assert_allclose(e1, e0, atol=1e-5)
    for a, b in zip(g1, g0, strict=True):
        np.testing.assert_allclose(a, b, atol=1e-5)
    assert float(jnp.max(jnp.abs(g0[1]))) > 1e-2


def test_logprobs_output_carries_no_gradient_and_shapes_are_checked():
    hidden, head, y, old, w = _data()
    g = jax.grad(lambda h: jnp.sum(fused_head_objective(h, head, y, _terms, (old, w))[1]))(hidden)
    assert float(jnp.max(jnp.abs(g))) == 0.0
    with pytest.raises(ValueError, match="targets shape"):
        fused_head_objective(hidden, head, y[:, :3], _terms, (old, w))
    with pytest.raises(ValueError, match="per-token constant"):
        fused_head_objective(hidden, head, y, _terms, (old[:, :3], w))
