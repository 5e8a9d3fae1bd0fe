"""Device mesh and parameter partitioning as data: a table of (path regex -> PartitionSpec).

Mesh axes: `data` (pure data parallel), `fsdp` (data parallel with sharded parameters and
optimizer state), `tensor` (Megatron-style: heads and MLP columns split). Parameter paths are
the NNX state paths joined by "/", e.g. `layers/attn/q_proj/kernel` [L, N*H, D]: kernels are
[out, in] as in torch checkpoints.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from flax import nnx
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P

log = logging.getLogger(__name__)

MESH_AXES = ("data", "fsdp", "tensor")
BATCH_AXES = ("data", "fsdp")  # the batch dimension of activations is split over both

Rules = Sequence[tuple[str, P]]

# First match wins. Stacked layer params carry a leading L axis, never sharded.
DEFAULT_RULES: Rules = (
    (r"^embed$", P("tensor", "fsdp")),  # V D
    (r"^layers/attn/(q|k|v)_proj/kernel$", P(None, "tensor", "fsdp")),  # L (N|K)*H D
    (r"^layers/attn/(q|k|v)_proj/bias$", P(None, "tensor")),
    (r"^layers/attn/o_proj/kernel$", P(None, "fsdp", "tensor")),  # L D N*H
    (r"^layers/mlp/(gate|up)_proj/kernel$", P(None, "tensor", "fsdp")),  # L F D
    (r"^layers/mlp/(gate|up)_proj/bias$", P(None, "tensor")),
    (r"^layers/mlp/down_proj/kernel$", P(None, "fsdp", "tensor")),  # L D F
    (r"^lm_head/kernel$", P("tensor", "fsdp")),  # V D
    (r".*", P()),  # norms and remaining biases: replicated
)


class MeshError(ValueError):
    """A mesh shape that does not fit the devices."""


def mesh_shape(axes: Mapping[str, int], n_devices: int) -> dict[str, int]:
    """Resolve one -1 entry to the devices left over; check the product."""
    unknown = [k for k in axes if k not in MESH_AXES]
    if unknown:
        raise MeshError(f"unknown mesh axes {unknown}; allowed: {MESH_AXES}")
    shape = {name: int(axes.get(name, 1)) for name in MESH_AXES}
    free = [k for k, v in shape.items() if v == -1]
    if len(free) > 1:
        raise MeshError(f"at most one mesh axis may be -1, got {free}")
    fixed = math.prod(v for v in shape.values() if v != -1)
    if any(v == 0 or v < -1 for v in shape.values()):
        raise MeshError(f"mesh sizes must be positive or -1, got {shape}")
    if free:
        if n_devices % fixed:
            raise MeshError(f"{n_devices} devices do not divide by the fixed axes {shape}")
        shape[free[0]] = n_devices // fixed
    if math.prod(shape.values()) != n_devices:
        raise MeshError(f"mesh {shape} needs {math.prod(shape.values())} devices, "
                        f"have {n_devices}")
    return shape


def make_mesh(axes: Mapping[str, int] | None = None,
              devices: Sequence[jax.Device] | None = None) -> Mesh:
    """A (data, fsdp, tensor) mesh; default puts every device on fsdp."""
    devices = list(devices if devices is not None else jax.devices())
    shape = mesh_shape(axes or {"fsdp": -1}, len(devices))
    grid = np.asarray(devices, dtype=object).reshape(tuple(shape[a] for a in MESH_AXES))
    return Mesh(grid, MESH_AXES)


def path_name(path: tuple[Any, ...]) -> str:
    """'layers/attn/q_proj/kernel' from a jax key path or a tuple of names."""
    parts = []
    for key in path:
        if isinstance(key, jax.tree_util.DictKey):
            parts.append(str(key.key))
        elif isinstance(key, jax.tree_util.GetAttrKey):
            if key.name != "value":
                parts.append(key.name)
        elif isinstance(key, str | int):
            parts.append(str(key))
    return "/".join(parts)


def partition_spec(name: str, shape: tuple[int, ...], mesh: Mesh,
                   rules: Rules = DEFAULT_RULES) -> P:
    """The rule's spec for `name`, with any axis that does not divide its dim dropped."""
    match = next(((pat, spec) for pat, spec in rules if re.search(pat, name)), None)
    if match is None:
        raise KeyError(f"no partition rule matches parameter {name!r}")
    pattern, spec = match
    if len(spec) > len(shape):
        raise ValueError(f"rule {pattern!r} spec {spec} has more dims than {name} {shape}")
    fitted = []
    for dim, axis in zip(shape, tuple(spec) + (None,) * (len(shape) - len(spec)), strict=True):
        size = _axis_size(mesh, axis)
        if axis is not None and dim % size:
            log.warning("%s: dim %d not divisible by mesh axis %s=%d; replicating it",
                        name, dim, axis, size)
            axis = None
        fitted.append(axis)
    while fitted and fitted[-1] is None:  # P(None, None) and P() mean the same; print the short
        fitted.pop()
    return P(*fitted)


def _axis_size(mesh: Mesh, axis: Any) -> int:
    if axis is None:
        return 1
    names = axis if isinstance(axis, tuple) else (axis,)
    return math.prod(mesh.shape[a] for a in names)


def tree_shardings(tree: Any, mesh: Mesh, rules: Rules = DEFAULT_RULES) -> Any:
    """NamedShardings for every array leaf of a parameter tree (an nnx.State or dict)."""
    return jax.tree_util.tree_map_with_path(
        lambda path, leaf: NamedSharding(
            mesh, partition_spec(path_name(path), tuple(leaf.shape), mesh, rules)),
        tree,
    )


def constrain_batch(x: jax.Array) -> jax.Array:
    """Keep an activation's rows split over (data, fsdp) inside a jit run under
    `jax.set_mesh`: without it XLA may follow the fsdp-sharded weights instead and give every
    device all rows of a micro-batch (measured: 4x the activation memory of the train step).
    A no-op with no mesh set."""
    mesh = jax.sharding.get_abstract_mesh()
    if mesh.empty or x.shape[0] % math.prod(mesh.shape[a] for a in BATCH_AXES):
        return x
    return jax.lax.with_sharding_constraint(x, P(BATCH_AXES, *([None] * (x.ndim - 1))))


def embed_lookup(table: jax.Array, ids: jax.Array) -> jax.Array:
    """table[ids] ([V, D] rows for [B, T] ids -> [B, T, D]) with its rows split over the batch
    axes. Under a mesh the table is first gathered over `fsdp` (kept split over the vocabulary,
    as every FSDP weight is gathered before use): a lookup into a D-split table gives D-split
    rows, and neither XLA's move from those to batch-split rows nor the backward's scatter back
    has an efficient form, so it replicated them (an "involuntary full rematerialization")."""
    mesh = jax.sharding.get_abstract_mesh()
    if not mesh.empty:
        vocab_spec = partition_spec("embed", tuple(table.shape), mesh)
        vocab_axis = vocab_spec[0] if len(vocab_spec) else None
        table = jax.lax.with_sharding_constraint(table, P(vocab_axis, None))
    return constrain_batch(jnp.take(table, ids, axis=0))


def batch_sharding(mesh: Mesh, ndim: int = 2) -> NamedSharding:
    """Inputs [B, T, ...]: batch split over data and fsdp."""
    return NamedSharding(mesh, P(BATCH_AXES, *([None] * (ndim - 1))))


def shard_model(model: nnx.Module, mesh: Mesh, rules: Rules = DEFAULT_RULES) -> nnx.Module:
    """Place a model's parameters on the mesh by the rules (in place) and return it."""
    state = nnx.state(model)
    nnx.update(model, jax.device_put(state, tree_shardings(state, mesh, rules)))
    return model


def sharded_forward(model: nnx.Module, mesh: Mesh, rules: Rules = DEFAULT_RULES
                    ) -> tuple[Callable[..., jax.Array], Any]:
    """A jitted `forward(state, input_ids, attention_mask) -> logits [B, T, V]` with explicit
    in/out shardings, and the model state placed on the mesh to call it with."""
    graphdef, state = nnx.split(model)
    state_sh = tree_shardings(state, mesh, rules)
    tokens_sh = batch_sharding(mesh, 2)
    logits_sh = NamedSharding(mesh, P(BATCH_AXES, None, "tensor"))

    def forward(state: Any, input_ids: jax.Array, attention_mask: jax.Array) -> jax.Array:
        return nnx.merge(graphdef, state)(input_ids, attention_mask=attention_mask)

    jitted = jax.jit(forward, in_shardings=(state_sh, tokens_sh, tokens_sh),
                     out_shardings=logits_sh)
    return jitted, jax.device_put(state, state_sh)
