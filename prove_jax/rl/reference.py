"""The frozen reference policy of the KL term: log-probs of every token of a batch under the
parameters training started from.

The reference is a copy of the initial parameters in the model's compute dtype (bfloat16 for
the real configs: half the float32 master weights), sharded like them. Its log-probs are
computed in micro-batches, like the train step, so memory stays one micro-batch of activations.
A group-packed batch (`prove_jax.rl.group_batch`) goes through `packed`: each group's prompt
once, its suffixes in `micro_batches` parts along the group.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from flax import nnx
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

from prove_jax.rl.objectives import sequence_logprobs
from prove_jax.rl.shared_prefix import packed_logprobs
from prove_jax.sharding import BATCH_AXES, DEFAULT_RULES, tree_shardings

__all__ = ["ReferenceLogprobs"]


class ReferenceLogprobs:
    def __init__(self, graphdef: Any, params: Any, mesh: Any, chunk_size: int,
                 micro_batches: int, temperature: float = 1.0, dtype: Any = jnp.float32):
        self.mesh = mesh
        shardings = tree_shardings(params, mesh, DEFAULT_RULES)
        self.params = jax.jit(lambda p: jax.tree.map(lambda x: x.astype(dtype), p),
                              out_shardings=shardings)(params)
        rows = NamedSharding(mesh, P(BATCH_AXES, None))

        def logp(ref: Any, tokens: jax.Array, mask: jax.Array, index: jax.Array) -> jax.Array:
            def split(x: jax.Array) -> jax.Array:
                return x.reshape(micro_batches, x.shape[0] // micro_batches, *x.shape[1:])

            def one(xs: tuple[jax.Array, ...]) -> jax.Array:
                model = nnx.merge(graphdef, jax.tree.map(lambda x: x, ref))  # fresh Variables
                return sequence_logprobs(model, xs[0], xs[1], chunk_size,
                                         temperature=temperature, target_index=xs[2])

            out = jax.lax.map(one, (split(tokens), split(mask), split(index)))
            return out.reshape(index.shape).astype(jnp.float32)

        self._fn = jax.jit(logp, in_shardings=(shardings, rows, rows, rows), out_shardings=rows)
        self._packed = jax.jit(
            lambda ref, batch: packed_logprobs(graphdef, ref, batch, chunk_size, temperature,
                                               micro_batches).astype(jnp.float32),
            out_shardings=NamedSharding(mesh, P(BATCH_AXES, None, None)))

    def __call__(self, tokens: np.ndarray, attention_mask: np.ndarray,
                 target_index: np.ndarray) -> jax.Array:
        """[B, R] reference log-probs of the predictions at `target_index` (compact batch)."""
        with jax.set_mesh(self.mesh):
            return self._fn(self.params, tokens, attention_mask, target_index)


    def packed(self, batch: dict[str, Any]) -> jax.Array:
        """[N, G, R] reference log-probs of a group-packed batch's sampled tokens."""
        keys = ("prefix_tokens", "prefix_mask", "tokens", "attention_mask", "positions",
                "target_index")
        arrays = {k: jax.device_put(batch[k], NamedSharding(
            self.mesh, P(BATCH_AXES, *([None] * (np.ndim(batch[k]) - 1))))) for k in keys}
        with jax.set_mesh(self.mesh):
            return self._packed(self.params, arrays)
