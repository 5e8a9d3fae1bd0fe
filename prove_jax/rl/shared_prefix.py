"""The GRPO step over a group-packed batch (`prove_jax.rl.group_batch`): each group's prompt is
encoded once, forward and backward, and its G suffixes attend to it.

Micro-batching: a step encodes every group's prefix once (`Decoder.encode_prefix`: its
keys/values and its last token's hidden state, under `jax.vjp`), then scans the suffixes in
`micro_batches` parts along G (each part holds G / micro_batches suffixes of every group on the
shard). Each part's gradient with respect to the parameters and to the encoded prefix is
accumulated; after the scan the summed prefix cotangent flows back through the prefix forward
once. So a micro-batch holds each group's prefix K/V (not its activations), and the prefix's
gradient sums all G suffixes' contributions exactly. Each data shard holds whole groups (the
batch's leading axis is the group); with `group_chunks` = groups per shard, the groups run
one per shard at a time (each chunk its own prefix pass), so a micro-batch holds one prefix
and G / micro_batches suffixes per shard whatever the batch's size.

The loss weights are computed over the whole batch first (as in `prove_jax.rl.train_step`),
with rows flattened group-major, so the result is the unpacked step's to float32 rounding.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
from flax import nnx

from prove_jax.models.decoder import Decoder
from prove_jax.models.logprobs import token_logprobs
from prove_jax.rl.length_buckets import BUCKETS, SHORTEST, cut_lengths, run_at_shortest
from prove_jax.rl.losses import LossConfig
from prove_jax.rl.objectives import grpo_terms
from prove_jax.sharding import constrain_batch

__all__ = ["PACKED_KEYS", "accumulate_shared", "chunk_groups", "packed_logprobs",
           "shared_grpo_objective", "split_suffixes"]

Batch = dict[str, jax.Array]
# (prefix keys/values [L, N, K, P, H] each, the prefix's last hidden state [N, D])
Prefix = tuple[tuple[jax.Array, jax.Array], jax.Array]
# What a packed GRPO batch carries beyond the unpacked one's keys.
PACKED_KEYS = ("prefix_tokens", "prefix_mask", "positions", "target_index")
# Arrays with a suffix axis G (axis 1), split into micro-batches.
_SUFFIX_KEYS = ("tokens", "attention_mask", "positions", "target_index", "loss_mask",
                "old_logp", "ref_logp", "advantages")


def _rows(x: jax.Array) -> jax.Array:
    """[N, G, ...] -> [N·G, ...], rows group-major (the unpacked batch's order)."""
    return x.reshape(x.shape[0] * x.shape[1], *x.shape[2:])


def split_suffixes(x: jax.Array, parts: int) -> jax.Array:
    """[N, G, ...] -> [parts, N, G / parts, ...]: suffix micro-batches of every group."""
    n, g = x.shape[:2]
    if g % parts:
        raise ValueError(f"groups of {g} rollouts do not split into {parts} micro-batches")
    return x.reshape(n, parts, g // parts, *x.shape[2:]).swapaxes(0, 1)


def suffix_states(model: Decoder, prefix: Prefix, mb: Batch) -> tuple[jax.Array, jax.Array]:
    """(hidden [N·G', R, D], targets [N·G', R]) of the micro-batch's sampled tokens. Prediction
    0 of a row is the prefix's last token (it predicts the suffix's first token), prediction
    t > 0 suffix position t - 1; only `target_index`'s predictions reach the head."""
    kv, last = prefix
    tokens = mb["tokens"]
    n, g = tokens.shape[:2]
    hidden = model.suffix_hidden_states(tokens[..., :-1], mb["positions"][..., :-1],
                                        mb["attention_mask"][..., :-1], kv, mb["prefix_mask"])
    first = jnp.broadcast_to(last[:, None, None].astype(hidden.dtype), (n, g, 1, last.shape[-1]))
    hidden = jnp.concatenate([first, hidden], axis=2)  # N G' S D
    index = _rows(mb["target_index"])
    hidden = jnp.take_along_axis(_rows(hidden), index[..., None], axis=1)
    targets = jnp.take_along_axis(_rows(tokens), index, axis=1)
    return constrain_batch(hidden), constrain_batch(targets)


def shared_grpo_objective(graphdef: Any, loss_cfg: LossConfig, *, chunk_size: int,
                          temperature: float, fused_head: bool = True):
    """micro_loss(params, prefix, mb, weights) -> (loss, metrics): `grpo_objective`'s
    surrogate over a packed micro-batch whose encoded prefixes (`Decoder.encode_prefix`) are
    given."""

    def micro_loss(params: Any, prefix: Prefix, mb: Batch, weights: tuple
                   ) -> tuple[jax.Array, dict]:
        model = nnx.merge(graphdef, params)
        hidden, targets = suffix_states(model, prefix, mb)
        per_row = {k: _rows(mb[k]) for k in ("loss_mask", "old_logp", "ref_logp", "advantages")
                   if k in mb}
        return grpo_terms(model, hidden, targets, per_row, tuple(_rows(w) for w in weights),
                          loss_cfg, chunk_size=chunk_size, temperature=temperature,
                          fused_head=fused_head)

    return micro_loss


def chunk_groups(x: jax.Array, chunks: int) -> jax.Array:
    """[N, ...] -> [chunks, N / chunks, ...], chunk c = groups c, c + chunks, ...: with the
    groups split over the data shards in contiguous blocks of `chunks`, every chunk takes one
    group from each shard."""
    n = x.shape[0]
    if n % chunks:
        raise ValueError(f"{n} groups do not split into {chunks} group chunks")
    return x.reshape(n // chunks, chunks, *x.shape[1:]).swapaxes(0, 1)


def _zeros(shapes: Any) -> Any:
    return jax.tree.map(lambda s: jnp.zeros(s.shape, jnp.promote_types(s.dtype, jnp.float32)),
                        shapes)


def _add(carry: Any, x: Any) -> Any:
    return jax.tree.map(lambda a, b: a + b.astype(a.dtype), carry, x)


def accumulate_shared(micro_loss: Any, graphdef: Any, params: Any, batch: Batch,
                      weights: tuple, micro_batches: int, group_chunks: int = 1,
                      buckets: int = BUCKETS, shortest: int = SHORTEST
                      ) -> tuple[Any, dict[str, jax.Array]]:
    """(summed gradients, summed metrics) of a packed batch: `group_chunks` chunks of groups
    one after another (one group per data shard each when it is the groups per shard), each
    chunk's prefixes once, its suffixes in `micro_batches` parts, the prefix cotangent
    accumulated and sent back once per chunk. One float32 gradient sum runs through every chunk
    and micro-batch (a chunk adds into it rather than into a sum of its own), so the step holds
    the unpacked step's two parameter-sized gradient trees, not four.

    Each micro-batch runs at the shortest of `cut_lengths(width, buckets, shortest)` that holds its
    longest suffix (`prove_jax.rl.length_buckets`), not at the batch's width; buckets 1: every
    micro-batch at the full width."""
    if group_chunks == 1:
        return _accumulate_chunk(micro_loss, graphdef, params, batch, weights, micro_batches,
                                 (buckets, shortest))
    parts = {k: chunk_groups(v, group_chunks) for k, v in batch.items()}
    parts_w = tuple(chunk_groups(w, group_chunks) for w in weights)

    def body(carry: tuple, xs: tuple) -> tuple[tuple, None]:
        return _accumulate_chunk(micro_loss, graphdef, params, *xs, micro_batches,
                                 (buckets, shortest), carry), None

    first = (jax.tree.map(lambda x: x[0], parts), tuple(w[0] for w in parts_w))
    shapes = jax.eval_shape(lambda: _accumulate_chunk(micro_loss, graphdef, params, *first,
                                                      micro_batches, (buckets, shortest)))
    total, _ = jax.lax.scan(body, _zeros(shapes), (parts, parts_w))
    return total


def _accumulate_chunk(micro_loss: Any, graphdef: Any, params: Any, batch: Batch,
                      weights: tuple, micro_batches: int, cuts: tuple[int, int],
                      total: tuple | None = None) -> tuple[Any, dict[str, jax.Array]]:
    """`accumulate_shared` over one chunk of groups, added into `total` (gradients, metrics;
    zeros when None); cuts = (buckets, shortest) of `cut_lengths`."""

    def encode(p: Any) -> Prefix:
        return nnx.merge(graphdef, p).encode_prefix(batch["prefix_tokens"], batch["prefix_mask"])

    prefix, prefix_vjp = jax.vjp(encode, params)
    parts = {k: split_suffixes(batch[k], micro_batches) for k in _SUFFIX_KEYS if k in batch}
    parts_w = tuple(split_suffixes(w, micro_batches) for w in weights)
    grad_fn = jax.value_and_grad(micro_loss, argnums=(0, 1), has_aux=True)

    lengths = cut_lengths(batch["tokens"].shape[-1], *cuts)

    def run_cut(mb: Batch, w: tuple) -> tuple:
        return grad_fn(params, prefix, {**mb, "prefix_mask": batch["prefix_mask"]}, w)

    def run(mb: Batch, w: tuple) -> tuple:
        return run_at_shortest(run_cut, mb, w, lengths=lengths)

    def body(carry: tuple, xs: tuple) -> tuple[tuple, None]:
        (_, m), g = run(*xs)
        return _add(carry, (g, m)), None

    first = (jax.tree.map(lambda x: x[0], parts), tuple(w[0] for w in parts_w))
    shapes = jax.eval_shape(lambda: run(*first))
    # sums in float32: the encoded prefix is in the compute dtype (bfloat16 in real runs),
    # and its cotangent is summed over every micro-batch before it is rounded once
    grads, metrics = _zeros((shapes[1][0], shapes[0][1])) if total is None else total
    init = ((grads, _zeros(shapes[1][1])), metrics)
    ((grads, g_encoded), metrics), _ = jax.lax.scan(body, init, (parts, parts_w))
    g_encoded = jax.tree.map(lambda g, x: g.astype(x.dtype), g_encoded, prefix)
    (g_prefix,) = prefix_vjp(g_encoded)
    return _add(grads, g_prefix), metrics


def packed_logprobs(graphdef: Any, params: Any, batch: Batch, chunk_size: int,
                    temperature: float = 1.0, micro_batches: int = 1) -> jax.Array:
    """[N, G, R] log-probs of the packed batch's sampled tokens (the reference pass): each
    prefix once, the suffixes in `micro_batches` parts along G."""
    prefix = nnx.merge(graphdef, params).encode_prefix(batch["prefix_tokens"],
                                                       batch["prefix_mask"])
    keys = ("tokens", "attention_mask", "positions", "target_index")
    parts = {k: split_suffixes(batch[k], micro_batches) for k in keys}

    def one(mb: Batch) -> jax.Array:
        model = nnx.merge(graphdef, jax.tree.map(lambda x: x, params))  # fresh Variables
        cfg = model.cfg
        hidden, targets = suffix_states(model, prefix,
                                        {**mb, "prefix_mask": batch["prefix_mask"]})
        logp = token_logprobs(hidden, model.head_matrix(), targets,
                              logits_scaling=cfg.logits_scaling, chunk_size=chunk_size,
                              dtype=cfg.dtype, temperature=temperature)
        return logp.reshape(mb["target_index"].shape)

    out = jax.lax.map(one, parts)  # M N G' R
    return out.swapaxes(0, 1).reshape(batch["target_index"].shape)
