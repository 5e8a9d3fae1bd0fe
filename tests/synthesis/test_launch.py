"""The entry point: `python -m launch.synthesize` writes a dataset; two processes with
different hash seeds write the same bytes (no dependence on Python's per-process hash())."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(out: Path, hash_seed: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    return subprocess.run(
        [sys.executable, "-m", "launch.synthesize", "--config=configs/synth.py",
         "--config.num_examples=12", f"--config.out_dir={out}", "--config.progress=False",
         "--config.servers=payments,banking", "--config.context_refresh_k=6"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


def test_cli_writes_the_dataset_reproducibly(tmp_path):
    a, b = _run(tmp_path / "a", "1"), _run(tmp_path / "b", "2")
    assert a.returncode == 0 and b.returncode == 0, a.stderr[-2000:] + b.stderr[-2000:]
    assert "examples/s" in a.stdout and "kept 12" in a.stdout
    for name in ("train.jsonl", "test.jsonl", "meta.jsonl", "drop_report.json"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    stats = json.loads((tmp_path / "a" / "stats.json").read_text())
    assert stats["kept"] == 12 and stats["throughput"]["examples_per_s"] > 0
    assert list((tmp_path / "a" / "graph_cache").glob("graph_*.json"))


def test_cli_rejects_a_bad_config(tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "launch.synthesize", "--config=configs/synth.py",
         "--config.info_levels.complete=0.9", f"--config.out_dir={tmp_path}"],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and "info levels must sum to 1" in out.stderr
