"""The optimizer: global-norm clipping, then AdamW under a warmup + decay schedule.

The schedule runs on optimizer updates, the count Adam keeps in its state: a training step with
`loss.iterations` passes makes that many updates, and a step that applies no update (nothing to
learn, or a non-finite gradient) does not advance it. Configs speak in training steps;
`optim_config` converts them to updates.

Warmup never yields a zero learning rate: update k (from 0) of W warmup updates uses
lr·(k+1)/(W+1), and update W the full lr. Decay ("linear", "cosine") then runs from lr towards
0 over the remaining updates, reaching 0 only after the last one.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import jax
import jax.numpy as jnp
import optax

__all__ = ["SCHEDULES", "OptimConfig", "learning_rate", "make_optimizer", "optim_config",
           "weight_decay_mask"]

SCHEDULES = ("constant", "cosine", "linear")
# Parameters weight decay leaves alone: norm scales and biases (decaying a norm scale to 0
# shrinks activations, which is not regularisation); everything else is decayed.
NO_DECAY = re.compile(r"norm|bias")


@dataclass(frozen=True)
class OptimConfig:
    lr: float = 1e-6
    warmup_updates: int = 0
    total_updates: int = 350  # the run's optimizer updates (steps x iterations)
    schedule: str = "constant"  # constant | cosine | linear (decay after warmup)
    weight_decay: float = 0.0
    b1: float = 0.9
    b2: float = 0.999
    eps: float = 1e-8
    max_grad_norm: float = 1.0  # global-norm clipping; 0 turns it off

    def __post_init__(self) -> None:
        if self.schedule not in SCHEDULES:
            raise ValueError(f"unknown lr schedule {self.schedule!r}; known: "
                             f"{', '.join(SCHEDULES)}")
        if not self.lr > 0:
            raise ValueError(f"optim.lr must be > 0, got {self.lr}")
        if self.total_updates < 1 or self.warmup_updates < 0:
            raise ValueError(f"OptimConfig needs total_updates >= 1 and warmup_updates >= 0, "
                             f"got {self.total_updates} and {self.warmup_updates}")
        if self.weight_decay < 0 or self.max_grad_norm < 0:
            raise ValueError("optim.weight_decay and optim.max_grad_norm must be >= 0")


def optim_config(optim: Mapping[str, Any], *, train_steps: int, iterations: int = 1,
                 lr: float | None = None) -> OptimConfig:
    """OptimConfig from a config's `optim` section (warmup in training steps) for a run of
    `train_steps` steps of `iterations` updates each."""
    return OptimConfig(lr=optim["lr"] if lr is None else lr,
                       warmup_updates=optim["warmup_steps"] * iterations,
                       total_updates=train_steps * iterations, schedule=optim["schedule"],
                       weight_decay=optim["weight_decay"], b1=optim["b1"], b2=optim["b2"],
                       eps=optim["eps"], max_grad_norm=optim["max_grad_norm"])


def learning_rate(cfg: OptimConfig) -> optax.Schedule:
    """The learning rate of update `count` (0 for the first); see the module docstring."""
    warm, rest = cfg.warmup_updates, max(cfg.total_updates - cfg.warmup_updates, 1)

    def schedule(count: jax.Array) -> jax.Array:
        k = jnp.asarray(count, jnp.float32)
        ramp = cfg.lr * (k + 1) / (warm + 1)
        done = jnp.clip((k - warm) / rest, 0.0, 1.0)  # share of the decay already behind
        if cfg.schedule == "linear":
            after = cfg.lr * (1.0 - done)
        elif cfg.schedule == "cosine":
            after = cfg.lr * 0.5 * (1.0 + jnp.cos(math.pi * done))
        else:
            after = jnp.full_like(k, cfg.lr)
        return jnp.where(k < warm, ramp, after)

    return schedule


def weight_decay_mask(params: Any) -> Any:
    """True for every parameter AdamW decays (all but norm scales and biases)."""
    from prove_jax.sharding import path_name

    return jax.tree_util.tree_map_with_path(
        lambda path, _: not NO_DECAY.search(path_name(path)), params)


def make_optimizer(cfg: OptimConfig) -> optax.GradientTransformation:
    parts = [optax.clip_by_global_norm(cfg.max_grad_norm)] if cfg.max_grad_norm > 0 else []
    parts.append(optax.adamw(learning_rate(cfg), b1=cfg.b1, b2=cfg.b2, eps=cfg.eps,
                             weight_decay=cfg.weight_decay, mask=weight_decay_mask))
    return optax.chain(*parts)
