"""The train step: one jitted update over a (data, fsdp, tensor) mesh, for any objective.

Functional over NNX: the model is split once into (graphdef, params); the step takes and
returns params and the optax state, so `jax.jit` sees plain pytrees whose shardings come from
the rules table (parameters) and propagate to the optimizer state (created from them).

A batch is whole sequences [B, T]: `tokens`, `attention_mask` (1 on real tokens), `loss_mask`
(1 on tokens the policy sampled) and what the objective needs (`prove_jax.rl.objectives`:
GRPO's `old_logp`, `advantages`, `ref_logp`; compact batches add `target_index`).

Three parts, one purpose each:
  accumulate   micro-batches scanned one after another with summed gradients; the loss
               weights are computed over the whole batch first, so the result is the full
               batch's gradient exactly (not a mean of per-part means);
  learnable    whether the batch can teach anything (some policy token, and for GRPO without
               a KL term some non-zero advantage);
  apply        the optimizer update, kept only when the batch is learnable and its loss and
               gradient are finite: otherwise parameters and optimizer state (Adam's moments
               and update count, hence the schedule) stay exactly as they were.
Metrics say which: `skipped_nonfinite` and `nothing_to_learn` are 1.0 when no update was kept.

`shared_prefix`: the batch is group-packed (`prove_jax.rl.group_batch`: each group's prompt
once, [N, G, ...] suffix arrays) and `prove_jax.rl.shared_prefix` accumulates it; GRPO only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import optax

from prove_jax.rl.length_buckets import BUCKETS, SHORTEST, cut_lengths, run_at_shortest
from prove_jax.rl.losses import LossConfig, token_weights
from prove_jax.rl.objectives import OBJECTIVES, MicroLoss, grpo_objective, sft_objective
from prove_jax.rl.shared_prefix import PACKED_KEYS, accumulate_shared, shared_grpo_objective

__all__ = ["jit_train_step", "make_train_step", "opt_state_shardings"]

Batch = dict[str, jax.Array]
Step = Callable[[Any, Any, Batch], tuple[Any, Any, dict[str, jax.Array]]]


def _split(x: jax.Array, parts: int) -> jax.Array:
    if x.shape[0] % parts:
        raise ValueError(f"batch of {x.shape[0]} does not split into {parts} micro-batches")
    return x.reshape(parts, x.shape[0] // parts, *x.shape[1:])


def _policy_mask(batch: Batch) -> jax.Array:
    """The loss mask per prediction: [B, R] compact, else columns 1: of [B, T]."""
    return batch["loss_mask"] if "target_index" in batch else batch["loss_mask"][:, 1:]


def accumulate(micro_loss: MicroLoss, params: Any, batch: Batch, weights: tuple,
               micro_batches: int, buckets: int = BUCKETS, shortest: int = SHORTEST
               ) -> tuple[Any, dict[str, jax.Array]]:
    """(summed gradients, summed metrics) of `micro_loss` over the batch's micro-batches. A
    compact batch's micro-batches each run at the shortest of `cut_lengths(width, buckets,
    shortest)` that holds their longest row (`prove_jax.rl.length_buckets`; buckets 1: at the
    width)."""
    grad_fn = jax.value_and_grad(micro_loss, has_aux=True)
    parts = {k: _split(v, micro_batches) for k, v in batch.items()}
    parts_w = tuple(_split(w, micro_batches) for w in weights)
    # only compact rows can be cut: a full batch's per-position masks span the width
    width = batch["tokens"].shape[-1]
    lengths = cut_lengths(width, buckets, shortest) if "target_index" in batch else (width,)

    def body(carry: tuple, xs: tuple) -> tuple[tuple, None]:
        grads, metrics = carry
        (_, m), g = run_at_shortest(lambda mb, w: grad_fn(params, mb, w), *xs, lengths=lengths)
        return (jax.tree.map(jnp.add, grads, g), jax.tree.map(jnp.add, metrics, m)), None

    first = (jax.tree.map(lambda x: x[0], parts), tuple(w[0] for w in parts_w))
    shapes = jax.eval_shape(lambda: grad_fn(params, *first)[0][1])
    init = (jax.tree.map(jnp.zeros_like, params),
            jax.tree.map(lambda s: jnp.zeros(s.shape, s.dtype), shapes))
    (grads, metrics), _ = jax.lax.scan(body, init, (parts, parts_w))
    return grads, metrics


def loss_weights(mask: jax.Array, loss_cfg: LossConfig) -> tuple[jax.Array, jax.Array]:
    """(loss weights, token-mean weights) over the whole batch; a packed [N, G, R] mask is
    weighed as its N·G rows (the unpacked batch's)."""
    rows = mask.reshape(-1, mask.shape[-1])
    return (token_weights(rows, loss_cfg.aggregation, loss_cfg.norm_length).reshape(mask.shape),
            token_weights(rows, "token-mean").reshape(mask.shape))


def learnable(batch: Batch, objective: str, loss_cfg: LossConfig) -> jax.Array:
    """Whether the batch has anything to teach: a policy token, and for GRPO without a KL term
    a row with tokens and a non-zero advantage (else the gradient is exactly 0, and AdamW would
    still move the parameters along its momentum)."""
    per_row = jnp.sum(_policy_mask(batch).astype(jnp.float32), axis=-1)
    if objective == "grpo" and loss_cfg.kl_coef == 0:
        return jnp.any((per_row > 0) & (batch["advantages"] != 0))
    return jnp.any(per_row > 0)


def apply_update(optimizer: optax.GradientTransformation, params: Any, opt_state: Any,
                 grads: Any, keep: jax.Array) -> tuple[Any, Any]:
    """The optimizer's update where `keep`, else the old parameters and state unchanged."""
    updates, new_opt = optimizer.update(grads, opt_state, params)
    new_params = optax.apply_updates(params, updates)
    pick = lambda new, old: jnp.where(keep, new, old)
    return jax.tree.map(pick, new_params, params), jax.tree.map(pick, new_opt, opt_state)


def make_train_step(graphdef: Any, optimizer: optax.GradientTransformation, loss_cfg: LossConfig,
                    *, micro_batches: int = 1, chunk_size: int = 1024, temperature: float = 1.0,
                    objective: str = "grpo", fused_head: bool = True,
                    shared_prefix: bool = False, group_chunks: int = 1,
                    length_buckets: int = BUCKETS) -> Step:
    """step(params, opt_state, batch) -> (params, opt_state, metrics); jit it with shardings
    (see `jit_train_step`) or plainly. `objective`: "grpo" (log-probs at the sampler's
    `temperature`) or "sft"; see `prove_jax.rl.objectives`. `shared_prefix`: the batch is
    group-packed, `micro_batches` splits each group's suffixes and `group_chunks` the groups
    (`prove_jax.rl.shared_prefix.accumulate_shared`). `length_buckets`: the lengths a
    micro-batch is cut to (`prove_jax.rl.length_buckets`; 1: every one at the batch's width)."""
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown training objective {objective!r}; known: {sorted(OBJECTIVES)}")
    if isinstance(length_buckets, bool) or not isinstance(length_buckets, int) \
            or length_buckets < 1:
        raise ValueError(f"train.length_buckets must be an integer >= 1 (1: no cuts), got "
                         f"{length_buckets!r}")
    if shared_prefix and objective != "grpo":
        raise ValueError(f"shared_prefix packs GRPO groups; objective {objective!r} has none")
    kwargs = dict(chunk_size=chunk_size, fused_head=fused_head)
    if objective == "sft":
        micro_loss = sft_objective(graphdef, **kwargs)
    elif shared_prefix:
        micro_loss = shared_grpo_objective(graphdef, loss_cfg, temperature=temperature, **kwargs)
    else:
        micro_loss = grpo_objective(graphdef, loss_cfg, temperature=temperature, **kwargs)
    required = OBJECTIVES[objective] + (PACKED_KEYS if shared_prefix else ())
    needs_ref = objective == "grpo" and loss_cfg.kl_coef > 0

    def step(params: Any, opt_state: Any, batch: Batch) -> tuple[Any, Any, dict[str, jax.Array]]:
        missing = [k for k in required if k not in batch]
        if missing:
            raise ValueError(f"train batch lacks {missing}")
        if needs_ref and "ref_logp" not in batch:
            raise ValueError("kl_coef > 0: the batch needs ref_logp")
        mask = _policy_mask(batch)
        weights = loss_weights(mask, loss_cfg)
        if shared_prefix:
            grads, metrics = accumulate_shared(micro_loss, graphdef, params, batch, weights,
                                               micro_batches, group_chunks, length_buckets)
        else:
            grads, metrics = accumulate(micro_loss, params, batch, weights, micro_batches,
                                        length_buckets)
        grad_norm = optax.tree.norm(grads)  # before clipping (the optimizer clips)
        finite = jnp.isfinite(metrics["loss"]) & jnp.isfinite(grad_norm)
        has_signal = learnable(batch, objective, loss_cfg)
        params, opt_state = apply_update(optimizer, params, opt_state, grads,
                                         finite & has_signal)
        metrics = {**metrics, "grad_norm": grad_norm,
                   "skipped_nonfinite": 1.0 - finite.astype(jnp.float32),
                   "nothing_to_learn": 1.0 - has_signal.astype(jnp.float32),
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
