"""Architectures of the target models (REFERENCE.md §6) and a tiny one for CPU tests.

A checkpoint's own config.json wins over these: `load_hf` always parses it.
"""

from __future__ import annotations

from typing import Any

from prove_jax.models.config import ModelConfig

PRESETS: dict[str, dict[str, Any]] = {
    "qwen3_4b": dict(
        model_type="qwen3", vocab_size=151936, hidden_size=2560, intermediate_size=9728,
        num_layers=36, num_heads=32, num_kv_heads=8, head_dim=128, rms_norm_eps=1e-6,
        rope_theta=5_000_000.0, max_position_embeddings=262144, tie_word_embeddings=True,
        qk_norm=True, bos_token_id=151643, eos_token_id=151645,
    ),
    "qwen3_8b": dict(
        model_type="qwen3", vocab_size=151936, hidden_size=4096, intermediate_size=12288,
        num_layers=36, num_heads=32, num_kv_heads=8, head_dim=128, rms_norm_eps=1e-6,
        rope_theta=1_000_000.0, max_position_embeddings=40960, tie_word_embeddings=False,
        qk_norm=True, bos_token_id=151643, eos_token_id=151645,
    ),
    "qwen2_5_7b": dict(
        model_type="qwen2", vocab_size=152064, hidden_size=3584, intermediate_size=18944,
        num_layers=28, num_heads=28, num_kv_heads=4, head_dim=128, rms_norm_eps=1e-6,
        rope_theta=1_000_000.0, max_position_embeddings=32768, tie_word_embeddings=False,
        qkv_bias=True, bos_token_id=151643, eos_token_id=151645,
    ),
    "granite_4_1_8b": dict(
        model_type="granite", vocab_size=100352, hidden_size=4096, intermediate_size=12800,
        num_layers=40, num_heads=32, num_kv_heads=8, head_dim=128, rms_norm_eps=1e-5,
        rope_theta=10_000_000.0, max_position_embeddings=131072, tie_word_embeddings=True,
        embedding_multiplier=12.0, residual_multiplier=0.22, attention_multiplier=0.0078125,
        logits_scaling=16.0, bos_token_id=100257, eos_token_id=100257, pad_token_id=100256,
    ),
    # SmolLM2-135M-Instruct (REFERENCE.md §10): the real model a 2-core CPU can train.
    "smollm2_135m": dict(
        model_type="llama", vocab_size=49152, hidden_size=576, intermediate_size=1536,
        num_layers=30, num_heads=9, num_kv_heads=3, head_dim=64, rms_norm_eps=1e-5,
        rope_theta=100000.0, max_position_embeddings=8192, tie_word_embeddings=True,
        bos_token_id=1, eos_token_id=2, pad_token_id=2,
    ),
    # Small enough for a laptop CPU; head_dim != hidden/heads like Qwen3-4B.
    "tiny": dict(
        model_type="qwen3", vocab_size=512, hidden_size=64, intermediate_size=128,
        num_layers=2, num_heads=4, num_kv_heads=2, head_dim=32, rms_norm_eps=1e-6,
        rope_theta=10000.0, max_position_embeddings=2048, tie_word_embeddings=True,
        qk_norm=True, bos_token_id=1, eos_token_id=2, pad_token_id=0,
    ),
}


def preset(name: str, **overrides: Any) -> ModelConfig:
    """A preset architecture by name, with runtime overrides (dtype, remat, ...)."""
    if name not in PRESETS:
        raise KeyError(f"unknown model preset {name!r}; known: {sorted(PRESETS)}")
    return ModelConfig(**{**PRESETS[name], **overrides})
