"""The GRPO train step: one jitted update over a (data, fsdp, tensor) mesh.

Functional over NNX: the model is split once into (graphdef, params); the step takes and
returns params and the optax state, so `jax.jit` sees plain pytrees whose shardings come from
the rules table (parameters) and propagate to the optimizer state (created from them).

A batch is whole sequences [B, T]: `tokens`, `attention_mask` (1 on real tokens), `loss_mask`
(1 on tokens the policy sampled), `old_logp` (the sampler's log-prob of each token, aligned with
`tokens`), `advantages` [B] and, when the KL term is on, `ref_logp` like `old_logp`. Position t
predicts token t + 1, so the loss reads columns 1: of the token-aligned arrays.

Micro-batches: the batch is split into `micro_batches` equal parts scanned one after another
with summed gradients; loss weights are computed over the whole batch first, so the result is
the full batch's gradient exactly (not a mean of per-part means). Non-finite loss or gradients
skip the update (parameters and optimizer state unchanged) and report `skipped` = 1.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import jax
import jax.numpy as jnp
import optax
from flax import nnx

from prove_jax.models.decoder import Decoder
from prove_jax.models.fused_head import fused_head_objective
from prove_jax.models.logprobs import token_logprobs
from prove_jax.rl.losses import LossConfig, grpo_loss, grpo_token_loss, token_weights

__all__ = ["OptimConfig", "make_optimizer", "make_train_step", "prediction_states",
           "sequence_logprobs"]

Batch = dict[str, jax.Array]
BATCH_KEYS = ("tokens", "attention_mask", "loss_mask", "old_logp", "advantages")


@dataclass(frozen=True)
class OptimConfig:
    lr: float = 1e-6
    warmup_steps: int = 0
    total_steps: int = 350
    schedule: str = "constant"  # constant | cosine | linear (decay after warmup)
    weight_decay: float = 0.0
    b1: float = 0.9
    b2: float = 0.999
    eps: float = 1e-8
    max_grad_norm: float = 1.0  # global-norm clipping; 0 turns it off

    def __post_init__(self) -> None:
        if self.schedule not in ("constant", "cosine", "linear"):
            raise ValueError(f"unknown lr schedule {self.schedule!r}; known: constant, "
                             "cosine, linear")
        if self.lr <= 0 or self.total_steps < 1 or self.warmup_steps < 0:
            raise ValueError("OptimConfig: lr > 0, total_steps >= 1 and warmup_steps >= 0")


def learning_rate(cfg: OptimConfig) -> optax.Schedule:
    warm = optax.linear_schedule(0.0 if cfg.warmup_steps else cfg.lr, cfg.lr,
                                 max(cfg.warmup_steps, 1))
    rest = max(cfg.total_steps - cfg.warmup_steps, 1)
    after = {"constant": optax.constant_schedule(cfg.lr),
             "cosine": optax.cosine_decay_schedule(cfg.lr, rest),
             "linear": optax.linear_schedule(cfg.lr, 0.0, rest)}[cfg.schedule]
    return optax.join_schedules([warm, after], [cfg.warmup_steps])


def make_optimizer(cfg: OptimConfig) -> optax.GradientTransformation:
    parts = [optax.clip_by_global_norm(cfg.max_grad_norm)] if cfg.max_grad_norm > 0 else []
    parts.append(optax.adamw(learning_rate(cfg), b1=cfg.b1, b2=cfg.b2, eps=cfg.eps,
                             weight_decay=cfg.weight_decay))
    return optax.chain(*parts)


def prediction_states(model: Decoder, tokens: jax.Array, attention_mask: jax.Array,
                      target_index: jax.Array | None = None) -> tuple[jax.Array, jax.Array]:
    """(final hidden states, the tokens they predict): position t predicts tokens[:, t+1];
    with `target_index` [B, R] only those R positions per row ([B, R, D], [B, R])."""
    hidden = model.hidden_states(tokens[:, :-1], attention_mask=attention_mask[:, :-1])
    targets = tokens[:, 1:]
    if target_index is not None:
        hidden = jnp.take_along_axis(hidden, target_index[..., None], axis=1)
        targets = jnp.take_along_axis(targets, target_index, axis=1)
    return hidden, targets


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


def _split(x: jax.Array, parts: int) -> jax.Array:
    if x.shape[0] % parts:
        raise ValueError(f"batch of {x.shape[0]} does not split into {parts} micro-batches")
    return x.reshape(parts, x.shape[0] // parts, *x.shape[1:])


OBJECTIVES = ("grpo", "sft")


def make_train_step(graphdef: Any, optimizer: optax.GradientTransformation, loss_cfg: LossConfig,
                    *, micro_batches: int = 1, chunk_size: int = 1024, temperature: float = 1.0,
                    objective: str = "grpo", fused_head: bool = True
                    ) -> Callable[[Any, Any, Batch], tuple[Any, Any, dict[str, jax.Array]]]:
    """step(params, opt_state, batch) -> (params, opt_state, metrics); jit it with shardings
    (see `jit_train_step`) or plainly.

    objective "grpo": the clipped surrogate of `grpo_loss` (log-probs at the sampler's
    `temperature`); "sft": cross-entropy on the loss-mask tokens (mean per the aggregation),
    the batch needing only tokens, attention_mask and loss_mask.

    Compact batches: with a `target_index` [B, R] key, loss_mask / old_logp / ref_logp are
    [B, R], aligned with the predictions at those positions (see `sequence_logprobs`);
    without it they are token-aligned [B, T] and the step reads their columns 1:.

    `fused_head`: the LM head and the per-token objective in one pass that yields the loss's
    gradient directly (`prove_jax.models.fused_head`: three head matmuls instead of four);
    False differentiates through the chunked log-probs (same values, the reference path)."""
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown training objective {objective!r}; known: {OBJECTIVES}")
    sft = objective == "sft"
    required = BATCH_KEYS[:3] if sft else BATCH_KEYS

    def sft_terms(logp: jax.Array, w: jax.Array) -> jax.Array:
        return -logp * w

    def grpo_terms(logp: jax.Array, old: jax.Array, adv: jax.Array, w: jax.Array,
                   *ref: jax.Array) -> jax.Array:
        return grpo_token_loss(logp, old, adv, w, loss_cfg, ref[0] if ref else None)

    def micro_loss(params: Any, mb: Batch, weights: tuple) -> tuple[jax.Array, dict]:
        model = nnx.merge(graphdef, params)
        index = mb.get("target_index")
        aligned = (lambda x: x) if index is not None else (lambda x: x[:, 1:])
        mask = aligned(mb["loss_mask"]).astype(jnp.float32)
        old = None if sft else aligned(mb["old_logp"])
        ref = aligned(mb["ref_logp"]) if not sft and "ref_logp" in mb else None
        if fused_head:
            hidden, targets = prediction_states(model, mb["tokens"], mb["attention_mask"],
                                                index)
            if sft:
                terms, consts = sft_terms, (weights[0],)
            else:
                adv = jnp.broadcast_to(mb["advantages"].astype(jnp.float32)[:, None], mask.shape)
                terms = grpo_terms
                consts = (old, adv, weights[0]) + (() if ref is None else (ref,))
            cfg = model.cfg
            loss, logp, entropy = fused_head_objective(
                hidden, model.head_matrix(), targets, terms, consts,
                logits_scaling=cfg.logits_scaling, temperature=1.0 if sft else temperature,
                chunk_size=chunk_size, dtype=cfg.dtype)
        else:
            logp, entropy = sequence_logprobs(model, mb["tokens"], mb["attention_mask"],
                                              chunk_size, with_entropy=True,
                                              temperature=1.0 if sft else temperature,
                                              target_index=index)
            loss = -jnp.sum(logp * weights[0]) if sft else None
        if sft:
            metrics = {"loss": loss, "nll": -jnp.sum(jax.lax.stop_gradient(logp) * weights[1])}
        else:
            # Metrics from stop-gradient log-probs on the fused path (its loss carries the
            # gradient); on the reference path the loss itself comes from here.
            value, metrics = grpo_loss(logp if loss is None else jax.lax.stop_gradient(logp),
                                       old, mb["advantages"], mask, loss_cfg, ref, weights)
            loss = value if loss is None else loss
            metrics["loss"] = loss
        metrics["entropy"] = jnp.sum(jax.lax.stop_gradient(entropy) * weights[1])
        return loss, metrics

    grad_fn = jax.value_and_grad(micro_loss, has_aux=True)

    def step(params: Any, opt_state: Any, batch: Batch) -> tuple[Any, Any, dict[str, jax.Array]]:
        missing = [k for k in required if k not in batch]
        if missing:
            raise ValueError(f"train batch lacks {missing}")
        if not sft and loss_cfg.kl_coef > 0 and "ref_logp" not in batch:
            raise ValueError("kl_coef > 0: the batch needs ref_logp")
        mask = batch["loss_mask"] if "target_index" in batch else batch["loss_mask"][:, 1:]
        weights = (token_weights(mask, loss_cfg.aggregation, loss_cfg.norm_length),
                   token_weights(mask, "token-mean"))
        parts = {k: _split(v, micro_batches) for k, v in batch.items()}
        parts_w = tuple(_split(w, micro_batches) for w in weights)

        def accumulate(carry: tuple, xs: tuple) -> tuple[tuple, None]:
            grads, metrics = carry
            mb, w = xs
            (_, m), g = grad_fn(params, mb, w)
            return (jax.tree.map(jnp.add, grads, g), jax.tree.map(jnp.add, metrics, m)), None

        zeros = jax.tree.map(jnp.zeros_like, params)
        shapes = jax.eval_shape(lambda: grad_fn(params, jax.tree.map(lambda x: x[0], parts),
                                                tuple(w[0] for w in parts_w))[0][1])
        init = (zeros, jax.tree.map(lambda s: jnp.zeros(s.shape, s.dtype), shapes))
        (grads, metrics), _ = jax.lax.scan(accumulate, init, (parts, parts_w))
        grad_norm = optax.tree.norm(grads)
        finite = jnp.isfinite(metrics["loss"]) & jnp.isfinite(grad_norm)
        updates, new_opt = optimizer.update(grads, opt_state, params)
        new_params = optax.apply_updates(params, updates)
        # Skip a non-finite update entirely: keep the old parameters and optimizer moments.
        params = jax.tree.map(lambda new, old: jnp.where(finite, new, old), new_params, params)
        opt_state = jax.tree.map(lambda new, old: jnp.where(finite, new, old), new_opt,
                                 opt_state)
        metrics = {**metrics, "grad_norm": grad_norm,
                   "skipped": 1.0 - finite.astype(jnp.float32),
                   "policy_tokens": jnp.sum(mask.astype(jnp.float32))}
        return params, opt_state, metrics

    return step


def opt_state_shardings(optimizer: optax.GradientTransformation, opt_state: Any,
                        param_sh: Any, mesh: Any) -> Any:
    """Each parameter-shaped subtree of the optimizer state (Adam's mu, nu) sharded like the
    parameters, by tree position; everything else (step counts) replicated.

    By position, not by shape: in Qwen3-8B q_proj and o_proj are both [36, 4096, 4096] with
    different specs, so a lookup by shape cannot tell them apart."""
    from jax.sharding import NamedSharding
    from jax.sharding import PartitionSpec as P

    rep = NamedSharding(mesh, P())
    return optax.tree_utils.tree_map_params(
        optimizer, lambda _, sh: sh, opt_state, param_sh,
        transform_non_params=lambda _: rep,
        is_leaf=lambda x: isinstance(x, NamedSharding))


def jit_train_step(step: Callable, params: Any, opt_state: Any, mesh: Any,
                   optimizer: optax.GradientTransformation, rules: Any = None) -> Callable:
    """`step` jitted with explicit shardings: parameters by the rules table, the optimizer
    state like the parameters it mirrors (scalars replicated), batch rows over (data, fsdp);
    params and optimizer state are donated (updated in place)."""
    from jax.sharding import NamedSharding
    from jax.sharding import PartitionSpec as P

    from prove_jax.sharding import BATCH_AXES, DEFAULT_RULES, tree_shardings

    param_sh = tree_shardings(params, mesh, rules or DEFAULT_RULES)
    rep = NamedSharding(mesh, P())
    opt_sh = opt_state_shardings(optimizer, opt_state, param_sh, mesh)

    def batch_sh(batch: Batch) -> dict:
        return {k: NamedSharding(mesh, P(BATCH_AXES, *([None] * (v.ndim - 1))))
                for k, v in batch.items()}

    cache: dict[tuple, Callable] = {}

    def run(params: Any, opt_state: Any, batch: Batch) -> tuple[Any, Any, dict]:
        key = tuple(sorted((k, v.shape) for k, v in batch.items()))
        if key not in cache:
            cache[key] = jax.jit(step, in_shardings=(param_sh, opt_sh, batch_sh(batch)),
                                 out_shardings=(param_sh, opt_sh, rep), donate_argnums=(0, 1))
        with jax.set_mesh(mesh):  # lets the model pin activations to the batch axes
            return cache[key](params, opt_state, batch)

    run.param_shardings = param_sh  # type: ignore[attr-defined]
    run.opt_shardings = opt_sh  # type: ignore[attr-defined]
    return run
