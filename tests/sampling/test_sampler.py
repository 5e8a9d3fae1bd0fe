"""The KV-cache sampler against transformers' greedy generate and a teacher-forced forward."""

import jax
import numpy as np
import pytest
import torch

from prove_jax.checkpoint.hf import load_hf
from prove_jax.sampling import Sampler, SamplingParams
from prove_jax.sharding import make_mesh
from tests.hf_models import COMMON

V = COMMON["vocab_size"]


def _prompts(seed, lengths=(5, 11, 8)):
    rng = np.random.default_rng(seed)
    return [rng.integers(3, V, size=n).tolist() for n in lengths]


@pytest.mark.parametrize("variant", ["qwen3_untied", "qwen2_bias", "granite"])
def test_greedy_equals_transformers_generate_with_padding(hf_checkpoint, variant):
    path, hf = hf_checkpoint(variant)
    model, _ = load_hf(path, dtype="float32")
    prompts = _prompts(0)
    outs = Sampler(model).generate(prompts, SamplingParams(max_new_tokens=16, temperature=0))
    for prompt, out in zip(prompts, outs, strict=True):
        ref = hf.generate(torch.tensor([prompt]), max_new_tokens=16, do_sample=False,
                          eos_token_id=None, pad_token_id=0)[0, len(prompt):].tolist()
        assert out.tokens == ref
        assert out.finish_reason == "length" and len(out.logprobs) == 16


def _teacher_forced(model, prompt, tokens, temperature):
    ids = np.asarray([prompt + tokens])
    logits = np.asarray(model(ids))[0, len(prompt) - 1:-1] / temperature
    logp = jax.nn.log_softmax(logits, axis=-1)
    return np.take_along_axis(np.asarray(logp), np.asarray(tokens)[:, None], axis=-1)[:, 0]


@pytest.mark.parametrize("temperature", [1.0, 0.7])
def test_logprobs_equal_teacher_forced_forward(hf_checkpoint, temperature):
    model, _ = load_hf(hf_checkpoint("qwen3_tied")[0], dtype="float32")
    prompts = _prompts(1)
    outs = Sampler(model).generate(prompts, SamplingParams(max_new_tokens=20,
                                                           temperature=temperature),
                                   seeds=[11, 12, 13])
    for prompt, out in zip(prompts, outs, strict=True):
        assert len(set(out.tokens)) > 3  # really sampled, not a constant stream
        ref = _teacher_forced(model, prompt, out.tokens, temperature)
        np.testing.assert_allclose(out.logprobs, ref, atol=1e-4, rtol=0)


def test_long_prompts_in_ragged_prefill_blocks_equal_teacher_forcing(hf_checkpoint):
    """Prompts of 530 and 600 tokens pad to 640 (a quarter step, not 1,024); the score budget
    allows 256-row prefill blocks, so the last block is ragged (256, 256, 128). Log-probs equal
    a teacher-forced forward; tokens equal a sampler whose prefill is one block."""
    from prove_jax.sampling.buckets import prefill_chunk

    model, _ = load_hf(hf_checkpoint("qwen3_tied")[0], dtype="float32")
    prompts = _prompts(3, lengths=(530, 600))
    heads = model.cfg.num_heads
    budget = 2 * heads * 256 * 640 * 4
    assert prefill_chunk(2, 640, 640, heads, budget) == 256
    params = SamplingParams(max_new_tokens=8, temperature=1.0)
    blocked = Sampler(model, prefill_scores_bytes=budget, prefill_block=256)
    outs = blocked.generate(prompts, params, seeds=[3, 4])
    assert blocked._compiled and {k[1] for k in blocked._compiled} == {640}
    whole = Sampler(model, prefill_scores_bytes=1 << 30, prefill_block=1024).generate(
        prompts, params, seeds=[3, 4])
    for prompt, out, ref_out in zip(prompts, outs, whole, strict=True):
        assert out.tokens == ref_out.tokens
        ref = _teacher_forced(model, prompt, out.tokens, 1.0)
        np.testing.assert_allclose(out.logprobs, ref, atol=1e-4, rtol=0)


def test_prompt_buckets_are_powers_of_two_then_quarter_steps():
    from prove_jax.sampling.buckets import prompt_bucket

    assert [prompt_bucket(n, 16) for n in (3, 17, 300, 512)] == [16, 32, 512, 512]
    assert [prompt_bucket(n) for n in (513, 640, 641, 1200, 2049)] == [640, 640, 768, 1280, 2560]
    shapes = {prompt_bucket(n) for n in range(513, 4097)}
    assert len(shapes) == 12 and all(prompt_bucket(n) >= n for n in range(1, 5000))
    assert all(prompt_bucket(n) < 1.25 * n for n in range(513, 5000))


def test_rows_depend_only_on_their_own_seed(hf_checkpoint):
    model, _ = load_hf(hf_checkpoint("qwen2_bias")[0], dtype="float32")
    sampler = Sampler(model)
    params = SamplingParams(max_new_tokens=12, temperature=1.0, top_p=0.9, top_k=20)
    prompts = _prompts(2)
    batch = sampler.generate(prompts, params, seeds=[5, 6, 7])
    alone = sampler.generate(prompts[1:2], params, seeds=[6])
    assert batch[1].tokens == alone[0].tokens
    again = sampler.generate(prompts, params, seeds=[5, 6, 7])
    assert [o.tokens for o in again] == [o.tokens for o in batch]
    other = sampler.generate(prompts, params, seeds=[8, 9, 10])
    assert [o.tokens for o in other] != [o.tokens for o in batch]


def test_top_k_one_and_tiny_top_p_are_greedy(hf_checkpoint):
    model, _ = load_hf(hf_checkpoint("granite")[0], dtype="float32")
    sampler = Sampler(model)
    prompts = _prompts(3)
    greedy = sampler.generate(prompts, SamplingParams(max_new_tokens=10, temperature=0))
    top1 = sampler.generate(prompts, SamplingParams(max_new_tokens=10, temperature=1.0,
                                                    top_k=1), seeds=[1, 2, 3])
    nucleus = sampler.generate(prompts, SamplingParams(max_new_tokens=10, temperature=1.0,
                                                       top_p=1e-6), seeds=[1, 2, 3])
    assert [o.tokens for o in top1] == [o.tokens for o in greedy]
    assert [o.tokens for o in nucleus] == [o.tokens for o in greedy]


def test_stops_on_stop_token(hf_checkpoint):
    model, _ = load_hf(hf_checkpoint("qwen3_untied")[0], dtype="float32")
    sampler = Sampler(model)
    prompts = _prompts(4, lengths=(9,))
    free = sampler.generate(prompts, SamplingParams(max_new_tokens=16, temperature=1.0),
                            seeds=[3])[0]
    stop_at = 5
    stop_id = free.tokens[stop_at]
    first = free.tokens.index(stop_id)  # the first occurrence is where it must stop
    out = sampler.generate(prompts, SamplingParams(max_new_tokens=16, temperature=1.0,
                                                   stop_token_ids=(stop_id,)), seeds=[3])[0]
    assert out.tokens == free.tokens[:first + 1] and out.finish_reason == "stop"
    assert out.logprobs == free.logprobs[:first + 1]


def test_last_token_drawn_without_a_forward_equals_a_longer_call(hf_checkpoint):
    """The last token of a call is drawn after the decode loop, with no forward for it: a
    one-token call (no decode step at all), a limit inside the bucket (5 of 8) and rows that
    all stop early sample exactly the head of a longer call, log-probs included."""
    model, _ = load_hf(hf_checkpoint("qwen3_untied")[0], dtype="float32")
    sampler = Sampler(model)
    prompts, seeds = _prompts(6), [1, 2, 3]
    long = sampler.generate(prompts, SamplingParams(max_new_tokens=16, temperature=1.0), seeds)
    for n in (1, 2, 5):
        outs = sampler.generate(prompts, SamplingParams(max_new_tokens=n, temperature=1.0),
                                seeds)
        for out, ref in zip(outs, long, strict=True):
            assert out.tokens == ref.tokens[:n] and out.finish_reason == "length"
            np.testing.assert_allclose(out.logprobs, ref.logprobs[:n], atol=1e-6, rtol=0)
    stops = tuple(ref.tokens[1] for ref in long)  # every row stops at its 2nd token or before
    outs = sampler.generate(prompts, SamplingParams(max_new_tokens=16, temperature=1.0,
                                                    stop_token_ids=stops), seeds)
    for out, ref in zip(outs, long, strict=True):
        first = next(i for i, tok in enumerate(ref.tokens) if tok in stops)
        assert first <= 1 and out.tokens == ref.tokens[:first + 1]
        assert out.finish_reason == "stop"


def test_recompilation_is_bounded_by_buckets(hf_checkpoint):
    model, _ = load_hf(hf_checkpoint("qwen3_tied")[0], dtype="float32")
    sampler = Sampler(model, min_prompt_bucket=16)
    params = SamplingParams(max_new_tokens=6, temperature=0)
    for n in (1, 2, 3, 4):
        for length in (3, 9, 14, 16):
            sampler.generate(_prompts(n, lengths=(length,) * n), params)
    # batch buckets {1, 2, 4} x one prompt bucket (16) x one new-token bucket (8)
    assert sampler.compilations == 3
    sampler.generate(_prompts(0, lengths=(20,)), params)  # prompt bucket 32: one more
    assert sampler.compilations == 4


def test_sharded_sampler_equals_single_device(hf_checkpoint):
    path, _ = hf_checkpoint("qwen2_bias")
    mesh = make_mesh({"data": 2, "fsdp": 2, "tensor": 2})
    single, _ = load_hf(path, dtype="float32")
    sharded, _ = load_hf(path, mesh=mesh, dtype="float32")
    prompts = _prompts(5, lengths=(4, 7, 12, 5, 9))
    params = SamplingParams(max_new_tokens=10, temperature=0)
    ref = Sampler(single).generate(prompts, params)
    got = Sampler(sharded, mesh=mesh).generate(prompts, params)
    assert [o.tokens for o in got] == [o.tokens for o in ref]
    for a, b in zip(got, ref, strict=True):
        np.testing.assert_allclose(a.logprobs, b.logprobs, atol=1e-5)


@pytest.mark.parametrize(("axes", "n"), [({"data": 3, "fsdp": 1, "tensor": 1}, 4),
                                         ({"data": 3, "fsdp": 2, "tensor": 1}, 7)])
def test_batch_axes_that_split_no_power_of_two(hf_checkpoint, axes, n):
    """data x fsdp of 3 or 6 ways: the batch (4 or 7 prompts, bucket 4 or 8) is padded to a
    multiple of the ways (6 or 12 rows), where rounding to a power of two could not split."""
    path, _ = hf_checkpoint("qwen2_bias")
    ways = axes["data"] * axes["fsdp"]
    mesh = make_mesh(axes, devices=jax.devices()[:ways])
    single, _ = load_hf(path, dtype="float32")
    sharded, _ = load_hf(path, mesh=mesh, dtype="float32")
    prompts = _prompts(6, lengths=(4, 7, 12, 5, 9, 3, 6)[:n])
    params = SamplingParams(max_new_tokens=6, temperature=0)
    ref = Sampler(single).generate(prompts, params)
    got = Sampler(sharded, mesh=mesh).generate(prompts, params)
    assert [o.tokens for o in got] == [o.tokens for o in ref]


def test_batch_bucket_is_a_power_of_two_rounded_to_the_data_ways():
    from prove_jax.sampling import batch_bucket

    # (prompts, data ways) -> rows, by hand: next power of two, then next multiple of the ways
    cases = {(1, 1): 1, (3, 1): 4, (5, 1): 8, (4, 3): 6, (1, 3): 3, (5, 3): 9, (7, 6): 12,
             (3, 8): 8, (9, 8): 16, (2, 12): 12, (13, 12): 24}
    assert {k: batch_bucket(*k) for k in cases} == cases


def test_bad_requests_are_named():
    with pytest.raises(ValueError, match="max_new_tokens"):
        SamplingParams(max_new_tokens=0)
    with pytest.raises(ValueError, match="top_p"):
        SamplingParams(top_p=0)
    with pytest.raises(ValueError, match="temperature"):
        SamplingParams(temperature=-1)


def test_stop_strings_single_token_and_host_side():
    from prove_jax.sampling.sampler import SampleOutput
    from prove_jax.sampling.stops import split_stop_strings, truncate_at_stop_strings
    from tests.rollout.tokenizers import qwen3_tokenizer

    tok = qwen3_tokenizer()
    ids, rest = split_stop_strings(tok, ["</tool_call>", "<|im_end|>", "\nObservation:"])
    assert ids == (tok.convert_tokens_to_ids("</tool_call>"),
                   tok.convert_tokens_to_ids("<|im_end|>"))
    assert rest == ("\nObservation:",)
    tokens = tok("Thinking done.\nObservation: the balance is 5", add_special_tokens=False)
    out = SampleOutput(tokens["input_ids"], [-0.5] * len(tokens["input_ids"]), "length")
    cut = truncate_at_stop_strings(out, tok.decode, rest)
    assert tok.decode(cut.tokens).endswith("\nObservation:") and cut.finish_reason == "stop"
    assert len(cut.logprobs) == len(cut.tokens) < len(out.tokens)


def test_prefill_chunk_fits_the_budget():
    from prove_jax.sampling.buckets import prefill_chunk

    assert prefill_chunk(1, 64, 80, 4, 1 << 30) == 64  # fits: one chunk
    assert prefill_chunk(1, 1536, 1536, 4, 1 << 30) == 256  # at most max_rows
    assert prefill_chunk(1, 1536, 1536, 4, 1 << 30, max_rows=2048) == 1536
    chunk = prefill_chunk(16, 8192, 8192 + 512, 4, 1 << 28)
    def scores(c):
        return 16 * 4 * c * (8192 + 512) * 4

    assert scores(chunk) <= 1 << 28 < scores(2 * chunk) and 8192 % chunk == 0
    assert prefill_chunk(64, 8192, 9000, 32, 1) == 16  # never below 16 tokens


@pytest.mark.parametrize("unroll", [True, False])
def test_chunked_prefill_and_layer_modes_give_the_same_samples(hf_checkpoint, unroll):
    """Prompts of 40-60 tokens (bucket 64): a 64-byte budget forces 16-token prefill chunks."""
    model, _ = load_hf(hf_checkpoint("qwen3_tied")[0], dtype="float32")
    prompts = _prompts(4, lengths=(40, 60, 47))
    params = SamplingParams(max_new_tokens=12, temperature=1.0)
    whole = Sampler(model).generate(prompts, params, seeds=[1, 2, 3])
    chunked = Sampler(model, unroll_layers=unroll, prefill_scores_bytes=64).generate(
        prompts, params, seeds=[1, 2, 3])
    for a, b in zip(whole, chunked, strict=True):
        assert a.tokens == b.tokens
        np.testing.assert_allclose(a.logprobs, b.logprobs, atol=1e-5, rtol=0)


def test_sample_categorical_matches_the_distribution():
    """Empirical frequencies of 40,000 draws over a 700-entry distribution (three blocks, a
    ragged last one) against softmax; masked entries are never drawn."""
    import jax.numpy as jnp

    from prove_jax.sampling.draw import sample_categorical

    rng = np.random.default_rng(0)
    logits = rng.normal(size=700).astype(np.float32) * 2
    logits[rng.choice(700, 200, replace=False)] = np.finfo(np.float32).min  # a top-k mask
    n = 40_000
    keys = jax.vmap(jax.random.key)(jnp.arange(n))
    draws = np.asarray(sample_categorical(keys, jnp.broadcast_to(jnp.asarray(logits), (n, 700))))
    counts = np.bincount(draws, minlength=700)
    probs = np.asarray(jax.nn.softmax(logits))
    assert counts[probs == 0].sum() == 0
    # Total variation distance: ~0.02 expected from sampling noise at this n; a biased
    # sampler (wrong block, off-by-one inside a block) gives far more.
    assert 0.5 * np.abs(counts / n - probs).sum() < 0.05
    big = np.argsort(probs)[-5:]
    np.testing.assert_allclose(counts[big] / n, probs[big], atol=0.01)


@pytest.mark.parametrize("rows", [1, 3, 64])
@pytest.mark.parametrize("greedy", [True, False])
def test_vocabulary_major_draws_equal_row_major_draws(greedy, rows):
    """draw_step keeps the logits [V, B] on the CPU (no top-k / top-p; one row's draw reads
    them as [1, V]): rows over a ragged 700-entry vocabulary draw the same tokens as the
    row-major path, with the same log-probs."""
    import jax.numpy as jnp

    from prove_jax.models.config import ModelConfig
    from prove_jax.sampling.draw import _sample, draw_step, step_logits

    rng = np.random.default_rng(5)
    cfg = ModelConfig(model_type="qwen3", vocab_size=700, hidden_size=32, intermediate_size=64,
                      num_layers=1, num_heads=2, num_kv_heads=1, head_dim=16,
                      logits_scaling=1.5)
    head = jnp.asarray(rng.normal(size=(700, 32)).astype(np.float32))
    hidden = jnp.asarray(rng.normal(size=(rows, 32)).astype(np.float32))
    keys = jax.vmap(jax.random.key)(jnp.arange(rows))
    t = jnp.float32(0.8)
    want = _sample(step_logits(hidden, head, cfg.logits_scaling, cfg.dtype), keys, t, 0, None,
                   greedy)
    got = draw_step(hidden, head, cfg, keys, t, 0, None, greedy)
    assert got[0].shape == (rows,)
    assert np.asarray(got[0]).tolist() == np.asarray(want[0]).tolist()
    if rows > 10:  # the rows really draw different tokens
        assert len(set(np.asarray(got[0]).tolist())) > 10
    np.testing.assert_allclose(np.asarray(got[1]), np.asarray(want[1]), atol=1e-5, rtol=0)
