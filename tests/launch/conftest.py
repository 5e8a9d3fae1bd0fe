"""Fixtures the launch tests share."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def tasks(tmp_path_factory) -> Path:
    """40 synthesized tasks over payments and budget (most need payments, some both), once
    per test session."""
    out = tmp_path_factory.mktemp("synth")
    proc = subprocess.run(
        [sys.executable, "-m", "launch.synthesize", "--config=configs/synth.py",
         "--config.num_examples=40", "--config.servers=payments,budget", f"--config.out_dir={out}",
         "--config.progress=False"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return out / "train.jsonl"
