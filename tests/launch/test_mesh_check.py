"""`launch.runner.check` refuses, before any weights load, a mesh the run cannot use, with one
ValueError naming the config fields; a mesh whose batch axes split no power of two is fine."""

import sys
from pathlib import Path

import jax
import pytest

from configs.tiny import get_config
from launch.runner import check, check_mesh
from tests.net import free_port, run_processes

ROOT = Path(__file__).resolve().parents[2]


def _config(tmp_path, **mesh):
    c = get_config()
    c.workdir = str(tmp_path)
    c.mesh.update(mesh)
    return c


def test_batch_axes_of_three_or_six_ways_are_accepted(tmp_path):
    # the sampler pads its batch to a multiple of data x fsdp; the trainer pads its rows
    assert check_mesh(_config(tmp_path, data=3, fsdp=1, tensor=2), 6, 1) == {
        "data": 3, "fsdp": 1, "tensor": 2}
    assert check_mesh(_config(tmp_path, data=3, fsdp=2, tensor=2), 12, 1)["fsdp"] == 2
    assert check_mesh(_config(tmp_path, data=1, fsdp=-1, tensor=2), 6, 1)["fsdp"] == 3
    check(_config(tmp_path))  # the tiny config on the 8 test devices


def test_several_processes_need_batch_shards_and_prompts_that_split(tmp_path):
    assert check_mesh(_config(tmp_path), 8, 2) == {"data": 2, "fsdp": 2, "tensor": 2}
    with pytest.raises(ValueError, match=r"--config\.mesh\.data=3 x --config\.mesh\.fsdp=1 = 3 "
                                         r"batch shards do not split over 2 processes"):
        check_mesh(_config(tmp_path, data=3, fsdp=1, tensor=2), 6, 2)
    # a tensor axis over every device: 1 batch shard, which two processes cannot share
    with pytest.raises(ValueError, match=r"--config\.mesh\.fsdp=1 = 1 batch shards"):
        check_mesh(_config(tmp_path, data=1, fsdp=1, tensor=8), 8, 2)
    c = _config(tmp_path)
    c.rollout.prompts_per_step = 3
    with pytest.raises(ValueError, match=r"--config\.rollout\.prompts_per_step=3 does not split "
                                         r"over 2 processes"):
        check_mesh(c, 8, 2)
    check_mesh(c, 8, 1)  # one process plays any number


def test_check_refuses_them_for_the_processes_jax_reports(tmp_path, monkeypatch):
    monkeypatch.setattr(jax, "process_count", lambda: 2)
    monkeypatch.setattr(jax, "process_index", lambda: 0)
    c = _config(tmp_path)
    c.rollout.prompts_per_step = 3
    with pytest.raises(ValueError, match=r"--config\.rollout\.prompts_per_step=3"):
        check(c)
    # The arithmetic holds but the devices disagree: this one process holds all 8 devices,
    # so every row, not the first half its share names (distributed.check_batch_layout).
    with pytest.raises(ValueError, match=r"--config\.mesh\.data/fsdp/tensor: .*its share is "
                                         r"\[0, 2\)"):
        check(_config(tmp_path))
    assert not any(tmp_path.iterdir())  # nothing started


@pytest.mark.parametrize("section, field, value, message", [
    ("optim", "schedule", "step", r"config\.optim: unknown lr schedule 'step'"),
    ("optim", "lr", 0.0, r"config\.optim: optim\.lr must be > 0"),
    ("loss", "kl_coef", -1.0, r"config\.loss: kl_coef must be >= 0"),
    ("train", "steps", 0, r"config\.train/rollout: steps must be >= 1"),
    ("reward", "match_outcomes", ("ran",),
     r"config\.rollout/reward: RewardConfig\.match_outcomes: unknown outcomes \['ran'\]"),
    ("reward", "finish", "done", r"config\.rollout/reward: RewardConfig\.finish"),
])
def test_bad_training_settings_are_named_before_anything_loads(tmp_path, section, field,
                                                               value, message):
    c = _config(tmp_path)
    c[section][field] = value
    with pytest.raises(ValueError, match=message):
        check(c)


@pytest.mark.timeout(300)
def test_two_real_processes_stop_at_the_check_before_anything_loads(tmp_path):
    """Two JAX processes (gloo, 4 fake devices each) with a mesh whose one batch shard cannot
    be split between them: each exits 2 (a usage error) naming the fields, before synthesis
    or weights."""
    port = free_port()
    logs = run_processes([
        [sys.executable, "-m", "launch.train", "--config=configs/tiny.py",
         f"--config.workdir={tmp_path / 'run'}", "--config.mesh.data=1",
         "--config.mesh.fsdp=1", "--config.mesh.tensor=8",
         "--config.distributed.enabled=True",
         f"--config.distributed.coordinator_address=127.0.0.1:{port}",
         "--config.distributed.num_processes=2", f"--config.distributed.process_id={p}"]
        for p in range(2)], devices=4, cwd=ROOT, timeout=240, returncode=2)
    for log in logs:
        assert "error: --config.mesh.data=1 x --config.mesh.fsdp=1 = 1 batch shards do not " \
               "split over 2 processes" in log, log[-2000:]
        assert "synthesized" not in log and "model:" not in log
    assert not (tmp_path / "run").exists()
