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
from prove_jax.models.row_attention import ROW_BLOCK, cpu_kernels
from prove_jax.sampling.buckets import bucket, prefill_chunk, prompt_bucket
from prove_jax.sampling.extend_entries import plan_extend
from prove_jax.sampling.sampler import SamplingParams
from prove_jax.sampling.slot_programs import SlotPrograms
from prove_jax.sharding import BATCH_AXES, DEFAULT_RULES, Rules

__all__ = ["Admission", "Finished", "SlotSampler"]

# The fewest rows a decode call runs when rows sit idle (see SlotSampler.decode)
MIN_PICKED = 8


@dataclass(frozen=True)
class Finished:
    row: int
    tokens: list[int]  # this turn's new tokens, the stop token included when it stopped
    logprobs: list[float]
    finish_reason: str  # "stop" | "length"


@dataclass(frozen=True)
class Admission:
    """A turn to start: the episode (`owner`), its whole context, its sampling seed and how
    many tokens it may add."""

    owner: Hashable
    tokens: list[int]
    seed: int
    max_new_tokens: int


@dataclass
class _Row:
    tokens: list[int] = field(default_factory=list)  # the tokens whose KV the row holds
    owner: Hashable | None = None
    active: bool = False
    out: list[int] = field(default_factory=list)
    logprobs: list[float] = field(default_factory=list)
    used: int = 0  # admission counter when last admitted (least recently used goes first)
    _array: np.ndarray | None = field(default=None, repr=False)
    _array_of: list[int] | None = field(default=None, repr=False)

    def token_array(self) -> np.ndarray:
        """`tokens` as an array, rebuilt only when they changed. Every admission wave compares
        each request with every row: 50 us per 2,000-token list converted, 3 us per compare.
        `tokens` is only replaced by a new list or appended to, so identity and length tell."""
        if self._array_of is not self.tokens or len(self._array) != len(self.tokens):
            self._array, self._array_of = np.asarray(self.tokens, np.int32), self.tokens
        return self._array


def _shared_length(a: np.ndarray, b: np.ndarray) -> int:
    n = min(len(a), len(b))
    if n == 0:
        return 0
    diff = np.flatnonzero(a[:n] != b[:n])
    return int(diff[0]) if len(diff) else n


@dataclass
class SlotSampler(SlotPrograms):
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
    score_budget: int = 256 << 20  # bytes of float32 scores per attention block of an extend
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
        self._held: tuple[list, list] | None = None  # (stacked leaves, per-layer copies)
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
        return self._assign(owner, set())

    def _assign(self, owner: Hashable, taken: set[int]) -> int | None:
        idle = [i for i, r in enumerate(self.rows) if not r.active and i not in taken]
        for i in idle:
            if self.rows[i].owner == owner:
                return i
        if not idle:
            return None
        free = [i for i in idle if self.rows[i].owner is None]
        return free[0] if free else min(idle, key=lambda i: self.rows[i].used)

    def _rows_one_at_a_time(self) -> bool:
        """What `row_kernels` answers inside this sampler's programs (their mesh set)."""
        return cpu_kernels() and (self.mesh is None or self.mesh.size == 1)

    def _held_layers(self) -> list:
        """The per-layer weights decode runs on, sliced out of the stacked blocks once per
        version of the weights (on the CPU, slicing them at every decode call cost SmolLM2
        190 ms a call, 24 of a step's 145 ms at 32 rows). A new version is any leaf that is
        not the array the copies were made from (the trainer swaps arrays, never mutates)."""
        stacked = nnx.state(self.model.layers)
        leaves = jax.tree.leaves(stacked)
        if self._held is None or any(a is not b for a, b in zip(self._held[0], leaves,
                                                                 strict=True)):
            self._held = None  # the old copies go before the new ones are made
            self._held = (leaves, self._unstack_fn()(stacked))
        return self._held[1]

    def release(self) -> None:
        """Forget what every idle row holds: nothing is reused from it again. Call it whenever
        the weights change, since kept KV belongs to the old ones (and so do the per-layer
        weight copies decode keeps)."""
        self._held = None
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
        `max_new_tokens` on later `decode` calls. A bad request raises and changes nothing."""
        if self.rows[row].active:
            raise ValueError(f"row {row} is still decoding")
        request = Admission(owner, tokens, seed, max_new_tokens)
        self._check(request)
        self._admit_rows([(row, request)])

    def admit_many(self, requests: list[Admission]) -> list[int | ValueError | None]:
        """Admit requests in arrival order, each into the row `assign` gives it, computing
        them together: for each request its row, the ValueError that refused it (nothing
        changed for it), or None when no row was free (it and every later request wait)."""
        results: list[int | ValueError | None] = [None] * len(requests)
        placed: list[tuple[int, Admission]] = []
        for i, request in enumerate(requests):
            row = self._assign(request.owner, {r for r, _ in placed})
            if row is None:
                break
            try:
                self._check(request)
            except ValueError as err:
                results[i] = err
                continue
            placed.append((row, request))
            results[i] = row
        if placed:
            self._admit_rows(placed)
            jax.block_until_ready(self._cache)  # the caller's timing sees the extends' work
        return results

    def _check(self, request: Admission) -> None:
        n, new = len(request.tokens), request.max_new_tokens
        if not n:
            raise ValueError("every context needs at least one token")
        if new < 1:
            raise ValueError(f"max_new_tokens must be >= 1, got {new}")
        if n + new > self.capacity:
            raise ValueError(f"a context of {n} tokens plus {new} new ones exceeds the slot "
                             f"capacity of {self.capacity} tokens; raise rollout.slot_tokens "
                             "(or lower max_new_tokens)")

    def _admit_rows(self, placed: list[tuple[int, Admission]]) -> None:
        """Extend every placed row in waves: a request whose context shares more with a request
        before it in this batch than with any row waits for that request's wave, then copies
        its row (a GRPO group's rollouts arriving together prefill their prompt once)."""
        need = max(len(a.tokens) + a.max_new_tokens for _, a in placed)
        if need > self.length:
            self._grow(need)
        pending = [(row, a, np.asarray(a.tokens, np.int32)) for row, a in placed]
        while pending:
            wave, later = [], []
            for i, (row, a, want) in enumerate(pending):
                held = self._donor(row, a.owner, want)[1]
                earlier = max((_shared_length(b, want) for *_, b in pending[:i]), default=0)
                (later if earlier > held else wave).append((row, a, want))
            self._extend_wave(wave)
            pending = later

    def _donor(self, row: int, owner: Hashable, want: np.ndarray) -> tuple[int, int]:
        """The row holding the longest prefix of `want` and its length: `row` itself only
        while `owner` holds it."""
        r = self.rows[row]
        donor, best = row, (_shared_length(r.token_array(), want) if r.owner == owner else 0)
        for i, other in enumerate(self.rows):
            if i != row and other.tokens:
                n = _shared_length(other.token_array(), want)
                if n > best:
                    donor, best = i, n
        return donor, best

    def _extend_wave(self, wave: list[tuple[int, Admission, np.ndarray]]) -> None:
        """One copy of donor rows, then one extend of the wave's entries (`plan_extend`)."""
        plans = []  # (row, request, donor, tokens kept)
        for row, a, want in wave:
            donor, best = self._donor(row, a.owner, want)
            plans.append((row, a, donor, min(best, len(a.tokens) - 1)))
        copies = [(row, donor) for row, _, donor, _ in plans if donor != row]
        if copies:
            n = bucket(len(copies))
            pairs = np.asarray(copies + [(self.slots, 0)] * (n - len(copies)), np.int32)
            self._cache = self._copy_fn(n)(self._cache, pairs[:, 0], pairs[:, 1])
        x, kept = plan_extend([(row, a.tokens, n) for row, a, _, n in plans], self.length,
                              self.slots, self.pad_id, self.min_bucket,
                              pieces=self._rows_one_at_a_time())
        plans = [(row, a, d, n) for (row, a, d, _), n in zip(plans, kept, strict=True)]
        (k, e), window, from_zero = x.shape, x.window, x.from_zero
        heads = self.model.cfg.num_heads
        block = (prefill_chunk(1, e, window, heads, self.score_budget, ROW_BLOCK)
                 if self._rows_one_at_a_time() and not from_zero  # a row's scores bound them
                 else prefill_chunk(k, e, window, heads, self.score_budget, self.prefill_block))
        fn = self._extend_fn(k, e, window, from_zero, block)
        self._cache, self._hidden = fn(nnx.state(self.model), self._cache, self._hidden, x.ids,
                                       x.rows, x.offsets, x.last, x.targets)
        self.prefill_slots += k * e
        for row, a, _, n in plans:
            self.reused_tokens += n
            self._admissions += 1
            r = self.rows[row]
            r.tokens, r.owner, r.active, r.used = list(a.tokens), a.owner, True, self._admissions
            r.out, r.logprobs = [], []
            self._lengths[row] = len(a.tokens)
            self._counts[row] = 0
            self._limits[row] = a.max_new_tokens
            self._seeds[row] = a.seed % (2**32)

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
        held = self._held_layers() if cpu_kernels() else None
        # A few active rows decode as a few (the rest of the tail of a rollout or an
        # evaluation, whose every row cost as much as a busy one), in power-of-two counts
        # from MIN_PICKED: each count is one more compiled program per window.
        picked = self.slots
        if self._rows_one_at_a_time():
            picked = min(self.slots, bucket(int(active.sum()), MIN_PICKED))
        rows = np.full((picked,), self.slots, np.int32)  # padding: out of range
        live = np.flatnonzero(active)
        rows[:len(live)] = live  # with every row decoding: unused
        fn = self._decode_fn(window, held is not None, picked)
        outs = fn(nnx.state(self.model), held, self._cache, self._hidden, self._lengths, active,
                  self._seeds, self._counts, self._limits, stop, jnp.float32(p.temperature),
                  jnp.float32(p.top_p), rows)
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
