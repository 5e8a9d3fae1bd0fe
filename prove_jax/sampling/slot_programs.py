"""The compiled programs behind `SlotSampler` (prove_jax/sampling/slots.py): copying rows,
extending rows with new tokens, and decoding every active row a few steps. Each compiles once
per shape key; under a mesh, rows split over the batch axes like the step sampler's."""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
from flax import nnx
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

from prove_jax.models.decoder import Decoder
from prove_jax.sampling.draw import draw_step
from prove_jax.sharding import BATCH_AXES, tree_shardings

__all__ = ["SlotPrograms"]


class SlotPrograms:
    """Mixin: expects model, params, mesh, rules, length, pad_id, steps_per_call, _compiled
    and compilations on the sampler."""

    def _jit(self, key: tuple, fn: Any, donate: tuple[int, ...], ins: str, outs: str) -> Any:
        """fn jitted once per key. `ins` / `outs` name each argument's / result's layout: s the
        model state, c the cache, r per-row arrays, p replicated, l as the argument is."""
        if key not in self._compiled:
            if self.mesh is None:
                jitted = jax.jit(fn, donate_argnums=donate)
            else:
                kv = NamedSharding(self.mesh, P(None, BATCH_AXES))
                layouts = {"s": tree_shardings(nnx.state(self.model), self.mesh, self.rules),
                           "c": (kv, kv), "r": NamedSharding(self.mesh, P(BATCH_AXES)),
                           "p": NamedSharding(self.mesh, P()),
                           "l": None}  # held layer weights: laid out as the unstack left them
                program = jax.jit(fn, in_shardings=tuple(layouts[c] for c in ins),
                                  out_shardings=tuple(layouts[c] for c in outs),
                                  donate_argnums=donate)

                def jitted(*args: Any, program: Any = program) -> Any:
                    with jax.set_mesh(self.mesh):  # the model pins activations to the rows
                        return program(*args)
            self._compiled[key] = jitted
            self.compilations += 1
        return self._compiled[key]

    def _copy_fn(self, n: int) -> Any:
        """Rows dst[i] <- rows src[i] for n pairs at once (dst >= rows: padding, dropped). All
        reads happen before any write, so a row can be copied from while it is overwritten."""
        def copy(cache: tuple, dst: jax.Array, src: jax.Array) -> tuple:
            return tuple(c.at[:, dst].set(c[:, src], mode="drop") for c in cache),

        fn = self._jit(("copy", n, self.length), copy, (0,), "cpp", "c")
        return lambda *args: fn(*args)[0]

    def _extend_fn(self, k: int, e: int, window: int, from_zero: bool, block: int) -> Any:
        graphdef = nnx.graphdef(self.model)

        def extend(state: Any, cache: tuple, hidden: jax.Array, ids: jax.Array,
                   rows: jax.Array, offsets: jax.Array, last: jax.Array,
                   targets: jax.Array) -> tuple:
            """Entry i: tokens ids[i] into cache row rows[i] from slot offsets[i]; its token
            last[i] gives row targets[i] its next hidden state (out of range: none, an entry
            that is not the end of its row's new tokens)."""
            model: Decoder = nnx.merge(graphdef, state)
            h, cache = model.extend_slots(ids, cache, rows, offsets, window, block, from_zero)
            final = h[jnp.arange(k), last].astype(hidden.dtype)
            return cache, hidden.at[targets].set(final, mode="drop")

        return self._jit(("extend", k, e, window, from_zero, block, self.length), extend,
                         (1, 2), "scrppppp", "cr")

    def _unstack_fn(self) -> Any:
        """The stacked blocks' state -> one state per layer (copies of its slices)."""
        layers = self.model.cfg.num_layers

        def unstack(stacked: Any) -> list:
            return [jax.tree.map(lambda x, i=i: x[i], stacked) for i in range(layers)]

        if "unstack" not in self._compiled:
            self._compiled["unstack"] = jax.jit(unstack)
            self.compilations += 1
        return self._compiled["unstack"]

    def _decode_fn(self, window: int, held: bool, picked: int) -> Any:
        """`held`: the per-layer weights come in as an argument (`_unstack_fn`'s output, kept
        by the caller while the weights stay the same); otherwise each call slices them out
        of the stack itself. `picked` < slots: the call decodes only the rows its `picked`
        argument names (the active ones, then out-of-range padding), so a few active rows
        cost a few rows' products; = slots: every row, `picked` unused."""
        graphdef = nnx.graphdef(self.model)
        layer_graphdef = nnx.graphdef(self.model.layers)  # a Block's, stacked or not
        p = self.params
        greedy = p.temperature == 0
        top_k = 0 if greedy else p.top_k
        nucleus = not greedy and p.top_p < 1.0
        steps, capacity, pad_id = self.steps_per_call, self.length, self.pad_id

        def decode(state: Any, layer_states: Any, cache: tuple, hidden: jax.Array,
                   lengths: jax.Array, active: jax.Array, seeds: jax.Array, counts: jax.Array,
                   limits: jax.Array, stop_ids: jax.Array, temperature: jax.Array,
                   top_p: jax.Array, picked_rows: jax.Array) -> tuple:
            if picked == hidden.shape[0]:
                return decode_rows(state, layer_states, cache, hidden, lengths, active, seeds,
                                   counts, limits, stop_ids, temperature, top_p, None)
            full = hidden.shape[0]

            def take(a: jax.Array) -> jax.Array:
                return jnp.take(a, picked_rows, axis=0, mode="clip")

            real = picked_rows < full  # padding names row `full`: reads clip, writes drop
            outs = decode_rows(state, layer_states, cache, take(hidden), take(lengths),
                               take(active) & real, take(seeds), take(counts), take(limits),
                               stop_ids, temperature, top_p, picked_rows)
            cache, (h, n, c, a, toks, logp), t = outs[0], outs[1:7], outs[7]

            def put(whole: jax.Array, part: jax.Array) -> jax.Array:
                return whole.at[picked_rows].set(part, mode="drop")

            return (cache, put(hidden, h), put(lengths, n), put(counts, c), put(active, a),
                    put(jnp.full((full, steps), pad_id, jnp.int32), toks),
                    put(jnp.zeros((full, steps), jnp.float32), logp), t)

        def decode_rows(state: Any, layer_states: Any, cache: tuple, hidden: jax.Array,
                        lengths: jax.Array, active: jax.Array, seeds: jax.Array,
                        counts: jax.Array, limits: jax.Array, stop_ids: jax.Array,
                        temperature: jax.Array, top_p: jax.Array,
                        cache_rows: jax.Array | None) -> tuple:
            model: Decoder = nnx.merge(graphdef, state)
            if layer_states is None:  # per-layer weights out of the stack once per call
                layer_states = [nnx.state(layer) for layer in model.unstacked_layers()]
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
                token, logp = draw_step(hidden, head, cfg, keys, temperature, top_k,
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
                                                   step_layers, cache_rows)
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

        return self._jit(("decode", window, held, picked, greedy, top_k, nucleus, self.length),
                         decode, (2, 3), "slcrrrrrrpppp", "crrrrrrp")
