"""`python -m launch.evaluate` as a user runs it: a tiny random model through the whole BFCL path
(8 entries, 2 per category), the oracle on τ² and the held-out split, results files, and
config errors that name the field to set."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _evaluate(workdir: Path, *extra: str, timeout: int = 900) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "launch.evaluate", "--config=configs/tiny.py",
                           f"--config.workdir={workdir}", *extra],
                          cwd=ROOT, capture_output=True, text=True, timeout=timeout)


@pytest.mark.timeout(900)
def test_tiny_random_model_completes_8_bfcl_entries(tmp_path):
    proc = _evaluate(tmp_path, "--config.eval.benchmark=bfcl_multi_turn",
                     "--config.eval.policy=model", "--config.eval.limit=2",
                     "--config.eval.max_new_tokens=16", "--config.eval.max_steps_per_turn=2")
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = tmp_path / "eval" / "bfcl_multi_turn-model"
    results = json.loads((out / "results.json").read_text())
    assert set(results["categories"]) == {"multi_turn_base", "multi_turn_miss_param",
                                          "multi_turn_miss_func", "multi_turn_long_context"}
    assert all(c["n"] == 2 for c in results["categories"].values())
    assert results["overall"]["n"] == 8 and results["policy"] == "model"
    sampler = results["sampler"]  # where the sampler's time went, within the run's seconds
    assert sampler["decode_calls"] >= 1 and sampler["admit_s"] > 0
    assert sampler["admit_s"] + sampler["decode_s"] < results["seconds"]
    rows = [json.loads(x) for x in (out / "episodes.jsonl").read_text().splitlines()]
    assert len(rows) == 8
    # Every episode was played (a random model scores ~0, but nothing broke on the way).
    assert not [r for r in rows if r["error_type"] == "multi_turn:inference_error"]
    assert "| overall | 8 |" in (out / "results.md").read_text()
    assert "| multi_turn_base | 2 |" in proc.stdout


@pytest.mark.timeout(600)
def test_oracle_on_tau2_and_the_heldout_split(tmp_path):
    proc = _evaluate(tmp_path, "--config.eval.benchmark=tau2", "--config.eval.policy=oracle",
                     "--config.eval.categories=airline,retail", "--config.eval.limit=3",
                     f"--config.eval.out_dir={tmp_path / 'tau2'}")
    assert proc.returncode == 0, proc.stderr[-3000:]
    tau2 = json.loads((tmp_path / "tau2" / "results.json").read_text())
    assert set(tau2["categories"]) == {"airline", "retail"}
    episodes = (tmp_path / "tau2" / "episodes.jsonl").read_text().splitlines()
    failed = [row for row in map(json.loads, episodes) if not row["success"]]
    assert tau2["overall"]["success_rate"] == 1.0, failed

    synth = tmp_path / "synth"
    made = subprocess.run(
        [sys.executable, "-m", "launch.synthesize", "--config=configs/synth.py",
         "--config.num_examples=40", "--config.seed=3", "--config.servers=payments,budget",
         f"--config.out_dir={synth}", "--config.test_frac=0.5", "--config.progress=False"],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert made.returncode == 0, made.stderr[-3000:]
    assert (synth / "test.jsonl").read_text().count("\n") >= 12
    for policy, expect in (("oracle", 1.0), ("oracle_drop_last", None)):
        proc = _evaluate(tmp_path, "--config.eval.benchmark=heldout",
                         f"--config.eval.policy={policy}",
                         f"--config.eval.test_path={synth / 'test.jsonl'}",
                         # the paper's turn caps (the tiny config trains with 2 / 2)
                         "--config.rollout.max_assistant_turns=10",
                         "--config.rollout.max_user_turns=5")
        assert proc.returncode == 0, proc.stderr[-3000:]
        res = json.loads((tmp_path / "eval" / f"heldout-{policy}" / "results.json").read_text())
        assert res["overall"]["n"] >= 12
        if expect is not None:
            assert res["overall"]["success"] == expect
        else:
            assert res["overall"]["success"] < 1.0


@pytest.mark.parametrize("flags,message", [
    (["--config.eval.benchmark=mmlu"], "config.eval.benchmark must be one of"),
    (["--config.eval.policy=gpt"], "config.eval.policy must be one of"),
    (["--config.eval.benchmark=bfcl_multi_turn", "--config.eval.categories=base,web"],
     "['web'] not known for bfcl_multi_turn"),
    (["--config.eval.benchmark=tau2", "--config.eval.policy=model"],
     "--config.eval.user_base_url="),
    (["--config.eval.benchmark=heldout", "--config.eval.test_path=/nope.jsonl"],
     "no test split at '/nope.jsonl'"),
    (["--config.model.init=hf", "--config.model.model_dir="], "--config.model.model_dir=DIR"),
    (["--config.model.init=hf", "--config.model.model_dir=/no/such/dir"], "no such directory"),
    (["--config.rollout.kv_reuse_mib=-1"], "--config.rollout.kv_reuse_mib must be an integer"),
    (["--config.rollout.batching=paged"], "--config.rollout.batching must be one of"),
    (["--config.rollout.slots=-2"], "--config.rollout.slots must be an integer >= 0"),
])
def test_config_errors_name_the_field(tmp_path, flags, message):
    proc = _evaluate(tmp_path, "--config.eval.benchmark=bfcl_multi_turn", *flags, timeout=120)
    assert proc.returncode == 2
    assert message in proc.stderr, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
