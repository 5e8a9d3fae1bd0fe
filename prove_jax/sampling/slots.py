"""Continuous batching over decode slots: the sampler behind the default rollout path.

The step-synchronous `Sampler` takes a batch, prefills it, decodes until its longest row ends
and returns: rows that stop early idle, and a request arriving meanwhile waits for the whole
batch. Here the cache has a fixed number of rows (slots), each holding one sequence with
token j at cache slot j (position j, no padding). A slot is *assigned* to an episode:
`admit` extends the row with the tokens of the episode's new context that it does not hold
yet, and `decode` runs a few steps over every active row at once. Between decode calls,
finished rows hand their tokens back and waiting requests are admitted into free rows, so no
row waits for another's length.

KV reuse falls out of the layout: an episode keeps its row between turns, so its next turn
computes only the tokens since (tool results, a user turn); and a request whose context
shares a longer prefix with another row (the G rollouts of one GRPO task) first copies that
row, so a group prefills its prompt once. Both equal recomputing the context, up to float32
rounding in the order of sums.

Memory is at most `slots` x `capacity` tokens of KV, set by config (`rollout.slots`,
`rollout.slot_tokens`); rows start at `initial_tokens` and double when a context needs it.
When every row is decoding, `assign` returns None and the caller waits (back-pressure); an
idle row (an episode busy with tools) is reassigned least recently used first, its episode
then recomputing its context on its next turn. Which row donates a prefix follows arrival
order, so float32 rounding (not the math) can differ between two runs; the step sampler's
batches are deterministic.

Randomness equals the step-synchronous sampler's: a row's i-th new token of a turn draws with
fold_in(key(seed), i), so both paths sample the same tokens from the same logits.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from flax import nnx
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P

from prove_jax.models.decoder import Decoder
from prove_jax.sampling.buckets import prompt_bucket
from prove_jax.sampling.sampler import SamplingParams, _sample, step_logits
from prove_jax.sharding import BATCH_AXES, DEFAULT_RULES, Rules, tree_shardings

__all__ = ["Finished", "SlotSampler"]


@dataclass(frozen=True)
class Finished:
    row: int
    tokens: list[int]  # this turn's new tokens, the stop token included when it stopped
    logprobs: list[float]
    finish_reason: str  # "stop" | "length"


@dataclass
class _Row:
    tokens: list[int] = field(default_factory=list)  # the tokens whose KV the row holds
    owner: Hashable | None = None
    active: bool = False
    out: list[int] = field(default_factory=list)
    logprobs: list[float] = field(default_factory=list)
    used: int = 0  # admission counter when last admitted (least recently used goes first)


def _shared_length(a: list[int], b: np.ndarray) -> int:
    n = min(len(a), len(b))
    if n == 0:
        return 0
    diff = np.flatnonzero(np.asarray(a[:n]) != b[:n])
    return int(diff[0]) if len(diff) else n


@dataclass
class SlotSampler:
    model: Decoder
    params: SamplingParams
    slots: int = 8
    capacity: int = 4096  # most tokens per row (context plus new tokens)
    initial_tokens: int = 2048  # rows start this long and double as contexts need
    mesh: Mesh | None = None
    rules: Rules = DEFAULT_RULES
    pad_id: int = 0
    steps_per_call: int = 8  # decode steps between admissions
    min_bucket: int = 16
    # query rows per attention block of an extend (one row at a time): on the ~100M Qwen3
    # shape a 1,536-token prompt took 554 ms in blocks of 128, 679 ms of 256, 882 ms of 512
    prefill_block: int = 128
    # Work counters: tokens computed by extends (bucket padding included), tokens copied from
    # a row's own earlier turns or from another row, decode steps run.
    prefill_slots: int = 0
    reused_tokens: int = 0
    decode_steps: int = 0
    compilations: int = 0
    _compiled: dict = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if self.slots < 1 or self.capacity < 2 or self.steps_per_call < 1:
            raise ValueError(f"SlotSampler needs slots >= 1, capacity >= 2 and steps_per_call "
                             f">= 1; got {self.slots}, {self.capacity}, {self.steps_per_call}")
        self.rows = [_Row() for _ in range(self.slots)]
        self._admissions = 0
        self._lengths = np.zeros((self.slots,), np.int32)
        self._counts = np.zeros((self.slots,), np.int32)
        self._limits = np.ones((self.slots,), np.int32)
        self._seeds = np.zeros((self.slots,), np.uint32)
        self.length = min(self.capacity, self.initial_tokens)  # tokens allocated per row
        cache = self.model.init_cache(self.slots, self.length)
        hidden = jnp.zeros((self.slots, self.model.cfg.hidden_size), self.model.cfg.dtype)
        self._cache, self._hidden = self._put((cache, hidden))

    def _grow(self, need: int) -> None:
        """Rows long enough for `need` tokens: the allocation doubles (up to capacity) and the
        cache is copied over, so memory follows the contexts actually seen."""
        length = self.length
        while length < need:
            length = min(self.capacity, 2 * length)
        bigger = self._put((self.model.init_cache(self.slots, length), self._hidden))[0]
        moved = tuple(b.at[:, :, :, :self.length].set(c) for b, c in zip(bigger, self._cache,
                                                                           strict=True))
        self._cache = self._put((moved, self._hidden))[0]
        self.length = length

    # ------------------------------------------------------------------ host bookkeeping
    def _put(self, tree: Any) -> Any:
        if self.mesh is None:
            return tree
        ways = self.mesh.shape["data"] * self.mesh.shape["fsdp"]
        if self.slots % ways:
            raise ValueError(f"slots ({self.slots}) must be a multiple of the mesh's data x "
                             f"fsdp ways ({ways}), which split the rows")
        kv = NamedSharding(self.mesh, P(None, BATCH_AXES))
        return jax.device_put(tree, ((kv, kv), NamedSharding(self.mesh, P(BATCH_AXES))))

    @property
    def active_rows(self) -> list[int]:
        return [i for i, r in enumerate(self.rows) if r.active]

    def assign(self, owner: Hashable) -> int | None:
        """The row for `owner`'s next turn: its own row if it still holds one, else an
        unowned row, else the least recently used idle row; None when every row decodes."""
        idle = [i for i, r in enumerate(self.rows) if not r.active]
        for i in idle:
            if self.rows[i].owner == owner:
                return i
        if not idle:
            return None
        free = [i for i in idle if self.rows[i].owner is None]
        return free[0] if free else min(idle, key=lambda i: self.rows[i].used)

    def release(self) -> None:
        """Forget what every idle row holds: nothing is reused from it again. Call it whenever
        the weights change, since kept KV belongs to the old ones."""
        for r in self.rows:
            if not r.active:
                r.tokens, r.owner = [], None

    def free(self, owner: Hashable) -> None:
        """`owner`'s episode ended: its idle row goes to the next episode that needs one (its
        KV stays usable as a shared prefix until then)."""
        for r in self.rows:
            if r.owner == owner and not r.active:
                r.owner = None

    def cancel(self, row: int) -> None:
        """Stop decoding `row` (its episode went away); the row keeps the KV written so far."""
        r = self.rows[row]
        r.active = False
        r.owner = None

    # ------------------------------------------------------------------------- admission
    def admit(self, row: int, owner: Hashable, tokens: list[int], seed: int,
              max_new_tokens: int) -> None:
        """Start a turn on `row`: its KV extended to `tokens` (the episode's whole context),
        reusing the longest prefix any row holds; the row then decodes up to
        `max_new_tokens` on later `decode` calls."""
        r = self.rows[row]
        if r.active:
            raise ValueError(f"row {row} is still decoding")
        if not tokens:
            raise ValueError("every context needs at least one token")
        if max_new_tokens < 1:
            raise ValueError(f"max_new_tokens must be >= 1, got {max_new_tokens}")
        if len(tokens) + max_new_tokens > self.capacity:
            raise ValueError(f"a context of {len(tokens)} tokens plus {max_new_tokens} new ones "
                             f"exceeds the slot capacity of {self.capacity} tokens; raise "
                             "rollout.slot_tokens (or lower max_new_tokens)")
        if len(tokens) + max_new_tokens > self.length:
            self._grow(len(tokens) + max_new_tokens)
        want = np.asarray(tokens)
        own = _shared_length(r.tokens, want) if r.owner == owner else 0
        donor, best = row, own
        for i, other in enumerate(self.rows):
            if i != row and other.tokens:
                n = _shared_length(other.tokens, want)
                if n > best:
                    donor, best = i, n
        kept = min(best, len(tokens) - 1)  # the last token is computed: it starts decoding
        if donor != row:
            self._cache = self._copy_fn()(self._cache, jnp.int32(row), jnp.int32(donor))
        e = min(prompt_bucket(len(tokens) - kept, self.min_bucket), self.length)
        kept = min(kept, self.length - e)
        from_zero = kept == 0
        window = e if from_zero else min(self.length, prompt_bucket(kept + e, self.min_bucket))
        ids = np.full((1, e), self.pad_id, np.int32)
        ids[0, :len(tokens) - kept] = tokens[kept:]
        fn = self._extend_fn(e, window, from_zero)
        self._cache, self._hidden = fn(nnx.state(self.model), self._cache, self._hidden, ids,
                                       jnp.int32(row), jnp.int32(kept),
                                       jnp.int32(len(tokens) - kept - 1))
        self.prefill_slots += e
        self.reused_tokens += kept
        self._admissions += 1
        r.tokens, r.owner, r.active, r.used = list(tokens), owner, True, self._admissions
        r.out, r.logprobs = [], []
        self._lengths[row] = len(tokens)
        self._counts[row] = 0
        self._limits[row] = max_new_tokens
        self._seeds[row] = seed % (2**32)

    # ---------------------------------------------------------------------------- decode
    def decode(self) -> list[Finished]:
        """Up to `steps_per_call` decode steps over the active rows; the rows that finished
        (a stop token or their limit), with this turn's tokens."""
        active = np.asarray([r.active for r in self.rows])
        if not active.any():
            return []
        steps = self.steps_per_call
        longest = int(self._lengths[active].max()) + steps
        window = min(self.length, prompt_bucket(longest, self.min_bucket))
        p = self.params
        stop = np.asarray(p.stop_token_ids or (-1,), np.int32)
        fn = self._decode_fn(window)
        outs = fn(nnx.state(self.model), self._cache, self._hidden, self._lengths, active,
                  self._seeds, self._counts, self._limits, stop, jnp.float32(p.temperature),
                  jnp.float32(p.top_p))
        self._cache, self._hidden = outs[0], outs[1]
        lengths, counts, still, out_tokens, out_logp, ran = map(np.asarray, outs[2:])
        self.decode_steps += int(ran)
        finished = []
        stops = set(p.stop_token_ids)
        for i in np.flatnonzero(active):
            r = self.rows[i]
            n = int(counts[i] - self._counts[i])
            new = out_tokens[i, :n].tolist()
            r.out += new
            r.logprobs += out_logp[i, :n].tolist()
            r.tokens += new
            if not still[i]:
                r.active = False
                reason = "stop" if r.out and r.out[-1] in stops else "length"
                finished.append(Finished(int(i), r.out, r.logprobs, reason))
        self._lengths[:], self._counts[:] = lengths, counts
        return finished

    # ------------------------------------------------------------------ compiled programs
    def _jit(self, key: tuple, fn: Any, donate: tuple[int, ...], ins: str, outs: str) -> Any:
        """fn jitted once per key. Under a mesh, rows split over the batch axes like the
        step sampler's; `ins` / `outs` name each argument's / result's layout: s the model
        state, c the cache, r per-row arrays, p replicated."""
        if key not in self._compiled:
            if self.mesh is None:
                jitted = jax.jit(fn, donate_argnums=donate)
            else:
                kv = NamedSharding(self.mesh, P(None, BATCH_AXES))
                layouts = {"s": tree_shardings(nnx.state(self.model), self.mesh, self.rules),
                           "c": (kv, kv), "r": NamedSharding(self.mesh, P(BATCH_AXES)),
                           "p": NamedSharding(self.mesh, P())}
                program = jax.jit(fn, in_shardings=tuple(layouts[c] for c in ins),
                                  out_shardings=tuple(layouts[c] for c in outs),
                                  donate_argnums=donate)

                def jitted(*args: Any, program: Any = program) -> Any:
                    with jax.set_mesh(self.mesh):  # the model pins activations to the rows
                        return program(*args)
            self._compiled[key] = jitted
            self.compilations += 1
        return self._compiled[key]

    def _copy_fn(self) -> Any:
        def copy(cache: tuple, dst: jax.Array, src: jax.Array) -> tuple:
            return tuple(c.at[:, dst].set(c[:, src]) for c in cache),

        fn = self._jit(("copy", self.length), copy, (0,), "cpp", "c")
        return lambda *args: fn(*args)[0]

    def _extend_fn(self, e: int, window: int, from_zero: bool) -> Any:
        graphdef = nnx.graphdef(self.model)
        block = min(self.prefill_block, e)

        def extend(state: Any, cache: tuple, hidden: jax.Array, ids: jax.Array, row: jax.Array,
                   offset: jax.Array, last: jax.Array) -> tuple:
            model: Decoder = nnx.merge(graphdef, state)
            h, cache = model.extend_slot(ids, cache, row, 0 if from_zero else offset, window,
                                         block)
            return cache, hidden.at[row].set(h[0, last].astype(hidden.dtype))

        return self._jit(("extend", e, window, from_zero, self.length), extend, (1, 2),
                         "scrpppp", "cr")

    def _decode_fn(self, window: int) -> Any:
        graphdef = nnx.graphdef(self.model)
        p = self.params
        greedy = p.temperature == 0
        top_k = 0 if greedy else p.top_k
        nucleus = not greedy and p.top_p < 1.0
        steps, capacity, pad_id = self.steps_per_call, self.length, self.pad_id

        def decode(state: Any, cache: tuple, hidden: jax.Array, lengths: jax.Array,
                   active: jax.Array, seeds: jax.Array, counts: jax.Array, limits: jax.Array,
                   stop_ids: jax.Array, temperature: jax.Array, top_p: jax.Array) -> tuple:
            model: Decoder = nnx.merge(graphdef, state)
            layers = model.unstacked_layers()  # per-layer weights out of the stack once
            layer_graphdef = nnx.graphdef(layers[0])
            layer_states = [nnx.state(layer) for layer in layers]
            head = model.head_matrix()
            cfg = model.cfg
            base_keys = jax.vmap(jax.random.key)(seeds)
            rows = hidden.shape[0]
            out_tokens = jnp.full((rows, steps), pad_id, jnp.int32)
            out_logp = jnp.zeros((rows, steps), jnp.float32)

            def cond(carry: tuple) -> jax.Array:
                return (carry[0] < steps) & jnp.any(carry[5])

            def body(carry: tuple) -> tuple:
                t, hidden, cache, lengths, counts, active, out_tokens, out_logp = carry
                keys = jax.vmap(jax.random.fold_in)(base_keys, counts)
                logits = step_logits(hidden, head, cfg.logits_scaling, cfg.dtype)
                token, logp = _sample(logits, keys, temperature, top_k,
                                      top_p if nucleus else None, greedy)
                token = jnp.where(active, token, pad_id).astype(jnp.int32)
                out_tokens = out_tokens.at[:, t].set(token)
                out_logp = out_logp.at[:, t].set(jnp.where(active, logp, 0.0))
                write = jnp.where(active, lengths, capacity)  # idle rows write nothing
                positions = jnp.minimum(lengths, window - 1)
                step_layers = [nnx.merge(layer_graphdef, jax.tree.map(lambda x: x, s))
                               for s in layer_states]
                step_model = nnx.merge(graphdef, jax.tree.map(lambda x: x, state))
                h, cache = step_model.decode_slots(token, positions, write, cache, window,
                                                   step_layers)
                hidden = jnp.where(active[:, None], h.astype(hidden.dtype), hidden)
                grow = active.astype(jnp.int32)
                counts, lengths = counts + grow, lengths + grow
                stopped = jnp.any(token[:, None] == stop_ids[None, :], axis=-1)
                active = active & ~stopped & (counts < limits)
                return t + 1, hidden, cache, lengths, counts, active, out_tokens, out_logp

            carry = (jnp.int32(0), hidden, cache, lengths, counts, active, out_tokens, out_logp)
            t, hidden, cache, lengths, counts, active, out_tokens, out_logp = \
                jax.lax.while_loop(cond, body, carry)
            return cache, hidden, lengths, counts, active, out_tokens, out_logp, t

        return self._jit(("decode", window, greedy, top_k, nucleus, self.length), decode, (1, 2),
                         "scrrrrrrppp", "crrrrrrp")
