"""Shared edge code for entry points: the fake-device flag, and the model from a config."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # jax must not be imported before fake_cpu_devices runs
    from jax.sharding import Mesh
    from ml_collections import ConfigDict

    from prove_jax.models import Decoder, ModelConfig


def fake_cpu_devices(n: int) -> None:
    """Ask XLA for n host devices; must run before jax is imported (a no-op on accelerators)."""
    flag = f"--xla_force_host_platform_device_count={n}"
    if "xla_force_host_platform_device_count" not in os.environ.get("XLA_FLAGS", ""):
        os.environ["XLA_FLAGS"] = f"{os.environ.get('XLA_FLAGS', '')} {flag}".strip()


def model_from_config(model_cfg: ConfigDict, mesh: Mesh | None = None
                      ) -> tuple[Decoder, ModelConfig]:
    """(model, ModelConfig) from `config.model`: a HF checkpoint dir or a named preset."""
    from prove_jax.checkpoint.hf import load_hf
    from prove_jax.models import init_model, preset
    from prove_jax.sharding import shard_model

    if model_cfg.hf_path:
        return load_hf(model_cfg.hf_path, mesh=mesh, dtype=model_cfg.param_dtype,
                       compute_dtype=model_cfg.dtype, remat=model_cfg.remat)
    if not model_cfg.preset:
        raise ValueError("config.model needs either hf_path (a HF checkpoint dir) or preset")
    cfg = preset(model_cfg.preset, param_dtype=model_cfg.param_dtype, dtype=model_cfg.dtype,
                 remat=model_cfg.remat)
    model = init_model(cfg)
    return (shard_model(model, mesh) if mesh is not None else model), cfg
