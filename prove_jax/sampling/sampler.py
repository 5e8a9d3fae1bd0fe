"""Batched generation for the NNX decoder: jitted prefill, then a `lax.while_loop` decode over
a preallocated KV cache.

Prefill runs layer by layer over the whole prompt (`Decoder.prefill`): large products, and
causal attention in query blocks that read only the keys before them, never the empty decode
slots. Decode steps attend over the cache slots that hold tokens (masked).

Prompts are left-padded into a bucket [B, P]; a row's positions count its real tokens only, so
padding changes nothing. Decode step t writes slot P + t. Each row samples with its own key
(from its request seed), so a row's tokens do not depend on what else is in the batch.
Returned log-probs are log softmax(logits / temperature) of the sampled tokens (temperature 1
for greedy), before top-k/top-p truncation: what a teacher-forced forward computes, so GRPO's
importance ratio starts at exactly 1.

Shapes are bucketed so that recompilation is bounded: new tokens to powers of two, prompt
length to powers of two up to 512 and quarter steps above (`prompt_bucket`), the batch to a
power of two rounded up to a multiple of the mesh's data ways (data x fsdp, which split the
rows: 3 or 6 ways cannot split a power of two; see `batch_bucket`).
`Sampler.compilations` counts the compiled shapes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from flax import nnx
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P

from prove_jax.models.decoder import Decoder
from prove_jax.sampling.buckets import batch_bucket, bucket, prefill_chunk, prompt_bucket
from prove_jax.sampling.draw import draw_step
from prove_jax.sampling.prefix_cache import Prefix, common_prefix, extract, place
from prove_jax.sharding import BATCH_AXES, DEFAULT_RULES, Rules, tree_shardings


@dataclass(frozen=True)
class SamplingParams:
    max_new_tokens: int = 256
    temperature: float = 1.0  # 0: greedy
    top_p: float = 1.0
    top_k: int = 0  # 0: off
    stop_token_ids: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.max_new_tokens < 1:
            raise ValueError(f"max_new_tokens must be >= 1, got {self.max_new_tokens}")
        if self.temperature < 0:
            raise ValueError(f"temperature must be >= 0, got {self.temperature}")
        if not 0 < self.top_p <= 1:
            raise ValueError(f"top_p must be in (0, 1], got {self.top_p}")
        if self.top_k < 0:
            raise ValueError(f"top_k must be >= 0, got {self.top_k}")


@dataclass(frozen=True)
class SampleOutput:
    tokens: list[int]  # new tokens, the stop token included when it stopped on one
    logprobs: list[float]
    finish_reason: str  # "stop" | "length"
    prefix: Prefix | None = None  # this row's KV (prompt + tokens) when asked to keep it


def _generate(graphdef: Any, state: Any, tokens: jax.Array, mask: jax.Array, seeds: jax.Array,
              stop_ids: jax.Array, temperature: jax.Array, top_p: jax.Array, limit: jax.Array,
              cache_in: tuple[jax.Array, jax.Array] | None,
              shared_in: tuple[jax.Array, jax.Array, jax.Array] | None, *, max_new: int,
              top_k: int, greedy: bool, nucleus: bool, pad_id: int, unroll: bool, chunk: int,
              extend: int, keep: bool) -> tuple:
    """max_new sizes the buffers (a bucket); limit (<= max_new) is where decoding stops.
    cache_in: a [L, B, K, P + max_new, H] cache whose slots before P - extend already hold
    each row's kept prefix (None: a fresh cache, extend = P). shared_in: (tokens [U, P], mask
    [U, P], source [B]) when rows repeat a prompt (a GRPO group's first turn): prefill runs on
    the U distinct prompts and row b starts from prompt source[b]'s cache and last hidden
    state. keep: also return the cache."""
    model: Decoder = nnx.merge(graphdef, state)
    # The last drawn token needs no forward unless its KV is kept: a one-token call (a
    # prefill) runs no decode step at all, and copies no layer weights for one.
    decodes = keep or max_new > 1
    # Per-layer weights copied out of the stack once per call, not once per decode step.
    layer_graphdef, layer_states = None, None
    if unroll and decodes:
        layers = model.unstacked_layers()
        layer_graphdef = nnx.graphdef(layers[0])
        layer_states = [nnx.state(layer) for layer in layers]
    cfg = model.cfg
    b, p = tokens.shape
    total = p + max_new
    cache = model.init_cache(b, total) if cache_in is None else cache_in
    key_mask = jnp.zeros((b, total), jnp.bool_).at[:, :p].set(mask.astype(jnp.bool_))
    lengths = jnp.sum(mask, axis=-1).astype(jnp.int32)  # real prompt tokens per row
    positions = jnp.maximum(jnp.cumsum(mask, axis=-1) - 1, 0)
    offset = p - extend  # slots before it hold kept prefixes: only the rest is computed
    if shared_in is None:
        hidden, cache = model.prefill(tokens[:, offset:], positions[:, offset:], mask, cache,
                                      chunk, offset)
        last_hidden = hidden[:, -1]  # left padding: every row's last prompt token
    else:
        tokens_u, mask_u, source = shared_in
        positions_u = jnp.maximum(jnp.cumsum(mask_u, axis=-1) - 1, 0)
        hidden, cache_u = model.prefill(tokens_u, positions_u, mask_u,
                                        model.init_cache(tokens_u.shape[0], total), chunk)
        last_hidden = hidden[source, -1]
        cache = tuple(c[:, source] for c in cache_u)  # each row its own copy to decode into
    head = model.head_matrix()

    base_keys = jax.vmap(jax.random.key)(seeds)
    out_tokens = jnp.full((b, max_new), pad_id, jnp.int32)
    out_logp = jnp.zeros((b, max_new), jnp.float32)
    done = jnp.zeros((b,), jnp.bool_)
    n_out = jnp.zeros((b,), jnp.int32)

    def draw(carry: tuple) -> tuple:
        t, last_hidden, cache, key_mask, out_tokens, done, out_logp, n_out = carry
        keys = jax.vmap(jax.random.fold_in, in_axes=(0, None))(base_keys, t)
        token, logp = draw_step(last_hidden, head, cfg, keys, temperature, top_k,
                                top_p if nucleus else None, greedy)
        token = jnp.where(done, pad_id, token).astype(jnp.int32)
        out_tokens = out_tokens.at[:, t].set(token)
        out_logp = out_logp.at[:, t].set(jnp.where(done, 0.0, logp))
        n_out = n_out + (~done).astype(jnp.int32)
        done = done | jnp.any(token[:, None] == stop_ids[None, :], axis=-1)
        return (t, last_hidden, cache, key_mask, out_tokens, done, out_logp, n_out), token

    def body(carry: tuple) -> tuple:
        (t, _, cache, key_mask, out_tokens, done, out_logp, n_out), token = draw(carry)
        slot = p + t
        key_mask = key_mask.at[:, slot].set(True)
        # NNX variables may not cross into the loop body's trace: rebuild them there.
        step_model = nnx.merge(graphdef, jax.tree.map(lambda x: x, state))
        step_layers = None if layer_states is None else [
            nnx.merge(layer_graphdef, jax.tree.map(lambda x: x, s)) for s in layer_states]
        h, cache = step_model.hidden_states_cached(token[:, None], (lengths + t)[:, None], key_mask,
                                                   cache, slot, step_layers)
        return t + 1, h[:, 0], cache, key_mask, out_tokens, done, out_logp, n_out

    # keep: every drawn token's forward runs (its KV is returned); otherwise the last is drawn
    # after the loop, without one.
    stop_at = limit if keep else limit - 1
    carry = (jnp.int32(0), last_hidden, cache, key_mask, out_tokens, done, out_logp, n_out)
    if decodes:
        carry = jax.lax.while_loop(lambda c: (c[0] < stop_at) & ~jnp.all(c[5]), body, carry)
    if keep:
        return carry[4], carry[6], carry[7], carry[2]
    carry = draw(carry)[0]  # rows already done draw padding here, as in the loop
    return carry[4], carry[6], carry[7]


@dataclass
class Sampler:
    """Generation for one model; jitted once per (bucket shape, sampling mode)."""

    model: Decoder
    mesh: Mesh | None = None
    rules: Rules = DEFAULT_RULES
    pad_id: int = 0
    min_prompt_bucket: int = 16
    # Decode with one block per layer (see Decoder.hidden_states_cached): faster steps for one
    # extra copy of the layer weights while a generate call runs; False scans the stack.
    unroll_layers: bool = True
    prefill_scores_bytes: int = 1 << 28  # bounds prefill attention memory (see prefill_chunk)
    # most query rows per prefill attention block (see prefill_chunk): one 1,536-token prompt
    # on the ~100M Qwen3 shape prefilled in 720 ms in blocks of 128, 825 ms of 256 (busy box)
    prefill_block: int = 128
    compilations: int = 0
    # Work counters: prompt slots computed by prefill (rows x window, padding included) and
    # prompt tokens copied from kept prefixes instead.
    prefill_slots: int = 0
    reused_tokens: int = 0
    _compiled: dict = field(default_factory=dict, repr=False)

    def _fn(self, key: tuple) -> Any:
        if key not in self._compiled:
            b, plen, max_new, top_k, greedy, nucleus, extend, reuse, keep, shared = key
            graphdef = nnx.graphdef(self.model)
            chunk = prefill_chunk(shared or b, extend, plen, self.model.cfg.num_heads,
                                  self.prefill_scores_bytes, self.prefill_block)

            def fn(*args: Any) -> Any:
                return _generate(graphdef, *args, max_new=max_new, top_k=top_k, greedy=greedy,
                                 nucleus=nucleus, pad_id=self.pad_id, unroll=self.unroll_layers,
                                 chunk=chunk, extend=extend, keep=keep)

            donate = (9,) if reuse else ()
            if self.mesh is None:
                jitted = jax.jit(fn, donate_argnums=donate)
            else:
                state_sh = tree_shardings(nnx.state(self.model), self.mesh, self.rules)
                rows = NamedSharding(self.mesh, P(BATCH_AXES, None))
                vec = NamedSharding(self.mesh, P(BATCH_AXES))
                rep = NamedSharding(self.mesh, P())
                kv = NamedSharding(self.mesh, P(None, BATCH_AXES))
                cache_sh = (kv, kv) if reuse else None
                shared_sh = (rows, rows, rep) if shared else None
                outs = (rows, rows, vec, (kv, kv)) if keep else (rows, rows, vec)
                jitted = jax.jit(fn, in_shardings=(state_sh, rows, rows, vec, rep, rep, rep, rep,
                                                   cache_sh, shared_sh),
                                 out_shardings=outs, donate_argnums=donate)
            self._compiled[key] = jitted
            self.compilations += 1
        return self._compiled[key]

    @staticmethod
    def _shared_rows(tokens: np.ndarray, mask: np.ndarray, data_ways: int
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """(tokens [U, P], mask [U, P], source [B]) for a batch whose padded rows repeat, so
        that prefill runs once per distinct prompt; None when that would not save a row
        bucket. Rows sample with their own seeds, so sharing the prompt's KV changes nothing."""
        firsts: dict[bytes, int] = {}
        source = np.asarray([firsts.setdefault(row.tobytes() + m.tobytes(), len(firsts))
                             for row, m in zip(tokens, mask, strict=True)], np.int32)
        u = batch_bucket(len(firsts), data_ways)
        if u >= len(tokens):
            return None
        index = np.zeros((u,), np.int64)  # bucket filler: copies of row 0
        index[:len(firsts)] = [int(np.flatnonzero(source == j)[0]) for j in range(len(firsts))]
        return tokens[index], mask[index], source

    def generate(self, prompts: list[list[int]], params: SamplingParams,
                 seeds: list[int] | None = None,
                 prefixes: Sequence[Prefix | None] | None = None,
                 keep: bool = False) -> list[SampleOutput]:
        """Sample a continuation of each prompt. prefixes: per prompt, KV kept from an earlier
        call (its `SampleOutput.prefix`): the tokens it shares with the prompt are copied, not
        recomputed. keep: return each row's KV (prompt + sampled tokens) as `.prefix`."""
        if not prompts:
            return []
        if any(len(p) == 0 for p in prompts):
            raise ValueError("every prompt needs at least one token")
        if prefixes is not None and len(prefixes) != len(prompts):
            raise ValueError(f"{len(prefixes)} prefixes for {len(prompts)} prompts: pass one "
                             "per prompt (None where none is kept)")
        seeds = list(seeds) if seeds is not None else list(range(len(prompts)))
        data_ways = 1 if self.mesh is None else (self.mesh.shape["data"]
                                                 * self.mesh.shape["fsdp"])
        b = batch_bucket(len(prompts), data_ways)
        plen = prompt_bucket(max(map(len, prompts)), self.min_prompt_bucket)
        max_new = bucket(params.max_new_tokens)
        # Kept tokens per row: the common prefix, leaving at least the last prompt token to
        # compute (its hidden state starts decoding).
        reused = [0] * len(prompts)
        for i, prefix in enumerate(prefixes or ()):
            if prefix is not None:
                reused[i] = min(common_prefix(prefix.tokens, prompts[i]), len(prompts[i]) - 1)
        extend = min(plen, prompt_bucket(max(len(p) - r for p, r in zip(prompts, reused,
                                                                        strict=True)),
                                         self.min_prompt_bucket))
        # Rows whose context starts before the computed window take it from their prefix.
        placed = [max(0, len(p) - extend) for p in prompts]
        reuse = any(placed)
        if not reuse:
            extend = plen
        tokens = np.full((b, plen), self.pad_id, np.int32)
        mask = np.zeros((b, plen), np.int32)
        for i, prompt in enumerate(prompts):  # left padding
            tokens[i, plen - len(prompt):] = prompt
            mask[i, plen - len(prompt):] = 1
        tokens[len(prompts):, -1] = self.pad_id  # filler rows: one real (pad) token each
        mask[len(prompts):, -1] = 1
        seed_arr = np.zeros((b,), np.uint32)
        seed_arr[: len(prompts)] = np.asarray(seeds, np.uint64) % (2**32)
        stop = np.asarray(params.stop_token_ids or (-1,), np.int32)
        greedy = params.temperature == 0
        top_k = 0 if greedy else params.top_k
        nucleus = not greedy and params.top_p < 1.0
        shared = None if reuse else self._shared_rows(tokens, mask, data_ways)
        fn = self._fn((b, plen, max_new, top_k, greedy, nucleus, extend, reuse, keep,
                       0 if shared is None else len(shared[0])))
        if self.mesh is not None:  # placed here: jit refuses sharded numpy inputs when JAX
            # runs several processes (this mesh is the process's own)
            rows = NamedSharding(self.mesh, P(BATCH_AXES, None))
            tokens, mask = jax.device_put((tokens, mask), rows)
            seed_arr = jax.device_put(seed_arr, NamedSharding(self.mesh, P(BATCH_AXES)))
            stop = jax.device_put(stop, NamedSharding(self.mesh, P()))
            if shared is not None:
                shared = (*jax.device_put(shared[:2], rows),
                          jax.device_put(shared[2], NamedSharding(self.mesh, P())))
        self.prefill_slots += (b if shared is None else len(shared[0])) * extend
        self.reused_tokens += sum(placed)
        cache = None
        if reuse:
            k_cache, v_cache = self.model.init_cache(b, plen + max_new)
            if self.mesh is not None:
                kv = NamedSharding(self.mesh, P(None, BATCH_AXES))
                k_cache, v_cache = jax.device_put((k_cache, v_cache), kv)
            for i, n in enumerate(placed):
                if n:
                    k_cache, v_cache = place(k_cache, v_cache, prefixes[i].k, prefixes[i].v,
                                             jnp.int32(i), jnp.int32(plen - len(prompts[i])),
                                             jnp.int32(n))
            cache = (k_cache, v_cache)
        outs = fn(nnx.state(self.model), tokens, mask, seed_arr, stop,
                  jnp.float32(params.temperature), jnp.float32(params.top_p),
                  jnp.int32(params.max_new_tokens), cache, shared)
        out_tokens, out_logp, n_out = map(np.asarray, outs[:3])
        results = []
        stops = set(params.stop_token_ids)
        for i, prompt in enumerate(prompts):
            n = min(int(n_out[i]), params.max_new_tokens)
            toks = out_tokens[i, :n].tolist()
            reason = "stop" if toks and toks[-1] in stops else "length"
            kept = None
            if keep:  # every sampled token's KV was written (decode step t writes slot P + t)
                length = len(prompt) + n
                k, v = extract(*outs[3], jnp.int32(i), jnp.int32(plen - len(prompt)),
                               prompt_bucket(length, self.min_prompt_bucket))
                kept = Prefix(tuple(prompt) + tuple(toks), k, v)
            results.append(SampleOutput(toks, out_logp[i, :n].tolist(), reason, kept))
        return results
