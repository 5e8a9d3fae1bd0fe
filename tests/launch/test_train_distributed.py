"""`python -m launch.train` in two JAX processes on this machine (2 fake CPU devices each, gloo
collectives), the tiny config with in-process MCP servers per process: both processes agree on
every step, every episode is played, process 0 alone writes metrics and the export, and the
pair's checkpoint restores in a single process (`launch.export`) to the very weights the pair
exported. Equality with a single-process run is checked on the toy GRPO task in
tests/rl/test_distributed.py."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from safetensors.numpy import load_file

from tests.net import free_port, run_processes

ROOT = Path(__file__).resolve().parents[2]
STEPS = 3


def _weights(directory: Path) -> dict[str, np.ndarray]:
    out: dict[str, np.ndarray] = {}
    for f in sorted(directory.glob("*.safetensors")):
        out.update(load_file(f))
    return out


def _losses(log: str) -> dict[int, str]:
    return {int(m[1]): m[2] for m in re.finditer(r"^step (\d+): .*loss (\S+)", log, re.M)}


@pytest.mark.timeout(1500)
def test_two_processes_train_the_tiny_config_and_one_restores_it(tasks, tmp_path):
    workdir, port = tmp_path / "run", free_port()
    logs = run_processes([
        [sys.executable, "-m", "launch.train", "--config=configs/tiny.py",
         f"--config.workdir={workdir}", f"--config.train.steps={STEPS}",
         "--config.train.checkpoint_every=1", "--config.train.progress=False",
         "--config.data.synthesize=0", f"--config.data.train_path={tasks}",
         "--config.mesh.data=2", "--config.mesh.fsdp=2", "--config.mesh.tensor=1",
         "--config.distributed.enabled=True",
         f"--config.distributed.coordinator_address=127.0.0.1:{port}",
         "--config.distributed.num_processes=2", f"--config.distributed.process_id={p}"]
        for p in range(2)], devices=2, cwd=ROOT, timeout=1200)
    assert "in 2 processes (this is process 1)" in logs[1]

    # both processes took every step, with the same loss to the last digit
    first, second = _losses(logs[0]), _losses(logs[1])
    assert sorted(first) == [1, 2, 3] and first == second
    # process 0 alone wrote metrics and exported
    assert "metrics:" in logs[0] and "metrics:" not in logs[1]
    assert "exported Hugging Face checkpoint" in logs[0]
    assert "exported" not in logs[1]
    rows = [json.loads(x) for x in (workdir / "metrics.jsonl").read_text().splitlines()]
    assert [r["step"] for r in rows] == [1, 2, 3]
    for row in rows:
        assert row["episodes"] == 8  # 2 prompts x 4 rollouts, from both processes
        assert row["failed"] == 0.0  # every episode was played on its process's servers
        assert row["response_tokens"] > 0
        assert repr(row["loss"]) == first[row["step"]]
        # process 0 gathered both processes' episodes into the step's one file
        path = workdir / "episodes" / f"step_{row['step']:06d}.jsonl"
        records = [json.loads(x) for x in path.read_text().splitlines()]
        assert len(records) == 8 and sorted({r["group"] for r in records}) == [0, 1]

    out = tmp_path / "restored"
    proc = subprocess.run([sys.executable, "-m", "launch.export", f"--workdir={workdir}",
                           f"--out={out}", "--dtype=float32"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "JAX_PLATFORMS": "cpu"})
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert f"exported step {STEPS}" in proc.stdout
    restored, exported = _weights(out), _weights(workdir / "hf")
    assert restored.keys() == exported.keys() and restored
    for key in restored:
        np.testing.assert_array_equal(restored[key], exported[key], err_msg=key)
