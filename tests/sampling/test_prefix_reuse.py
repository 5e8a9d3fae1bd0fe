"""KV kept across turns: a later turn that copies its context's KV from an earlier call and
prefills only the rest samples exactly what recomputing the whole context samples."""

import numpy as np
import pytest

from prove_jax.checkpoint.hf import load_hf
from prove_jax.sampling import Sampler, SamplingParams
from prove_jax.sampling.prefix_cache import Prefix, PrefixStore, common_prefix
from tests.hf_models import COMMON
from tests.sampling.scaled import scaled_model, teacher_forced

V = COMMON["vocab_size"]


@pytest.fixture(scope="module")
def model(hf_checkpoint):
    return scaled_model(hf_checkpoint("qwen3_tied")[0])


@pytest.mark.parametrize("temperature", [0.0, 1.0])
def test_three_turns_with_kept_kv_equal_recomputing_every_turn(model, temperature):
    """Turn 1 keeps each row's KV; turns 2 and 3 append tool-result tokens of varied lengths
    and pass the kept KV back. Row 2's history is edited before turn 3 (its kept KV is valid
    only up to the edit) and row 1 passes no KV at turn 3. Tokens equal a sampler that
    recomputes every context; log-probs equal it and a teacher-forced forward."""
    rng = np.random.default_rng(0)
    contexts = [rng.integers(3, V, size=n).tolist() for n in (40, 75, 21)]
    params = SamplingParams(max_new_tokens=8, temperature=temperature)
    reuse, ref = Sampler(model), Sampler(model)
    prefixes = [None, None, None]
    slots = []  # prompt slots computed per turn, (reuse, reference)
    for turn in range(3):
        seeds = [10 * turn + i for i in range(3)]
        before = reuse.prefill_slots, ref.prefill_slots
        got = reuse.generate(contexts, params, seeds, prefixes=prefixes, keep=True)
        want = ref.generate(contexts, params, seeds)
        slots.append((reuse.prefill_slots - before[0], ref.prefill_slots - before[1]))
        for ctx, g, w in zip(contexts, got, want, strict=True):
            assert g.tokens == w.tokens
            np.testing.assert_allclose(g.logprobs, w.logprobs, atol=1e-4, rtol=0)
            np.testing.assert_allclose(g.logprobs, teacher_forced(model, ctx, g.tokens),
                                       atol=1e-4, rtol=0)
            assert g.prefix.tokens == tuple(ctx + g.tokens)
        prefixes = [g.prefix for g in got]
        contexts = [ctx + g.tokens + rng.integers(3, V, size=int(k)).tolist()
                    for ctx, g, k in zip(contexts, got, rng.integers(5, 30, size=3),
                                         strict=True)]
        if turn == 1:
            prefixes[1] = None
            contexts[2][10] = (contexts[2][10] + 1) % V or 3
    assert reuse.reused_tokens > 0
    # Turn 2 computes a 32-slot window per row instead of a 128-slot prompt; at turn 3 row 1
    # has no KV, so the batch's one window spans its whole context again.
    assert slots[0] == (512, 512) and slots[1] == (128, 512) and slots[2][0] == slots[2][1]


def test_reuse_skips_rows_without_a_match_and_keeps_the_last_token_computed(model):
    """A prefix equal to the whole new context still leaves its last token to compute (its
    hidden state starts decoding); an unrelated prefix reuses nothing."""
    rng = np.random.default_rng(1)
    ctx = rng.integers(3, V, size=30).tolist()
    params = SamplingParams(max_new_tokens=4, temperature=0)
    sampler = Sampler(model)
    first = sampler.generate([ctx], params, keep=True)[0]
    whole = list(first.prefix.tokens)
    again = sampler.generate([whole], params, prefixes=[first.prefix])[0]
    assert sampler.reused_tokens == len(whole) - 16  # window: the 16-token minimum bucket
    fresh = Sampler(model).generate([whole], params)[0]
    assert again.tokens == fresh.tokens
    with pytest.raises(ValueError, match="1 prefixes for 2 prompts"):
        sampler.generate([ctx, ctx], params, prefixes=[first.prefix])
    before = sampler.reused_tokens
    other = rng.integers(3, V, size=30).tolist()
    sampler.generate([other], params, prefixes=[first.prefix])
    assert sampler.reused_tokens == before


def test_common_prefix_and_store_budget():
    assert common_prefix([1, 2, 3], [1, 2, 4, 5]) == 2
    assert common_prefix([1, 2], [1, 2, 3]) == 2 and common_prefix([], [1]) == 0
    import jax.numpy as jnp

    def entry(n):
        return Prefix(tuple(range(n)), jnp.zeros((n,), jnp.float32), jnp.zeros((n,), jnp.float32))

    store = PrefixStore(budget_bytes=100)  # 12 floats of k + v each: 96 bytes
    store.put("a", entry(4))  # 32 bytes
    store.put("b", entry(4))
    store.put("c", entry(4))
    assert len(store) == 3 and store.nbytes == 96
    store.get("a")  # a is now the most recent: b goes first
    store.put("d", entry(2))
    assert store.get("b") is None and store.get("a") is not None and store.nbytes == 80
    store.put("a", entry(2))  # replacing frees the old entry
    assert store.nbytes == 64
    store.put("big", entry(13))  # larger than the whole budget: not kept
    assert store.get("big") is None and store.nbytes == 64
    store.clear()
    assert len(store) == 0 and store.nbytes == 0


def test_kept_kv_on_a_sharded_sampler_equals_one_device(hf_checkpoint):
    """Rows split over data x fsdp = 4 ways, heads over tensor = 2: kept KV moves between
    sharded batch caches and the second turn samples what one device samples."""
    from prove_jax.sharding import make_mesh

    path, _ = hf_checkpoint("qwen2_bias")
    mesh = make_mesh({"data": 2, "fsdp": 2, "tensor": 2})
    single, _ = load_hf(path, dtype="float32")
    sharded, _ = load_hf(path, mesh=mesh, dtype="float32")
    rng = np.random.default_rng(2)
    contexts = [rng.integers(3, V, size=n).tolist() for n in (33, 20, 47, 12, 25)]
    params = SamplingParams(max_new_tokens=6, temperature=0)
    sampler = Sampler(sharded, mesh=mesh)
    first = sampler.generate(contexts, params, keep=True)
    later = [list(o.prefix.tokens) + rng.integers(3, V, size=9).tolist() for o in first]
    got = sampler.generate(later, params, prefixes=[o.prefix for o in first])
    want = Sampler(single).generate(later, params)
    assert sampler.reused_tokens > 0
    for a, b in zip(got, want, strict=True):
        assert a.tokens == b.tokens
        np.testing.assert_allclose(a.logprobs, b.logprobs, atol=1e-5, rtol=0)


# sampled only: each row must draw its own tokens (greedy rows of a group would all agree)
@pytest.mark.parametrize("temperature", [1.0])
def test_a_group_shares_one_prefill_per_distinct_prompt(model, temperature):
    """A GRPO step's first turn: 2 prompts x 4 rollouts. Prefill runs on the 2 distinct prompts
    (2 rows, not 8) and every row samples what it samples alone in a batch with no repeats;
    the KV it keeps serves its own next turn."""
    rng = np.random.default_rng(3)
    prompts = [rng.integers(3, V, size=n).tolist() for n in (30, 52)]
    rows = [prompts[i % 2] for i in range(8)]
    seeds = list(range(100, 108))
    params = SamplingParams(max_new_tokens=8, temperature=temperature)
    shared = Sampler(model)
    got = shared.generate(rows, params, seeds, keep=True)
    assert shared.prefill_slots == 2 * 64  # two distinct prompts in the 64-token bucket
    for row, seed, g in zip(rows, seeds, got, strict=True):
        alone = Sampler(model).generate([row], params, [seed])[0]
        assert g.tokens == alone.tokens
        np.testing.assert_allclose(g.logprobs, alone.logprobs, atol=1e-4, rtol=0)
    if temperature > 0:  # the rows of a group sample differently from the same prompt
        assert len({tuple(g.tokens) for g in got[0::2]}) > 1
    nxt = [row + g.tokens + [5, 6, 7] for row, g in zip(rows, got, strict=True)]
    again = shared.generate(nxt, params, seeds, prefixes=[g.prefix for g in got])
    want = Sampler(model).generate(nxt, params, seeds)
    assert [a.tokens for a in again] == [w.tokens for w in want]
