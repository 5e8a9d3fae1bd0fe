"""`python -m launch.sft` on the tiny config: demonstrations from the oracle's replays against
live servers, cross-entropy on the assistant tokens going down, checkpoints and the export."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.timeout(1200)
def test_tiny_sft_learns_the_demonstrations(tmp_path):
    synth = tmp_path / "synth"
    proc = subprocess.run(
        [sys.executable, "-m", "launch.synthesize", "--config=configs/synth.py",
         "--config.num_examples=32", "--config.servers=payments", f"--config.out_dir={synth}",
         "--config.progress=False"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    workdir = tmp_path / "sft"
    proc = subprocess.run(
        [sys.executable, "-m", "launch.sft", "--config=configs/tiny.py",
         f"--config.workdir={workdir}", "--config.data.synthesize=0",
         f"--config.data.train_path={synth / 'train.jsonl'}", "--config.sft.steps=6",
         "--config.sft.batch_size=4", "--config.sft.kind_repeats.normal=2",
         "--config.sft.lr=3e-3", "--config.train.progress=False",
         "--config.train.checkpoint_every=3"],
        cwd=ROOT, capture_output=True, text=True, timeout=1200)
    assert proc.returncode == 0, proc.stderr[-3000:]
    demos = [json.loads(x) for x in (workdir / "sft" / "train.jsonl").read_text().splitlines()]
    # some tasks do not fit the tiny token budget (9 of 24 did once look-ups named entities)
    assert len(demos) >= 10, proc.stdout
    for row in demos:
        assert len(row["tokens"]) == len(row["loss_mask"]) and sum(row["loss_mask"]) > 0
        assert sum(row["loss_mask"]) < len(row["tokens"])  # prompts and results unmasked
    # every normal task's replay twice in a row, the others once, in the demonstrations' order
    kinds = {t["id"]: t["truth"].get("kind", "normal") for t in map(
        json.loads, (synth / "train.jsonl").read_text().splitlines())}
    repeated = [json.loads(x)["task_id"] for x in
                (workdir / "sft" / "train_repeated.jsonl").read_text().splitlines()]
    assert repeated == [r["task_id"] for r in demos
                        for _ in range(2 if kinds[r["task_id"]] == "normal" else 1)]
    assert any(kinds[r["task_id"]] == "normal" for r in demos), kinds
    rows = [json.loads(x) for x in (workdir / "metrics.jsonl").read_text().splitlines()]
    assert [r["step"] for r in rows] == list(range(1, 7))
    nll = [r["nll"] for r in rows]
    assert nll[0] > 10  # a random model over a 151K vocabulary: ~log(151680) = 11.9
    assert nll[-1] < nll[0] - 1.0, nll
    assert sorted(p.name for p in (workdir / "checkpoints").iterdir() if p.name.isdigit()) \
        == ["3", "6"]
    assert (workdir / "hf" / "config.json").is_file()
