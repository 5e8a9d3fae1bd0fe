"""results.md and curve.png of a `launch.reproduce` run, from the files its stages wrote.

Held-out rows: each model's mean ± standard deviation over the evaluation seeds of
  reward      the PROVE total (reward/total)
  success     final world state equal to the truth's, episode not failed
  valid       the valid-call rate (reward/val: the share of calls that executed without error)
  calls       calls per episode (from episodes.jsonl)
  solved      success that a policy cannot reach by doing nothing: for a normal or clarification
              task, success with every ground-truth call covered by a call that ran (R_cov = 1
              with match_outcomes ("ok",)); for an abstention task, success with no call at
              all. Final-state success alone counts a read-only task as done when nothing was
              called (its end state is the start state), and the paper's R_cov lets a call the
              server refused cover the truth, which reads nothing either.
  answered    episodes that ended in a final answer (not a turn, token or length cap)
  repeats     calls per episode that repeat an earlier call of the episode (same name, same
              arguments): the PROVE reward averages R_val and R_name over calls, so a repeat
              costs nothing until R_eff's budget, and a policy can learn to loop
  trained     (when GRPO trained on another reward than the evaluation's, e.g. with the habit
              terms) every episode scored again with GRPO's reward (`rescored_total`), so each
              model is also judged by what GRPO optimized
The learning target: grpo > sft > base on reward, each gap larger than twice the larger of the
two standard deviations (judged on `trained` too, where it is reported).
"""

from __future__ import annotations

import functools
import json
import statistics
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

__all__ = ["by_kind", "heldout_summary", "repeated_calls", "rescored_total", "solved",
           "target_met", "write_report"]

MODELS = ("base", "sft", "grpo")
METRICS = ("reward", "success", "solved", "valid", "calls", "answered", "repeats")
HEADERS = ("reward", "success", "solved", "valid-call rate", "calls/episode", "answered",
           "repeats/episode")
TRAINED_HEADER = "reward (GRPO's)"


def rescored_total(row: Mapping[str, Any], config: Any) -> float:
    """An episode row's total under another reward config (a RewardConfig or its dict). A row
    the evaluation could not score counts 0, as in its own mean; rows keep no end state, so a
    state term is left out."""
    from prove_jax.rewards import score

    if "total" not in row.get("rewards", {}):
        return 0.0
    finished = row.get("failed") is None and row.get("finish_reason") == "answered"
    return score(row["calls"], _truth(row), config, finished=finished)["total"]


def _kind(row: Mapping[str, Any]) -> str:
    return row.get("task_kind", row.get("kind", "normal"))


def _truth(row: Mapping[str, Any]) -> dict[str, Any]:
    """An episode row's truth in `score`'s form (the task kind is a key of the row)."""
    return {**row["truth"], "kind": _kind(row)}


def _seed_metrics(eval_dir: Path, trained: Any = None) -> dict[str, float]:
    overall = json.loads((eval_dir / "results.json").read_text())["overall"]
    rows = [json.loads(line) for line in (eval_dir / "episodes.jsonl").read_text().splitlines()
            if line.strip()]
    def share(test) -> float:
        return statistics.fmean(bool(test(r)) for r in rows) if rows else 0.0

    return {"reward": overall.get("reward/total", 0.0), "success": overall.get("success", 0.0),
            "valid": overall.get("reward/val", 0.0),
            "calls": statistics.fmean(n_calls(r) for r in rows) if rows else 0.0,
            "solved": share(solved), "answered": share(
                lambda r: r.get("finish_reason") == "answered"),
            "repeats": statistics.fmean(repeated_calls(r) for r in rows) if rows else 0.0,
            "n": overall.get("n", len(rows)),
            **({"trained": statistics.fmean(rescored_total(r, trained) for r in rows)
                if rows else 0.0} if trained is not None else {})}


def n_calls(row: Mapping[str, Any]) -> int:
    """Calls of an episode row: a list in episode records, a count in older results."""
    calls = row.get("calls", 0)
    return len(calls) if isinstance(calls, list) else int(calls)


def repeated_calls(row: Mapping[str, Any]) -> int:
    """Calls of an episode row equal in name and arguments to an earlier call of it (0 for
    older rows that hold only a count)."""
    calls = row.get("calls", 0)
    if not isinstance(calls, list):
        return 0
    seen: set[tuple[str, str]] = set()
    repeats = 0
    for call in calls:
        key = (call.get("name", ""), json.dumps(call.get("arguments"), sort_keys=True))
        repeats += key in seen
        seen.add(key)
    return repeats


def solved(row: Mapping[str, Any]) -> bool:
    """Success that doing nothing cannot earn (see the module docstring)."""
    if not row.get("success"):
        return False
    if _kind(row) == "abstention":
        return n_calls(row) == 0
    return _covered_by_calls_that_ran(row) >= 1.0 - 1e-9


def _covered_by_calls_that_ran(row: Mapping[str, Any]) -> float:
    """R_cov counting only calls that ran; older rows without call outcomes or truth keep the
    R_cov they were scored with."""
    calls = row.get("calls")
    if not isinstance(calls, list) or "truth" not in row:
        return row.get("rewards", {}).get("cov", 0.0)
    from prove_jax.rewards import score

    return score(calls, _truth(row), _ran_only())["cov"]


@functools.cache
def _ran_only() -> Any:
    """The paper's reward with only calls that ran matching the truth (built once)."""
    from prove_jax.rewards import RewardConfig

    return RewardConfig(match_outcomes=("ok",))


def heldout_summary(out: Path, seeds: Sequence[int],
                    trained: Any = None) -> dict[str, dict[str, Any]]:
    """model -> {metric: (mean, std), "n": tasks, "seeds": found} for every evaluated model;
    with `trained` (GRPO's reward config), "trained" too."""
    summary = {}
    for model in MODELS:
        found = [_seed_metrics(out / "eval" / f"{model}-s{s}", trained) for s in seeds
                 if (out / "eval" / f"{model}-s{s}" / "results.json").is_file()]
        if not found:
            continue
        row: dict[str, Any] = {"n": found[0]["n"], "seeds": len(found)}
        for m in METRICS + (("trained",) if trained is not None else ()):
            values = [f[m] for f in found]
            row[m] = (statistics.fmean(values),
                      statistics.stdev(values) if len(values) > 1 else 0.0)
        summary[model] = row
    return summary


def target_met(summary: Mapping[str, Mapping[str, Any]], metric: str = "reward") -> bool | None:
    """grpo > sft > base on `metric` by more than 2 std each; None until all three exist with
    at least two seeds each (one seed has no spread to measure a gap against)."""
    if not all(m in summary and summary[m]["seeds"] >= 2 for m in MODELS):
        return None

    def above(hi: str, lo: str) -> bool:
        (m_hi, s_hi), (m_lo, s_lo) = summary[hi][metric], summary[lo][metric]
        return m_hi - m_lo > 2 * max(s_hi, s_lo)

    return above("sft", "base") and above("grpo", "sft")


def _changed_fields(config: Any) -> dict[str, Any]:
    """The fields of a reward config that differ from the paper's defaults."""
    from prove_jax.rewards import RewardConfig

    cfg, paper = RewardConfig.coerce(config), RewardConfig()
    return {k: v for k, v in vars(cfg).items() if getattr(paper, k) != v}


def _curve(out: Path, png: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
    for ax, stage, key, label in ((left, "sft", "loss", "SFT loss (assistant tokens)"),
                                  (right, "grpo", "reward/total", "GRPO reward (step mean)")):
        path = out / stage / "metrics.jsonl"
        rows = [json.loads(x) for x in path.read_text().splitlines()] if path.is_file() else []
        rows = [r for r in rows if key in r]
        ax.plot([r["step"] for r in rows], [r[key] for r in rows], marker="o")
        ax.set_title(label)
        ax.set_xlabel("step")
        ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(png, dpi=100)
    plt.close(fig)
    return png


def by_kind(out: Path, seeds: Sequence[int]) -> list[tuple[str, str, int, float, float]]:
    """(model, task kind, episodes over all seeds, mean reward, solved share) for every model
    and kind evaluated: where a model gains or loses (e.g. an abstention task is solved only
    by calling nothing)."""
    table = []
    for model in MODELS:
        rows = [json.loads(line) for s in seeds
                if (path := out / "eval" / f"{model}-s{s}" / "episodes.jsonl").is_file()
                for line in path.read_text().splitlines() if line.strip()]
        for kind in sorted({_kind(r) for r in rows}):
            of_kind = [r for r in rows if _kind(r) == kind]
            table.append((model, kind, len(of_kind),
                          statistics.fmean(r.get("rewards", {}).get("total", 0.0)
                                           for r in of_kind),
                          statistics.fmean(solved(r) for r in of_kind)))
    return table


def _step_times(path: Path) -> list[float]:
    """Each GRPO step's wall time, the last record of a step that was run again winning."""
    if not path.is_file():
        return []
    by_step = {r["step"]: r["step_s"] for r in map(json.loads, path.read_text().splitlines())
               if "step_s" in r}
    return [by_step[k] for k in sorted(by_step)]


def write_report(out: Path, seeds: Sequence[int], settings: Mapping[str, Any],
                 trained: Any = None) -> dict[str, Path]:
    """`trained`: GRPO's reward config where it differs from the evaluation's (module doc)."""
    summary = heldout_summary(out, seeds, trained)
    metrics = METRICS + (("trained",) if trained is not None else ())
    headers = HEADERS + ((TRAINED_HEADER,) if trained is not None else ())
    times = json.loads((out / "stages.json").read_text()) if (out / "stages.json").is_file() \
        else {}
    lines = ["# SmolLM2-135M-Instruct: base -> SFT -> GRPO (held-out synthesized tasks)", "",
             f"Settings: {json.dumps(dict(settings))}; evaluation seeds {list(seeds)}, "
             "temperature from the config's eval section.", "",
             "| model | tasks | seeds | " + " | ".join(headers) + " |",
             "|---|---|---|" + "---|" * len(headers)]
    for model, row in summary.items():
        cells = [f"{row[m][0]:.3f} ± {row[m][1]:.3f}" for m in metrics]
        lines.append(f"| {model} | {row['n']} | {row['seeds']} | " + " | ".join(cells) + " |")
    met = target_met(summary)
    lines += ["", "Target (reward: grpo > sft > base, each by more than 2 std across seeds): "
              + {None: "not judged (every model needs >= 2 evaluated seeds)", True: "met",
                 False: "NOT met"}[met]]
    if trained is not None:
        lines += ["", f"GRPO trained on another reward ({json.dumps(_changed_fields(trained))} "
                  "against the paper's); the same target on it, every episode scored again: "
                  + {None: "not judged", True: "met", False: "NOT met"}[
                      target_met(summary, "trained")]]
    kinds = by_kind(out, seeds)
    if kinds:
        lines += ["", "| model | task kind | episodes (all seeds) | reward | solved |",
                  "|---|---|---|---|---|"]
        lines += [f"| {m} | {k} | {n} | {r:.3f} | {v:.3f} |" for m, k, n, r, v in kinds]
    bfcl = [(m, out / "eval" / f"bfcl-{m}" / "results.json") for m in MODELS]
    bfcl = [(m, json.loads(p.read_text())["overall"]) for m, p in bfcl if p.is_file()]
    if bfcl:
        lines += ["", "| BFCL multi-turn base (greedy) | entries | accuracy |", "|---|---|---|"]
        lines += [f"| {m} | {o.get('n', '')} | {o.get('accuracy', o.get('success', 0.0)):.3f} |"
                  for m, o in bfcl]
    steps = _step_times(out / "grpo" / "metrics.jsonl")
    # a GRPO stage stopped by a signal records no time, so its resumed run times only its last
    # steps: the steps that no record holds still count
    missed = max(0.0, sum(steps) - times.get("grpo", 0.0))
    total = sum(times.values()) + missed
    lines += ["", "Stage wall times (s): " + ", ".join(f"{k} {v:.0f}" for k, v in times.items())
              + f"; total {total:.0f} s ({total / 3600:.2f} h)"
              + (f", {missed:.0f} s of it GRPO steps the stage did not record" if missed else "")]
    if steps:  # a stage resumed from a checkpoint times only its last run; the steps add up
        lines.append("GRPO step wall times (s, from metrics.jsonl): "
                     + ", ".join(f"{t:.0f}" for t in steps) + f"; sum {sum(steps):.0f}")
    lines.append("")
    md = out / "results.md"
    md.write_text("\n".join(lines))
    return {"md": md, "png": _curve(out, out / "curve.png")}
