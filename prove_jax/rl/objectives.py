"""What a train step minimises, per micro-batch: the GRPO surrogate or SFT cross-entropy.

Each builder returns `micro_loss(params, mb, weights) -> (loss, metrics)`, where `weights` =
(loss weights, token-mean weights) computed over the whole batch (`losses.token_weights`), so
that micro-batch losses and metrics sum to the full batch's. The train step
(`prove_jax.rl.train_step`) differentiates and accumulates them; it knows nothing of objectives.

Compact batches: with a `target_index` [B, R] key, loss_mask / old_logp / ref_logp are [B, R],
aligned with the predictions at those positions; without it they are token-aligned [B, T] and
only their columns 1: are read (position t predicts token t + 1).

`fused_head`: the LM head and the per-token objective in one pass that yields the loss's
gradient directly (`prove_jax.models.fused_head`: three head matmuls instead of four); False
differentiates through the chunked log-probs (same values: the reference path).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
from flax import nnx

from prove_jax.models.decoder import Decoder
from prove_jax.models.fused_head import fused_head_objective
from prove_jax.models.logprobs import token_logprobs
from prove_jax.rl.losses import LossConfig, grpo_loss, grpo_token_loss
from prove_jax.sharding import constrain_batch

__all__ = ["OBJECTIVES", "MicroLoss", "grpo_objective", "grpo_terms", "head_pass",
           "prediction_states", "sequence_logprobs", "sft_objective"]

Batch = dict[str, jax.Array]
MicroLoss = Callable[[Any, Batch, tuple[jax.Array, jax.Array]], tuple[jax.Array, dict]]


def prediction_states(model: Decoder, tokens: jax.Array, attention_mask: jax.Array,
                      target_index: jax.Array | None = None) -> tuple[jax.Array, jax.Array]:
    """(final hidden states, the tokens they predict): position t predicts tokens[:, t+1];
    with `target_index` [B, R] only those R positions per row ([B, R, D], [B, R])."""
    hidden = model.hidden_states(tokens[:, :-1], attention_mask=attention_mask[:, :-1])
    targets = tokens[:, 1:]
    if target_index is not None:
        hidden = jnp.take_along_axis(hidden, target_index[..., None], axis=1)
        targets = jnp.take_along_axis(targets, target_index, axis=1)
    # Rows stay on their batch shard, and so does the head's gradient flowing back in: the
    # backward's scatter into [B, T, D] cannot start from D-split rows (XLA would replicate).
    return constrain_batch(hidden), constrain_batch(targets)


def sequence_logprobs(model: Decoder, tokens: jax.Array, attention_mask: jax.Array,
                      chunk_size: int, with_entropy: bool = False, temperature: float = 1.0,
                      target_index: jax.Array | None = None
                      ) -> jax.Array | tuple[jax.Array, jax.Array]:
    """log p(tokens[:, t+1] | tokens[:, :t+1]) [B, T-1] without [B, T, V] logits, under
    softmax(logits / temperature): the distribution the sampler drew from.

    With `target_index` [B, R] (values t in [0, T-1)), only those R predictions per row go
    through the LM head and [B, R] comes back: the head then costs R, not T, rows (prompts and
    tool results, most of a tool-use sequence, never need it)."""
    hidden, targets = prediction_states(model, tokens, attention_mask, target_index)
    cfg = model.cfg
    return token_logprobs(hidden, model.head_matrix(), targets,
                          logits_scaling=cfg.logits_scaling, chunk_size=chunk_size,
                          dtype=cfg.dtype, with_entropy=with_entropy, temperature=temperature)


def _aligned(mb: Batch, key: str) -> jax.Array:
    """A per-prediction array of the micro-batch: as is when compact, else columns 1:."""
    return mb[key] if "target_index" in mb else mb[key][:, 1:]


def _head_pass(model: Decoder, mb: Batch, token_loss: Callable, consts: tuple,
               temperature: float, chunk_size: int, fused: bool
               ) -> tuple[jax.Array | None, jax.Array, jax.Array]:
    """(loss or None, log-probs, entropies) of the micro-batch's predictions (`head_pass`)."""
    hidden, targets = prediction_states(model, mb["tokens"], mb["attention_mask"],
                                        mb.get("target_index"))
    return head_pass(model, hidden, targets, token_loss, consts, temperature, chunk_size, fused)


def head_pass(model: Decoder, hidden: jax.Array, targets: jax.Array, token_loss: Callable,
              consts: tuple, temperature: float, chunk_size: int, fused: bool
              ) -> tuple[jax.Array | None, jax.Array, jax.Array]:
    """(loss or None, log-probs, entropies) of the predictions hidden [B, R, D] -> targets
    [B, R]. Fused: the loss Σ token_loss(logp, *consts) carries the gradient, log-probs and
    entropies none. Unfused: no loss (the caller forms it from the differentiable log-probs)."""
    cfg = model.cfg
    if not fused:
        logp, entropy = token_logprobs(hidden, model.head_matrix(), targets,
                                       logits_scaling=cfg.logits_scaling, chunk_size=chunk_size,
                                       dtype=cfg.dtype, with_entropy=True,
                                       temperature=temperature)
        return None, logp, entropy
    return fused_head_objective(hidden, model.head_matrix(), targets, token_loss, consts,
                                logits_scaling=cfg.logits_scaling, temperature=temperature,
                                chunk_size=chunk_size, dtype=cfg.dtype)


def grpo_terms(model: Decoder, hidden: jax.Array, targets: jax.Array, mb: Batch,
               weights: tuple, loss_cfg: LossConfig, *, chunk_size: int, temperature: float,
               fused_head: bool) -> tuple[jax.Array, dict]:
    """(loss, metrics) of `grpo_loss` for the predictions hidden [B, R, D] -> targets [B, R];
    mb holds the per-prediction loss_mask, old_logp (ref_logp) [B, R] and advantages [B]."""
    mask = mb["loss_mask"].astype(jnp.float32)
    old, ref = mb["old_logp"], mb.get("ref_logp")
    adv = jnp.broadcast_to(mb["advantages"].astype(jnp.float32)[:, None], mask.shape)

    def token_loss(logp: jax.Array, old: jax.Array, adv: jax.Array, w: jax.Array,
                   *ref: jax.Array) -> jax.Array:
        return grpo_token_loss(logp, old, adv, w, loss_cfg, ref[0] if ref else None)

    consts = (old, adv, weights[0]) + (() if ref is None else (ref,))
    loss, logp, entropy = head_pass(model, hidden, targets, token_loss, consts, temperature,
                                    chunk_size, fused_head)
    # Metrics (and, unfused, the loss itself) from `grpo_loss`; fused, its log-probs are
    # stop-gradient and the fused loss carries the gradient.
    lp = logp if loss is None else jax.lax.stop_gradient(logp)
    value, metrics = grpo_loss(lp, old, mb["advantages"], mask, loss_cfg, ref, weights)
    metrics["loss"] = value if loss is None else loss
    metrics["entropy"] = jnp.sum(jax.lax.stop_gradient(entropy) * weights[1])
    return metrics["loss"], metrics


def grpo_objective(graphdef: Any, loss_cfg: LossConfig, *, chunk_size: int,
                   temperature: float, fused_head: bool = True) -> MicroLoss:
    """The clipped surrogate (+ k3 KL) of `grpo_loss`, log-probs at the sampler's temperature.
    The batch needs tokens, attention_mask, loss_mask, old_logp, advantages (+ ref_logp when
    kl_coef > 0)."""

    def micro_loss(params: Any, mb: Batch, weights: tuple) -> tuple[jax.Array, dict]:
        model = nnx.merge(graphdef, params)
        hidden, targets = prediction_states(model, mb["tokens"], mb["attention_mask"],
                                            mb.get("target_index"))
        per_prediction = {k: _aligned(mb, k) for k in ("loss_mask", "old_logp", "ref_logp")
                          if k in mb}
        return grpo_terms(model, hidden, targets, {**per_prediction,
                                                   "advantages": mb["advantages"]},
                          weights, loss_cfg, chunk_size=chunk_size, temperature=temperature,
                          fused_head=fused_head)

    return micro_loss


def sft_objective(graphdef: Any, *, chunk_size: int, fused_head: bool = True) -> MicroLoss:
    """Cross-entropy on the loss-mask tokens (weighted per the aggregation); the batch needs
    only tokens, attention_mask and loss_mask."""

    def token_loss(logp: jax.Array, w: jax.Array) -> jax.Array:
        return -logp * w

    def micro_loss(params: Any, mb: Batch, weights: tuple) -> tuple[jax.Array, dict]:
        model = nnx.merge(graphdef, params)
        loss, logp, entropy = _head_pass(model, mb, token_loss, (weights[0],), 1.0,
                                         chunk_size, fused_head)
        if loss is None:
            loss = -jnp.sum(logp * weights[0])
        metrics = {"loss": loss,
                   "nll": -jnp.sum(jax.lax.stop_gradient(logp) * weights[1]),
                   "entropy": jnp.sum(jax.lax.stop_gradient(entropy) * weights[1])}
        return loss, metrics

    return micro_loss


OBJECTIVES = {"grpo": ("tokens", "attention_mask", "loss_mask", "old_logp", "advantages"),
              "sft": ("tokens", "attention_mask", "loss_mask")}
