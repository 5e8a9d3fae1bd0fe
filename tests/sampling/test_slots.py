"""Continuous batching (SlotSampler): rows admitted and finished at different times, KV kept in
a row across turns and copied between rows, sample exactly what the step-synchronous sampler
samples when it recomputes every context."""

import numpy as np
import pytest

from prove_jax.checkpoint.hf import load_hf
from prove_jax.sampling import Sampler, SamplingParams
from prove_jax.sampling.slots import Admission, SlotSampler, _Row
from tests.hf_models import COMMON
from tests.sampling.scaled import scaled_model, teacher_forced

V = COMMON["vocab_size"]


@pytest.fixture(scope="module")
def model(hf_checkpoint):
    return scaled_model(hf_checkpoint("qwen3_tied")[0])


def _run_all(sampler, work):
    """Admit (row, owner, context, seed, limit) items as rows free up; {owner: Finished}."""
    waiting, done = list(work), {}
    owners = {}
    while waiting or sampler.active_rows:
        while waiting:
            owner, ctx, seed, limit = waiting[0]
            row = sampler.assign(owner)
            if row is None:
                break
            waiting.pop(0)
            sampler.admit(row, owner, ctx, seed, limit)
            owners[row] = owner
        for f in sampler.decode():
            done[owners[f.row]] = f
    return done


def _run_batched(sampler, work):
    """`_run_all`, but every waiting item is offered to one `admit_many` call per round."""
    waiting, done, owners = list(work), {}, {}
    while waiting or sampler.active_rows:
        results = sampler.admit_many([Admission(*w) for w in waiting])
        for w, row in zip(list(waiting), results, strict=True):
            if row is not None:
                waiting.remove(w)
                owners[row] = w[0]
        for f in sampler.decode():
            done[owners[f.row]] = f
    return done


def _equal_to_reference(ref, got, work, temperature):
    """Each (owner, context, seed, limit) turn of `work` sampled what `ref` samples
    recomputing the context (tokens, and log-probs within 1e-4); the reference's outputs."""
    wants = {}
    for owner, ctx, seed, limit in work:
        want = ref.generate([ctx], SamplingParams(limit, temperature=temperature), [seed])[0]
        assert got[owner].tokens == want.tokens, owner
        np.testing.assert_allclose(got[owner].logprobs, want.logprobs, atol=1e-4, rtol=0)
        wants[owner] = want
    return wants


@pytest.mark.parametrize("temperature,slots", [(0.0, 5), (1.0, 3)])  # greedy; sampled, queued
def test_three_turns_of_staggered_rows_equal_the_reference_sampler(model, temperature, slots):
    """5 episodes, limits from 3 to 11 tokens so rows finish at different decode steps; 3
    turns, each appending tool-result tokens. On 5 rows each episode keeps its row and later
    turns compute only what is new; on 3 rows two episodes wait for a row and rows change
    hands. Every turn's tokens equal `Sampler` recomputing the context with the same seed,
    log-probs equal it and a teacher-forced forward. Rows start 64 tokens long and grow."""
    rng = np.random.default_rng(0)
    contexts = {f"e{i}": rng.integers(3, V, size=n).tolist()
                for i, n in enumerate((40, 75, 21, 33, 58))}
    limits = {"e0": 3, "e1": 11, "e2": 7, "e3": 5, "e4": 9}
    sampler = SlotSampler(model, SamplingParams(16, temperature=temperature), slots=slots,
                          capacity=256, steps_per_call=4, initial_tokens=64)
    ref = Sampler(model)
    for turn in range(3):
        work = [(k, ctx, 100 * turn + i, limits[k]) for i, (k, ctx) in
                enumerate(contexts.items())]
        before = sampler.reused_tokens
        work_contexts = [w[1] for w in work]
        got = _run_all(sampler, work)
        wants = _equal_to_reference(ref, got, work, temperature)
        for owner, ctx, _seed, _limit in work:
            want = wants[owner]
            np.testing.assert_allclose(got[owner].logprobs,
                                       teacher_forced(model, ctx, want.tokens), atol=1e-4,
                                       rtol=0)
            contexts[owner] = ctx + want.tokens + rng.integers(3, V, size=7).tolist()
        if turn and slots == 5:  # each row kept its episode's KV: only the 7 new tokens computed
            assert sampler.reused_tokens - before == sum(map(len, work_contexts)) - 5 * 7
    assert sampler.length == 128 and sampler.compilations < 24  # grew once: 64 -> 128


def test_a_group_prefills_its_prompt_once_and_stops_on_stop_tokens(model):
    """4 rollouts of one prompt: the first computes it, the other three copy its row; each
    samples with its own seed what a lone reference row samples, stopping on a stop token."""
    rng = np.random.default_rng(3)
    prompt = rng.integers(3, V, size=90).tolist()
    ref = Sampler(model)
    free = ref.generate([prompt] * 4, SamplingParams(12, temperature=1.0), [1, 2, 3, 4])
    stop = free[1].tokens[2]  # a token row 1 samples: a stop id that really occurs
    params = SamplingParams(12, temperature=1.0, stop_token_ids=(stop,))
    sampler = SlotSampler(model, params, slots=4, capacity=128)
    got = _run_all(sampler, [(g, prompt, g + 1, 12) for g in range(4)])
    assert sampler.prefill_slots == 128 + 3 * 16  # the prompt in its bucket, then 1 token each
    assert sampler.reused_tokens == 3 * 89
    for g in range(4):
        want = ref.generate([prompt], params, [g + 1])[0]
        assert got[g].tokens == want.tokens and got[g].finish_reason == want.finish_reason
    assert got[1].finish_reason == "stop" and got[1].tokens[-1] == stop


def test_requests_admitted_together_prefill_each_shared_prompt_once(model):
    """One admit_many call: 4 rollouts of prompt A, 2 of prompt B (its first 20 tokens are
    A's), a context too long for a row, and one request more than there are rows. The batch
    runs in waves: A's first rollout; then A's others copying its row and B's first reusing
    the 20 tokens; then B's second copying B's first. The bad request is refused alone, the
    last one waits (None). Every rollout samples what the reference samples alone."""
    rng = np.random.default_rng(4)
    a = rng.integers(3, V, size=90).tolist()
    b = a[:20] + rng.integers(3, V, size=30).tolist()
    params = SamplingParams(6, temperature=1.0)
    sampler = SlotSampler(model, params, slots=6, capacity=128)
    work = [(f"a{g}", a, g, 6) for g in range(4)] + [("b0", b, 10, 6), ("bad", a * 2, 0, 6),
                                                      ("b1", b, 11, 6), ("late", b, 12, 6)]
    results = sampler.admit_many([Admission(*w) for w in work])
    assert results[:5] == [0, 1, 2, 3, 4] and results[6:] == [5, None]
    assert isinstance(results[5], ValueError) and "exceeds the slot capacity" in str(results[5])
    # waves: A's prompt in its bucket (1 row x 128); 4 rows x 32 (A: 1 token, B0: 30); B1: 16
    assert sampler.prefill_slots == 128 + 4 * 32 + 16
    assert sampler.reused_tokens == 3 * 89 + 20 + 49
    done = {}
    while sampler.active_rows:
        done.update({f.row: f for f in sampler.decode()})
    ref = Sampler(model)
    for (owner, ctx, seed, limit), row in zip(work, results, strict=True):
        if isinstance(row, int):
            want = ref.generate([ctx], SamplingParams(limit, temperature=1.0), [seed])[0]
            assert done[row].tokens == want.tokens, owner
            np.testing.assert_allclose(done[row].logprobs, want.logprobs, atol=1e-4, rtol=0)


def test_back_pressure_eviction_and_bad_requests(model):
    """With every row decoding, assign gives None; an idle row is reassigned least recently
    used first; a context that cannot fit, or a busy row, is refused with the cause named and
    changes nothing."""
    params = SamplingParams(4, temperature=0)
    sampler = SlotSampler(model, params, slots=2, capacity=64)
    sampler.admit(sampler.assign("a"), "a", list(range(3, 20)), 0, 4)
    sampler.admit(sampler.assign("b"), "b", list(range(5, 30)), 0, 4)
    assert sampler.assign("c") is None
    with pytest.raises(ValueError, match="still decoding"):
        sampler.admit(0, "c", [3, 4], 0, 2)
    while sampler.active_rows:
        sampler.decode()
    assert sampler.assign("a") == 0 and sampler.assign("c") == 0  # a was admitted first
    with pytest.raises(ValueError, match="exceeds the slot capacity of 64"):
        sampler.admit(0, "c", list(range(3, 63)), 0, 8)
    assert sampler.rows[0].owner == "a" and not sampler.active_rows
    sampler.release()
    assert all(not r.tokens and r.owner is None for r in sampler.rows)


def test_rows_split_over_a_mesh_sample_what_one_device_samples(hf_checkpoint, capfd):
    """Rows over data x fsdp = 4 ways, heads over tensor = 2: two turns of 8 staggered rows
    admitted together (batched extends), the second reusing each row's KV, sample what one
    device samples (admitting one row at a time), and XLA never falls
    back to replicating a tensor to reshard it."""
    from prove_jax.sharding import make_mesh

    path, _ = hf_checkpoint("qwen2_bias")
    mesh = make_mesh({"data": 2, "fsdp": 2, "tensor": 2})
    single, _ = load_hf(path, dtype="float32")
    sharded, _ = load_hf(path, mesh=mesh, dtype="float32")
    rng = np.random.default_rng(2)
    params = SamplingParams(6, temperature=0)
    with pytest.raises(ValueError, match="multiple of the mesh's data x fsdp ways"):
        SlotSampler(sharded, params, slots=6, capacity=128, mesh=mesh)
    samplers = [SlotSampler(sharded, params, slots=8, capacity=128, mesh=mesh,
                            initial_tokens=32),
                SlotSampler(single, params, slots=8, capacity=128)]
    contexts = [rng.integers(3, V, size=n).tolist() for n in (33, 20, 47, 12, 25, 9, 30, 41)]
    for _turn in range(2):
        work = [(i, ctx, i, 3 + i % 4) for i, ctx in enumerate(contexts)]
        got, want = _run_batched(samplers[0], work), _run_all(samplers[1], work)
        for i in range(len(contexts)):
            assert got[i].tokens == want[i].tokens
            np.testing.assert_allclose(got[i].logprobs, want[i].logprobs, atol=1e-5, rtol=0)
        contexts = [ctx + want[i].tokens + [5, 6, 7] for i, ctx in enumerate(contexts)]
    assert samplers[0].reused_tokens > 0
    assert "Involuntary full rematerialization" not in capfd.readouterr().err


def test_row_token_array_follows_replacement_and_appends():
    """Admission compares requests with each row's cached token array: it must follow the
    row's tokens when they are replaced by a list of the same length, or appended to."""
    row = _Row(tokens=[1, 2, 3])
    first = row.token_array()
    assert first.tolist() == [1, 2, 3] and row.token_array() is first
    row.tokens = [4, 5, 6]
    assert row.token_array().tolist() == [4, 5, 6]
    row.tokens += [7]
    assert row.token_array().tolist() == [4, 5, 6, 7]


def test_decode_samples_from_weights_swapped_in_after_it_started(hf_checkpoint):
    """Decode keeps per-layer copies of the weights between calls. A train step replaces the
    model's arrays (`nnx.update`, as the trainer publishes them): the next turn, with no
    `release` in between, samples what a sampler built on the new weights samples. (Its
    context shares no prefix with the first turn's, whose KV belongs to the old weights.)"""
    import jax
    from flax import nnx

    model = scaled_model(hf_checkpoint("qwen3_tied")[0])
    params = SamplingParams(8, temperature=0.0)
    sampler = SlotSampler(model, params, slots=2, capacity=128, initial_tokens=64)
    ctx = np.random.default_rng(1).integers(3, V, size=30).tolist()
    _run_all(sampler, [("a", ctx, 0, 8)])  # the weights are copied per layer here
    flipped = jax.tree.map(lambda x: -x if x.ndim >= 3 else x, nnx.state(model.layers))
    nnx.update(model.layers, flipped)
    other = [ctx[0] + 1, *ctx[1:]]
    stale = Sampler(scaled_model(hf_checkpoint("qwen3_tied")[0])).generate([other], params,
                                                                            [0])[0].tokens
    after = _run_all(sampler, [("b", other, 0, 8)])["b"].tokens
    assert sampler.reused_tokens == 0
    assert after == Sampler(model).generate([other], params, [0])[0].tokens
    assert after != stale


def test_few_active_rows_decode_as_few_and_sample_what_all_rows_sample(model):
    """16 rows, 11 episodes whose limits run from 2 to 12 tokens: the first calls decode
    every row; once 8 or fewer are active a call decodes only those (its programs name
    them; the idle rows' KV is left as it was). Each turn, the next one extending it
    included, samples what `Sampler` samples recomputing the context."""
    from prove_jax.sampling.slots import MIN_PICKED

    temperature = 1.0  # sampled: each row's keys follow it into the fewer rows too
    rng = np.random.default_rng(3)
    contexts = {f"e{i}": rng.integers(3, V, size=int(n)).tolist()
                for i, n in enumerate(rng.integers(9, 60, size=11))}
    limits = {k: 2 + i for i, k in enumerate(contexts)}
    sampler = SlotSampler(model, SamplingParams(16, temperature=temperature), slots=16,
                          capacity=256, steps_per_call=2, initial_tokens=64)
    ref = Sampler(model)
    for turn in range(2):
        work = [(k, ctx, 10 * turn + i, limits[k]) for i, (k, ctx) in
                enumerate(contexts.items())]
        got = _run_all(sampler, work)
        _equal_to_reference(ref, got, work, temperature)
        contexts = {k: ctx + got[k].tokens + [7, 8] for k, ctx in contexts.items()}
    picked = {key[3] for key in sampler._compiled if key[0] == "decode"}
    assert picked == {MIN_PICKED, 16}


def test_a_long_extend_in_pieces_equals_recomputing(model):
    """Two episodes' second turns admitted together, one adding 300 tokens to what its row
    holds (three pieces of at most EXTEND_PIECE, the later ones attending to the earlier
    ones' keys written in the same extend), one adding 5: each samples what `Sampler`
    samples recomputing its whole context, and only the pieces' slots are computed."""
    from prove_jax.sampling.extend_entries import EXTEND_PIECE

    rng = np.random.default_rng(5)
    contexts = {"x": rng.integers(3, V, size=40).tolist(),
                "y": rng.integers(3, V, size=30).tolist()}
    params = SamplingParams(6, temperature=0.0)
    sampler = SlotSampler(model, params, slots=4, capacity=512, initial_tokens=512)
    ref = Sampler(model)
    first = _run_batched(sampler, [(k, ctx, 1, 4) for k, ctx in contexts.items()])
    grown = {"x": contexts["x"] + first["x"].tokens + rng.integers(3, V, size=300).tolist(),
             "y": contexts["y"] + first["y"].tokens + [5, 6, 7, 8, 9]}
    before = sampler.prefill_slots
    second = _run_batched(sampler, [(k, ctx, 2, 6) for k, ctx in grown.items()])
    # x: 300 + 3 new tokens in pieces of 128, 128, 47; y: 5 + 3: four entries of 128 slots
    assert sampler.prefill_slots - before == 4 * EXTEND_PIECE
    _equal_to_reference(ref, second, [(k, ctx, 2, 6) for k, ctx in grown.items()], 0.0)
