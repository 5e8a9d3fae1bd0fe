"""Rotary position embeddings with the scaling kinds the target checkpoints use.

Frequencies follow transformers' `modeling_rope_utils` so logits match the reference to float
rounding: default, linear, yarn and llama3.
"""

from __future__ import annotations

import math

import jax.numpy as jnp
import numpy as np

from prove_jax.models.config import ModelConfig


def inv_frequencies(cfg: ModelConfig) -> tuple[np.ndarray, float]:
    """Inverse frequencies [head_dim/2] (float32) and the cos/sin attention factor."""
    rope = cfg.rope_dict
    kind = rope.get("rope_type", "default")
    dim = int(cfg.head_dim * rope.get("partial_rotary_factor", 1.0))
    exponents = np.arange(0, dim, 2, dtype=np.float32) / np.float32(dim)
    pos_freqs = np.power(np.float32(cfg.rope_theta), exponents, dtype=np.float32)
    inv_freq = (np.float32(1.0) / pos_freqs).astype(np.float32)
    if kind == "default":
        return inv_freq, 1.0
    factor = rope.get("factor")
    if kind == "linear":
        return (inv_freq / np.float32(factor)).astype(np.float32), 1.0
    original = rope.get("original_max_position_embeddings") or cfg.max_position_embeddings
    if kind == "llama3":
        return _llama3(inv_freq, factor, rope, original), 1.0
    if kind == "yarn":
        return _yarn(pos_freqs, dim, factor, rope, original, cfg)
    raise ValueError(f"unsupported rope type {kind!r}")


def _llama3(inv_freq: np.ndarray, factor: float, rope: dict, original: int) -> np.ndarray:
    low_ff, high_ff = rope["low_freq_factor"], rope["high_freq_factor"]
    low_wavelen, high_wavelen = original / low_ff, original / high_ff
    wavelen = 2 * math.pi / inv_freq
    scaled = np.where(wavelen > low_wavelen, inv_freq / factor, inv_freq)
    smooth = (original / wavelen - low_ff) / (high_ff - low_ff)
    smoothed = (1 - smooth) * scaled / factor + smooth * scaled
    medium = (wavelen >= high_wavelen) & (wavelen <= low_wavelen)
    return np.where(medium, smoothed, scaled).astype(np.float32)


def _yarn(pos_freqs: np.ndarray, dim: int, factor: float | None, rope: dict, original: int,
          cfg: ModelConfig) -> tuple[np.ndarray, float]:
    if factor is None:
        factor = cfg.max_position_embeddings / original

    def mscale(scale: float, m: float = 1.0) -> float:
        return 1.0 if scale <= 1 else 0.1 * m * math.log(scale) + 1.0

    attention_factor = rope.get("attention_factor")
    if attention_factor is None:
        m, m_all = rope.get("mscale"), rope.get("mscale_all_dim")
        attention_factor = mscale(factor, m) / mscale(factor, m_all) if m and m_all else mscale(
            factor)
    beta_fast = rope.get("beta_fast") or 32
    beta_slow = rope.get("beta_slow") or 1

    def correction_dim(rotations: float) -> float:
        turns = math.log(original / (rotations * 2 * math.pi))
        return (dim * turns) / (2 * math.log(cfg.rope_theta))

    low, high = correction_dim(beta_fast), correction_dim(beta_slow)
    if rope.get("truncate", True):
        low, high = math.floor(low), math.ceil(high)
    low, high = max(low, 0), min(high, dim - 1)
    if low == high:
        high += 0.001
    ramp = np.clip((np.arange(dim // 2, dtype=np.float32) - low) / (high - low), 0, 1)
    extrapolation = (1 - ramp).astype(np.float32)
    inv_extra = np.float32(1.0) / pos_freqs
    inv_inter = np.float32(1.0) / (np.float32(factor) * pos_freqs)
    inv_freq = inv_inter * (1 - extrapolation) + inv_extra * extrapolation
    return inv_freq.astype(np.float32), float(attention_factor)


def rope_tables(cfg: ModelConfig, positions: jnp.ndarray) -> tuple[jnp.ndarray, jnp.ndarray]:
    """cos, sin [B, T, head_dim] in float32 for integer positions [B, T]."""
    inv_freq, factor = inv_frequencies(cfg)
    freqs = positions.astype(jnp.float32)[..., None] * jnp.asarray(inv_freq)  # B T hd/2
    emb = jnp.concatenate([freqs, freqs], axis=-1)
    return jnp.cos(emb) * factor, jnp.sin(emb) * factor


def apply_rope(x: jnp.ndarray, cos: jnp.ndarray, sin: jnp.ndarray) -> jnp.ndarray:
    """Rotate x [B, T, N, hd] by tables [B, T, hd]; math in x's dtype as transformers does."""
    cos = cos[:, :, None, :].astype(x.dtype)
    sin = sin[:, :, None, :].astype(x.dtype)
    half = x.shape[-1] // 2
    rotated = jnp.concatenate([-x[..., half:], x[..., :half]], axis=-1)
    return x * cos + rotated * sin
