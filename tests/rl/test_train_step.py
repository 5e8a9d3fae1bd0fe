"""The GRPO train step: micro-batching is exact, the 2x2x2 mesh equals one device, non-finite
updates and batches with nothing to learn leave the state untouched, clipping bounds what Adam
sees, and a few steps on a fixed batch raise the advantaged tokens' log-probs."""

import jax
import jax.numpy as jnp
import numpy as np
import optax
import pytest
from flax import nnx

from prove_jax.models import init_model
from prove_jax.models.presets import preset
from prove_jax.rl.losses import LossConfig
from prove_jax.rl.objectives import sequence_logprobs
from prove_jax.rl.optim import OptimConfig, make_optimizer
from prove_jax.rl.train_step import jit_train_step, make_train_step
from prove_jax.sharding import make_mesh

CFG = preset("tiny", param_dtype="float32", dtype="float32", remat="none")


def _batch(seed=0, b=8, t=24, kl=True):
    rng = np.random.default_rng(seed)
    tokens = rng.integers(3, CFG.vocab_size, size=(b, t)).astype(np.int32)
    attn = np.ones((b, t), np.int32)
    attn[1, :5] = 0  # a left-padded row
    loss_mask = np.zeros((b, t), np.int32)
    loss_mask[:, 10:] = 1
    loss_mask[3, 18:] = 0  # a shorter answer
    out = {"tokens": tokens, "attention_mask": attn, "loss_mask": loss_mask,
           "old_logp": (-rng.random((b, t)) * 6 - 2).astype(np.float32) * loss_mask,
           "advantages": rng.normal(size=b).astype(np.float32)}
    if kl:
        out["ref_logp"] = (-rng.random((b, t)) * 6 - 2).astype(np.float32)
    return {k: jnp.asarray(v) for k, v in out.items()}


def _setup(loss_cfg, micro=1, lr=1e-3):
    """Adam's first step moves a weight by ~lr·g/(|g| + eps): with the default eps even a
    near-zero gradient's summation-order noise becomes a ~lr-sized difference, so equality
    tests damp those with a larger eps."""
    model = init_model(CFG, seed=1)
    graphdef, params = nnx.split(model, nnx.Param)
    opt = make_optimizer(OptimConfig(lr=lr, total_updates=10, eps=1e-4))
    step = make_train_step(graphdef, opt, loss_cfg, micro_batches=micro, chunk_size=8)
    return graphdef, params, opt, step


@pytest.mark.parametrize("mode", ["token-mean", "seq-mean-token-mean"])
def test_micro_batches_give_the_full_batch_update(mode):
    loss_cfg = LossConfig(kl_coef=0.01, aggregation=mode)
    batch = _batch()
    results = []
    for micro in (1, 4):
        _, params, opt, step = _setup(loss_cfg, micro)
        new, _, metrics = jax.jit(step)(params, opt.init(params), batch)
        results.append((new, metrics))
    (p1, m1), (p4, m4) = results
    assert float(m1["loss"]) == pytest.approx(float(m4["loss"]), abs=1e-6)
    assert float(m1["grad_norm"]) == pytest.approx(float(m4["grad_norm"]), rel=1e-4)
    for a, b in zip(jax.tree.leaves(p1), jax.tree.leaves(p4), strict=True):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), atol=1e-6)


def test_eight_device_mesh_equals_one_device():
    assert len(jax.devices()) >= 8
    loss_cfg = LossConfig(kl_coef=0.01)
    batch = _batch(1)
    _, params, opt, step = _setup(loss_cfg, micro=2)
    single, _, m_single = jax.jit(step)(params, opt.init(params), batch)
    mesh = make_mesh({"data": 2, "fsdp": 2, "tensor": 2})
    _, params, opt, step = _setup(loss_cfg, micro=2)
    opt_state = opt.init(params)
    run = jit_train_step(step, params, opt_state, mesh, opt)
    params = jax.device_put(params, run.param_shardings)
    opt_state = jax.device_put(opt_state, run.opt_shardings)
    sharded, _, m_sharded = run(params, opt_state, batch)
    assert any(len(x.sharding.device_set) == 8 and not x.sharding.is_fully_replicated
               for x in jax.tree.leaves(sharded))
    assert float(m_sharded["loss"]) == pytest.approx(float(m_single["loss"]), abs=1e-5)
    for a, b in zip(jax.tree.leaves(single), jax.tree.leaves(sharded), strict=True):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), atol=1e-5)


def test_non_finite_update_is_skipped():
    _, params, opt, step = _setup(LossConfig(kl_coef=0.0))
    batch = _batch(2, kl=False)
    batch["advantages"] = batch["advantages"].at[0].set(jnp.nan)
    opt_state = opt.init(params)
    new, new_opt, metrics = jax.jit(step)(params, opt_state, batch)
    assert float(metrics["skipped_nonfinite"]) == 1.0
    _assert_unchanged((params, opt_state), (new, new_opt))


def _assert_unchanged(before, after):
    for a, b in zip(jax.tree.leaves(before), jax.tree.leaves(after), strict=True):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))


@pytest.mark.parametrize("case", ["no_policy_tokens", "zero_advantages"])
def test_a_batch_with_nothing_to_learn_moves_nothing(case):
    """Adam's momentum from an earlier step would move the parameters on a zero gradient;
    such a batch must leave parameters, moments and the update count as they were."""
    _, params, opt, step = _setup(LossConfig(kl_coef=0.0))
    step = jax.jit(step)
    params, opt_state, first = step(params, opt.init(params), _batch(4, kl=False))
    assert float(first["nothing_to_learn"]) == 0.0  # momentum is now non-zero
    empty = _batch(5, kl=False)
    if case == "no_policy_tokens":
        empty["loss_mask"] = jnp.zeros_like(empty["loss_mask"])
    else:
        empty["advantages"] = jnp.zeros_like(empty["advantages"])
    new, new_opt, metrics = step(params, opt_state, empty)
    assert float(metrics["nothing_to_learn"]) == 1.0
    assert float(metrics["skipped_nonfinite"]) == 0.0
    _assert_unchanged((params, opt_state), (new, new_opt))


def test_zero_advantages_still_learn_the_kl_term():
    _, params, opt, step = _setup(LossConfig(kl_coef=0.05))
    batch = _batch(6)
    batch["advantages"] = jnp.zeros_like(batch["advantages"])
    new, _, metrics = jax.jit(step)(params, opt.init(params), batch)
    assert float(metrics["nothing_to_learn"]) == 0.0 and float(metrics["grad_norm"]) > 0
    assert any(not np.array_equal(a, b) for a, b in
               zip(jax.tree.leaves(params), jax.tree.leaves(new), strict=True))


def test_global_norm_clipping_bounds_what_adam_sees():
    """After one step Adam's first moment is (1 - b1) x the clipped gradient: its global norm
    is 0.1 x max_grad_norm when the raw gradient is larger (the raw norm is reported)."""
    model = init_model(CFG, seed=1)
    graphdef, params = nnx.split(model, nnx.Param)
    opt = make_optimizer(OptimConfig(lr=1e-3, b1=0.9, max_grad_norm=1e-3))
    step = make_train_step(graphdef, opt, LossConfig(kl_coef=0.0), chunk_size=8)
    _, state, metrics = jax.jit(step)(params, opt.init(params), _batch(7, kl=False))
    assert float(metrics["grad_norm"]) > 0.01  # well above the bound
    mu_norm = float(optax.tree.norm(state[1][0].mu))
    assert mu_norm == pytest.approx(0.1 * 1e-3, rel=1e-4)


def test_steps_raise_the_advantaged_tokens_logprobs():
    graphdef, params, opt, step = _setup(LossConfig(kl_coef=0.0), lr=3e-3)
    batch = _batch(3, kl=False)
    batch["advantages"] = jnp.asarray([1.0, -1.0] * 4)
    model = nnx.merge(graphdef, params)
    logp = sequence_logprobs(model, batch["tokens"], batch["attention_mask"], 8)
    batch["old_logp"] = jnp.pad(logp, ((0, 0), (1, 0))) * batch["loss_mask"]
    mask = batch["loss_mask"][:, 1:]

    def mean_logp(p, rows):
        lp = sequence_logprobs(nnx.merge(graphdef, p), batch["tokens"],
                               batch["attention_mask"], 8)
        return float(jnp.sum(lp[rows] * mask[rows]) / jnp.sum(mask[rows]))

    good, bad = slice(0, None, 2), slice(1, None, 2)
    before = (mean_logp(params, good), mean_logp(params, bad))
    opt_state = opt.init(params)
    jitted = jax.jit(step)
    for _ in range(3):
        params, opt_state, metrics = jitted(params, opt_state, batch)
        assert float(metrics["skipped_nonfinite"]) == 0.0
    assert mean_logp(params, good) > before[0] + 0.05
    assert mean_logp(params, bad) < before[1] - 0.05


@pytest.mark.parametrize("objective,kl", [("grpo", True), ("grpo", False), ("sft", False)])
def test_fused_head_equals_the_reference_path(objective, kl):
    """The fused LM head (gradient formed in the forward pass) against plain autodiff through
    the chunked log-probs: same loss, metrics and updated parameters."""
    loss_cfg = LossConfig(kl_coef=0.01 if kl else 0.0, aggregation="seq-mean-token-mean")
    batch = _batch(kl=kl)
    model = init_model(CFG, seed=1)
    graphdef, params = nnx.split(model, nnx.Param)
    opt = make_optimizer(OptimConfig(lr=1e-3, total_updates=10, eps=1e-4))
    out = {}
    for fused in (True, False):
        step = make_train_step(graphdef, opt, loss_cfg, micro_batches=2, chunk_size=5,
                               temperature=0.8, objective=objective, fused_head=fused)
        out[fused] = jax.jit(step)(params, opt.init(params), batch)
    (p1, _, m1), (p0, _, m0) = out[True], out[False]
    assert set(m1) == set(m0)
    for k in m0:
        np.testing.assert_allclose(m1[k], m0[k], rtol=1e-5, atol=1e-6, err_msg=k)
    assert float(m0["grad_norm"]) > 1e-3
    for a, b in zip(jax.tree.leaves(p1), jax.tree.leaves(p0), strict=True):
        np.testing.assert_allclose(a, b, atol=1e-5)
