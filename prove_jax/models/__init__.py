"""One decoder for every supported family, its config and presets."""

from prove_jax.models.config import ConfigError, ModelConfig
from prove_jax.models.decoder import Decoder, abstract_model, init_model, project_logits
from prove_jax.models.logprobs import token_logprobs
from prove_jax.models.presets import PRESETS, preset

__all__ = [
    "PRESETS",
    "ConfigError",
    "Decoder",
    "ModelConfig",
    "abstract_model",
    "init_model",
    "preset",
    "project_logits",
    "token_logprobs",
]
