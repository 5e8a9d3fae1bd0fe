"""ModelConfig parsing, presets against REFERENCE.md §6, validation, and the remat knob."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from flax import nnx

from prove_jax.models import ConfigError, ModelConfig, abstract_model, init_model, preset

# REFERENCE.md §6: layers, hidden, heads, kv, head_dim, mlp, vocab, tied.
TARGETS = {
    "qwen3_4b": (36, 2560, 32, 8, 128, 9728, 151936, True),
    "qwen3_8b": (36, 4096, 32, 8, 128, 12288, 151936, False),
    "qwen2_5_7b": (28, 3584, 28, 4, 128, 18944, 152064, False),
    "granite_4_1_8b": (40, 4096, 32, 8, 128, 12800, 100352, True),
    "smollm2_135m": (30, 576, 9, 3, 64, 1536, 49152, True),  # REFERENCE.md §10
}


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_presets_match_reference(name):
    c = preset(name)
    got = (c.num_layers, c.hidden_size, c.num_heads, c.num_kv_heads, c.head_dim,
           c.intermediate_size, c.vocab_size, c.tie_word_embeddings)
    assert got == TARGETS[name]


def test_preset_parameter_counts():
    """Built abstractly (no memory): counts agree with the published model sizes."""
    def count(name):
        return sum(x.size for x in jax.tree.leaves(nnx.state(abstract_model(preset(name)))))

    assert 4.0e9 < count("qwen3_4b") < 4.05e9  # Qwen3-4B: 4.02B
    assert 8.1e9 < count("qwen3_8b") < 8.25e9  # Qwen3-8B: 8.19B
    assert 7.55e9 < count("qwen2_5_7b") < 7.7e9  # Qwen2.5-7B: 7.62B
    # SmolLM2-135M by hand: tied 49152 x 576 embedding; 30 layers of q, o 576x576, k, v
    # 576x192, gate, up, down 576x1536 and two 576 norms; the final norm.
    per_layer = 2 * 576 * 576 + 2 * 576 * 192 + 3 * 576 * 1536 + 2 * 576
    assert count("smollm2_135m") == 49152 * 576 + 30 * per_layer + 576  # 134,515,008


def test_legacy_rope_fields_and_roundtrip():
    raw = dict(model_type="qwen3", vocab_size=10, hidden_size=8, intermediate_size=16,
               num_hidden_layers=1, num_attention_heads=2, num_key_value_heads=1, head_dim=8,
               rope_theta=1e6, rope_scaling={"type": "yarn", "factor": 4.0,
                                             "original_max_position_embeddings": 32768})
    cfg = ModelConfig.from_hf(raw)
    assert cfg.rope_theta == 1e6
    assert cfg.rope_dict == {"rope_type": "yarn", "factor": 4.0,
                             "original_max_position_embeddings": 32768}
    again = ModelConfig.from_hf(cfg.to_hf())
    assert again == cfg
    hash(cfg)  # usable as a jit static argument


@pytest.mark.parametrize("change, message", [
    (dict(num_kv_heads=3), "multiple of num_kv_heads"),
    (dict(remat="sometimes"), "remat must be one of"),
    (dict(dtype="int8"), "dtypes must be among"),
    (dict(hidden_size=0), "hidden_size must be a positive integer"),
    (dict(rope_scaling=(("factor", 2.0), ("rope_type", "dynamic"))), "'dynamic'"),
])
def test_invalid_configs_name_the_field(change, message):
    with pytest.raises(ConfigError, match=message):
        preset("tiny", **change)


def test_missing_required_field_is_named():
    with pytest.raises(ConfigError, match="'num_hidden_layers'"):
        ModelConfig.from_hf(dict(model_type="qwen2", vocab_size=10, hidden_size=8,
                                 intermediate_size=16, num_attention_heads=2))


@pytest.mark.parametrize("policy", ["full", "dots", "dots_no_batch"])
def test_remat_changes_nothing_but_memory(policy):
    ids = jnp.asarray(np.random.default_rng(0).integers(0, 512, size=(2, 16)))
    base = init_model(preset("tiny"), seed=3)
    remat = init_model(preset("tiny", remat=policy), seed=3)
    loss = lambda m: jnp.mean(jax.nn.log_softmax(m(ids))[..., 7])
    v1, g1 = nnx.value_and_grad(loss)(base)
    v2, g2 = nnx.value_and_grad(loss)(remat)
    np.testing.assert_allclose(v1, v2, rtol=1e-6)
    for a, b in zip(jax.tree.leaves(g1), jax.tree.leaves(g2), strict=True):
        np.testing.assert_allclose(a, b, atol=1e-6, rtol=0)
