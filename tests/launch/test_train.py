"""`python -m launch.train` as a user runs it: the tiny config end to end (outputs, export that
transformers loads), exact resume after SIGKILL, launch.export, and clear config errors."""

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
STEPS = 3


def _cmd(workdir: Path, tasks: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "launch.train", "--config=configs/tiny.py",
            f"--config.workdir={workdir}", f"--config.train.steps={STEPS}",
            "--config.train.checkpoint_every=1", "--config.train.progress=False",
            "--config.data.synthesize=0", f"--config.data.train_path={tasks}", *extra]


def _metrics(workdir: Path) -> list[dict]:
    return [json.loads(x) for x in (workdir / "metrics.jsonl").read_text().splitlines()]


@pytest.fixture(scope="module")
def full_run(tasks, tmp_path_factory) -> Path:
    """The default rollout path (continuous batching) at top_k=20: also the continuous-batching
    run that `mode_runs` compares with the reference (one tiny run fewer: ~70 s)."""
    workdir = tmp_path_factory.mktemp("full")
    proc = subprocess.run(_cmd(workdir, tasks, *STEP_FLAGS[:1]), cwd=ROOT,
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    _LOGS["full"] = proc
    return workdir


_LOGS: dict[str, subprocess.CompletedProcess] = {}
ABSL_LINE = re.compile(r"^[IWEF]\d{4} \d\d:\d\d:\d\d", re.M)  # absl / XLA C++ log lines


@pytest.mark.timeout(1200)
def test_the_log_is_quiet_and_says_how_fast_the_step_ran(full_run):
    proc = _LOGS["full"]
    log = proc.stdout + proc.stderr
    assert "Involuntary full rematerialization" not in log
    assert len(ABSL_LINE.findall(log)) <= 2, ABSL_LINE.findall(log)
    assert "libtpu" not in log  # JAX's accelerator probe is INFO: not shown on a CPU run
    assert "MFU against cpu, measured" in proc.stdout
    assert re.search(r"trained steps 1-3; .*tokens/s per device, MFU \d", proc.stdout)
    for r in _metrics(full_run):
        assert r["model_flops"] > 0 and r["train_tokens_per_s_per_device"] > 0
        assert 0 < r["mfu"] < 1


@pytest.mark.timeout(1200)
def test_tiny_run_leaves_metrics_plot_checkpoints_and_a_loadable_export(full_run):
    rows = _metrics(full_run)
    assert [r["step"] for r in rows] == [1, 2, 3]
    for r in rows:
        assert r["episodes"] == 8  # 2 prompts x group 4
        assert np.isfinite(r["loss"]) and np.isfinite(r["grad_norm"])
        assert r["skipped_nonfinite"] == 0
        for key in ("reward/total", "reward/val", "calls_per_episode", "assistant_turns",
                    "kl", "entropy", "clip_fraction", "train_tokens_per_s", "rollout_s"):
            assert key in r, key
        # the continuous sampler's share of the rollout: extends, decode calls over 1-8 rows
        assert r["rollout/admit_s"] > 0 and r["rollout/decode_s"] > 0
        assert r["rollout/admit_s"] + r["rollout/decode_s"] < r["rollout_s"]
        assert r["rollout/decode_calls"] >= 1 and 1 <= r["rollout/rows_per_decode"] <= 8
    assert (full_run / "reward.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert any((full_run / "tb").iterdir())
    assert sorted(int(p.name) for p in (full_run / "checkpoints").iterdir()
                  if p.name.isdigit()) == [2, 3]  # keep_checkpoints = 2

    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    hf = AutoModelForCausalLM.from_pretrained(full_run / "hf", dtype=torch.float32)
    tok = AutoTokenizer.from_pretrained(full_run / "hf")
    ids = tok("Send 5 dollars to Ana", return_tensors="pt").input_ids
    out = hf.generate(ids, max_new_tokens=4, do_sample=False)
    assert out.shape == (1, ids.shape[1] + 4)


@pytest.mark.timeout(1200)
def test_every_step_leaves_its_episodes_for_the_viewer(full_run):
    """configs/tiny.py logs every step: 2 groups x 4 samples each, whole records whose
    rewards and advantages are the ones the step's metrics averaged."""
    files = sorted((full_run / "episodes").glob("step_*.jsonl"))
    assert [p.name for p in files] == [f"step_{i:06d}.jsonl" for i in (1, 2, 3)]
    for path, metrics in zip(files, _metrics(full_run), strict=True):
        records = [json.loads(line) for line in path.read_text().splitlines()]
        assert len(records) == 8
        groups = {}
        for r in records:
            assert r["schema"] == 1 and r["step"] == metrics["step"]
            assert r["turns"][0]["role"] in ("system", "user") and r["expected_hashes"]
            assert len(r["alignment"]) == sum(map(len, r["truth"]["steps"]))
            groups.setdefault(r["group"], []).append(r)
        assert sorted(len(g) for g in groups.values()) == [4, 4]
        for g in groups.values():
            assert sorted(r["sample"] for r in g) == [0, 1, 2, 3]
            assert len({r["task_id"] for r in g}) == 1
            if any(r["trained"] for r in g):  # GRPO advantages are centred per group
                assert abs(sum(r["advantage"] for r in g)) < 1e-5
        mean = sum(r["rewards"]["total"] for r in records) / len(records)
        assert mean == pytest.approx(metrics["reward/total"], abs=1e-6)


@pytest.mark.timeout(1800)
def test_sigkill_after_a_checkpoint_resumes_with_the_same_next_batch_and_loss(
        mode_runs, tasks, tmp_path):
    workdir = tmp_path / "killed"
    log = tmp_path / "killed.log"
    with open(log, "w") as out:
        proc = subprocess.Popen(_cmd(workdir, tasks, *STEP_FLAGS), cwd=ROOT, stdout=out,
                                stderr=out, start_new_session=True)
    deadline = time.time() + 900
    while not (workdir / "checkpoints" / "2").is_dir():
        assert proc.poll() is None, log.read_text()[-3000:]
        assert time.time() < deadline
        time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert not (workdir / "checkpoints" / "3").is_dir()

    again = subprocess.run(_cmd(workdir, tasks, *STEP_FLAGS), cwd=ROOT, capture_output=True,
                           text=True, timeout=900)
    assert again.returncode == 0, again.stderr[-3000:]
    assert "resumed from" in again.stdout and "at step 2" in again.stdout
    resumed, uninterrupted = _metrics(workdir), _metrics(mode_runs["step"])
    assert [r["step"] for r in resumed] == [1, 2, 3]
    a, b = resumed[2], uninterrupted[2]
    assert a["batch_digest"] == b["batch_digest"]
    np.testing.assert_allclose(a["loss"], b["loss"], rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(a["grad_norm"], b["grad_norm"], rtol=1e-4)


# The step-synchronous reference with every context recomputed, top_k=20 so that float32
# rounding cannot flip an inverse-CDF draw over the whole vocabulary. Continuous batching
# admits requests as they arrive, so its extend shapes (and float32 rounding) follow timing:
# exact resume is a property of this path.
STEP_FLAGS = ("--config.rollout.top_k=20", "--config.rollout.batching=step",
              "--config.rollout.kv_reuse_mib=0")


@pytest.fixture(scope="module")
def mode_runs(full_run, tasks, tmp_path_factory) -> dict[str, Path]:
    """The same 3 steps with continuous batching (the default: `full_run`) and with the
    reference."""
    workdir = tmp_path_factory.mktemp("step")
    proc = subprocess.run(_cmd(workdir, tasks, *STEP_FLAGS), cwd=ROOT, capture_output=True,
                          text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return {"continuous": full_run, "step": workdir}


@pytest.mark.timeout(1800)
def test_continuous_batching_trains_what_the_step_reference_trains(mode_runs):
    """Three GRPO steps with the default rollout path (continuous batching, KV kept in rows)
    and with the reference play the same episodes, so their metrics match."""
    for a, b in zip(*(_metrics(mode_runs[m]) for m in ("continuous", "step")), strict=True):
        for key in ("reward/total", "calls_per_episode", "assistant_turns"):
            assert a[key] == pytest.approx(b[key], abs=1e-6), key
        np.testing.assert_allclose(a["loss"], b["loss"], rtol=1e-4, atol=1e-6)


@pytest.mark.timeout(600)
def test_export_cli_writes_the_chosen_step(full_run, tmp_path):
    out = tmp_path / "hf2"
    proc = subprocess.run([sys.executable, "-m", "launch.export", f"--workdir={full_run}",
                           f"--out={out}", "--step=2", "--dtype=float32"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "exported step 2" in proc.stdout
    from safetensors.numpy import load_file

    def weights(d: Path) -> dict:
        out = {}
        for f in sorted(d.glob("*.safetensors")):
            out.update(load_file(f))
        return out

    step2, final = weights(out), weights(full_run / "hf")
    assert step2.keys() == final.keys()
    assert any(not np.array_equal(step2[k], final[k]) for k in step2)  # step 3 moved them


def test_a_real_config_without_a_model_dir_names_the_flag(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "launch.train", "--config=configs/qwen3_4b.py",
                           f"--config.workdir={tmp_path}"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2
    assert "--config.model.model_dir" in proc.stderr
    assert not any(tmp_path.iterdir())  # nothing started


def test_a_mesh_the_devices_cannot_hold_is_a_clear_error(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "launch.train", "--config=configs/tiny.py",
                           f"--config.workdir={tmp_path}", "--config.mesh.tensor=3"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2
    assert "needs 12 devices" in proc.stderr and "Traceback" not in proc.stderr
