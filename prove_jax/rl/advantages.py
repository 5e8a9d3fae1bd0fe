"""Group-relative advantages (GRPO) and the group filter of dynamic sampling (DAPO).

Rewards come as [N, G]: N prompts (tasks), G rollouts each, with `usable` [N, G] false for a
rollout that failed for infrastructure reasons (a lost session, a timeout). A failed rollout's
reward says nothing about the policy, so it enters no group statistic: its advantage is 0, the
group's mean and spread are over the usable rollouts only, and a group with fewer than two
usable rollouts has nothing to compare (all advantages 0, never informative).

Estimators are registered by name so a config picks one: "grpo" normalises by the group's
standard deviation, "drgrpo" only centres (Dr. GRPO: dividing by the std up-weights groups
whose rewards barely differ).
"""

from __future__ import annotations

from collections.abc import Callable

import jax.numpy as jnp
import numpy as np

__all__ = ["ADVANTAGES", "MIN_USABLE", "advantages", "informative_groups", "usable_groups"]

Estimator = Callable[[jnp.ndarray, jnp.ndarray, float], jnp.ndarray]
MIN_USABLE = 2  # rollouts a group needs before its rewards can be compared


def _centred(rewards: jnp.ndarray, w: jnp.ndarray) -> tuple[jnp.ndarray, jnp.ndarray]:
    """(rewards minus the usable rollouts' mean, zeroed where unusable; that count [N, 1])."""
    n = jnp.sum(w, axis=-1, keepdims=True)
    mean = jnp.sum(rewards * w, axis=-1, keepdims=True) / jnp.maximum(n, 1.0)
    return (rewards - mean) * w, n


def _grpo(rewards: jnp.ndarray, w: jnp.ndarray, eps: float) -> jnp.ndarray:
    centred, n = _centred(rewards, w)
    # Population std (ddof 0), as the GRPO paper and most implementations compute it.
    std = jnp.sqrt(jnp.sum(centred**2, axis=-1, keepdims=True) / jnp.maximum(n, 1.0))
    return centred / (std + eps)


def _drgrpo(rewards: jnp.ndarray, w: jnp.ndarray, eps: float) -> jnp.ndarray:
    del eps
    return _centred(rewards, w)[0]


ADVANTAGES: dict[str, Estimator] = {"grpo": _grpo, "drgrpo": _drgrpo}


def advantages(rewards: jnp.ndarray | np.ndarray, estimator: str = "grpo",
               eps: float = 1e-6, usable: np.ndarray | None = None) -> jnp.ndarray:
    """Per-rollout advantages [N, G] from rewards [N, G] (`usable` [N, G]: all by default);
    0 for unusable rollouts and for groups with fewer than two usable ones."""
    if estimator not in ADVANTAGES:
        raise ValueError(f"unknown advantage estimator {estimator!r}; known: "
                         f"{sorted(ADVANTAGES)}")
    rewards = jnp.asarray(rewards, jnp.float32)
    if rewards.ndim != 2:
        raise ValueError(f"rewards must be [prompts, group], got shape {rewards.shape}")
    w = jnp.ones(rewards.shape, jnp.float32) if usable is None else jnp.asarray(usable,
                                                                              jnp.float32)
    if w.shape != rewards.shape:
        raise ValueError(f"usable {w.shape} does not match rewards {rewards.shape}")
    enough = jnp.sum(w, axis=-1, keepdims=True) >= MIN_USABLE
    return jnp.where(enough, ADVANTAGES[estimator](rewards, w, eps), 0.0)


def usable_groups(usable: np.ndarray) -> np.ndarray:
    """Bool [N]: groups with at least two usable rollouts (the others teach nothing)."""
    return np.asarray(usable, bool).sum(axis=-1) >= MIN_USABLE


def informative_groups(rewards: np.ndarray, usable: np.ndarray | None = None,
                       tol: float = 1e-9) -> np.ndarray:
    """Bool [N]: groups whose usable rewards differ (a group with one value has zero advantage
    everywhere, so it only adds noise to the batch; dynamic sampling drops and refills it)."""
    rewards = np.asarray(rewards, np.float64)
    usable = np.ones(rewards.shape, bool) if usable is None else np.asarray(usable, bool)
    high = np.where(usable, rewards, -np.inf).max(axis=-1)
    low = np.where(usable, rewards, np.inf).min(axis=-1)
    return usable_groups(usable) & (high - low > tol)
