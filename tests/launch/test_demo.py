"""`make demo`'s job, run as a user runs it, with its printed checks read back."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_demo_runs_end_to_end(tmp_path):
    out = tmp_path / "export"
    proc = subprocess.run(
        [sys.executable, "-m", "launch.demo", "--config=configs/tiny.py",
         f"--config.export.out_dir={out}"],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    text = proc.stdout
    assert "mesh: {'data': 2, 'fsdp': 2, 'tensor': 2} over 8 cpu devices" in text
    diffs = [float(x) for x in re.findall(r"max \|diff\|[^=]*= ([0-9.e+-]+)", text)]
    assert len(diffs) == 3 and max(diffs) < 1e-5, text
    assert len(list(out.glob("model-*.safetensors"))) > 1  # tiny.py asks for small shards


def test_demo_rejects_a_bad_config_clearly(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "launch.demo", "--config=configs/tiny.py",
         "--config.mesh.tensor=3", f"--config.export.out_dir={tmp_path / 'x'}"],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode != 0
    assert "MeshError" in proc.stderr and "needs 12 devices" in proc.stderr
