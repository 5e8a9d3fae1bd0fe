"""A llama.cpp GGUF file as a Hugging Face checkpoint dir: config.json, float32 safetensors, the
tokenizer, and a chat template that renders tools (Hermes form) where the model's own has none.

Why our own reader rather than transformers' GGUF loading: that path builds a torch model, and
torch is a test dependency here (transformers is the parity oracle in the tests, loading the
same file). The `gguf` package dequantizes each tensor; llama.cpp's converter stored the Q and K
projections with their rows permuted for its rotary layout, which is undone here.
Quantized weights stay on their grid: float32 holds them exactly, so the import adds no error.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from prove_jax.checkpoint.safetensors_io import TensorToWrite, write_safetensors
from prove_jax.tools.hermes_template import hermes_chatml_template, system_default_of

__all__ = ["GGUFImportError", "import_gguf", "llama_tensor_name"]

_LAYER_NAMES = {
    "attn_q": "self_attn.q_proj", "attn_k": "self_attn.k_proj", "attn_v": "self_attn.v_proj",
    "attn_output": "self_attn.o_proj", "ffn_gate": "mlp.gate_proj", "ffn_up": "mlp.up_proj",
    "ffn_down": "mlp.down_proj", "attn_norm": "input_layernorm",
    "ffn_norm": "post_attention_layernorm",
}
_TOP_NAMES = {"token_embd": "model.embed_tokens", "output_norm": "model.norm",
              "output": "lm_head"}
_CONFIG_DROP = ("quantization_config", "transformers_version", "_name_or_path")


class GGUFImportError(ValueError):
    """A GGUF file this importer cannot turn into a checkpoint (the message names why)."""


def llama_tensor_name(gguf_name: str) -> str:
    """The HF Llama name of a llama.cpp tensor (`blk.3.attn_q.weight` ->
    `model.layers.3.self_attn.q_proj.weight`)."""
    stem, _, kind = gguf_name.rpartition(".")
    parts = stem.split(".")
    if parts[0] == "blk" and len(parts) == 3 and parts[2] in _LAYER_NAMES:
        return f"model.layers.{parts[1]}.{_LAYER_NAMES[parts[2]]}.{kind}"
    if len(parts) == 1 and parts[0] in _TOP_NAMES:
        return f"{_TOP_NAMES[parts[0]]}.{kind}"
    raise GGUFImportError(f"tensor {gguf_name!r} has no Hugging Face Llama name")


def _unpermute(w: np.ndarray, heads: int) -> np.ndarray:
    """Undo llama.cpp's rotary row order: per head it stores the even rotary rows, then the odd
    ones (interleaved pairs); HF keeps the two halves apart."""
    rows = w.shape[0]
    return w.reshape(heads, rows // heads // 2, 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)


def _field(reader: Any, key: str, default: Any = None) -> Any:
    field = reader.fields.get(key)
    return default if field is None else field.contents()


def _read_tensors(path: Path) -> tuple[dict[str, Any], list[TensorToWrite]]:
    import gguf

    reader = gguf.GGUFReader(path)
    arch = _field(reader, "general.architecture")
    if arch != "llama":
        raise GGUFImportError(f"{path.name}: architecture {arch!r} is not supported (llama only)")
    heads = int(_field(reader, "llama.attention.head_count"))
    kv_heads = int(_field(reader, "llama.attention.head_count_kv", heads))
    meta = {"names": set(), "heads": heads, "kv_heads": kv_heads}
    tensors = []
    for t in reader.tensors:
        name = llama_tensor_name(t.name)
        shape = tuple(int(n) for n in reversed(t.shape.tolist()))  # GGUF lists dims fastest first
        regroup = heads if ".q_proj." in name else kv_heads if ".k_proj." in name else 0

        def produce(t: Any = t, shape: tuple[int, ...] = shape, regroup: int = regroup):
            w = gguf.quants.dequantize(t.data, t.tensor_type).astype(np.float32).reshape(shape)
            return _unpermute(w, regroup) if regroup else w

        meta["names"].add(name)
        tensors.append(TensorToWrite(name, shape, np.dtype(np.float32), produce))
    return meta, tensors


def import_gguf(gguf_path: str | Path, out_dir: str | Path) -> Path:
    """Write `out_dir` (replaced if it exists) as an HF checkpoint of the GGUF's Llama model.

    The tokenizer keeps its own chat template when that already renders tools; otherwise it
    gets the Hermes ChatML template with the model's own default system sentence."""
    from transformers import AutoConfig, AutoTokenizer

    gguf_path, out_dir = Path(gguf_path), Path(out_dir)
    if not gguf_path.is_file():
        raise FileNotFoundError(f"GGUF file {gguf_path} does not exist")
    meta, tensors = _read_tensors(gguf_path)
    config = AutoConfig.from_pretrained(gguf_path.parent, gguf_file=gguf_path.name).to_dict()
    for key in _CONFIG_DROP:
        config.pop(key, None)
    config.update(architectures=["LlamaForCausalLM"], dtype="float32",
                  tie_word_embeddings="lm_head.weight" not in meta["names"])
    tokenizer = AutoTokenizer.from_pretrained(gguf_path.parent, gguf_file=gguf_path.name)
    if "tools" not in (tokenizer.chat_template or ""):
        tokenizer.chat_template = hermes_chatml_template(
            system_default_of(tokenizer.chat_template))

    out_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.", dir=out_dir.parent))
    tmp.chmod(0o755)  # mkdtemp makes it private; a checkpoint dir is not
    try:
        write_safetensors(tmp / "model.safetensors", tensors)
        (tmp / "config.json").write_text(json.dumps(config, indent=2, sort_keys=True) + "\n")
        generation = {k: config[k] for k in ("bos_token_id", "eos_token_id", "pad_token_id")
                      if config.get(k) is not None}
        (tmp / "generation_config.json").write_text(json.dumps(generation, indent=2) + "\n")
        tokenizer.save_pretrained(tmp)
        if out_dir.exists():
            shutil.rmtree(out_dir)
        tmp.rename(out_dir)  # a crash before this line leaves no half-written out_dir
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return out_dir
