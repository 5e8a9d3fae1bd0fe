"""Our decoder, loaded from HF checkpoints, against transformers on the same weights."""

import numpy as np
import pytest

from prove_jax.checkpoint.hf import load_hf
from tests.hf_models import COMMON, VARIANTS, hf_logits


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_logits_match_transformers(hf_checkpoint, variant):
    path, hf = hf_checkpoint(variant)
    ids = np.random.default_rng(1).integers(0, COMMON["vocab_size"], size=(2, 48))
    ref = hf_logits(hf, ids)
    model, _cfg = load_hf(path, dtype="float32")
    out = np.asarray(model(ids))
    assert out.shape == ref.shape == (2, 48, COMMON["vocab_size"])
    assert ref.std() > 0.05  # the comparison is not between near-zero logits
    np.testing.assert_allclose(out, ref, atol=1e-4, rtol=0)
    np.testing.assert_array_equal(out.argmax(-1), ref.argmax(-1))


def test_family_switches_are_parsed(hf_checkpoint):
    _, cfg = load_hf(hf_checkpoint("qwen3_tied")[0])
    assert (cfg.qk_norm, cfg.tie_word_embeddings, cfg.head_dim) == (True, True, 24)
    _, cfg = load_hf(hf_checkpoint("qwen2_bias")[0])
    assert (cfg.qkv_bias, cfg.o_bias, cfg.qk_norm, cfg.tie_word_embeddings) == (
        True, False, False, False)
    _, cfg = load_hf(hf_checkpoint("granite")[0])
    assert (cfg.embedding_multiplier, cfg.residual_multiplier, cfg.logits_scaling) == (
        12.0, 0.22, 16.0)
    assert cfg.attention_scale == pytest.approx(0.05)
    _, cfg = load_hf(hf_checkpoint("llama_tied")[0])
    assert (cfg.model_type, cfg.qkv_bias, cfg.o_bias, cfg.mlp_bias, cfg.qk_norm,
            cfg.tie_word_embeddings, cfg.rope_theta) == ("llama", False, False, False, False,
                                                         True, 1e5)
    _, cfg = load_hf(hf_checkpoint("llama3_rope_bias")[0])
    assert (cfg.qkv_bias, cfg.o_bias, cfg.mlp_bias) == (True, True, True)
    assert cfg.rope_dict["rope_type"] == "llama3" and cfg.rope_theta == 5e5


def test_left_padding_matches_unpadded(hf_checkpoint):
    """Positions count real tokens only, so a left-padded row equals its unpadded run."""
    model, _ = load_hf(hf_checkpoint("qwen3_untied")[0], dtype="float32")
    ids = np.random.default_rng(2).integers(3, COMMON["vocab_size"], size=(1, 20))
    padded = np.concatenate([np.zeros((1, 5), ids.dtype), ids], axis=1)
    mask = np.concatenate([np.zeros((1, 5)), np.ones((1, 20))], axis=1)
    plain = np.asarray(model(ids))
    left = np.asarray(model(padded, attention_mask=mask))[:, 5:]
    np.testing.assert_allclose(left, plain, atol=1e-5, rtol=0)


def test_bfloat16_compute_tracks_float32(hf_checkpoint):
    path, hf = hf_checkpoint("qwen3_untied")
    ids = np.random.default_rng(3).integers(0, COMMON["vocab_size"], size=(2, 32))
    ref = hf_logits(hf, ids)
    model, cfg = load_hf(path, dtype="bfloat16")
    assert cfg.param_dtype == cfg.dtype == "bfloat16"
    out = np.asarray(model(ids))
    assert out.dtype == np.float32  # logits come out in float32 whatever the compute dtype
    err = np.abs(out - ref).max()
    assert 1e-4 < err < 0.1 * np.abs(ref).max()  # bf16 rounding, but the same function
