"""Experiment configs: one `get_config()` per file (ml_collections), overridable from flags."""
