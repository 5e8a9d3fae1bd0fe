"""Tiny random Hugging Face models of each family, built with transformers + torch.

Every tensor is re-drawn at random (biases and norm scales included, which HF initialises to
0 and 1) so that a mapping mistake anywhere shows up in the logits.
"""

from __future__ import annotations

from pathlib import Path

import torch
import transformers
from safetensors import safe_open

COMMON = dict(vocab_size=96, hidden_size=64, intermediate_size=112, num_hidden_layers=3,
              num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=256,
              bos_token_id=1, eos_token_id=2, pad_token_id=0)

VARIANTS = {
    # head_dim 24 != hidden/heads (16), like Qwen3-4B.
    "qwen3_tied": (transformers.Qwen3Config,
                   dict(head_dim=24, tie_word_embeddings=True, rope_theta=5e6)),
    "qwen3_untied": (transformers.Qwen3Config,
                     dict(head_dim=24, tie_word_embeddings=False, rope_theta=1e6)),
    "qwen2_bias": (transformers.Qwen2Config, dict(tie_word_embeddings=False, rope_theta=1e6)),
    "granite": (transformers.GraniteConfig,
                dict(tie_word_embeddings=True, embedding_multiplier=12.0,
                     residual_multiplier=0.22, attention_multiplier=0.05, logits_scaling=16.0,
                     rope_theta=1e4)),
    "qwen3_yarn": (transformers.Qwen3Config,
                   dict(head_dim=16, tie_word_embeddings=False,
                        rope_parameters={"rope_type": "yarn", "factor": 4.0, "rope_theta": 1e4,
                                         "original_max_position_embeddings": 64})),
    "llama_tied": (transformers.LlamaConfig,  # SmolLM2's shape of switches
                   dict(tie_word_embeddings=True, rms_norm_eps=1e-5, rope_theta=1e5)),
    "llama3_rope_bias": (transformers.LlamaConfig,
                         dict(tie_word_embeddings=False, attention_bias=True, mlp_bias=True,
                              rope_parameters={"rope_type": "llama3", "factor": 8.0,
                                               "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                                               "original_max_position_embeddings": 64,
                                               "rope_theta": 5e5})),
    "granite_linear_rope": (transformers.GraniteConfig,
                            dict(tie_word_embeddings=False, rope_parameters={
                                "rope_type": "linear", "factor": 2.0, "rope_theta": 1e4})),
}


def build(variant: str, seed: int = 0) -> transformers.PreTrainedModel:
    config_cls, extra = VARIANTS[variant]
    config = config_cls(**{**COMMON, **extra})
    torch.manual_seed(seed)
    model = transformers.AutoModelForCausalLM.from_config(config, dtype=torch.float32).eval()
    with torch.no_grad():
        for name, p in model.named_parameters():
            if name.endswith("norm.weight"):
                p.copy_(1.0 + 0.2 * torch.randn_like(p))
            else:
                p.copy_(0.08 * torch.randn_like(p))
    return model


def save(variant: str, path: Path, seed: int = 0, **save_kwargs) -> tuple[Path, object]:
    model = build(variant, seed)
    model.save_pretrained(path, **save_kwargs)
    return path, model


def read_safetensors_dir(model_dir: Path) -> dict[str, torch.Tensor]:
    """Every tensor of a checkpoint dir, read with the official safetensors library."""
    out = {}
    for f in sorted(Path(model_dir).glob("*.safetensors")):
        with safe_open(f, framework="pt") as st:
            out.update({k: st.get_tensor(k) for k in st.keys()})  # noqa: SIM118
    return out


def hf_logits(model: transformers.PreTrainedModel, ids) -> torch.Tensor:
    with torch.no_grad():
        return model(torch.as_tensor(ids, dtype=torch.long)).logits.float().numpy()
