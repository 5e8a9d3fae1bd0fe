"""Group-relative advantages (GRPO) and the group filter of dynamic sampling (DAPO).

Rewards come as [N, G]: N prompts (tasks), G rollouts each. Estimators are registered by name
so a config picks one: "grpo" normalises by the group's standard deviation, "drgrpo" only
centres (Dr. GRPO: dividing by the std up-weights groups whose rewards barely differ).
"""

from __future__ import annotations

from collections.abc import Callable

import jax.numpy as jnp
import numpy as np

__all__ = ["ADVANTAGES", "advantages", "informative_groups"]

Estimator = Callable[[jnp.ndarray, float], jnp.ndarray]


def _grpo(rewards: jnp.ndarray, eps: float) -> jnp.ndarray:
    centred = rewards - rewards.mean(axis=-1, keepdims=True)
    # Population std (ddof 0), as the GRPO paper and most implementations compute it.
    return centred / (rewards.std(axis=-1, keepdims=True) + eps)


def _drgrpo(rewards: jnp.ndarray, eps: float) -> jnp.ndarray:
    del eps
    return rewards - rewards.mean(axis=-1, keepdims=True)


ADVANTAGES: dict[str, Estimator] = {"grpo": _grpo, "drgrpo": _drgrpo}


def advantages(rewards: jnp.ndarray | np.ndarray, estimator: str = "grpo",
               eps: float = 1e-6) -> jnp.ndarray:
    """Per-rollout advantages [N, G] from rewards [N, G]."""
    if estimator not in ADVANTAGES:
        raise ValueError(f"unknown advantage estimator {estimator!r}; known: "
                         f"{sorted(ADVANTAGES)}")
    rewards = jnp.asarray(rewards, jnp.float32)
    if rewards.ndim != 2:
        raise ValueError(f"rewards must be [prompts, group], got shape {rewards.shape}")
    return ADVANTAGES[estimator](rewards, eps)


def informative_groups(rewards: np.ndarray, tol: float = 1e-9) -> np.ndarray:
    """Bool [N]: groups whose rewards differ (a group with one value has zero advantage
    everywhere, so it only adds noise to the batch; dynamic sampling drops and refills it)."""
    rewards = np.asarray(rewards, np.float64)
    return (rewards.max(axis=-1) - rewards.min(axis=-1)) > tol
