"""Group advantages and dynamic sampling's filter against hand-computed values, failed
rollouts included: a failure must neither shift a group's statistics nor make it look
informative."""

import numpy as np
import pytest

from prove_jax.rl.advantages import advantages, informative_groups, usable_groups


def test_group_advantages_by_hand():
    rewards = [[1.0, 0.0, 0.0, 1.0], [0.2, 0.2, 0.2, 0.2], [3.0, 1.0, 2.0, 2.0]]
    grpo = np.asarray(advantages(rewards, "grpo"))
    np.testing.assert_allclose(grpo[0], [1, -1, -1, 1], atol=1e-5)  # mean .5, std .5
    np.testing.assert_allclose(grpo[1], 0, atol=1e-6)  # no signal in a constant group
    std = np.sqrt(0.5)  # deviations 1, -1, 0, 0
    np.testing.assert_allclose(grpo[2], [1 / std, -1 / std, 0, 0], atol=1e-5)
    np.testing.assert_allclose(np.asarray(advantages(rewards, "drgrpo"))[0],
                               [0.5, -0.5, -0.5, 0.5], atol=1e-6)
    # centring without scaling: mean 2, deviations 1, -1, 0, 0 (no division by std 0.707)
    np.testing.assert_allclose(np.asarray(advantages(rewards, "drgrpo"))[2], [1, -1, 0, 0],
                               atol=1e-6)
    assert informative_groups(rewards).tolist() == [True, False, True]
    with pytest.raises(ValueError, match="unknown advantage estimator 'ppo'"):
        advantages(rewards, "ppo")
    with pytest.raises(ValueError, match="prompts, group"):
        advantages([1.0, 2.0])


def test_failed_rollouts_enter_no_group_statistic():
    rewards = [[1.0, 1.0, 1.0, 0.0],  # three good rollouts and a failure scored 0
               [1.0, 0.0, 1.0, 1.0],  # a failure scored 1 among usable 1, 0, 1
               [0.5, 0.0, 0.0, 0.0],  # one usable rollout: nothing to compare with
               [0.0, 1.0, 0.0, 1.0]]  # no failure
    usable = [[True, True, True, False],
              [True, True, True, False],
              [True, False, False, False],
              [True, True, True, True]]
    grpo = np.asarray(advantages(rewards, "grpo", usable=usable))
    # group 0: usable rewards 1, 1, 1 are uniform, so every advantage is 0 (counting the
    # failure's 0 would have given the good ones +0.577 each)
    np.testing.assert_allclose(grpo[0], 0, atol=1e-6)
    # group 1: usable 1, 0, 1: mean 2/3, deviations 1/3, -2/3, 1/3, population std sqrt(2)/3
    s = np.sqrt(2) / 3
    np.testing.assert_allclose(grpo[1], [1 / 3 / s, -2 / 3 / s, 1 / 3 / s, 0], atol=1e-5)
    np.testing.assert_allclose(grpo[2], 0, atol=1e-6)
    np.testing.assert_allclose(grpo[3], [-1, 1, -1, 1], atol=1e-5)
    drgrpo = np.asarray(advantages(rewards, "drgrpo", usable=usable))
    np.testing.assert_allclose(drgrpo[1], [1 / 3, -2 / 3, 1 / 3, 0], atol=1e-6)
    assert informative_groups(rewards, usable).tolist() == [False, True, False, True]
    assert usable_groups(usable).tolist() == [True, True, False, True]
    with pytest.raises(ValueError, match="does not match"):
        advantages(rewards, usable=[[True]])
