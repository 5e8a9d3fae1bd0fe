"""The near-duplicate index finds exactly the pairs a brute-force Jaccard scan finds."""

from __future__ import annotations

import random

import pytest

from prove_jax.synthesis.dedup import NearDuplicateIndex, call_tokens, jaccard


def test_tokens_canonicalize_arguments():
    a = call_tokens([{"name": "f", "arguments": {"x": 1, "y": [1, 2]}}])
    b = call_tokens([{"name": "f", "arguments": {"y": [1, 2], "x": 1}}])
    assert a == b and len(call_tokens([{"name": "g", "arguments": {}}] * 3)) == 1


@pytest.mark.parametrize("threshold", [0.5, 0.7, 1.0])
def test_index_matches_brute_force(threshold):
    rng = random.Random(threshold)
    universe = [f"t{i}|{{}}" if i % 7 == 0 else f"t{i}|{{\"a\":{i}}}" for i in range(40)]
    index, kept = NearDuplicateIndex(threshold), []
    for k in range(600):
        tokens = frozenset(rng.sample(universe, rng.randint(1, 6)))
        expected = next((i for i, t in kept if jaccard(tokens, t) >= threshold), None)
        found = index.find(tokens)
        assert (found is None) == (expected is None), (tokens, found, expected)
        if found is None:
            index.add(tokens, str(k))
            kept.append((str(k), tokens))
    assert 5 < len(kept) < 600
