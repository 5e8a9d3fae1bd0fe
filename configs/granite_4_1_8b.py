"""Granite-4.1-8B (REFERENCE.md §4: learning rate 3e-7, the paper's only per-model setting).

Point model.model_dir at the downloaded checkpoint dir: --config.model.model_dir=/path/to/model
"""

from ml_collections import ConfigDict

from configs.base import get_base_config


def get_config() -> ConfigDict:
    c = get_base_config()
    c.model.preset = "granite_4_1_8b"
    c.optim.lr = 3e-7
    return c
