"""Building blocks of the decoder: linear, RMSNorm, attention, SwiGLU MLP, one block.

Axes: B batch, T query time, S key time, D model, N query heads, K kv heads, H head dim,
F mlp hidden.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
from flax import nnx

from prove_jax.models.attention import causal_query_chunked, query_chunked, use_chunks
from prove_jax.models.config import ModelConfig
from prove_jax.models.prefix_attention import prefix_suffix_attend
from prove_jax.models.rope import apply_rope
from prove_jax.models.row_attention import attend_grouped, attend_rows, cpu_kernels, row_kernels

_INIT_STD = 0.02


def _dtype(name: str) -> jnp.dtype:
    return jnp.dtype(name)


# Products with at most this many rows (decode steps) take the path below: against a
# [1536, 512] weight it ran 0.24 vs 0.32 ms at 32 rows and 0.47 vs 0.56 ms at 64.
SKINNY_ROWS = 64


def matmul_t(x: jax.Array, w: jax.Array, preferred: jnp.dtype | None = None) -> jax.Array:
    """x [..., I] @ w[O, I].T -> [..., O].

    XLA:CPU runs skinny products (a decode step's few rows against a large weight) 2-2.5x
    faster weight-major ([O, I] x [R, I] -> [O, R], then transposed); the barrier stops it from
    folding the transpose back into its slow row-major kernel. Other backends and larger
    products use the plain einsum."""
    rows = x.size // x.shape[-1]
    if rows > SKINNY_ROWS or jax.default_backend() != "cpu":
        return jnp.einsum("...i,oi->...o", x, w, preferred_element_type=preferred)
    flat = x.reshape(rows, x.shape[-1])
    y = jax.lax.dot_general(w, flat, (((1,), (1,)), ((), ())), preferred_element_type=preferred)
    return jax.lax.optimization_barrier(y).T.reshape(*x.shape[:-1], w.shape[0])


class Linear(nnx.Module):
    """y = x @ kernel.T (+ bias). kernel [out, in], torch's layout, so that checkpoints load and
    export as plain copies; XLA folds the transpose into the matmul."""

    def __init__(self, d_in: int, d_out: int, *, bias: bool, cfg: ModelConfig, rngs: nnx.Rngs):
        pdt = _dtype(cfg.param_dtype)
        init = jax.nn.initializers.normal(_INIT_STD)
        self.kernel = nnx.Param(init(rngs.params(), (d_out, d_in), pdt))
        self.bias = nnx.Param(jnp.zeros((d_out,), pdt)) if bias else None
        self.compute_dtype = _dtype(cfg.dtype)

    def __call__(self, x: jax.Array) -> jax.Array:
        kernel = self.kernel[...].astype(self.compute_dtype)
        y = matmul_t(x.astype(self.compute_dtype), kernel)
        if self.bias is not None:
            y = y + self.bias[...].astype(self.compute_dtype)
        return y


class RMSNorm(nnx.Module):
    """RMSNorm computed in float32, scaled after casting back, as transformers does."""

    def __init__(self, dim: int, *, cfg: ModelConfig):
        self.scale = nnx.Param(jnp.ones((dim,), _dtype(cfg.param_dtype)))
        self.eps = cfg.rms_norm_eps
        self.compute_dtype = _dtype(cfg.dtype)

    def __call__(self, x: jax.Array) -> jax.Array:
        x32 = x.astype(jnp.float32)
        x32 = x32 * jax.lax.rsqrt(jnp.mean(x32 * x32, axis=-1, keepdims=True) + self.eps)
        return self.scale[...].astype(self.compute_dtype) * x32.astype(self.compute_dtype)


class Attention(nnx.Module):
    def __init__(self, cfg: ModelConfig, *, rngs: nnx.Rngs):
        d, n, k, h = cfg.hidden_size, cfg.num_heads, cfg.num_kv_heads, cfg.head_dim
        self.q_proj = Linear(d, n * h, bias=cfg.qkv_bias, cfg=cfg, rngs=rngs)
        self.k_proj = Linear(d, k * h, bias=cfg.qkv_bias, cfg=cfg, rngs=rngs)
        self.v_proj = Linear(d, k * h, bias=cfg.qkv_bias, cfg=cfg, rngs=rngs)
        self.o_proj = Linear(n * h, d, bias=cfg.o_bias, cfg=cfg, rngs=rngs)
        self.q_norm = RMSNorm(h, cfg=cfg) if cfg.qk_norm else None
        self.k_norm = RMSNorm(h, cfg=cfg) if cfg.qk_norm else None
        self.shape = (n, k, h)
        self.scale = cfg.attention_scale
        self.attn_chunk = cfg.attn_chunk

    def __call__(self, x: jax.Array, cos: jax.Array, sin: jax.Array, mask: jax.Array) -> jax.Array:
        q, key, v = self._qkv(x, cos, sin)
        # the Decoder's teacher-forced mask is causal: blocks skip the upper triangle
        return self._out(attend(q, key, v, mask, self.scale, self.attn_chunk, causal=True))

    def call_prefix(self, x: jax.Array, cos: jax.Array, sin: jax.Array, mask: jax.Array
                    ) -> tuple[jax.Array, tuple[jax.Array, jax.Array]]:
        """A shared prefix's causal self-attention; also returns its keys/values [B, K, P, H]
        for the suffixes that attend to it (`call_suffix`)."""
        q, key, v = self._qkv(x, cos, sin)
        out = self._out(attend(q, key, v, mask, self.scale, self.attn_chunk, causal=True))
        return out, (key.transpose(0, 2, 1, 3), v.transpose(0, 2, 1, 3))

    def call_suffix(self, x: jax.Array, cos: jax.Array, sin: jax.Array, mask: jax.Array,
                    prefix_kv: tuple[jax.Array, jax.Array], prefix_mask: jax.Array) -> jax.Array:
        """Suffix rows x [N·G, S, D] attending to their group's prefix keys/values
        ([N, K, P, H], prefix_mask [N, P]) and causally to themselves (mask [N·G, 1, S, S])."""
        q, key, v = self._qkv(x, cos, sin)
        return self._out(prefix_suffix_attend(
            q, key.transpose(0, 2, 1, 3), v.transpose(0, 2, 1, 3), mask, *prefix_kv,
            prefix_mask, self.scale, self.attn_chunk))

    def call_cached(self, x: jax.Array, cos: jax.Array, sin: jax.Array, mask: jax.Array,
                    cache: tuple[jax.Array, jax.Array], layer: jax.Array, write_index: jax.Array
                    ) -> tuple[jax.Array, tuple[jax.Array, jax.Array]]:
        """Write this step's keys/values into the all-layer cache (k, v: [L, B, K, S, H]) at
        (layer, slot write_index), then attend over this layer's slice; mask [B, 1, T, S].
        The cache keeps S next to H so both attention contractions need no transposes.

        Only the new tokens are written: the cache stays a loop carry that XLA updates in
        place, instead of a per-layer output that would be copied every decode step."""
        q, key, v = self._qkv(x, cos, sin)
        cache, (k_l, v_l) = _write_cache(cache, key, v, layer, write_index)
        return self._out(attend_cache(q, k_l, v_l, mask, self.scale)), cache

    def call_prefill(self, x: jax.Array, cos: jax.Array, sin: jax.Array, key_mask: jax.Array,
                     cache: tuple[jax.Array, jax.Array], layer: jax.Array, block: int,
                     offset: int = 0) -> tuple[jax.Array, tuple[jax.Array, jax.Array]]:
        """Tokens x [B, E, D] written at cache slots [offset, offset + E) of this layer,
        attending causally to every slot before them (slots below `offset` already hold a
        kept prefix) in query blocks of `block` rows (see `causal_blocks`); key_mask
        [B, offset + E] marks real tokens."""
        q, key, v = self._qkv(x, cos, sin)
        cache, (k_l, v_l) = _write_cache(cache, key, v, layer, offset)
        end = offset + x.shape[1]
        out = causal_blocks(q, k_l[:, :, :end], v_l[:, :, :end], key_mask, self.scale, block,
                            offset)
        return self._out(out), cache

    def call_extend_slots(self, x: jax.Array, cos: jax.Array, sin: jax.Array,
                          cache: tuple[jax.Array, jax.Array], layer: jax.Array,
                          rows: jax.Array, offsets: jax.Array, window: int, block: int,
                          from_zero: bool) -> tuple[jax.Array, tuple[jax.Array, jax.Array]]:
        """Tokens x [k, E, D], row i's written into slot cache row rows[i] (k, v: [L, R, K,
        C, H]) at slots [offsets[i], offsets[i] + E), attending causally over that row's slots
        [0, window), which hold token j at slot j.
        Query blocks of `block` rows keep the scores bounded (one row's with a kept prefix,
        every row's with `from_zero`: every offset 0, window E, the upper triangle skipped)."""
        q, key, v = self._qkv(x, cos, sin)
        cache = _write_slots(cache, key, v, layer, rows, offsets)
        if row_kernels() and not from_zero:  # row_attention: each op's scores stay small
            return self._out(attend_rows(q, cache, layer, rows, offsets, window, block,
                                         self.scale)), cache
        k_l, v_l = (c[layer, rows, :, :window] for c in cache)
        if from_zero:
            return self._out(causal_blocks(q, k_l, v_l, jnp.ones((x.shape[0], window), jnp.bool_),
                                           self.scale, block)), cache
        outs = []
        for start in range(0, x.shape[1], block):
            end = min(start + block, x.shape[1])
            at = offsets[:, None] + jnp.arange(start, end)[None]  # k c
            mask = (jnp.arange(window)[None, None] <= at[:, :, None])[:, None]  # k 1 c W
            outs.append(attend_cache(q[:, start:end], k_l, v_l, mask, self.scale))
        out = outs[0] if len(outs) == 1 else jnp.concatenate(outs, axis=1)
        return self._out(out), cache

    def call_decode_slots(self, x: jax.Array, cos: jax.Array, sin: jax.Array,
                          cache: tuple[jax.Array, jax.Array], layer: int, write: jax.Array,
                          positions: jax.Array, window: int, rows: jax.Array | None = None
                          ) -> tuple[jax.Array, tuple[jax.Array, jax.Array]]:
        """One decode token per slot row, x [B, 1, D]: row b's keys/values written at slot
        write[b] (>= C: not written, an idle row) of cache row rows[b] (None: row b of every
        row), then attention over the row's slots [0, window) up to its own position (on the
        CPU one row at a time, as an extend's: a slice of every row's window is copied out at
        each step there). Only the row-at-a-time form takes `rows`."""
        q, key, v = self._qkv(x, cos, sin)
        if rows is not None and not row_kernels():
            raise ValueError("decode over chosen cache rows needs the row-at-a-time form")
        rows = jnp.arange(x.shape[0]) if rows is None else rows
        k_all, v_all = cache
        k_all = k_all.at[layer, rows, :, write, :].set(key[:, 0].astype(k_all.dtype), mode="drop")
        v_all = v_all.at[layer, rows, :, write, :].set(v[:, 0].astype(v_all.dtype), mode="drop")
        if row_kernels():
            out = attend_rows(q, (k_all, v_all), layer, rows, positions, window, 1, self.scale)
            return self._out(out), (k_all, v_all)
        k_l, v_l = k_all[layer, :, :, :window], v_all[layer, :, :, :window]  # R K W H
        mask = (jnp.arange(window)[None, :] <= positions[:, None])[:, None, None]  # R 1 1 W
        return self._out(attend_cache(q, k_l, v_l, mask, self.scale)), (k_all, v_all)

    def _qkv(self, x: jax.Array, cos: jax.Array, sin: jax.Array) -> tuple[jax.Array, ...]:
        n, k, h = self.shape
        b, t, _ = x.shape
        q = self.q_proj(x).reshape(b, t, n, h)  # B T N H
        key = self.k_proj(x).reshape(b, t, k, h)  # B T K H
        v = self.v_proj(x).reshape(b, t, k, h)
        if self.q_norm is not None:
            q, key = self.q_norm(q), self.k_norm(key)
        return apply_rope(q, cos, sin), apply_rope(key, cos, sin), v

    def _out(self, out: jax.Array) -> jax.Array:
        b, t, n, h = out.shape
        return self.o_proj(out.reshape(b, t, n * h))


def attend(q: jax.Array, k: jax.Array, v: jax.Array, mask: jax.Array, scale: float,
           chunk: int = 0, causal: bool = False) -> jax.Array:
    """Grouped-query attention. q [B,T,N,H], k/v [B,S,K,H] (projection layout), mask bool
    [B,1,T,S]; the math is `attend_cache`'s. With 0 < chunk < T the queries run in
    rematerialised blocks of `chunk` rows (prove_jax.models.attention): same result, but
    memory for one block's [B,N,chunk,S] scores instead of all T rows'. `causal` promises the
    mask hides every later key (S = T), so blocks skip the keys after their last row: real
    rows' results are unchanged, rows that see no key at all differ (they are padding)."""
    k, v = k.transpose(0, 2, 1, 3), v.transpose(0, 2, 1, 3)  # B K S H
    if not use_chunks(q.shape[1], chunk):
        return attend_cache(q, k, v, mask, scale)
    if causal:
        return causal_query_chunked(q, k, v, mask, scale, chunk)
    return query_chunked(lambda q_c, k, v, m_c: attend_cache(q_c, k, v, m_c, scale),
                         q, k, v, mask, chunk)


def attend_cache(q: jax.Array, k: jax.Array, v: jax.Array, mask: jax.Array,
                 scale: float) -> jax.Array:
    """Grouped-query attention over k/v in the cache layout [B,K,S,H]; q [B,T,N,H], mask bool
    [B,1,T,S]. Scores and softmax in float32; query groups share kv heads without repeating
    them."""
    b, t, n, h = q.shape
    kv = k.shape[1]
    if t == 1:
        return _attend_one(q, k, v, mask, scale)
    qg = q.reshape(b, t, kv, n // kv, h)  # B T K G H
    scores = jnp.einsum("btkgh,bksh->bkgts", qg, k, preferred_element_type=jnp.float32) * scale
    scores = jnp.where(mask[:, :, None], scores, jnp.finfo(jnp.float32).min)
    probs = jax.nn.softmax(scores, axis=-1).astype(v.dtype)
    out = jnp.einsum("bkgts,bksh->btkgh", probs, v)
    return out.reshape(b, t, n, h)


def _attend_one(q: jax.Array, k: jax.Array, v: jax.Array, mask: jax.Array,
                scale: float) -> jax.Array:
    """`attend_cache` for one query row (a decode step), with scores laid out [B, K, S, G]:
    each (row, kv head) is then a plain [S, H] x [H, G] product. The [B, K, G, S] layout made
    XLA:CPU contract over H as a matrix-vector product: 24 vs 5.5 ms for 32 rows x 2,048
    slots x 8 heads of the ~100M Qwen3 shape."""
    b, _, n, h = q.shape
    kv = k.shape[1]
    qg = q.reshape(b, kv, n // kv, h)  # B K G H
    scores = jnp.einsum("bksh,bkgh->bksg", k, qg, preferred_element_type=jnp.float32) * scale
    scores = jnp.where(mask[:, :, 0, :, None], scores, jnp.finfo(jnp.float32).min)  # B 1 S 1
    probs = jax.nn.softmax(scores, axis=2).astype(v.dtype)
    return jnp.einsum("bksg,bksh->bkgh", probs, v).reshape(b, 1, n, h)


def _write_cache(cache: tuple[jax.Array, jax.Array], key: jax.Array, v: jax.Array,
                 layer: jax.Array, slot: jax.Array | int
                 ) -> tuple[tuple[jax.Array, jax.Array], tuple[jax.Array, jax.Array]]:
    """New keys/values [B, T, K, H] written into the all-layer cache (k, v: [L, B, K, S, H]) at
    (layer, slots [slot, slot + T)); returns the cache and this layer's slice [B, K, S, H]."""
    k_all, v_all = cache
    start = (layer, 0, 0, slot, 0)
    k_all = jax.lax.dynamic_update_slice(
        k_all, key.transpose(0, 2, 1, 3)[None].astype(k_all.dtype), start)  # 1 B K T H
    v_all = jax.lax.dynamic_update_slice(
        v_all, v.transpose(0, 2, 1, 3)[None].astype(v_all.dtype), start)
    layer_kv = (jax.lax.dynamic_index_in_dim(k_all, layer, keepdims=False),
                jax.lax.dynamic_index_in_dim(v_all, layer, keepdims=False))
    return (k_all, v_all), layer_kv


def _write_slots(cache: tuple[jax.Array, jax.Array], key: jax.Array, v: jax.Array,
                 layer: jax.Array, rows: jax.Array, offsets: jax.Array
                 ) -> tuple[jax.Array, jax.Array]:
    """New keys/values [k, E, K, H] written into slot cache rows `rows` (k, v: [L, R, K, C,
    H]) at slots [offsets[i], offsets[i] + E) of `layer` (the caller keeps them inside the
    row). One in-place slice update per row: a scatter of all rows' tokens ran several times
    slower on XLA:CPU. Rows may repeat with the same tokens (the caller's padding)."""
    k_all, v_all = cache
    key, v = key.transpose(0, 2, 1, 3), v.transpose(0, 2, 1, 3)  # k K E H
    for i in range(key.shape[0]):
        start = (layer, rows[i], 0, offsets[i], 0)
        k_all = jax.lax.dynamic_update_slice(k_all, key[i][None, None].astype(k_all.dtype),
                                             start)
        v_all = jax.lax.dynamic_update_slice(v_all, v[i][None, None].astype(v_all.dtype), start)
    return k_all, v_all


def causal_blocks(q: jax.Array, k: jax.Array, v: jax.Array, key_mask: jax.Array, scale: float,
                  block: int, offset: int = 0) -> jax.Array:
    """Causal attention of E new tokens, q [B, E, N, H] at slots [offset, offset + E), over
    k/v [B, K, offset + E, H] (cache layout), key_mask bool [B, offset + E]. Query block i
    attends to keys up to the end of block i only: the causal upper triangle is skipped, not
    computed and masked, so a prompt costs about half the score FLOPs and memory of full rows.
    Blocks are static slices (a Python loop); each row's math is `attend_cache`'s over fewer
    keys, all of them masked-out or earlier, so results equal full rows' to float32 rounding."""
    e = q.shape[1]
    # on the CPU a 1,536-token prompt prefilled in 0.70 s this way, 0.87 s with attend_cache
    attend_block = attend_grouped if cpu_kernels() else attend_cache
    outs = []
    for start in range(0, e, block):
        end = min(start + block, e)
        keys = offset + end
        causal = jnp.arange(keys)[None, :] <= offset + jnp.arange(start, end)[:, None]  # c S
        mask = causal[None, None] & key_mask[:, None, None, :keys]  # B 1 c S
        outs.append(attend_block(q[:, start:end], k[:, :, :keys], v[:, :, :keys], mask, scale))
    return outs[0] if len(outs) == 1 else jnp.concatenate(outs, axis=1)


class MLP(nnx.Module):
    """SwiGLU: down(silu(gate(x)) * up(x))."""

    def __init__(self, cfg: ModelConfig, *, rngs: nnx.Rngs):
        d, f = cfg.hidden_size, cfg.intermediate_size
        self.gate_proj = Linear(d, f, bias=cfg.mlp_bias, cfg=cfg, rngs=rngs)
        self.up_proj = Linear(d, f, bias=cfg.mlp_bias, cfg=cfg, rngs=rngs)
        self.down_proj = Linear(f, d, bias=cfg.mlp_bias, cfg=cfg, rngs=rngs)

    def __call__(self, x: jax.Array) -> jax.Array:
        return self.down_proj(jax.nn.silu(self.gate_proj(x)) * self.up_proj(x))


class Block(nnx.Module):
    """Pre-norm decoder block; Granite scales each branch by residual_multiplier."""

    def __init__(self, cfg: ModelConfig, *, rngs: nnx.Rngs):
        self.input_norm = RMSNorm(cfg.hidden_size, cfg=cfg)
        self.attn = Attention(cfg, rngs=rngs)
        self.post_attn_norm = RMSNorm(cfg.hidden_size, cfg=cfg)
        self.mlp = MLP(cfg, rngs=rngs)
        self.residual_multiplier = cfg.residual_multiplier

    def __call__(self, x: jax.Array, cos: jax.Array, sin: jax.Array, mask: jax.Array) -> jax.Array:
        return self._after_attention(x, self.attn(self.input_norm(x), cos, sin, mask))

    def call_prefix(self, x: jax.Array, cos: jax.Array, sin: jax.Array, mask: jax.Array
                    ) -> tuple[jax.Array, tuple[jax.Array, jax.Array]]:
        a, kv = self.attn.call_prefix(self.input_norm(x), cos, sin, mask)
        return self._after_attention(x, a), kv

    def call_suffix(self, x: jax.Array, cos: jax.Array, sin: jax.Array, mask: jax.Array,
                    prefix_kv: tuple[jax.Array, jax.Array], prefix_mask: jax.Array) -> jax.Array:
        return self._after_attention(x, self.attn.call_suffix(self.input_norm(x), cos, sin, mask,
                                                              prefix_kv, prefix_mask))

    def call_cached(self, x: jax.Array, cos: jax.Array, sin: jax.Array, mask: jax.Array,
                    cache: tuple[jax.Array, jax.Array], layer: jax.Array, write_index: jax.Array
                    ) -> tuple[jax.Array, tuple[jax.Array, jax.Array]]:
        a, cache = self.attn.call_cached(self.input_norm(x), cos, sin, mask, cache, layer,
                                         write_index)
        return self._after_attention(x, a), cache

    def call_prefill(self, x: jax.Array, cos: jax.Array, sin: jax.Array, key_mask: jax.Array,
                     cache: tuple[jax.Array, jax.Array], layer: jax.Array, block: int,
                     offset: int = 0) -> tuple[jax.Array, tuple[jax.Array, jax.Array]]:
        a, cache = self.attn.call_prefill(self.input_norm(x), cos, sin, key_mask, cache, layer,
                                          block, offset)
        return self._after_attention(x, a), cache

    def call_extend_slots(self, x: jax.Array, cos: jax.Array, sin: jax.Array,
                          cache: tuple[jax.Array, jax.Array], layer: jax.Array,
                          rows: jax.Array, offsets: jax.Array, window: int, block: int,
                          from_zero: bool) -> tuple[jax.Array, tuple[jax.Array, jax.Array]]:
        a, cache = self.attn.call_extend_slots(self.input_norm(x), cos, sin, cache, layer, rows,
                                               offsets, window, block, from_zero)
        return self._after_attention(x, a), cache

    def call_decode_slots(self, x: jax.Array, cos: jax.Array, sin: jax.Array,
                          cache: tuple[jax.Array, jax.Array], layer: int, write: jax.Array,
                          positions: jax.Array, window: int, rows: jax.Array | None = None
                          ) -> tuple[jax.Array, tuple[jax.Array, jax.Array]]:
        a, cache = self.attn.call_decode_slots(self.input_norm(x), cos, sin, cache, layer, write,
                                               positions, window, rows)
        return self._after_attention(x, a), cache

    def _after_attention(self, x: jax.Array, a: jax.Array) -> jax.Array:
        x = x + a * self.residual_multiplier
        return x + self.mlp(self.post_attn_norm(x)) * self.residual_multiplier
