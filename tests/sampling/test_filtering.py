"""Top-k and top-p (nucleus) filtering against a plain NumPy reference, on the mask
(`_filter_logits`) and on the tokens actually drawn (`_sample`).

The reference's rules: sort the probabilities descending; the nucleus at p is the smallest
prefix whose cumulative mass reaches p (>= p); top-k keeps the k largest; with both, top-k comes
first and the nucleus is taken over the renormalised top-k distribution (as transformers'
warpers chain). Ties: the row below has distinct probabilities, so no rule is needed; the
implementation keeps every token whose logit equals the cutoff's."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from prove_jax.sampling.draw import _filter_logits, _sample

# Eight distinct probabilities (sum 1), in a shuffled order so that sorting matters.
PROBS = np.asarray([0.08, 0.30, 0.03, 0.15, 0.06, 0.22, 0.04, 0.12])
LOGITS = np.log(PROBS).astype(np.float32)


def reference_keep(probs: np.ndarray, top_k: int, top_p: float) -> set[int]:
    """The token ids top-k then top-p keep (module docstring's rules), in float64."""
    order = np.argsort(-probs, kind="stable")
    if top_k > 0:
        order = order[:top_k]
    kept = probs[order] / probs[order].sum()
    n = int(np.argmax(np.cumsum(kept) >= top_p)) + 1  # first prefix reaching p
    return {int(i) for i in order[:n]}


# The reference's sets, worked by hand from PROBS sorted: 0.30 (id 1), 0.22 (5), 0.15 (3),
# 0.12 (7), 0.08 (0), 0.06 (4), 0.04 (6), 0.03 (2); cumulative 0.30 0.52 0.67 0.79 0.87 0.93.
# top-k 4 renormalised: 0.380 0.658 0.848 1.0. At temperature 0.5, p ∝ PROBS², cumulative
# 0.479 0.737 0.857 0.934.
CASES = [  # (temperature, top_k, top_p, kept ids)
    (1.0, 0, 0.9, {1, 5, 3, 7, 0, 4}),  # 0.87 < 0.9 <= 0.93: six tokens
    (1.0, 0, 0.5, {1, 5}),
    (1.0, 3, 1.0, {1, 5, 3}),
    (1.0, 4, 0.8, {1, 5, 3}),  # over the top-4 mass: 0.848 >= 0.8 (over all mass: 5 tokens)
    (0.5, 0, 0.9, {1, 5, 3, 7}),
]


def test_reference_agrees_with_the_hand_worked_sets():
    for temperature, top_k, top_p, kept in CASES:
        scaled = PROBS ** (1 / temperature)
        assert reference_keep(scaled / scaled.sum(), top_k, top_p) == kept


@pytest.mark.parametrize(("temperature", "top_k", "top_p", "kept"), CASES)
def test_filter_keeps_exactly_the_nucleus(temperature, top_k, top_p, kept):
    scaled = jnp.asarray(LOGITS / temperature)[None]
    nucleus = jnp.float32(top_p) if top_p < 1 else None
    out = np.asarray(_filter_logits(scaled, top_k, nucleus))[0]
    finite = out > np.finfo(np.float32).min
    assert set(np.flatnonzero(finite).tolist()) == kept
    np.testing.assert_array_equal(out[finite], np.asarray(scaled)[0][finite])  # kept unchanged


@pytest.mark.parametrize(("temperature", "top_k", "top_p", "kept"), CASES)
def test_draws_follow_the_renormalised_nucleus(temperature, top_k, top_p, kept):
    """20,000 draws: never outside the kept set, frequencies within 0.015 (about 4.5 standard
    errors at the largest probability) of the kept probabilities renormalised; log-probs are
    of the unfiltered tempered distribution."""
    n = 20_000
    keys = jax.vmap(jax.random.key)(jnp.arange(n))
    logits = jnp.broadcast_to(jnp.asarray(LOGITS), (n, LOGITS.size))
    nucleus = jnp.float32(top_p) if top_p < 1 else None
    tokens, logp = _sample(logits, keys, jnp.float32(temperature), top_k, nucleus, greedy=False)
    tokens, logp = np.asarray(tokens), np.asarray(logp)
    counts = np.bincount(tokens, minlength=PROBS.size)
    assert set(np.flatnonzero(counts).tolist()) == kept
    tempered = PROBS ** (1 / temperature)
    tempered /= tempered.sum()
    target = np.zeros_like(tempered)
    ids = sorted(kept)
    target[ids] = tempered[ids] / tempered[ids].sum()
    np.testing.assert_allclose(counts / n, target, atol=0.015)
    np.testing.assert_allclose(logp, np.log(tempered)[tokens], atol=1e-5)
