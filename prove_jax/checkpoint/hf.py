"""Hugging Face checkpoints: load into (sharded) NNX models, export back to safetensors.

Loading streams each tensor from a memory map straight into its target sharding: a device only
ever receives its own slice, and the host never holds a second copy of the model. Every tensor's
presence and shape is checked before anything is read, so a bad checkpoint fails fast and no
half-initialised model is returned.
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import jax
import numpy as np
from flax import nnx
from jax.sharding import Mesh, SingleDeviceSharding

from prove_jax.checkpoint.hf_names import HFTensor, hf_tensor
from prove_jax.checkpoint.safetensors_io import SafetensorsFile, TensorToWrite, write_safetensors
from prove_jax.models.config import DTYPES, ModelConfig
from prove_jax.models.decoder import Decoder, abstract_model
from prove_jax.sharding import DEFAULT_RULES, Rules, path_name, tree_shardings

INDEX_FILE = "model.safetensors.index.json"
SINGLE_FILE = "model.safetensors"
log = logging.getLogger(__name__)

TOKENIZER_FILES = (
    "tokenizer.json", "tokenizer_config.json", "vocab.json", "merges.txt", "tokenizer.model",
    "special_tokens_map.json", "added_tokens.json", "chat_template.jinja", "chat_template.json",
)


class CheckpointError(ValueError):
    """A checkpoint that cannot be loaded or written; the message names the path or tensor."""


# ------------------------------------------------------------------------------------ loading
class CheckpointFiles:
    """Every tensor of a HF model dir (single file or sharded with an index), by name."""

    def __init__(self, model_dir: Path):
        index = model_dir / INDEX_FILE
        if index.exists():
            try:
                weight_map = json.loads(index.read_text())["weight_map"]
            except (json.JSONDecodeError, KeyError, TypeError) as err:
                raise CheckpointError(f"{index}: not a valid safetensors index ({err})") from err
            paths = [model_dir / f for f in dict.fromkeys(weight_map.values())]
            missing = [str(p) for p in paths if not p.exists()]
            if missing:
                raise CheckpointError(f"{index} names shard files that do not exist: {missing}")
        elif (model_dir / SINGLE_FILE).exists():
            paths = [model_dir / SINGLE_FILE]
        else:
            paths = sorted(model_dir.glob("*.safetensors"))
            if not paths:
                raise CheckpointError(f"no safetensors weights in {model_dir} (looked for "
                                      f"{SINGLE_FILE}, {INDEX_FILE}, *.safetensors)")
        self.where: dict[str, SafetensorsFile] = {}
        for path in paths:
            f = SafetensorsFile(path)
            for name in f.names():
                self.where[name] = f

    def __contains__(self, name: str) -> bool:
        return name in self.where

    def shape(self, name: str) -> tuple[int, ...]:
        return self.where[name].shape(name)

    def read(self, name: str) -> np.ndarray:
        return self.where[name].tensor(name)


def _hf_shape(spec: HFTensor, shape: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(shape[1:] if spec.stacked else shape)


def _check(files: CheckpointFiles, plan: list[tuple[HFTensor, Any]], cfg: ModelConfig,
           model_dir: Path) -> None:
    errors, used = [], set()
    for spec, leaf in plan:
        want = _hf_shape(spec, tuple(leaf.shape))
        for name in spec.names(cfg.num_layers):
            used.add(name)
            if name not in files:
                errors.append(f"missing tensor {name!r}")
            elif files.shape(name) != want:
                errors.append(f"tensor {name!r} in {files.where[name].path.name} has shape "
                              f"{list(files.shape(name))}, expected {list(want)}")
    if errors:
        more = f" (and {len(errors) - 8} more)" if len(errors) > 8 else ""
        raise CheckpointError(f"checkpoint {model_dir} does not fit its config: "
                              + "; ".join(errors[:8]) + more)
    # A tied model's checkpoint may still carry lm_head.weight (a copy of the embedding).
    tied_copy = {"lm_head.weight"} if cfg.tie_word_embeddings else set()
    unused = sorted(set(files.where) - used - tied_copy)
    if unused:
        log.warning("%s: ignoring %d tensors our %s model has no place for: %s", model_dir,
                    len(unused), cfg.model_type, ", ".join(unused[:5]))


def _load_leaf(files: CheckpointFiles, spec: HFTensor, leaf: Any, sharding: Any) -> jax.Array:
    dtype = np.dtype(leaf.dtype)

    def shard(index: tuple[slice, ...]) -> np.ndarray:
        if not spec.stacked:
            return np.asarray(files.read(spec.template)[index], dtype=dtype)
        layers = range(leaf.shape[0])[index[0]]
        first = files.read(spec.template.format(i=layers[0]))[index[1:]]
        out = np.empty((len(layers), *first.shape), dtype)
        for j, i in enumerate(layers):
            out[j] = files.read(spec.template.format(i=i))[index[1:]]
        return out

    return jax.make_array_from_callback(tuple(leaf.shape), sharding, shard)


def load_hf(model_dir: str | Path, mesh: Mesh | None = None, dtype: Any = None, *,
            compute_dtype: Any = None, remat: str = "none", attn_chunk: int = 1024,
            rules: Rules = DEFAULT_RULES) -> tuple[Decoder, ModelConfig]:
    """Load a HF checkpoint dir into our decoder.

    dtype: parameter dtype (default: the checkpoint's own `dtype`/`torch_dtype`, else float32).
    compute_dtype: activation dtype (default: dtype). With a mesh, each parameter is built
    directly in its sharding from the rules table.
    """
    model_dir = Path(model_dir)
    if not model_dir.is_dir():
        raise FileNotFoundError(f"model directory {model_dir} does not exist")
    raw = json.loads((model_dir / "config.json").read_text()) if (
        model_dir / "config.json").exists() else None
    if raw is None:
        raise CheckpointError(f"no config.json in {model_dir}")
    param_dtype = _dtype_name(dtype) or _checkpoint_dtype(raw)
    cfg = ModelConfig.from_hf(raw, param_dtype=param_dtype,
                              dtype=_dtype_name(compute_dtype) or param_dtype, remat=remat,
                              attn_chunk=attn_chunk)
    files = CheckpointFiles(model_dir)
    graphdef, abstract = nnx.split(abstract_model(cfg))
    leaves = jax.tree_util.tree_leaves_with_path(abstract)
    plan = [(hf_tensor(path_name(path)), leaf) for path, leaf in leaves]
    _check(files, plan, cfg, model_dir)
    if mesh is not None:
        shardings = tree_shardings(abstract, mesh, rules)
    else:
        shardings = jax.tree.map(lambda _: SingleDeviceSharding(jax.devices()[0]), abstract)
    leaves_sh = jax.tree.leaves(shardings)
    # Tensors load in parallel threads: numpy copies and device puts release the GIL.
    with ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 1)) as pool:
        arrays = list(pool.map(lambda job: _load_leaf(files, *job),
                               [(spec, leaf, sh) for (spec, leaf), sh in zip(plan, leaves_sh,
                                                                           strict=True)]))
    state = jax.tree.unflatten(jax.tree.structure(abstract), arrays)
    return nnx.merge(graphdef, state), cfg


def _dtype_name(dtype: Any) -> str | None:
    if dtype is None:
        return None
    name = np.dtype(dtype).name if not isinstance(dtype, str) else dtype
    if name not in DTYPES:
        raise CheckpointError(f"unsupported dtype {dtype!r}; use one of {DTYPES}")
    return name


def _checkpoint_dtype(raw: dict) -> str:
    name = raw.get("dtype") or raw.get("torch_dtype")
    return name if name in DTYPES else "float32"


# ------------------------------------------------------------------------------------ export
def parse_size(size: int | str) -> int:
    """Bytes from 5_000_000 or '5GB' / '500MB' / '1GiB' (HF's convention: GB = 1e9)."""
    if isinstance(size, int):
        return size
    text = size.upper().replace("IB", "iB")
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(i?)B?\s*", text)
    if not match:
        raise ValueError(f"cannot parse size {size!r}; use e.g. '5GB' or a byte count")
    number, unit, binary = match.groups()
    base = 1024 if binary else 1000
    return int(float(number) * base ** " KMGT".index(unit or " "))


def _tensors_to_write(model: Decoder, cfg: ModelConfig, dtype: np.dtype) -> list[TensorToWrite]:
    state = nnx.state(model, nnx.Param)
    top: list[TensorToWrite] = []
    layers: list[list[TensorToWrite]] = [[] for _ in range(cfg.num_layers)]
    for path, array in jax.tree_util.tree_leaves_with_path(state):
        spec = hf_tensor(path_name(path))
        shape = _hf_shape(spec, tuple(array.shape))
        if not spec.stacked:
            top.append(TensorToWrite(spec.template, shape, dtype, _producer(array, None)))
            continue
        for i in range(cfg.num_layers):
            layers[i].append(TensorToWrite(spec.template.format(i=i), shape, dtype,
                                           _producer(array, i)))
    embed = [t for t in top if t.name == "model.embed_tokens.weight"]
    rest = [t for t in top if t.name != "model.embed_tokens.weight"]
    return embed + [t for layer in layers for t in layer] + rest


def _producer(array: jax.Array, layer: int | None) -> Callable[[], np.ndarray]:
    """Fetch one tensor (one layer of a stacked parameter) to host only when it is written."""
    return lambda: np.asarray(jax.device_get(array if layer is None else array[layer]))


def _shards(tensors: list[TensorToWrite], limit: int) -> Iterator[list[TensorToWrite]]:
    current: list[TensorToWrite] = []
    size = 0
    for t in tensors:
        if current and size + t.nbytes > limit:
            yield current
            current, size = [], 0
        current.append(t)
        size += t.nbytes
    if current:
        yield current


def export_hf(model: Decoder, config: ModelConfig, out_dir: str | Path,
              tokenizer_dir: str | Path | None = None, max_shard_size: int | str = "5GB",
              dtype: Any = None) -> Path:
    """Write safetensors (sharded with an index past max_shard_size), config.json,
    generation_config.json and the tokenizer files: a dir transformers and vLLM load.

    dtype casts on the way out (e.g. float32 training params to bfloat16). Files are written to
    a temporary dir first, so a failed export never leaves a half-written model behind.
    """
    out_dir = Path(out_dir)
    name = _dtype_name(dtype) or config.param_dtype
    tok_files = _tokenizer_files(tokenizer_dir) if tokenizer_dir is not None else []
    tmp = out_dir.parent / f".{out_dir.name}.tmp-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    try:
        tensors = _tensors_to_write(model, config, np.dtype(name))
        shards = list(_shards(tensors, parse_size(max_shard_size)))
        weight_map, total = {}, 0
        for k, shard in enumerate(shards, start=1):
            fname = SINGLE_FILE if len(shards) == 1 else (
                f"model-{k:05d}-of-{len(shards):05d}.safetensors")
            total += write_safetensors(tmp / fname, shard)
            weight_map.update({t.name: fname for t in shard})
        if len(shards) > 1:
            index = {"metadata": {"total_size": total}, "weight_map": weight_map}
            (tmp / INDEX_FILE).write_text(json.dumps(index, indent=2, sort_keys=True))
        hf_config = {**config.to_hf(), "dtype": name}
        (tmp / "config.json").write_text(json.dumps(hf_config, indent=2, sort_keys=True))
        for f in tok_files:
            shutil.copy2(f, tmp / f.name)
        if not (tmp / "generation_config.json").exists():
            (tmp / "generation_config.json").write_text(json.dumps(_generation_config(config),
                                                                   indent=2))
        _replace_dir_contents(tmp, out_dir)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return out_dir


def _tokenizer_files(tokenizer_dir: str | Path) -> list[Path]:
    tokenizer_dir = Path(tokenizer_dir)
    if not tokenizer_dir.is_dir():
        raise FileNotFoundError(f"tokenizer directory {tokenizer_dir} does not exist")
    files = [tokenizer_dir / n for n in TOKENIZER_FILES if (tokenizer_dir / n).exists()]
    if not files:
        raise CheckpointError(f"no tokenizer files in {tokenizer_dir} (looked for "
                              f"{', '.join(TOKENIZER_FILES)})")
    generation = tokenizer_dir / "generation_config.json"
    return files + ([generation] if generation.exists() else [])


def _generation_config(cfg: ModelConfig) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in ("bos_token_id", "eos_token_id", "pad_token_id"):
        value = getattr(cfg, key)
        if value is not None:
            out[key] = list(value) if isinstance(value, tuple) else value
    return out


def _replace_dir_contents(src: Path, dst: Path) -> None:
    """Swap the finished export in for dst by renaming directories.

    Files of dst that the export does not write (a user's notes) are kept; weights of an earlier
    export are not. A crash between the two renames leaves the old export intact in the backup.
    """
    if dst.exists():
        for f in dst.iterdir():
            is_weights = f.name.startswith("model") and f.name.endswith(".safetensors")
            if f.is_file() and not is_weights and f.name != INDEX_FILE and not (
                    src / f.name).exists():
                shutil.copy2(f, src / f.name)
        backup = dst.parent / f".{dst.name}.old-{os.getpid()}"
        os.rename(dst, backup)
        os.rename(src, dst)
        shutil.rmtree(backup)
    else:
        dst.parent.mkdir(parents=True, exist_ok=True)
        os.rename(src, dst)
