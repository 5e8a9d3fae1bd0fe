"""Several processes, one training run: JAX's multi-controller runtime.

Every process runs the same program. `initialize` joins them (`jax.distributed.initialize`);
afterwards `jax.devices()` lists every process's devices, the mesh spans them all and the
parameters and optimizer state are global arrays sharded by the usual rules table. What stays
per process: its share of the tasks, its own rollout engine and MCP sessions, and a
process-local copy of the parameters the sampler reads (`local_copy`), because each process
samples its own episodes at its own pace, which one SPMD program over the global mesh cannot.

Rows of the global batch are laid out process-major: process p owns rows
[p * rows / n, (p + 1) * rows / n), which must be exactly the rows its devices hold under the
batch sharding (`check_batch_layout`); its local batch becomes its block of the global one
through `jax.make_array_from_process_local_data` (`global_batch`). The host-side helpers below
(`allgather_json`, `all_true`, `global_sum`) are collectives: every process must call them in
the same order.

Where the settings come from (config first, then the environment, then JAX's own cluster
detection: TPU pod slices, SLURM, Open MPI, Kubernetes): coordinator address
(`JAX_COORDINATOR_ADDRESS`), process count (`JAX_NUM_PROCESSES`), process id
(`JAX_PROCESS_ID`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import jax
import numpy as np
from jax.sharding import Mesh, NamedSharding

__all__ = ["DistributedConfig", "align_widths", "all_true", "allgather_json", "check_batch_layout",
           "global_batch", "global_sum", "host_array", "initialize", "is_primary",
           "local_copy", "local_mesh", "process_rows", "sampler_view"]


@dataclass(frozen=True)
class DistributedConfig:
    enabled: bool = False
    coordinator_address: str = ""  # host:port of process 0; "" = environment / detection
    num_processes: int = 0  # 0 = environment / detection
    process_id: int = -1  # -1 = environment / detection
    cpu_collectives: str = "gloo"  # cross-process collectives for CPU devices (tests)
    initialization_timeout_s: int = 300

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> DistributedConfig:
        known = set(cls.__dataclass_fields__)
        unknown = set(d) - known
        if unknown:
            raise ValueError(f"config.distributed: unknown fields {sorted(unknown)}; "
                             f"known: {sorted(known)}")
        return cls(**dict(d))


def _setting(value: Any, unset: Any, env: str, cast: type) -> Any:
    if value != unset:
        return value
    raw = os.environ.get(env, "")
    if not raw:
        return None
    try:
        return cast(raw)
    except ValueError:
        raise ValueError(f"environment variable {env}={raw!r} is not a {cast.__name__}") \
            from None


def initialize(cfg: DistributedConfig) -> None:
    """Join the run's processes (nothing when not enabled). Must run before any JAX
    computation; a bad setting raises ValueError naming the config field."""
    if not cfg.enabled:
        return
    address = _setting(cfg.coordinator_address, "", "JAX_COORDINATOR_ADDRESS", str)
    count = _setting(cfg.num_processes, 0, "JAX_NUM_PROCESSES", int)
    pid = _setting(cfg.process_id, -1, "JAX_PROCESS_ID", int)
    if count is not None and count < 1:
        raise ValueError(f"config.distributed.num_processes must be >= 1, got {count}")
    if count is not None and pid is not None and not 0 <= pid < count:
        raise ValueError(f"config.distributed.process_id={pid} is not in [0, {count})")
    if (count is not None or pid is not None) and address is None:
        raise ValueError("config.distributed: num_processes/process_id given without a "
                         "coordinator: set --config.distributed.coordinator_address=HOST:PORT "
                         "(process 0's address) or JAX_COORDINATOR_ADDRESS")
    if address is not None and ":" not in address:
        raise ValueError(f"config.distributed.coordinator_address={address!r}: expected "
                         "HOST:PORT")
    if cfg.cpu_collectives:  # only the CPU client reads it; GPUs/TPUs use their own fabric
        jax.config.update("jax_cpu_collectives_implementation", cfg.cpu_collectives)
    jax.distributed.initialize(coordinator_address=address, num_processes=count,
                               process_id=pid,
                               initialization_timeout=cfg.initialization_timeout_s)


def is_primary() -> bool:
    """Process 0: the one that writes metrics, plots and exports."""
    return jax.process_index() == 0


# ---------------------------------------------------------------------------- host collectives
def allgather_json(value: Any) -> list[Any]:
    """Every process's JSON-serialisable `value`, in process order (a collective)."""
    if jax.process_count() == 1:
        return [value]
    from jax.experimental import multihost_utils

    data = np.frombuffer(json.dumps(value).encode(), np.uint8)
    sizes = multihost_utils.process_allgather(np.asarray([data.size], np.int64))
    buf = np.zeros(int(np.max(sizes)), np.uint8)
    buf[:data.size] = data
    everyone = multihost_utils.process_allgather(buf)
    return [json.loads(bytes(row[:int(n)]).decode())
            for row, n in zip(everyone, np.ravel(sizes), strict=True)]


def global_sum(value: float) -> float:
    return float(sum(allgather_json(float(value))))


def all_true(flag: bool) -> bool:
    """True when `flag` holds on every process (a collective)."""
    return all(allgather_json(bool(flag)))


# ---------------------------------------------------------------------------- batch layout
def process_rows(rows: int) -> tuple[int, int]:
    """[start, stop) of this process's block of a global batch of `rows` rows."""
    n, p = jax.process_count(), jax.process_index()
    if rows % n:
        raise ValueError(f"a global batch of {rows} rows does not split over {n} processes")
    share = rows // n
    return p * share, (p + 1) * share


def check_batch_layout(sharding: NamedSharding, rows: int) -> None:
    """The rows this process's devices hold under `sharding` must be exactly its block
    (`process_rows`): the batch axes of the mesh must split over processes, process-major."""
    start, stop = process_rows(rows)
    held: set[int] = set()
    for index in sharding.addressable_devices_indices_map((rows, 1)).values():
        rows_slice = index[0]
        held.update(range(*rows_slice.indices(rows)))
    if held != set(range(start, stop)):
        raise ValueError(
            f"mesh {dict(sharding.mesh.shape)}: process {jax.process_index()} holds batch rows "
            f"{sorted(held)[:4]}... but its share is [{start}, {stop}). Every process must own "
            "one contiguous block of rows: the batch axes (data x fsdp) must be a multiple of "
            "the process count and the tensor axis must not span processes")


def align_widths(local: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Each array zero-padded (after its row axis) to the widest process's shape (a
    collective): the blocks of one global batch must agree on every axis but the rows."""
    widths = allgather_json({k: list(v.shape[1:]) for k, v in local.items()})
    out = {}
    for key, value in local.items():
        shape = [max(w[key][d] for w in widths) for d in range(value.ndim - 1)]
        pad = [(0, 0)] + [(0, s - have) for s, have in zip(shape, value.shape[1:], strict=True)]
        out[key] = np.pad(value, pad) if any(p[1] for p in pad) else value
    return out


def global_batch(local: Mapping[str, np.ndarray], mesh: Mesh) -> dict[str, jax.Array]:
    """Each process's block of rows (`align_widths` first) as one global batch, rows split over
    (data, fsdp); block p holds rows `process_rows(...)` of it."""
    from prove_jax.sharding import batch_sharding

    return {key: jax.make_array_from_process_local_data(
                batch_sharding(mesh, value.ndim), value,
                (value.shape[0] * jax.process_count(), *value.shape[1:]))
            for key, value in local.items()}


# ---------------------------------------------------------------------------- sampler copy
def local_mesh(mesh: Mesh) -> Mesh:
    """A mesh over this process's devices for its sampler: the global tensor split when it
    fits, the rest on fsdp."""
    from prove_jax.sharding import make_mesh

    devices = jax.local_devices()
    tensor = mesh.shape["tensor"] if len(devices) % mesh.shape["tensor"] == 0 else 1
    return make_mesh({"data": 1, "fsdp": len(devices) // tensor, "tensor": tensor}, devices)


def host_array(x: Any) -> np.ndarray:
    """The whole of a (possibly multi-process) array in host memory. A collective when the
    array spans processes: every process must call it, in the same order."""
    if isinstance(x, jax.Array) and not x.is_fully_addressable:
        from jax.experimental import multihost_utils

        return np.asarray(multihost_utils.process_allgather(x, tiled=True))
    return np.asarray(x)


def local_copy(params: Any, shardings: Any) -> Any:
    """A process-local copy of global parameter arrays, placed by `shardings` (a tree over a
    local mesh). A collective: the arrays travel through host memory (one full copy per
    process), which keeps it independent of how the global mesh is laid out."""
    from jax.experimental import multihost_utils

    host = multihost_utils.process_allgather(params, tiled=True)
    return jax.device_put(host, shardings)


def sampler_view(model: Any, mesh: Mesh) -> tuple[Any, Mesh, Callable[[Any], None] | None]:
    """(model, mesh, publish) for the sampler. One process: the trained model itself on the
    training mesh, and publish None (the trainer updates its model in place, no copy).
    Several: a copy on this process's devices (`local_mesh`), and `publish(params)`, a
    collective that refreshes the copy from the global parameters."""
    if jax.process_count() == 1:
        return model, mesh, None
    from flax import nnx

    from prove_jax.sharding import tree_shardings

    view_mesh = local_mesh(mesh)
    graphdef, state = nnx.split(model)
    view = nnx.merge(graphdef, local_copy(state, tree_shardings(state, view_mesh)))
    param_sh = tree_shardings(nnx.state(model, nnx.Param), view_mesh)

    def publish(params: Any) -> None:
        nnx.update(view, local_copy(params, param_sh))

    return view, view_mesh, publish
