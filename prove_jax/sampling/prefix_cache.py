"""KV kept across turns: an episode's next turn prefills only what is new.

A multi-turn episode asks the sampler again with its whole context (prompt, earlier turns, tool
results). Without this, every turn recomputes that context: a 4-turn episode prefills its
prompt 4 times. `Sampler.generate(..., prefixes=, keep=True)` returns each row's KV (prompt
and sampled tokens) as a `Prefix`; given it back, a row's longest common prefix with its new
context is copied into the new batch cache and only the rest is prefilled, attending to it.

Buffers are padded to `prompt_bucket` lengths so that the jitted copy functions compile once
per bucket pair, not once per length. `PrefixStore` keeps one Prefix per episode key under a
byte budget (least recently used out first); `clear()` frees device memory after a rollout.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp


@dataclass(frozen=True)
class Prefix:
    """One sequence's keys/values: k, v [L, K, S, H] (S a bucket >= len(tokens)); slot j holds
    token j's entries for j < len(tokens)."""

    tokens: tuple[int, ...]
    k: jax.Array
    v: jax.Array

    @property
    def nbytes(self) -> int:
        return int(self.k.nbytes + self.v.nbytes)


def common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    """Length of the longest common prefix of two token sequences."""
    n = min(len(a), len(b))
    for i in range(n):
        if a[i] != b[i]:
            return i
    return n


@partial(jax.jit, donate_argnums=(0, 1))
def place(k_cache: jax.Array, v_cache: jax.Array, k: jax.Array, v: jax.Array, row: jax.Array,
          dst: jax.Array, n: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Copy slots [0, n) of a Prefix's k/v [L, K, S', H] into row `row` of a batch cache
    [L, B, K, S, H] at slots [dst, dst + n); the row's other slots are unchanged."""
    slots = jnp.arange(k_cache.shape[3])
    src = slots - dst
    valid = (src >= 0) & (src < n)
    src = jnp.clip(src, 0, k.shape[2] - 1)

    def one(cache: jax.Array, buf: jax.Array) -> jax.Array:
        old = jax.lax.dynamic_index_in_dim(cache, row, axis=1, keepdims=False)  # L K S H
        new = jnp.where(valid[None, None, :, None], jnp.take(buf, src, axis=2), old)
        return jax.lax.dynamic_update_index_in_dim(cache, new.astype(cache.dtype), row, axis=1)

    return one(k_cache, k), one(v_cache, v)


@partial(jax.jit, static_argnums=(4,))
def extract(k_cache: jax.Array, v_cache: jax.Array, row: jax.Array, src: jax.Array,
            size: int) -> tuple[jax.Array, jax.Array]:
    """Slots [src, src + size) of row `row` of a batch cache as [L, K, size, H] each (slots past
    the cache's end repeat its last one: callers keep only the valid length)."""
    idx = jnp.clip(src + jnp.arange(size), 0, k_cache.shape[3] - 1)

    def one(cache: jax.Array) -> jax.Array:
        r = jax.lax.dynamic_index_in_dim(cache, row, axis=1, keepdims=False)  # L K S H
        return jnp.take(r, idx, axis=2)

    return one(k_cache), one(v_cache)


class PrefixStore:
    """One Prefix per key (an episode), least recently used evicted past `budget_bytes`."""

    def __init__(self, budget_bytes: int):
        self.budget_bytes = budget_bytes
        self._entries: OrderedDict[Hashable, Prefix] = OrderedDict()
        self.nbytes = 0

    def get(self, key: Hashable) -> Prefix | None:
        entry = self._entries.get(key)
        if entry is not None:
            self._entries.move_to_end(key)
        return entry

    def put(self, key: Hashable, prefix: Prefix) -> None:
        self.pop(key)
        if prefix.nbytes > self.budget_bytes:
            return
        self._entries[key] = prefix
        self.nbytes += prefix.nbytes
        while self.nbytes > self.budget_bytes:
            _, old = self._entries.popitem(last=False)
            self.nbytes -= old.nbytes

    def pop(self, key: Hashable) -> None:
        old = self._entries.pop(key, None)
        if old is not None:
            self.nbytes -= old.nbytes

    def clear(self) -> None:
        self._entries.clear()
        self.nbytes = 0

    def __len__(self) -> int:
        return len(self._entries)
