"""GRPO: group-relative advantages, the clipped objective with k3 KL, aggregation modes."""

from prove_jax.rl.advantages import ADVANTAGES, advantages, informative_groups
from prove_jax.rl.losses import AGGREGATIONS, LossConfig, aggregate, grpo_loss, kl_k3

__all__ = ["ADVANTAGES", "AGGREGATIONS", "LossConfig", "advantages", "aggregate", "grpo_loss",
           "informative_groups", "kl_k3"]
