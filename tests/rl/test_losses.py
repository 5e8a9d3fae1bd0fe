"""The GRPO loss against hand-computed values; the gradient of the clipped objective against
finite differences on a toy softmax policy."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from prove_jax.rl.losses import LossConfig, aggregate, grpo_loss, kl_k3

# Two rollouts of three tokens; the last token of the first is not the policy's (mask 0).
RATIOS = np.array([[1.5, 0.5, 1.0], [1.1, 0.7, 2.0]], np.float32)
OLD = np.array([[-1.0, -2.0, -0.5], [-0.3, -1.2, -2.5]], np.float32)
MASK = np.array([[1, 1, 0], [1, 1, 1]], np.float32)
ADV = np.array([1.0, -1.0], np.float32)
# Per token max(-A·r, -A·clip(r, 0.8, 1.28)):
#   row 0 (A=+1): r=1.5 -> -1.28 (clipped), r=0.5 -> -0.5 (pessimistic side: not clipped)
#   row 1 (A=-1): r=1.1 -> 1.1, r=0.7 -> 0.8 (clipped), r=2.0 -> 2.0 (not clipped)
PER_TOKEN_SUM = -1.28 - 0.5 + 1.1 + 0.8 + 2.0


@pytest.mark.parametrize("mode, expected", [
    ("token-mean", PER_TOKEN_SUM / 5),
    ("seq-mean-token-mean", ((-1.28 - 0.5) / 2 + (1.1 + 0.8 + 2.0) / 3) / 2),
    ("seq-mean-token-sum-norm", PER_TOKEN_SUM / (2 * 3)),
])
def test_clipped_loss_by_hand(mode, expected):
    logp = OLD + np.log(RATIOS)
    cfg = LossConfig(clip_low=0.2, clip_high=0.28, kl_coef=0.0, aggregation=mode)
    loss, metrics = grpo_loss(jnp.asarray(logp), OLD, ADV, MASK, cfg)
    assert float(loss) == pytest.approx(expected, abs=1e-5)
    assert float(metrics["clip_fraction"]) == pytest.approx(2 / 5)
    assert "kl" not in metrics


def test_gradient_flows_only_through_unclipped_policy_tokens():
    cfg = LossConfig(clip_low=0.2, clip_high=0.28, kl_coef=0.0)
    grad = np.asarray(jax.grad(lambda lp: grpo_loss(lp, OLD, ADV, MASK, cfg)[0])(
        jnp.asarray(OLD + np.log(RATIOS))))
    # d(-A·r)/dlogp = -A·r on unclipped tokens, / 5 policy tokens (token-mean); else 0.
    expected = np.array([[0, -0.5, 0], [1.1, 0, 2.0]]) / 5
    np.testing.assert_allclose(grad, expected, atol=1e-6)


def test_k3_kl_by_hand_and_its_coefficient():
    assert float(kl_k3(jnp.float32(-1.0), jnp.float32(-1.5))) == pytest.approx(
        np.exp(-0.5) + 0.5 - 1, abs=1e-6)
    assert float(kl_k3(jnp.float32(-0.7), jnp.float32(-0.7))) == 0.0
    logp = jnp.asarray(OLD + np.log(RATIOS))
    ref = OLD - 0.3
    base, _ = grpo_loss(logp, OLD, ADV, MASK, LossConfig(kl_coef=0.0))
    with_kl, metrics = grpo_loss(logp, OLD, ADV, MASK, LossConfig(kl_coef=0.05), ref)
    # by hand: r = ref - logp = -0.3 - log(ratio), k3 = e^r - r - 1, mean over the 5 masked
    r = -0.3 - np.log(RATIOS.astype(np.float64))
    kl = float(np.sum((np.exp(r) - r - 1) * MASK) / 5)
    assert kl > 0 and float(metrics["kl"]) == pytest.approx(kl, rel=1e-5)
    assert float(with_kl) == pytest.approx(float(base) + 0.05 * kl, abs=1e-6)
    with pytest.raises(ValueError, match="reference"):
        grpo_loss(logp, OLD, ADV, MASK, LossConfig(kl_coef=0.05))


def test_bad_loss_config_is_named():
    with pytest.raises(ValueError, match="unknown loss aggregation 'sum'"):
        LossConfig(aggregation="sum")
    with pytest.raises(ValueError, match="clip_low"):
        LossConfig(clip_low=1.5)


@pytest.mark.parametrize("mode", ["token-mean", "seq-mean-token-mean",
                                  "seq-mean-token-sum-norm"])
def test_clipped_objective_gradient_matches_finite_differences(mode):
    """A toy policy: a [T, V] table of logits; the loss of fixed sampled tokens under it."""
    rng = np.random.default_rng(0)
    b, t, v = 3, 5, 7
    theta0 = rng.normal(size=(b, t, v)).astype(np.float32)
    tokens = rng.integers(0, v, size=(b, t))
    mask = (rng.random((b, t)) > 0.2).astype(np.float32)
    adv = np.array([1.3, -0.4, 0.8], np.float32)

    def logp_of(theta):
        return jnp.take_along_axis(jax.nn.log_softmax(theta, -1), tokens[..., None], -1)[..., 0]

    # The behaviour policy is a nearby one; ratios stay near 1 but some cross the clip range.
    old = np.asarray(logp_of(theta0 + 0.5 * rng.normal(size=theta0.shape)))
    ref = np.asarray(logp_of(theta0 - 0.2 * rng.normal(size=theta0.shape)))
    cfg = LossConfig(clip_low=0.2, clip_high=0.28, kl_coef=0.1, aggregation=mode)

    def loss(theta):
        return grpo_loss(logp_of(theta), old, adv, mask, cfg, ref)[0]

    clipped = float(grpo_loss(logp_of(theta0), old, adv, mask, cfg, ref)[1]["clip_fraction"])
    assert 0.1 < clipped < 0.9  # both branches of the objective are exercised
    grad = np.asarray(jax.grad(loss)(jnp.asarray(theta0)))
    eps = 1e-3
    for idx in [tuple(rng.integers(0, n) for n in theta0.shape) for _ in range(25)]:
        up, down = theta0.copy(), theta0.copy()
        up[idx] += eps
        down[idx] -= eps
        numeric = (float(loss(up)) - float(loss(down))) / (2 * eps)
        assert grad[idx] == pytest.approx(numeric, abs=2e-3), idx


@pytest.mark.parametrize("mode", ["token-mean", "seq-mean-token-mean",
                                  "seq-mean-token-sum-norm"])
def test_weights_reproduce_each_aggregation(mode):
    from prove_jax.rl.losses import token_weights

    rng = np.random.default_rng(1)
    x = jnp.asarray(rng.normal(size=(4, 6)).astype(np.float32))
    mask = jnp.asarray((rng.random((4, 6)) > 0.3).astype(np.float32)).at[2].set(0)
    assert float(jnp.sum(x * token_weights(mask, mode))) == pytest.approx(
        float(aggregate(x, mask, mode)), abs=1e-6)
