"""Qwen3-4B-Instruct-2507 (REFERENCE.md §4: learning rate 1e-6, the paper's only per-model setting).

Point model.model_dir at the downloaded checkpoint dir: --config.model.model_dir=/path/to/model
"""

from ml_collections import ConfigDict

from configs.base import get_base_config


def get_config() -> ConfigDict:
    c = get_base_config()
    c.model.preset = "qwen3_4b"
    c.optim.lr = 1e-6
    return c
