"""The draw's two-level reductions against plain references: the blocked argmax against
`np.argmax` (first index of the max, ties within and across blocks), and the log-probs that an
untruncated draw takes from its own sums against a float64 log-softmax, in both logit layouts."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from prove_jax.sampling.draw import _argmax, _sample


@pytest.mark.parametrize("vocab", [1024, 1000, 997])  # blocks of 256, of 8, none (prime)
def test_blocked_argmax_takes_the_first_maximum(vocab):
    rng = np.random.default_rng(vocab)
    logits = rng.normal(size=(6, vocab)).astype(np.float32)
    top = logits.max() + 1
    logits[0, [3, 900]] = top  # tie across blocks: the earlier block wins
    logits[1, [5, 6]] = top  # tie inside a block
    logits[2, [vocab - 1]] = top  # the last entry
    logits[3, :] = 0.0  # all equal: index 0
    logits[4, [0, vocab // 2]] = top
    want = np.argmax(logits, axis=-1)
    assert want[:5].tolist() == [3, 5, vocab - 1, 0, 0]
    rows = jax.jit(lambda x: _argmax(x, -1))(jnp.asarray(logits))
    cols = jax.jit(lambda x: _argmax(x, 0))(jnp.asarray(logits.T.copy()))
    assert np.asarray(rows).tolist() == want.tolist()
    assert np.asarray(cols).tolist() == want.tolist()


@pytest.mark.parametrize("vocab_first", [False, True])
@pytest.mark.parametrize("temperature", [1.0, 0.6])
def test_untruncated_draw_log_probs_equal_a_float64_log_softmax(vocab_first, temperature):
    """48 rows of 700 logits (a ragged last block), spread wide enough that some drawn tokens
    are unlikely: each drawn token's log-prob equals log softmax(logits / T) within 1e-5."""
    rng = np.random.default_rng(3)
    logits = (rng.normal(size=(48, 700)) * 6).astype(np.float32)
    keys = jax.vmap(jax.random.key)(jnp.arange(48))
    x = jnp.asarray(logits.T.copy() if vocab_first else logits)
    tokens, logp = jax.jit(lambda x: _sample(x, keys, jnp.float32(temperature), 0, None, False,
                                             vocab_first))(x)
    tokens, logp = np.asarray(tokens), np.asarray(logp)
    scaled = logits.astype(np.float64) / temperature
    top = scaled.max(axis=-1, keepdims=True)
    log_softmax = scaled - top - np.log(np.exp(scaled - top).sum(axis=-1, keepdims=True))
    want = log_softmax[np.arange(48), tokens]
    assert len(set(tokens.tolist())) > 20 and want.min() < -2  # varied, some unlikely draws
    np.testing.assert_allclose(logp, want, atol=1e-5, rtol=0)
