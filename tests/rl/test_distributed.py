"""Multi-process training (prove_jax.distributed): two JAX processes on this machine (2 fake CPU
devices each, gloo collectives) train like one process with the same 4 devices and global
batch, and their checkpoint restores in a single process. The helpers' single-process
behaviour and config errors are checked here too; the launch-level run with MCP servers is in
tests/launch/test_train_distributed.py."""

import json
import sys
from pathlib import Path

import jax
import numpy as np
import pytest
from flax import nnx

from prove_jax import distributed
from prove_jax.checkpoint.train_state import TrainCheckpointer
from prove_jax.models import init_model
from prove_jax.sharding import batch_sharding, make_mesh
from tests.net import free_port, run_processes
from tests.rl.test_grpo_loop import CFG

ROOT = Path(__file__).resolve().parents[2]


def _workers(out: Path, processes: int, devices: int, *extra: str) -> None:
    port = free_port()
    run_processes([[sys.executable, "-m", "tests.rl.grpo_worker", f"--out={out}",
                    f"--processes={processes}", f"--process_id={p}", f"--port={port}", *extra]
                   for p in range(processes)], devices=devices, cwd=ROOT, timeout=600)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("distributed")
    _workers(base / "pair", 2, 2)
    _workers(base / "single", 1, 4)
    _workers(base / "pair_shared", 2, 2, "--shared_prefix")
    _workers(base / "single_shared", 1, 4, "--shared_prefix")
    return base


def _history(out: Path, process: int) -> list[dict]:
    return json.loads((out / f"history.{process}.json").read_text())


@pytest.mark.timeout(1200)
def test_two_processes_agree_with_each_other_and_with_one_process(runs):
    pair0, pair1 = _history(runs / "pair", 0), _history(runs / "pair", 1)
    single = _history(runs / "single", 0)
    assert len(pair0) == len(pair1) == len(single) == 3
    # From the same parameters both build the same global batch, bit for bit. After an update
    # the parameters agree to 1e-5 (checked below), not to the bit: the pair's step sums
    # gradients through gloo between processes, the single one inside one XLA process, so
    # later batches' sampler log-probs may differ in their last bits (compared by value).
    assert pair0[0]["batch_digest"] == pair1[0]["batch_digest"] == single[0]["batch_digest"]
    for a, b, s in zip(pair0, pair1, single, strict=True):
        assert a["loss"] == b["loss"] and a["grad_norm"] == b["grad_norm"]
        assert a["batch_digest"] == b["batch_digest"]
        assert a["episodes"] == s["episodes"] == 32  # every process's episodes counted
        for key in ("loss", "grad_norm", "kl", "reward/total", "response_tokens"):
            np.testing.assert_allclose(a[key], s[key], rtol=1e-5, atol=1e-6, err_msg=key)
    # real gradients (GRPO's first-iteration loss is ~0 by construction: ratio 1, mean-zero
    # advantages), so equal parameters are not zeros agreeing
    assert all(m["grad_norm"] > 0.1 for m in single)
    assert all(m["kl"] > 0 for m in single[1:])
    got, want = np.load(runs / "pair" / "params.npz"), np.load(runs / "single" / "params.npz")
    assert sorted(got) == sorted(want)
    for key in want:
        np.testing.assert_allclose(got[key], want[key], rtol=0, atol=1e-5, err_msg=key)
    start = nnx.state(init_model(CFG, seed=0), nnx.Param)  # what both runs began from
    assert any(np.max(np.abs(np.asarray(v) - want[jax.tree_util.keystr(k)])) > 1e-4
               for k, v in jax.tree_util.tree_flatten_with_path(start)[0])


@pytest.mark.timeout(1200)
def test_two_processes_train_group_packed_batches_like_one(runs):
    """train.shared_prefix in two processes: each packs its block of groups, the blocks join
    along the group axis; the same batch as one process builds, the same update, and the
    unpacked layout's update to float32 noise."""
    pair0, pair1 = _history(runs / "pair_shared", 0), _history(runs / "pair_shared", 1)
    single, unpacked = _history(runs / "single_shared", 0), _history(runs / "single", 0)
    assert pair0[0]["batch_digest"] == pair1[0]["batch_digest"] == single[0]["batch_digest"]
    for a, b, s, u in zip(pair0, pair1, single, unpacked, strict=True):
        assert a["loss"] == b["loss"] and a["grad_norm"] == b["grad_norm"]
        assert a["episodes"] == s["episodes"] == 32
        for key in ("loss", "grad_norm", "kl", "reward/total", "response_tokens"):
            np.testing.assert_allclose(a[key], s[key], rtol=1e-5, atol=1e-6, err_msg=key)
            np.testing.assert_allclose(a[key], u[key], rtol=1e-4, atol=1e-6, err_msg=key)
    assert all(m["grad_norm"] > 0.1 for m in single) and all(m["kl"] > 0 for m in single[1:])
    got = np.load(runs / "pair_shared" / "params.npz")
    for other, atol in (("single_shared", 1e-5), ("single", 1e-4)):
        want = np.load(runs / other / "params.npz")
        assert sorted(got) == sorted(want)
        for key in want:
            np.testing.assert_allclose(got[key], want[key], rtol=0, atol=atol, err_msg=key)


@pytest.mark.timeout(1200)
def test_the_pairs_checkpoint_restores_in_one_process(runs):
    checkpointer = TrainCheckpointer(runs / "pair" / "checkpoints")
    assert checkpointer.all_steps() == [1, 2, 3]
    like = nnx.state(init_model(CFG, seed=1), nnx.Param)  # other values, same structure
    step, params, _, record = checkpointer.restore(like)
    checkpointer.close()
    assert step == 3 and record["step"] == 3 and record["loader"] == {"index": 3}
    want = np.load(runs / "pair" / "params.npz")
    for k, v in jax.tree_util.tree_flatten_with_path(params)[0]:
        np.testing.assert_allclose(np.asarray(v), want[jax.tree_util.keystr(k)], rtol=0,
                                   atol=0)


def test_single_process_helpers_are_identities():
    assert distributed.allgather_json({"a": 1}) == [{"a": 1}]
    assert distributed.global_sum(2.5) == 2.5
    assert distributed.all_true(True) and not distributed.all_true(False)
    assert distributed.process_rows(8) == (0, 8)
    mesh = make_mesh({"data": 2, "fsdp": 2, "tensor": 2})
    distributed.check_batch_layout(batch_sharding(mesh, 2), 8)
    model = init_model(CFG, seed=0)
    view, view_mesh, publish = distributed.sampler_view(model, mesh)
    assert view is model and view_mesh is mesh and publish is None
    batch = distributed.global_batch({"tokens": np.ones((8, 3), np.int32)}, mesh)
    assert batch["tokens"].shape == (8, 3) and batch["tokens"].sharding.mesh.shape == mesh.shape


@pytest.mark.parametrize(("fields", "message"), [
    ({"num_processes": 2, "process_id": 2, "coordinator_address": "h:1"}, "process_id=2"),
    ({"num_processes": -1}, "num_processes must be >= 1"),
    ({"num_processes": 2, "process_id": 0}, "coordinator_address=HOST:PORT"),
    ({"coordinator_address": "localhost"}, "expected HOST:PORT"),
])
def test_bad_distributed_settings_name_the_field(fields, message, monkeypatch):
    for var in ("JAX_COORDINATOR_ADDRESS", "JAX_NUM_PROCESSES", "JAX_PROCESS_ID"):
        monkeypatch.delenv(var, raising=False)
    with pytest.raises(ValueError, match=message):
        distributed.initialize(distributed.DistributedConfig(enabled=True, **fields))


def test_unknown_distributed_field_and_bad_environment(monkeypatch):
    with pytest.raises(ValueError, match="unknown fields \\['procs'\\]"):
        distributed.DistributedConfig.from_dict({"enabled": True, "procs": 2})
    monkeypatch.setenv("JAX_NUM_PROCESSES", "two")
    with pytest.raises(ValueError, match="JAX_NUM_PROCESSES='two' is not a int"):
        distributed.initialize(distributed.DistributedConfig(enabled=True))
