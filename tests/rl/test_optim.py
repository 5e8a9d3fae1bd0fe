"""The optimizer against hand-computed values: the learning rate of every update under each
schedule (read off the parameter's movement), global-norm clipping (read off Adam's first
moment), weight decay and what it leaves alone, and the conversion from training steps."""

import jax.numpy as jnp
import numpy as np
import optax
import pytest

from prove_jax.rl.optim import OptimConfig, make_optimizer, optim_config


def _lr_per_update(cfg: OptimConfig, updates: int) -> list[float]:
    """Each update's learning rate, measured: with a constant gradient, Adam's bias-corrected
    step is g/|g| (eps tiny), so a parameter moves by exactly -lr per update."""
    opt = make_optimizer(cfg)
    params = {"w": jnp.zeros((1,))}
    state = opt.init(params)
    out = []
    for _ in range(updates):
        grads = {"w": jnp.full((1,), 0.5)}
        delta, state = opt.update(grads, state, params)
        params = optax.apply_updates(params, delta)
        out.append(-float(delta["w"][0]))
    return out


BASE = dict(lr=1.0, eps=1e-12, max_grad_norm=0.0, weight_decay=0.0)


@pytest.mark.parametrize("schedule, warmup, expected", [
    # update k < W uses lr (k+1)/(W+1); after warmup, decay over total - W updates
    ("constant", 0, [1, 1, 1, 1, 1, 1]),
    ("constant", 2, [1 / 3, 2 / 3, 1, 1, 1, 1]),
    ("linear", 2, [1 / 3, 2 / 3, 1, 3 / 4, 1 / 2, 1 / 4]),
    ("linear", 0, [1, 5 / 6, 4 / 6, 3 / 6, 2 / 6, 1 / 6]),
    # cosine over 4 updates: (1 + cos(pi k / 4)) / 2 for k = 0..3
    ("cosine", 2, [1 / 3, 2 / 3, 1, (1 + np.sqrt(0.5)) / 2, 1 / 2, (1 - np.sqrt(0.5)) / 2]),
])
def test_learning_rate_of_every_update(schedule, warmup, expected):
    cfg = OptimConfig(**BASE, schedule=schedule, warmup_updates=warmup, total_updates=6)
    np.testing.assert_allclose(_lr_per_update(cfg, 6), expected, rtol=1e-4)  # float32 Adam


def test_one_warmup_update_is_not_a_zero_learning_rate():
    got = _lr_per_update(OptimConfig(**BASE, warmup_updates=1, total_updates=4), 3)
    np.testing.assert_allclose(got, [0.5, 1, 1], rtol=1e-4)


def test_schedule_counts_optimizer_updates_not_training_steps():
    """3 steps of 2 iterations: a linear decay spans 6 updates, and warmup (in steps) too."""
    section = {"lr": 2e-6, "warmup_steps": 1, "schedule": "linear", "weight_decay": 0.0,
               "b1": 0.9, "b2": 0.999, "eps": 1e-8, "max_grad_norm": 1.0}
    cfg = optim_config(section, train_steps=3, iterations=2)
    assert (cfg.total_updates, cfg.warmup_updates, cfg.lr) == (6, 2, 2e-6)
    assert optim_config(section, train_steps=3, lr=5e-5).lr == 5e-5


def test_global_norm_clipping_scales_the_gradient_adam_sees():
    cfg = OptimConfig(lr=0.1, b1=0.9, max_grad_norm=1.0)
    opt = make_optimizer(cfg)
    params = {"a": jnp.zeros((2,)), "b": jnp.zeros((1,))}
    grads = {"a": jnp.asarray([3.0, 0.0]), "b": jnp.asarray([4.0])}  # global norm 5
    _, state = opt.update(grads, opt.init(params), params)
    mu = state[1][0].mu  # (clip, adamw(scale_by_adam, ...)): Adam's first moment
    # (1 - b1) x the clipped gradient g / 5
    np.testing.assert_allclose(mu["a"], [0.1 * 3 / 5, 0.0], rtol=1e-6)
    np.testing.assert_allclose(mu["b"], [0.1 * 4 / 5], rtol=1e-6)
    small = {"a": jnp.asarray([0.3, 0.0]), "b": jnp.asarray([0.4])}  # norm 0.5: untouched
    _, state = opt.update(small, opt.init(params), params)
    np.testing.assert_allclose(state[1][0].mu["b"], [0.1 * 0.4], rtol=1e-6)


def test_weight_decay_by_hand_and_what_it_leaves_alone():
    """With a zero gradient AdamW's step is -lr·wd·p on decayed parameters only."""
    cfg = OptimConfig(lr=0.1, weight_decay=0.5, max_grad_norm=0.0)
    opt = make_optimizer(cfg)
    params = {"mlp": {"kernel": jnp.asarray([2.0, -4.0])},
              "input_norm": {"scale": jnp.asarray([1.0])},
              "q_proj": {"bias": jnp.asarray([3.0])}}
    zeros = {"mlp": {"kernel": jnp.zeros(2)}, "input_norm": {"scale": jnp.zeros(1)},
             "q_proj": {"bias": jnp.zeros(1)}}
    delta, _ = opt.update(zeros, opt.init(params), params)
    np.testing.assert_allclose(delta["mlp"]["kernel"], [-0.1, 0.2], rtol=1e-6)
    assert float(delta["input_norm"]["scale"][0]) == 0.0
    assert float(delta["q_proj"]["bias"][0]) == 0.0


@pytest.mark.parametrize("kwargs, message", [
    ({"schedule": "step"}, "unknown lr schedule 'step'"),
    ({"lr": 0.0}, "optim.lr must be > 0"),
    ({"total_updates": 0}, "total_updates >= 1"),
    ({"weight_decay": -1.0}, "weight_decay"),
])
def test_bad_settings_are_named(kwargs, message):
    with pytest.raises(ValueError, match=message):
        OptimConfig(**kwargs)
