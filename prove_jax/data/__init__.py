"""Grain data sources and transforms: the synthesized task rows (issue 6) for rollouts."""

from prove_jax.data.tasks import TaskSource, load_tasks

__all__ = ["TaskSource", "load_tasks"]
