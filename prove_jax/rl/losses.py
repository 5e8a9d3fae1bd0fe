"""The GRPO objective over token log-probs: clipped importance ratio, k3 KL to a reference,
and the loss-aggregation modes, as pure functions of arrays.

Shapes: B sequences, T tokens. `mask` [B, T] is 1 exactly on tokens the policy sampled (the
trajectory's loss mask, shifted to the positions that predict them); everything else is 0 and
never reaches the loss. `advantages` is [B] (one per rollout, broadcast over its tokens).

Aggregation (chosen by name in config):
  token-mean               Σ loss·mask / Σ mask over the whole batch (DAPO: long answers
                           weigh in proportion to their length);
  seq-mean-token-mean      mean over sequences of each sequence's token mean (the original GRPO);
  seq-mean-token-sum-norm  Σ loss·mask / (B · norm_length) (Dr. GRPO: a constant normaliser, no
                           length bias either way); norm_length defaults to T.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import jax
import jax.numpy as jnp

__all__ = ["AGGREGATIONS", "LossConfig", "aggregate", "grpo_loss", "grpo_token_loss", "kl_k3",
           "token_weights"]


def _token_mean(x: jax.Array, mask: jax.Array, norm_length: int | None) -> jax.Array:
    del norm_length
    return jnp.sum(x * mask) / jnp.maximum(jnp.sum(mask), 1.0)


def _seq_mean_token_mean(x: jax.Array, mask: jax.Array, norm_length: int | None) -> jax.Array:
    del norm_length
    per_seq = jnp.sum(x * mask, axis=-1) / jnp.maximum(jnp.sum(mask, axis=-1), 1.0)
    has_tokens = (jnp.sum(mask, axis=-1) > 0).astype(x.dtype)  # padding rows don't count
    return jnp.sum(per_seq * has_tokens) / jnp.maximum(jnp.sum(has_tokens), 1.0)


def _seq_mean_token_sum_norm(x: jax.Array, mask: jax.Array,
                             norm_length: int | None) -> jax.Array:
    length = x.shape[-1] if norm_length is None else norm_length
    return jnp.sum(x * mask) / (x.shape[0] * length)


AGGREGATIONS: dict[str, Callable[[jax.Array, jax.Array, int | None], jax.Array]] = {
    "token-mean": _token_mean,
    "seq-mean-token-mean": _seq_mean_token_mean,
    "seq-mean-token-sum-norm": _seq_mean_token_sum_norm,
}


def token_weights(mask: jax.Array, mode: str, norm_length: int | None = None) -> jax.Array:
    """Weights w [B, T] with aggregate(x) == Σ x·w. Computed once over the whole batch, they
    let micro-batches sum their parts into exactly the full batch's loss."""
    if mode not in AGGREGATIONS:
        raise ValueError(f"unknown loss aggregation {mode!r}; known: {sorted(AGGREGATIONS)}")
    mask = mask.astype(jnp.float32)
    if mode == "token-mean":
        return mask / jnp.maximum(jnp.sum(mask), 1.0)
    if mode == "seq-mean-token-mean":
        per_row = jnp.sum(mask, axis=-1, keepdims=True)
        rows = jnp.maximum(jnp.sum((per_row > 0).astype(jnp.float32)), 1.0)
        return mask / jnp.maximum(per_row, 1.0) / rows
    length = mask.shape[-1] if norm_length is None else norm_length
    return mask / (mask.shape[0] * length)


def aggregate(x: jax.Array, mask: jax.Array, mode: str, norm_length: int | None = None
              ) -> jax.Array:
    if mode not in AGGREGATIONS:
        raise ValueError(f"unknown loss aggregation {mode!r}; known: {sorted(AGGREGATIONS)}")
    return AGGREGATIONS[mode](x, mask.astype(x.dtype), norm_length)


def kl_k3(logp: jax.Array, ref_logp: jax.Array) -> jax.Array:
    """Per-token k3 estimate of KL(π || π_ref) from samples of π: e^(r) − r − 1 with
    r = log π_ref − log π; unbiased, always >= 0."""
    r = ref_logp - logp
    return jnp.exp(r) - r - 1.0


@dataclass(frozen=True)
class LossConfig:
    clip_low: float = 0.2  # ratio floor 1 - clip_low
    clip_high: float = 0.28  # ratio ceiling 1 + clip_high (DAPO's clip-higher)
    kl_coef: float = 0.01  # REFERENCE.md §4; 0 skips the reference model entirely
    aggregation: str = "token-mean"
    norm_length: int | None = None  # seq-mean-token-sum-norm's constant (default T)

    def __post_init__(self) -> None:
        if not 0 <= self.clip_low < 1 or self.clip_high < 0:
            raise ValueError(f"clip_low must be in [0, 1) and clip_high >= 0, got "
                             f"{self.clip_low}, {self.clip_high}")
        if self.kl_coef < 0:
            raise ValueError(f"kl_coef must be >= 0, got {self.kl_coef}")
        if self.aggregation not in AGGREGATIONS:
            raise ValueError(f"unknown loss aggregation {self.aggregation!r}; known: "
                             f"{sorted(AGGREGATIONS)}")


def _surrogate(logp: jax.Array, old_logp: jax.Array, adv: jax.Array, cfg: LossConfig
               ) -> tuple[jax.Array, jax.Array, jax.Array]:
    """(per-token clipped surrogate, ratio, 1 where the clipped branch was taken)."""
    ratio = jnp.exp(logp - old_logp)
    unclipped = -adv * ratio
    clipped = -adv * jnp.clip(ratio, 1.0 - cfg.clip_low, 1.0 + cfg.clip_high)
    return jnp.maximum(unclipped, clipped), ratio, (clipped > unclipped).astype(jnp.float32)


def grpo_token_loss(logp: jax.Array, old_logp: jax.Array, adv: jax.Array, w_loss: jax.Array,
                    cfg: LossConfig, ref_logp: jax.Array | None = None) -> jax.Array:
    """Each token's share of `grpo_loss`'s loss (adv broadcast per token): summed over tokens
    it is that loss. Token by token, so a fused LM head can take its gradient per token."""
    out = _surrogate(logp, old_logp, adv, cfg)[0] * w_loss
    if cfg.kl_coef > 0:
        out = out + cfg.kl_coef * kl_k3(logp, ref_logp) * w_loss
    return out


def grpo_loss(logp: jax.Array, old_logp: jax.Array, advantages: jax.Array, mask: jax.Array,
              cfg: LossConfig, ref_logp: jax.Array | None = None,
              weights: tuple[jax.Array, jax.Array] | None = None
              ) -> tuple[jax.Array, dict[str, jax.Array]]:
    """The clipped surrogate (to minimise) and its metrics.

    logp [B, T] under the current parameters (differentiated), old_logp the sampler's
    log-probs (the behaviour policy), ref_logp the frozen reference's (needed iff kl_coef > 0).
    `weights` = (loss weights, token-mean weights) from `token_weights` over a larger batch
    this one is a micro-batch of; then the loss and metrics are this part's share of the sums.
    """
    mask = mask.astype(jnp.float32)
    if weights is None:
        weights = (token_weights(mask, cfg.aggregation, cfg.norm_length),
                   token_weights(mask, "token-mean"))
    w_loss, w_tok = weights
    adv = advantages.astype(jnp.float32)[:, None]
    per_token, ratio, was_clipped = _surrogate(logp, old_logp, adv, cfg)
    policy = jnp.sum(per_token * w_loss)
    metrics = {
        "policy_loss": policy,
        "clip_fraction": jnp.sum(was_clipped * w_tok),
        # k3 of the behaviour policy against the current one: how far the update has moved
        "approx_kl_old": jnp.sum(kl_k3(logp, old_logp) * w_tok),
        "ratio_mean": jnp.sum(ratio * w_tok),
    }
    loss = policy
    if cfg.kl_coef > 0:
        if ref_logp is None:
            raise ValueError("kl_coef > 0 needs the reference model's log-probs (ref_logp)")
        kl = jnp.sum(kl_k3(logp, ref_logp) * w_loss)
        loss = loss + cfg.kl_coef * kl
        metrics["kl"] = kl
    metrics["loss"] = loss
    return loss, metrics
