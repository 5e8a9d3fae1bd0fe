"""The reproduce report's statistics, on hand-written evaluation files."""

from __future__ import annotations

import json

import pytest

from launch.reproduce_report import (
    by_kind,
    heldout_summary,
    repeated_calls,
    solved,
    target_met,
    write_report,
)


def write_eval(root, model, seed, reward, success, val, calls):
    d = root / "eval" / f"{model}-s{seed}"
    d.mkdir(parents=True)
    (d / "results.json").write_text(json.dumps({"overall": {
        "n": len(calls), "success": success, "reward/total": reward, "reward/val": val}}))
    (d / "episodes.jsonl").write_text("".join(json.dumps({"calls": c}) + "\n" for c in calls))


def test_summary_means_stds_and_the_target(tmp_path):
    for seed, (b, s, g) in enumerate([(0.10, 0.40, 0.60), (0.12, 0.44, 0.62), (0.14, 0.42, 0.58)]):
        write_eval(tmp_path, "base", seed, b, 0.0, 0.2, [0, 1])
        write_eval(tmp_path, "sft", seed, s, 0.5, 0.9, [2, 2])
        write_eval(tmp_path, "grpo", seed, g, 0.5, 1.0, [2, 3])
    summary = heldout_summary(tmp_path, [0, 1, 2])
    assert summary["base"]["reward"] == pytest.approx((0.12, 0.02))
    assert summary["sft"]["calls"] == (2.0, 0.0) and summary["grpo"]["calls"][0] == 2.5
    assert summary["base"]["n"] == 2 and summary["grpo"]["seeds"] == 3
    # sft - base = 0.30 > 2 * 0.02; grpo - sft = 0.18 > 2 * 0.02
    assert target_met(summary) is True
    write_eval(tmp_path, "grpo", 3, 0.30, 0.5, 1.0, [2])  # a fourth seed pulls grpo down
    summary = heldout_summary(tmp_path, [0, 1, 2, 3])
    assert target_met(summary) is False
    del summary["grpo"]
    assert target_met(summary) is None
    # one seed of grpo, however far above: no spread, no verdict
    summary = heldout_summary(tmp_path, [0, 1, 2])
    summary["grpo"] = {**summary["grpo"], "reward": (0.9, 0.0), "seeds": 1}
    assert target_met(summary) is None
    (tmp_path / "stages.json").write_text(json.dumps({"sft": 3600.0, "grpo": 1800.0}))
    paths = write_report(tmp_path, [0, 1, 2], {"config": "x"})
    md = paths["md"].read_text()
    assert "| base | 2 | 3 | 0.120 ± 0.020 |" in md and "Target" in md and ": met" in md
    assert "total 5400 s (1.50 h)" in md and paths["png"].stat().st_size > 1000
    assert "| solved |" in md and "| answered |" in md
    assert "GRPO step" not in md  # no GRPO metrics written
    # a resumed GRPO run wrote step 3 twice: its last record counts
    (tmp_path / "grpo").mkdir()
    (tmp_path / "grpo" / "metrics.jsonl").write_text("".join(json.dumps(r) + "\n" for r in (
        {"step": 1, "step_s": 100.0}, {"step": 2, "step_s": 50.0}, {"step": 3, "step_s": 999.0},
        {"step": 3, "step_s": 70.0})))
    md = write_report(tmp_path, [0, 1, 2], {"config": "x"})["md"].read_text()
    assert "GRPO step wall times (s, from metrics.jsonl): 100, 50, 70; sum 220" in md
    assert "total 5400 s" in md  # the stage's 1800 s hold its steps
    # a GRPO stage whose record holds only its export (stopped, then resumed): the steps count
    (tmp_path / "stages.json").write_text(json.dumps({"sft": 3600.0, "grpo": 14.0}))
    md = write_report(tmp_path, [0, 1, 2], {"config": "x"})["md"].read_text()
    assert "total 3820 s (1.06 h), 206 s of it GRPO steps the stage did not record" in md


def test_solved_is_success_that_doing_nothing_cannot_earn(tmp_path):
    def row(kind, success, calls, cov, finish="answered"):
        return {"kind": kind, "success": success, "calls": calls, "rewards": {"cov": cov},
                "finish_reason": finish}

    assert solved(row("normal", True, 2, 1.0))
    assert not solved(row("normal", True, 0, 0.0))  # read-only task, nothing called
    assert not solved(row("normal", True, 3, 0.5))  # same end state, a truth call skipped
    assert not solved(row("normal", False, 2, 1.0))
    assert solved(row("abstention", True, 0, 0.0))
    assert not solved(row("abstention", True, 1, 0.0))  # read when it should have declined
    rows = [row("normal", True, 0, 0.0, "length"), row("normal", True, 2, 1.0),
            row("abstention", True, 0, 0.0, "max_assistant_turns"), row("normal", False, 1, 0.5)]
    d = tmp_path / "eval" / "sft-s0"
    d.mkdir(parents=True)
    (d / "results.json").write_text(json.dumps({"overall": {"n": 4, "success": 0.75}}))
    (d / "episodes.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    summary = heldout_summary(tmp_path, [0])["sft"]
    assert summary["success"] == (0.75, 0.0)
    assert summary["solved"] == (0.5, 0.0) and summary["answered"] == (0.5, 0.0)


def test_episode_records_are_read_like_older_rows():
    """Evaluations now write episode records: task_kind, and calls as a list of calls."""
    call = {"name": "get_wallet", "arguments": {}, "outcome": "ok"}
    record = {"task_kind": "abstention", "success": True, "calls": [call],
              "rewards": {"cov": 0.0}, "finish_reason": "answered"}
    assert not solved(record)
    assert solved({**record, "calls": []})
    assert solved({**record, "task_kind": "normal", "calls": [call, call],
                   "rewards": {"cov": 1.0}})


def test_a_refused_call_does_not_solve_a_read_task():
    """The paper's R_cov lets a call the server refused (an extra argument) cover the truth by
    name and keys; a read-only task 'solved' that way read nothing, so solved asks for a call
    that ran."""
    truth = {"steps": [[{"name": "cat", "arguments": {"path": "/a"}}]], "edges": []}
    refused = {"name": "cat", "arguments": {"path": "/a", "lines": 3}, "outcome": "schema_error"}
    record = {"task_kind": "normal", "success": True, "truth": truth, "calls": [refused],
              "rewards": {"cov": 1.0}, "finish_reason": "answered"}
    assert not solved(record)
    ran = {"name": "cat", "arguments": {"path": "/a"}, "outcome": "ok"}
    assert solved({**record, "calls": [refused, ran]})
    assert not solved({**record, "calls": [{**ran, "name": "ls"}, refused]})


def test_repeats_count_calls_equal_to_an_earlier_one(tmp_path):
    """A repeat has an earlier call's name and arguments (key order aside); same name with
    other arguments is a new call."""
    a = {"name": "cat", "arguments": {"path": "/a", "n": 1}}
    a_again = {"name": "cat", "arguments": {"n": 1, "path": "/a"}}
    b = {"name": "cat", "arguments": {"path": "/b"}}
    assert repeated_calls({"calls": [a, b, a_again, a, b]}) == 3
    assert repeated_calls({"calls": [a, b]}) == 0 and repeated_calls({"calls": 4}) == 0
    d = tmp_path / "eval" / "grpo-s0"
    d.mkdir(parents=True)
    (d / "results.json").write_text(json.dumps({"overall": {"n": 2}}))
    rows = [{"calls": [a, a_again, a]}, {"calls": [a, b]}]
    (d / "episodes.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert heldout_summary(tmp_path, [0])["grpo"]["repeats"] == (1.0, 0.0)
    md = write_report(tmp_path, [0], {"config": "x"})["md"].read_text()
    assert "| repeats/episode |" in md and "| 1.000 ± 0.000 |" in md


@pytest.mark.parametrize("flag, error", [
    ("--eval_models=gpro", "--eval_models: ['gpro'] unknown"),
    ("--seeds=a", "--seeds must be integers"),
    ("--config=configs/nope.py", "no such file"),
    ("--config=configs/tiny.py", "defines no SERVERS string"),
    ("--grpo_flags=--config.reward.w_repet=0.2", "the config's reward has no key 'w_repet'"),
    ("--grpo_flags=--config.reward.w_repeat=-1", "RewardConfig.w_repeat: must be >= 0"),
    ("--grpo_flags=--config.reward.w_finish=lots", "could not convert string to float"),
    ("--grpo_flags=--config.reward.finish=done", "RewardConfig.finish: 'done' is not one of"),
    ("--grpo_flags=--config.reward.match_outcomes=['ran']",
     "RewardConfig.match_outcomes: unknown outcomes ['ran']"),
    ("--grpo_flags=--config.reward.match_outcomes=ran", "unknown outcomes ['ran']"),
])
def test_reproduce_rejects_bad_flags_before_any_stage(tmp_path, flag, error):
    import subprocess
    import sys
    from pathlib import Path

    out = tmp_path / "run"
    result = subprocess.run([sys.executable, "-m", "launch.reproduce", f"--out={out}", flag],
                            cwd=Path(__file__).resolve().parents[2], capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 2 and error in result.stderr
    assert not out.exists()


def test_a_stage_run_again_adds_its_time_to_the_earlier_runs(tmp_path):
    import os

    from launch.reproduce import Stages

    stages = Stages(tmp_path, dict(os.environ))
    with pytest.raises(SystemExit, match="stage grpo failed"):
        stages.run("grpo", tmp_path / "done", ["timeit", "-n1", "-r1",
                                               "import time; time.sleep(0.3); 1 / 0"])
    first = json.loads((tmp_path / "stages.json").read_text())["grpo"]
    assert first >= 0.3
    again = Stages(tmp_path, dict(os.environ))  # a later `make reproduce` resumes
    assert again.times == {"grpo": first}
    with pytest.raises(SystemExit, match="without writing"):
        again.run("grpo", tmp_path / "done",
                  ["timeit", "-n1", "-r1", "import time; time.sleep(0.3)"])
    assert json.loads((tmp_path / "stages.json").read_text())["grpo"] >= first + 0.3


def test_rewards_by_task_kind_pool_every_seed(tmp_path):
    def episode(kind, total, calls, success=True):
        return {"task_kind": kind, "rewards": {"total": total}, "success": success,
                "calls": [{"name": "ls", "arguments": {"i": i}, "outcome": "ok"}
                          for i in range(calls)],
                "truth": {"steps": [] if kind == "abstention" else
                          [[{"name": "ls", "arguments": {"i": 0}}]], "edges": []}}
    for seed, rows in enumerate([[episode("abstention", 1.0, 0), episode("normal", 0.5, 1)],
                                 [episode("abstention", 0.0, 2), episode("normal", 0.3, 1)]]):
        d = tmp_path / "eval" / f"sft-s{seed}"
        d.mkdir(parents=True)
        (d / "results.json").write_text(json.dumps({"overall": {"n": 2, "reward/total": 0.5}}))
        (d / "episodes.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    # an abstention episode is solved only by calling nothing; both episodes here succeeded
    assert by_kind(tmp_path, [0, 1]) == [("sft", "abstention", 2, 0.5, 0.5),
                                         ("sft", "normal", 2, pytest.approx(0.4), 1.0)]
    md = write_report(tmp_path, [0, 1], {"config": "x"})["md"].read_text()
    assert "| sft | abstention | 2 | 0.500 | 0.500 |" in md
