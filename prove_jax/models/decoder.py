"""One decoder-only transformer for Qwen3, Qwen2.5 and Granite: families differ only by config.

Layers are created stacked (`nnx.vmap`) and run with `nnx.scan`, so compile time does not grow
with depth. Axes: B batch, T time, D model, V vocab.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import jax
import jax.numpy as jnp
from flax import nnx

from prove_jax.models.config import ModelConfig
from prove_jax.models.layers import Block, Linear, RMSNorm
from prove_jax.models.rope import rope_tables
from prove_jax.sharding import constrain_batch, embed_lookup

_REMAT_POLICIES = {
    "full": None,  # save nothing, recompute the whole block
    "dots": jax.checkpoint_policies.checkpoint_dots,
    "dots_no_batch": jax.checkpoint_policies.checkpoint_dots_with_no_batch_dims,
}


class Decoder(nnx.Module):
    def __init__(self, cfg: ModelConfig, *, rngs: nnx.Rngs):
        self.cfg = cfg
        pdt = jnp.dtype(cfg.param_dtype)
        init = jax.nn.initializers.normal(0.02)
        self.embed = nnx.Param(init(rngs.params(), (cfg.vocab_size, cfg.hidden_size), pdt))

        @nnx.split_rngs(splits=cfg.num_layers)
        @nnx.vmap(in_axes=(0,), out_axes=0)
        def make_layers(rngs: nnx.Rngs) -> Block:
            return Block(cfg, rngs=rngs)

        self.layers = make_layers(rngs)
        self.final_norm = RMSNorm(cfg.hidden_size, cfg=cfg)
        self.lm_head = (
            None if cfg.tie_word_embeddings
            else Linear(cfg.hidden_size, cfg.vocab_size, bias=False, cfg=cfg, rngs=rngs)
        )

    # ------------------------------------------------------------------------------- forward
    def __call__(self, input_ids: jax.Array, positions: jax.Array | None = None,
                 attention_mask: jax.Array | None = None) -> jax.Array:
        """Logits [B, T, V] in float32."""
        return self.logits_from_hidden(self.hidden_states(input_ids, positions, attention_mask))

    def hidden_states(self, input_ids: jax.Array, positions: jax.Array | None = None,
                      attention_mask: jax.Array | None = None) -> jax.Array:
        """Final normed hidden states [B, T, D] (before the LM head).

        attention_mask [B, T] marks real tokens (1) vs padding (0); with no positions given,
        positions count real tokens only, so left padding gives the same result as none.
        """
        cfg = self.cfg
        b, t = input_ids.shape
        if attention_mask is None:
            attention_mask = jnp.ones((b, t), jnp.bool_)
        attention_mask = attention_mask.astype(jnp.bool_)
        if positions is None:
            positions = jnp.maximum(jnp.cumsum(attention_mask, axis=-1) - 1, 0)
        causal = jnp.tril(jnp.ones((t, t), jnp.bool_))
        mask = causal[None, None] & attention_mask[:, None, None, :]  # B 1 T S
        cos, sin = rope_tables(cfg, positions)

        x = self.embed_tokens(input_ids)  # B T D

        def body(h: jax.Array, layer: Block) -> jax.Array:
            return constrain_batch(layer(constrain_batch(h), cos, sin, mask))

        if cfg.remat != "none":
            body = nnx.remat(body, policy=_REMAT_POLICIES[cfg.remat], prevent_cse=False)
        x = nnx.scan(body, in_axes=(nnx.Carry, 0), out_axes=nnx.Carry)(x, self.layers)
        return self.final_norm(x)

    def _remat(self, body: Callable) -> Callable:
        if self.cfg.remat == "none":
            return body
        return nnx.remat(body, policy=_REMAT_POLICIES[self.cfg.remat], prevent_cse=False)

    def encode_prefix(self, prefix_ids: jax.Array, prefix_mask: jax.Array
                      ) -> tuple[tuple[jax.Array, jax.Array], jax.Array]:
        """A group-shared prefix, run once per group: its keys and values (k, v), each
        [L, N, K, P, H], and the final normed hidden state [N, D] of its last real token (it
        predicts every row's first suffix token). prefix_ids/prefix_mask [N, P]: the prompt
        starts every row (positions 0..P-1), right-padded (mask 0) to the batch's length."""
        p = prefix_ids.shape[1]
        mask = prefix_mask.astype(jnp.bool_)
        causal = jnp.tril(jnp.ones((p, p), jnp.bool_))[None, None] & mask[:, None, None, :]
        cos, sin = rope_tables(self.cfg, jnp.broadcast_to(jnp.arange(p), prefix_ids.shape))

        def body(h: jax.Array, layer: Block) -> tuple[jax.Array, tuple[jax.Array, jax.Array]]:
            h, kv = layer.call_prefix(constrain_batch(h), cos, sin, causal)
            return constrain_batch(h), kv

        h, kv = nnx.scan(self._remat(body), in_axes=(nnx.Carry, 0), out_axes=(nnx.Carry, 0))(
            self.embed_tokens(prefix_ids), self.layers)
        last = jnp.maximum(jnp.sum(mask, axis=-1) - 1, 0)  # N
        h_last = jnp.take_along_axis(h, last[:, None, None], axis=1)[:, 0]  # N D
        return kv, self.final_norm(h_last)

    def suffix_hidden_states(self, input_ids: jax.Array, positions: jax.Array,
                             attention_mask: jax.Array, prefix_kv: tuple[jax.Array, jax.Array],
                             prefix_mask: jax.Array) -> jax.Array:
        """Final normed hidden states [N, G, S, D] of G suffixes per group (ids, positions,
        attention_mask [N, G, S]; positions continue the prefix's) attending to their group's
        prefix (`prefix_kv` [L, N, K, P, H] from `encode_prefix`, prefix_mask [N, P]) and
        causally to themselves."""
        n, g, s = input_ids.shape
        flat = lambda x: x.reshape(n * g, s)  # rows group-major
        mask = attention_mask.astype(jnp.bool_)
        causal = jnp.tril(jnp.ones((s, s), jnp.bool_))[None, None] & flat(mask)[:, None, None, :]
        cos, sin = rope_tables(self.cfg, flat(positions))
        prefix_mask = prefix_mask.astype(jnp.bool_)

        def body(h: jax.Array, layer: Block, k: jax.Array, v: jax.Array) -> jax.Array:
            return constrain_batch(layer.call_suffix(constrain_batch(h), cos, sin, causal,
                                                     (k, v), prefix_mask))

        x = nnx.scan(self._remat(body), in_axes=(nnx.Carry, 0, 0, 0), out_axes=nnx.Carry)(
            self.embed_tokens(flat(input_ids)), self.layers, *prefix_kv)
        return self.final_norm(x).reshape(n, g, s, -1)

    def hidden_states_cached(self, input_ids: jax.Array, positions: jax.Array,
                             key_mask: jax.Array, cache: tuple[jax.Array, jax.Array],
                             write_index: jax.Array, layers: Sequence[Block] | None = None
                             ) -> tuple[jax.Array, tuple[jax.Array, jax.Array]]:
        """One prefill or decode step over a KV cache.

        input_ids/positions [B, T] are this step's tokens, written at cache slots
        [write_index, write_index + T); key_mask [B, S] marks the cache slots that hold real
        tokens (after this write); cache = (k, v), each [L, B, K, S, H]. Returns the final
        normed hidden states [B, T, D] and the updated cache.

        `layers` (from `unstacked_layers`) runs the blocks as an unrolled Python loop over
        per-layer weights instead of a scan over the stacked ones: a scan slices every layer's
        weights out of the stack on each call, which XLA:CPU (and GPU without dynamic-slice
        fusion) materialises as a copy of all layer weights per decode step.
        """
        cfg = self.cfg
        t = input_ids.shape[1]
        s = key_mask.shape[1]
        slots = jnp.arange(s)[None, :]  # 1 S
        query_slots = write_index + jnp.arange(t)[:, None]  # T 1
        causal = slots <= query_slots  # T S
        mask = causal[None, None] & key_mask.astype(jnp.bool_)[:, None, None, :]  # B 1 T S
        cos, sin = rope_tables(cfg, positions)
        x = self.embed_tokens(input_ids)

        if layers is not None:
            k, v = cache
            for i, layer in enumerate(layers):
                x, (k, v) = layer.call_cached(x, cos, sin, mask, (k, v), i, write_index)
            return self.final_norm(x), (k, v)
        return self._scan_layers(
            lambda layer, h, kv, i: layer.call_cached(h, cos, sin, mask, kv, i, write_index),
            x, cache)

    def embed_tokens(self, input_ids: jax.Array) -> jax.Array:
        """Input embeddings [B, T, D] in the compute dtype (Granite's multiplier applied)."""
        x = embed_lookup(self.embed[...], input_ids).astype(self.cfg.dtype)
        if self.cfg.embedding_multiplier != 1.0:
            x = x * self.cfg.embedding_multiplier
        return x

    def _scan_layers(self, step: Callable, x: jax.Array, cache: tuple[jax.Array, jax.Array]
                     ) -> tuple[jax.Array, tuple[jax.Array, jax.Array]]:
        """step(layer, h, (k, v), i) -> (h, (k, v)) over the stacked layers; the final normed
        hidden states and the cache."""

        def body(carry: tuple, layer: Block) -> tuple:
            h, kc, vc, i = carry
            h, (kc, vc) = step(layer, h, (kc, vc), i)
            return h, kc, vc, i + 1

        x, k, v, _ = nnx.scan(body, in_axes=(nnx.Carry, 0), out_axes=nnx.Carry)(
            (x, *cache, jnp.int32(0)), self.layers)
        return self.final_norm(x), (k, v)

    def prefill(self, input_ids: jax.Array, positions: jax.Array, key_mask: jax.Array,
                cache: tuple[jax.Array, jax.Array], block: int, offset: int = 0
                ) -> tuple[jax.Array, tuple[jax.Array, jax.Array]]:
        """Tokens [B, E] into cache slots [offset, offset + E), layer by layer: each layer's
        projections and MLP run over all B x E tokens at once (large products), its attention
        causally in query blocks of `block` rows over the slots before them (a kept prefix
        below `offset`, never the empty slots after). key_mask [B, offset + E] marks real
        tokens (left padding is 0). Returns the final normed hidden states [B, E, D] and the
        cache."""
        cfg = self.cfg
        key_mask = key_mask.astype(jnp.bool_)
        cos, sin = rope_tables(cfg, positions)
        x = self.embed_tokens(input_ids)

        return self._scan_layers(
            lambda layer, h, kv, i: layer.call_prefill(h, cos, sin, key_mask, kv, i, block,
                                                       offset),
            x, cache)

    def extend_slots(self, input_ids: jax.Array, cache: tuple[jax.Array, jax.Array],
                     rows: jax.Array, offsets: jax.Array, window: int, block: int,
                     from_zero: bool) -> tuple[jax.Array, tuple[jax.Array, jax.Array]]:
        """Tokens [k, E], row i's into row rows[i] of a slot cache (k, v: [L, R, K, C, H],
        token j of a row at slot j, position j) at slots [offsets[i], offsets[i] + E),
        attending causally over the row's slots [0, window) (`from_zero`: every offset is 0
        and the upper triangle is skipped). Returns the final normed hidden states [k, E, D]
        and the cache."""
        e = input_ids.shape[1]
        cos, sin = rope_tables(self.cfg, offsets[:, None] + jnp.arange(e)[None])
        return self._scan_layers(
            lambda layer, h, kv, i: layer.call_extend_slots(h, cos, sin, kv, i, rows, offsets,
                                                            window, block, from_zero),
            self.embed_tokens(input_ids), cache)

    def decode_slots(self, tokens: jax.Array, positions: jax.Array, write: jax.Array,
                     cache: tuple[jax.Array, jax.Array], window: int, layers: Sequence[Block],
                     rows: jax.Array | None = None
                     ) -> tuple[jax.Array, tuple[jax.Array, jax.Array]]:
        """One token per slot row (tokens, positions, write [B]; write >= C: an idle row whose
        cache is left alone) over the unrolled `layers`, attending over slots [0, window).
        `rows` [B]: the cache rows they are (None: rows 0..B-1, every row of the cache).
        Returns the final normed hidden states [B, D] and the cache."""
        cos, sin = rope_tables(self.cfg, positions[:, None])
        x = self.embed_tokens(tokens[:, None])
        for i, layer in enumerate(layers):
            x, cache = layer.call_decode_slots(x, cos, sin, cache, i, write, positions, window,
                                               rows)
        return self.final_norm(x)[:, 0], cache

    def unstacked_layers(self) -> list[Block]:
        """The stacked blocks as one Block per layer (each a copy of its slice of the stack)."""
        graphdef, state = nnx.split(self.layers)
        return [nnx.merge(graphdef, jax.tree.map(lambda x, i=i: x[i], state))
                for i in range(self.cfg.num_layers)]

    def init_cache(self, batch: int, length: int) -> tuple[jax.Array, jax.Array]:
        """Zeroed KV cache (k, v), each [L, B, K, S, H] in the compute dtype."""
        cfg = self.cfg
        shape = (cfg.num_layers, batch, cfg.num_kv_heads, length, cfg.head_dim)
        return jnp.zeros(shape, cfg.dtype), jnp.zeros(shape, cfg.dtype)

    def head_matrix(self) -> jax.Array:
        """The LM head as a [V, D] matrix (the embedding itself when tied)."""
        if self.lm_head is None:
            return self.embed[...]
        return self.lm_head.kernel[...]

    def logits_from_hidden(self, hidden: jax.Array) -> jax.Array:
        return project_logits(hidden, self.head_matrix(), self.cfg.logits_scaling, self.cfg.dtype)


def project_logits(hidden: jax.Array, head: jax.Array, logits_scaling: float,
                   dtype: str | jnp.dtype) -> jax.Array:
    """hidden [..., D] against head [V, D] -> float32 logits, divided by Granite's
    logits_scaling."""
    logits = jnp.einsum("...d,vd->...v", hidden.astype(dtype), head.astype(dtype),
                        preferred_element_type=jnp.float32)
    return logits / logits_scaling if logits_scaling != 1.0 else logits


def init_model(cfg: ModelConfig, seed: int = 0) -> Decoder:
    """A randomly initialised decoder (tests, the tiny config)."""
    return Decoder(cfg, rngs=nnx.Rngs(params=seed))


def abstract_model(cfg: ModelConfig) -> Decoder:
    """The decoder's structure with shape-only leaves; allocates no parameter memory."""
    return nnx.eval_shape(lambda: Decoder(cfg, rngs=nnx.Rngs(params=0)))
