"""One GRPO step of the real loop on scripted rollouts (rewards and failures chosen by the
test): dynamic sampling's filter and refill, failed rollouts kept out of the advantages and the
filter, a step with nothing to learn that moves nothing, and `loss.iterations` updates."""

import asyncio

import jax
import numpy as np
import optax
import pytest

from prove_jax.models import init_model
from prove_jax.models.presets import preset
from prove_jax.rl.grpo import GRPOSettings, GRPOTrainer
from prove_jax.rl.losses import LossConfig
from prove_jax.rl.optim import OptimConfig, make_optimizer
from prove_jax.rollout.task import Task
from prove_jax.rollout.trajectory import Trajectory
from prove_jax.sharding import make_mesh

CFG = preset("tiny", param_dtype="float32", dtype="float32", remat="none")
TRUTH = {"steps": [], "edges": [], "kind": "abstention"}
FAIL = None  # a failed rollout in a script


class Loader:
    """Round r of every step gives tasks named r<step-and-round>-<i>."""

    def __init__(self, per_step: int):
        self.per_step, self.calls = per_step, 0

    def __next__(self) -> list[Task]:
        self.calls += 1
        return [Task(f"b{self.calls}-{i}", ("toy",), ("hi",), TRUTH, seed=i)
                for i in range(self.per_step)]


def scripted(rounds: list[list[list[float | None]]]):
    """collect() playing round k's rewards (FAIL: a failed rollout); the last round repeats."""
    calls = []

    async def collect(tasks: list[Task], seed: int, first: int) -> list[list[Trajectory]]:
        script = rounds[min(len(calls), len(rounds) - 1)]
        calls.append([t.id for t in tasks])
        groups = []
        for task, rewards in zip(tasks, script, strict=True):
            group = []
            for g, reward in enumerate(rewards):
                traj = Trajectory(task.id, g, seed)
                traj.append([5, 6, 7, 8, 9, 10])
                traj.append([20 + g, 30 + g, 40], sampled=True, logprobs=[-2.0, -1.5, -3.0])
                if reward is FAIL:
                    traj.fail("session_lost: scripted")
                    reward = 0.0
                traj.rewards = {"total": reward}
                group.append(traj)
            groups.append(group)
        return groups

    collect.calls = calls
    return collect


def _trainer(rounds, *, dynamic=True, iterations=1, max_refills=2, prompts=4, group=4):
    model = init_model(CFG, seed=0)
    settings = GRPOSettings(steps=1, group_size=group, prompts_per_step=prompts,
                            seq_multiple=16, logprob_chunk=16, dynamic_sampling=dynamic,
                            max_refills=max_refills, iterations=iterations)
    collect = scripted(rounds)
    trainer = GRPOTrainer(settings, model=model, mesh=make_mesh({"fsdp": 1},
                                                                jax.devices()[:1]),
                          optimizer=make_optimizer(OptimConfig(lr=1e-3, total_updates=4)),
                          loss=LossConfig(kl_coef=0.0), loader=Loader(prompts), collect=collect)
    return trainer, collect


UNIFORM, VARIED = [1.0, 1.0, 1.0, 1.0], [1.0, 0.0, 0.0, 1.0]


def test_dynamic_sampling_drops_uniform_groups_and_refills():
    trainer, collect = _trainer([[UNIFORM, UNIFORM, VARIED, UNIFORM],
                                 [VARIED, UNIFORM, VARIED, VARIED]])
    tasks, _groups, metrics = asyncio.run(trainer.collect_groups())
    assert [t.id for t in tasks] == ["b1-2", "b2-0", "b2-2", "b2-3"]
    assert metrics["rollout_rounds"] == 2 and metrics["groups_kept"] == 4
    assert metrics["episodes"] == 32  # every played rollout counts in the rollout metrics
    assert len(collect.calls) == 2


def test_refills_stop_after_max_refills_and_the_empty_step_moves_nothing():
    trainer, collect = _trainer([[UNIFORM] * 4], max_refills=2)
    before = jax.tree.map(np.asarray, (trainer.params, trainer.opt_state))
    metrics = asyncio.run(trainer.train_step())
    assert len(collect.calls) == 3  # one round and two refills, then give up
    assert metrics["groups_kept"] == 0 and metrics["rollout_rounds"] == 3
    assert metrics["nothing_to_learn"] == 1.0 and metrics["updates"] == 0.0
    assert trainer.step == 1
    after = jax.tree.map(np.asarray, (trainer.params, trainer.opt_state))
    for a, b in zip(jax.tree.leaves(before), jax.tree.leaves(after), strict=True):
        np.testing.assert_array_equal(a, b)


def test_failed_rollouts_neither_shape_advantages_nor_pass_the_filter():
    # group 0 differs only through its failure: not informative; group 1 has one usable
    # rollout: dropped; group 2 keeps its usable 1, 0, 1
    rounds = [[[1.0, 1.0, 1.0, FAIL], [FAIL, 0.5, FAIL, FAIL], [1.0, FAIL, 0.0, 1.0], VARIED]]
    trainer, _ = _trainer(rounds, max_refills=0)
    tasks, groups, metrics = asyncio.run(trainer.collect_groups())
    assert [t.id for t in tasks] == ["b1-2", "b1-3"]
    assert metrics["failed"] == pytest.approx(5 / 16)  # still reported
    batch, _, _ = trainer.build_batch(groups)
    s = np.sqrt(2) / 3  # usable 1, 0, 1: mean 2/3, population std sqrt(2)/3
    np.testing.assert_allclose(batch["advantages"][:8],
                               [1 / 3 / s, 0, -2 / 3 / s, 1 / 3 / s, 1, -1, -1, 1], atol=1e-5)
    assert batch["loss_mask"][1].sum() == 0  # the failure's row teaches nothing


def test_without_dynamic_sampling_groups_need_two_usable_rollouts():
    rounds = [[[1.0, 1.0, 1.0, FAIL], [FAIL, 0.5, FAIL, FAIL], UNIFORM, VARIED]]
    trainer, _ = _trainer(rounds, dynamic=False)
    tasks, groups, _metrics = asyncio.run(trainer.collect_groups())
    assert [t.id for t in tasks] == ["b1-0", "b1-2", "b1-3"]
    batch, _, _ = trainer.build_batch(groups)
    np.testing.assert_allclose(batch["advantages"][:8], 0, atol=1e-6)  # uniform usable


def test_iterations_make_that_many_optimizer_updates_per_step():
    trainer, _ = _trainer([[VARIED] * 2], dynamic=False, iterations=3, prompts=2)
    metrics = asyncio.run(trainer.train_step())
    assert metrics["updates"] == 3.0
    counts = optax.tree_utils.tree_get_all_with_path(trainer.opt_state, "count")
    assert counts and all(int(c) == 3 for _, c in counts)  # Adam's and the schedule's
    # the later passes see a policy that has moved away from the sampler's
    assert metrics["approx_kl_old"] > 0
