"""The reproduce report scores every evaluated episode again with GRPO's reward when GRPO
trained on another one (the habit terms), and reproduce finds that reward from its flags (its
refusals of bad reward flags are in test_reproduce_report.py)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from launch.reproduce import grpo_reward
from launch.reproduce_report import heldout_summary, rescored_total, write_report
from prove_jax.rewards import RewardConfig

ROOT = Path(__file__).resolve().parents[2]
HABITS = RewardConfig(w_repeat=0.25, w_finish=0.2)
RECIPE = "configs/smollm2_135m.py"


def test_rescoring_with_the_evaluations_reward_gives_back_its_totals():
    """Committed episodes of a real run (abstention, clarification and capped ones among
    them): scored again from the row alone, every total is the one the evaluation wrote."""
    path = ROOT / "results" / "smollm2_fourth" / "eval" / "grpo-s0" / "episodes.jsonl.gz"
    rows = [json.loads(line) for line in gzip.decompress(path.read_bytes()).splitlines()]
    assert len(rows) == 100 and {r["task_kind"] for r in rows} >= {"normal", "abstention"}
    for row in rows:
        assert rescored_total(row, RewardConfig()) == pytest.approx(row["rewards"]["total"])
    # with the habit terms, a capped episode loses w_finish and each repeat 0.25 / n_gt
    capped = next(r for r in rows if r["task_kind"] == "normal"
                  and r["finish_reason"] != "answered" and r["failed"] is None)
    assert rescored_total(capped, HABITS) < capped["rewards"]["total"]


def _eval(root: Path, model: str, seed: int, rows: list[dict]) -> None:
    d = root / "eval" / f"{model}-s{seed}"
    d.mkdir(parents=True)
    reward = sum(r["rewards"]["total"] for r in rows) / len(rows)
    (d / "results.json").write_text(json.dumps({"overall": {"n": len(rows),
                                                            "reward/total": reward}}))
    (d / "episodes.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))


def _row(calls: list[dict], finish: str) -> dict:
    truth = {"steps": [[{"name": "cat", "arguments": {"path": "/a"}}]], "edges": []}
    paper = rescored_total({"calls": calls, "truth": truth, "rewards": {"total": 0}},
                           RewardConfig())
    return {"task_kind": "normal", "calls": calls, "truth": truth, "finish_reason": finish,
            "failed": None, "rewards": {"total": paper}}


def test_the_report_judges_both_rewards(tmp_path):
    cat = {"name": "cat", "arguments": {"path": "/a"}, "outcome": "ok"}
    # the paper's total is 1.3 for all of these; habits: answered 1.5, looping 1.3 - 0.25 = 1.05
    answered, looping = _row([cat], "answered"), _row([cat, cat], "max_assistant_turns")
    assert answered["rewards"]["total"] == looping["rewards"]["total"] == pytest.approx(1.3)
    for seed in range(2):
        _eval(tmp_path, "base", seed, [_row([], "answered")] * 2)
        _eval(tmp_path, "sft", seed, [looping, looping])
        _eval(tmp_path, "grpo", seed, [answered, answered if seed else looping])
    summary = heldout_summary(tmp_path, [0, 1], HABITS)
    assert summary["sft"]["trained"] == pytest.approx((1.05, 0.0))
    assert summary["grpo"]["trained"][0] == pytest.approx((1.5 + 1.275) / 2)
    md = write_report(tmp_path, [0, 1], {"config": "x"}, trained=HABITS)["md"].read_text()
    assert "| reward (GRPO's) |" in md
    assert '{"w_repeat": 0.25, "w_finish": 0.2}' in md
    # paper's reward: grpo = sft, NOT met; GRPO's: 1.39 vs 1.05 with std 0.16 -> met
    assert "2 std across seeds): NOT met" in md and "scored again: met" in md
    plain = write_report(tmp_path, [0, 1], {"config": "x"})["md"].read_text()
    assert "GRPO's" not in plain


def test_reproduce_finds_grpos_reward_from_its_flags():
    flags = ["--config.rollout.temperature=0.7", "--config.reward.w_repeat=0.25",
             "--config.reward.w_finish=0.2"]
    assert grpo_reward(RECIPE, flags, []) == HABITS
    assert grpo_reward(RECIPE, flags[:1], []) is None  # the paper's reward in both
    assert grpo_reward(RECIPE, flags, flags[1:]) is None  # evaluated with the same terms
    assert grpo_reward(RECIPE, ["--config.reward.normalize_strings=True"], []) == RewardConfig(
        normalize_strings=True)
    fifth = grpo_reward(RECIPE, [*flags, "--config.reward.finish=answer"], [])
    assert fifth == RewardConfig(w_repeat=0.25, w_finish=0.2, finish="answer")
    # a tuple field from its flag text (the sixth reading's rule: only calls that ran cover)
    ran = grpo_reward(RECIPE, [*flags, "--config.reward.match_outcomes=['ok']"], [])
    assert ran == RewardConfig(w_repeat=0.25, w_finish=0.2, match_outcomes=("ok",))
    # a bare word is a one-item tuple, as ml_collections' config flags read it for launch.train
    assert grpo_reward(RECIPE, [*flags, "--config.reward.match_outcomes=ok"], []) == ran
