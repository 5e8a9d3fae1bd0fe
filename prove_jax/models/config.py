"""Model configuration: one dataclass for every family, parsed from Hugging Face `config.json`.

A family is a set of switches here (q/k norm, biases, Granite's multipliers), not a separate model:
Llama is the plain case (optional biases, llama3 rope scaling).
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import Any

SUPPORTED_MODEL_TYPES = ("qwen3", "qwen2", "granite", "llama")
SUPPORTED_ROPE_TYPES = ("default", "linear", "yarn", "llama3")
REMAT_POLICIES = ("none", "full", "dots", "dots_no_batch")
DTYPES = ("float32", "bfloat16", "float16")

_ARCHITECTURES = {
    "qwen3": "Qwen3ForCausalLM",
    "qwen2": "Qwen2ForCausalLM",
    "granite": "GraniteForCausalLM",
    "llama": "LlamaForCausalLM",  # Llama 2 / 3.x, SmolLM2
}


class ConfigError(ValueError):
    """A model configuration that cannot be built; the message names the field or file."""


@dataclasses.dataclass(frozen=True)
class ModelConfig:
    model_type: str
    vocab_size: int
    hidden_size: int
    intermediate_size: int
    num_layers: int
    num_heads: int
    num_kv_heads: int
    head_dim: int
    rms_norm_eps: float = 1e-6
    rope_theta: float = 10000.0
    # Rope scaling as sorted (key, value) pairs so the config stays hashable (a jit static arg).
    rope_scaling: tuple[tuple[str, Any], ...] | None = None
    max_position_embeddings: int = 32768
    tie_word_embeddings: bool = False
    qkv_bias: bool = False  # qwen2: always; qwen3/granite/llama: `attention_bias`
    o_bias: bool = False  # qwen3/granite/llama `attention_bias` also covers o_proj
    mlp_bias: bool = False  # granite/llama `mlp_bias`
    qk_norm: bool = False  # qwen3
    embedding_multiplier: float = 1.0  # granite
    residual_multiplier: float = 1.0  # granite
    attention_multiplier: float | None = None  # granite; None means 1/sqrt(head_dim)
    logits_scaling: float = 1.0  # granite divides logits by this
    bos_token_id: int | None = None
    eos_token_id: int | tuple[int, ...] | None = None
    pad_token_id: int | None = None
    # Runtime knobs (not part of the checkpoint).
    param_dtype: str = "float32"
    dtype: str = "float32"  # compute dtype
    remat: str = "none"
    # Full-sequence attention runs in query blocks of this many rows when T exceeds it (bounded
    # memory, same result; prove_jax.models.attention); 0 = always dense.
    attn_chunk: int = 1024
    # The parsed config.json, kept so export writes back every field we do not model.
    hf_config: dict | None = dataclasses.field(default=None, compare=False, hash=False, repr=False)

    def __post_init__(self) -> None:
        if self.model_type not in SUPPORTED_MODEL_TYPES:
            raise ConfigError(
                f"unsupported model_type {self.model_type!r}; supported: {SUPPORTED_MODEL_TYPES}"
            )
        for name in ("vocab_size", "hidden_size", "intermediate_size", "num_layers",
                     "num_heads", "num_kv_heads", "head_dim"):
            value = getattr(self, name)
            if not isinstance(value, int) or value <= 0:
                raise ConfigError(f"{name} must be a positive integer, got {value!r}")
        if self.num_heads % self.num_kv_heads:
            raise ConfigError(
                f"num_heads ({self.num_heads}) must be a multiple of num_kv_heads "
                f"({self.num_kv_heads})"
            )
        if self.param_dtype not in DTYPES or self.dtype not in DTYPES:
            raise ConfigError(f"dtypes must be among {DTYPES}, got {self.param_dtype}/{self.dtype}")
        if not isinstance(self.attn_chunk, int) or self.attn_chunk < 0:
            raise ConfigError(f"attn_chunk must be an integer >= 0, got {self.attn_chunk!r}")
        if self.remat not in REMAT_POLICIES:
            raise ConfigError(f"remat must be one of {REMAT_POLICIES}, got {self.remat!r}")
        rope_type = self.rope_dict.get("rope_type", "default")
        if rope_type not in SUPPORTED_ROPE_TYPES:
            raise ConfigError(
                f"unsupported rope scaling type {rope_type!r}; supported: {SUPPORTED_ROPE_TYPES}"
            )

    @property
    def rope_dict(self) -> dict[str, Any]:
        return dict(self.rope_scaling or ())

    @property
    def attention_scale(self) -> float:
        if self.attention_multiplier is not None:
            return float(self.attention_multiplier)
        return 1.0 / math.sqrt(self.head_dim)

    def replace(self, **changes: Any) -> ModelConfig:
        return dataclasses.replace(self, **changes)

    # ---------------------------------------------------------------- Hugging Face config.json
    @classmethod
    def from_hf(cls, source: str | Path | dict, **overrides: Any) -> ModelConfig:
        """Parse a HF `config.json` (a model dir, the file itself, or its dict)."""
        raw = _read_hf_config(source)
        model_type = raw.get("model_type")
        if model_type not in SUPPORTED_MODEL_TYPES:
            raise ConfigError(
                f"unsupported model_type {model_type!r} in {_describe(source)}; "
                f"supported: {SUPPORTED_MODEL_TYPES}"
            )

        def need(key: str) -> Any:
            if key not in raw:
                raise ConfigError(f"{_describe(source)} lacks required field {key!r}")
            return raw[key]

        hidden, heads = need("hidden_size"), need("num_attention_heads")
        attention_bias = bool(raw.get("attention_bias", False))
        fields: dict[str, Any] = dict(
            model_type=model_type,
            vocab_size=need("vocab_size"),
            hidden_size=hidden,
            intermediate_size=need("intermediate_size"),
            num_layers=need("num_hidden_layers"),
            num_heads=heads,
            num_kv_heads=raw.get("num_key_value_heads") or heads,
            head_dim=raw.get("head_dim") or hidden // heads,
            rms_norm_eps=float(raw.get("rms_norm_eps", 1e-6)),
            max_position_embeddings=int(raw.get("max_position_embeddings", 32768)),
            tie_word_embeddings=bool(raw.get("tie_word_embeddings", False)),
            bos_token_id=raw.get("bos_token_id"),
            eos_token_id=_tuple_or_int(raw.get("eos_token_id")),
            pad_token_id=raw.get("pad_token_id"),
            hf_config=raw,
        )
        theta, scaling = _parse_rope(raw)
        fields["rope_theta"] = theta
        fields["rope_scaling"] = scaling
        if model_type == "qwen3":
            fields.update(qk_norm=True, qkv_bias=attention_bias, o_bias=attention_bias)
        elif model_type == "qwen2":
            fields.update(qkv_bias=True)
        elif model_type == "llama":
            fields.update(qkv_bias=attention_bias, o_bias=attention_bias,
                          mlp_bias=bool(raw.get("mlp_bias", False)))
        elif model_type == "granite":
            fields.update(
                qkv_bias=attention_bias,
                o_bias=attention_bias,
                mlp_bias=bool(raw.get("mlp_bias", False)),
                embedding_multiplier=float(raw.get("embedding_multiplier", 1.0)),
                residual_multiplier=float(raw.get("residual_multiplier", 1.0)),
                attention_multiplier=float(raw.get("attention_multiplier", 1.0)),
                logits_scaling=float(raw.get("logits_scaling", 1.0)),
            )
        fields.update(overrides)
        return cls(**fields)

    def to_hf(self) -> dict[str, Any]:
        """The `config.json` dict for export: the loaded one updated with our values."""
        out = dict(self.hf_config or {})
        out.update(
            architectures=[_ARCHITECTURES[self.model_type]],
            model_type=self.model_type,
            vocab_size=self.vocab_size,
            hidden_size=self.hidden_size,
            intermediate_size=self.intermediate_size,
            num_hidden_layers=self.num_layers,
            num_attention_heads=self.num_heads,
            num_key_value_heads=self.num_kv_heads,
            head_dim=self.head_dim,
            rms_norm_eps=self.rms_norm_eps,
            max_position_embeddings=self.max_position_embeddings,
            tie_word_embeddings=self.tie_word_embeddings,
            hidden_act="silu",
            dtype=self.param_dtype,
        )
        out.pop("torch_dtype", None)
        rope = {"rope_type": "default", **self.rope_dict, "rope_theta": self.rope_theta}
        out["rope_parameters"] = rope
        out.pop("rope_theta", None)
        out.pop("rope_scaling", None)
        for key in ("bos_token_id", "eos_token_id", "pad_token_id"):
            value = getattr(self, key)
            if value is not None:
                out[key] = list(value) if isinstance(value, tuple) else value
        if self.model_type in ("qwen3", "granite", "llama"):
            out["attention_bias"] = self.qkv_bias
        if self.model_type == "llama":
            out["mlp_bias"] = self.mlp_bias
        if self.model_type == "granite":
            out.update(
                mlp_bias=self.mlp_bias,
                embedding_multiplier=self.embedding_multiplier,
                residual_multiplier=self.residual_multiplier,
                attention_multiplier=self.attention_scale,
                logits_scaling=self.logits_scaling,
            )
        return out


def _describe(source: Any) -> str:
    return "config dict" if isinstance(source, dict) else str(source)


def _read_hf_config(source: str | Path | dict) -> dict:
    if isinstance(source, dict):
        return dict(source)
    path = Path(source)
    if path.is_dir():
        path = path / "config.json"
    if not path.exists():
        raise ConfigError(f"no config.json at {path}")
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError as err:
        raise ConfigError(f"{path} is not valid JSON: {err}") from err


def _tuple_or_int(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _parse_rope(raw: dict) -> tuple[float, tuple[tuple[str, Any], ...] | None]:
    """Read rope theta and scaling from either transformers 5 `rope_parameters` or the older
    `rope_theta` + `rope_scaling` pair."""
    params = raw.get("rope_parameters")
    if isinstance(params, dict) and "full_attention" in params:  # per-layer-type form
        params = params["full_attention"]
    params = dict(params or {})
    legacy = raw.get("rope_scaling")
    if isinstance(legacy, dict):
        params = {**legacy, **params}
    theta = float(params.pop("rope_theta", raw.get("rope_theta", 10000.0)))
    if "type" in params and "rope_type" not in params:
        params["rope_type"] = params.pop("type")
    params.pop("type", None)
    if params.get("rope_type", "default") == "default":
        return theta, None
    return theta, tuple(sorted((k, _freeze(v)) for k, v in params.items()))


def _freeze(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value
