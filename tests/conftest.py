"""Test-wide setup: 8 fake CPU devices (set before jax is imported anywhere)."""

import os

os.environ["XLA_FLAGS"] = (
    os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=8"
).strip()
os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


import pytest

from tests import hf_models


@pytest.fixture(scope="session")
def hf_checkpoint(tmp_path_factory):
    """Build (once per session) and save a tiny random HF model of a variant.

    Returns a function variant -> (model_dir, torch_model)."""
    cache: dict[str, tuple] = {}

    def get(variant: str):
        if variant not in cache:
            path = tmp_path_factory.mktemp(variant)
            cache[variant] = hf_models.save(variant, path)
        return cache[variant]

    return get
