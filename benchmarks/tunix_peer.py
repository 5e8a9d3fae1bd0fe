"""Tunix's vanilla sampler as a second peer for benchmarks/sampler.py (only where it is installed).

`google-tunix` is not a project requirement: `pip install --no-deps -r benchmarks/requirements.txt`
adds it and the few modules its Qwen3 model and vanilla `Sampler` import, without touching the
project's pinned packages. The model is Tunix's own Qwen3 (`tunix.models.qwen3.model.Qwen3`),
loaded by its own safetensors loader (`params.create_model_from_safe_tensors`) from the directory
the benchmark saved the transformers model to, float32 like ours.

Tunix's `Sampler` takes prompt strings and a tokenizer; `_IdTokenizer` makes the string a
space-separated list of token ids, so the prompts are exactly the benchmark's token ids (no BOS is
added). Its EOS and pad ids are -1, a token the model never emits, so every row decodes exactly
N tokens and no generated token is masked as padding. Greedy: `temperature=0` and no top_p.

Tunix decodes in a `lax.while_loop` after a prefill that samples the first token; asked for N
tokens it runs the prefill then N decode forwards (the last one's token falls past its buffer), so
T(N) - T(1) spans N - 1 decode forwards, as for ours.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np


def tunix_available() -> bool:
    """True when Tunix's Qwen3 model, its safetensors loader and its vanilla sampler import."""
    try:
        import tunix.generate.sampler
        import tunix.models.qwen3.model
        import tunix.models.qwen3.params  # noqa: F401
    except ImportError:
        return False
    return True


class _IdTokenizer:
    """Tokenizer over token ids: the text is the ids separated by spaces (no vocabulary, no
    download); no BOS, and EOS = pad = -1, which no model emits."""

    def encode(self, text: str, **_: object) -> list[int]:
        return [int(t) for t in text.split()]

    def decode(self, ids: Sequence[int], **_: object) -> str:
        return " ".join(str(int(t)) for t in ids)

    def bos_id(self) -> None:
        return None

    def eos_id(self) -> int:
        return -1

    def pad_id(self) -> int:
        return -1


def tunix_decoder(root: Path, hf_config, prompt_len: int,
                  max_new_tokens: int) -> Callable[[np.ndarray, int], np.ndarray]:
    """Tunix's Qwen3 on the safetensors in `root` (written from `hf_config`) behind its vanilla
    `Sampler`, KV cache sized for `prompt_len + max_new_tokens`.

    Returns `decode(prompts, n)`: greedy, `prompts` an int [B, prompt_len] array, n <=
    max_new_tokens; gives the [B, n] new tokens. Each new shape compiles on its first call.
    """
    import jax.numpy as jnp
    from tunix.generate import sampler as tunix_sampler
    from tunix.models.qwen3 import model as qwen3_model
    from tunix.models.qwen3 import params as qwen3_params

    rope = getattr(hf_config, "rope_parameters", None) or {}
    theta = rope.get("rope_theta", getattr(hf_config, "rope_theta", 10000.0))
    # Tunix 0.1.7 never passes ModelConfig.rope_theta on: its attention calls
    # `apply_rope(x, positions, head_dim=...)`, so the default 1e6 (real Qwen3's) always applies.
    # Make that default the checkpoint's theta so both models compute the same function.
    qwen3_model.apply_rope.__defaults__ = (theta,)
    config = qwen3_model.ModelConfig(
        num_layers=hf_config.num_hidden_layers, vocab_size=hf_config.vocab_size,
        embed_dim=hf_config.hidden_size, hidden_dim=hf_config.intermediate_size,
        num_heads=hf_config.num_attention_heads, head_dim=hf_config.head_dim,
        num_kv_heads=hf_config.num_key_value_heads,
        rope_theta=int(theta),
        norm_eps=hf_config.rms_norm_eps, use_tied_embedding=hf_config.tie_word_embeddings,
        dtype=jnp.float32, param_dtype=jnp.float32)
    model = qwen3_params.create_model_from_safe_tensors(str(root), config, dtype=jnp.float32)
    cache = tunix_sampler.CacheConfig(
        cache_size=prompt_len + max_new_tokens, num_layers=config.num_layers,
        num_kv_heads=config.num_kv_heads, head_dim=config.head_dim)
    sampler = tunix_sampler.Sampler(model, _IdTokenizer(), cache)

    def decode(prompts: np.ndarray, n: int) -> np.ndarray:
        assert prompts.shape[1] == prompt_len and 1 <= n <= max_new_tokens
        texts = [" ".join(map(str, row)) for row in prompts.tolist()]  # ~0.1 ms at batch 32
        out = sampler(texts, max_generation_steps=n, max_prompt_length=prompt_len,
                      temperature=0.0, eos_tokens=[-1])
        tokens = np.stack([np.asarray(t) for t in out.tokens])
        assert tokens.shape == (prompts.shape[0], n), f"tunix gave {tokens.shape}"
        return tokens

    return decode
