"""Rollouts to train arrays: length buckets, failed episodes masked out, and the compact batch
(LM head on the sampled tokens only) training exactly like the token-aligned one."""

import jax
import numpy as np
from flax import nnx

from prove_jax.models import init_model
from prove_jax.models.presets import preset
from prove_jax.rl.batch import padded_length, rollout_batch
from prove_jax.rl.losses import LossConfig
from prove_jax.rl.optim import OptimConfig, make_optimizer
from prove_jax.rl.train_step import make_train_step
from prove_jax.rollout.trajectory import Trajectory

CFG = preset("tiny", param_dtype="float32", dtype="float32", remat="none")


def test_length_buckets_are_multiples_1_2_3_4_6_8_12():
    got = [padded_length(n, 128) for n in (1, 128, 129, 257, 385, 513, 769, 1025, 1537, 3000)]
    assert got == [128, 128, 256, 384, 512, 768, 1024, 1536, 2048, 3072]


def _traj(rng, prompt: int, answer: int, sample: int, failed: bool = False) -> Trajectory:
    t = Trajectory("t", sample, sample)
    t.append(rng.integers(3, CFG.vocab_size, prompt).tolist())
    t.append(rng.integers(3, CFG.vocab_size, answer).tolist(), sampled=True,
             logprobs=(-rng.random(answer) * 5 - 1).tolist())
    t.append(rng.integers(3, CFG.vocab_size, 3).tolist())  # a tool result
    t.append(rng.integers(3, CFG.vocab_size, 2).tolist(), sampled=True, logprobs=[-2.0, -3.0])
    if failed:
        t.fail("session_lost: test")
    return t


def test_compact_batch_trains_exactly_like_the_token_aligned_batch():
    rng = np.random.default_rng(0)
    trajs = [_traj(rng, 7, 5, 0), _traj(rng, 4, 9, 1), _traj(rng, 10, 3, 2),
             _traj(rng, 5, 4, 3, failed=True)]
    adv = [1.0, -0.5, 0.25, 2.0]
    batch = rollout_batch(trajs, adv, seq_multiple=8, rows_multiple=4, target_multiple=4)
    t = batch["tokens"].shape[1]
    assert batch["target_index"].shape == (4, 12)  # 11 sampled tokens at most -> 12
    assert batch["loss_mask"][3].sum() == 0 and batch["advantages"][3] == 0  # failed row
    # The same rollouts, token-aligned.
    aligned = {"tokens": batch["tokens"], "attention_mask": batch["attention_mask"],
               "loss_mask": np.zeros((4, t), np.int32), "old_logp": np.zeros((4, t), np.float32),
               "advantages": batch["advantages"]}
    for i, traj in enumerate(trajs[:3]):
        n = len(traj.tokens)
        aligned["loss_mask"][i, :n] = traj.loss_mask
        aligned["old_logp"][i, :n] = traj.logprobs
    graphdef, params = nnx.split(init_model(CFG, seed=3), nnx.Param)
    opt = make_optimizer(OptimConfig(lr=1e-3, eps=1e-4))
    step = jax.jit(make_train_step(graphdef, opt, LossConfig(kl_coef=0.0), chunk_size=4))
    p1, _, m1 = step(params, opt.init(params), batch)
    p2, _, m2 = step(params, opt.init(params), aligned)
    assert m1["policy_tokens"] == m2["policy_tokens"] == 5 + 2 + 9 + 2 + 3 + 2
    np.testing.assert_allclose(m1["loss"], m2["loss"], rtol=1e-6)
    np.testing.assert_allclose(m1["entropy"], m2["entropy"], rtol=1e-6)
    for a, b in zip(jax.tree.leaves(p1), jax.tree.leaves(p2), strict=True):
        np.testing.assert_allclose(a, b, atol=1e-6)


def test_rows_pad_to_min_rows_with_empty_rows():
    rng = np.random.default_rng(1)
    batch = rollout_batch([_traj(rng, 3, 2, 0)], [1.0], seq_multiple=8, rows_multiple=4,
                          min_rows=8)
    assert batch["tokens"].shape[0] == 8
    assert batch["loss_mask"][1:].sum() == 0 and np.all(batch["advantages"][1:] == 0)
