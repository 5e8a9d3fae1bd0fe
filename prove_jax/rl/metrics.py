"""What a training step reports: rollout statistics, written as JSONL and TensorBoard, and the
reward curve as a PNG.

Rollout metrics over every trajectory played for the step (failed ones included; `failed` is
their share):
  reward/<component>   mean of each reward component (total, val, cov, eff, name, arg, ...)
  calls_per_episode, assistant_turns, user_turns, response_tokens, seq_len   means
  abstention_accuracy  share of abstention-task episodes that made no tool call (NaN if none)
  failed               share of episodes that could not be played to the end
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from prove_jax.rollout.task import Task
from prove_jax.rollout.trajectory import Trajectory

__all__ = ["MetricsWriter", "episode_records", "plot_rewards", "read_metrics",
           "summarize_episodes"]


def _mean(xs: Sequence[float]) -> float:
    return float(np.mean(xs)) if len(xs) else math.nan


def episode_records(tasks: Sequence[Task], groups: Sequence[Sequence[Trajectory]]
                    ) -> list[dict[str, Any]]:
    """What the rollout metrics need of each episode, as plain JSON (processes gather them
    from each other before `summarize_episodes`)."""
    return [{"rewards": dict(t.rewards), "failed": t.failed is not None, "calls": len(t.calls),
             "assistant_turns": t.assistant_turns, "user_turns": t.user_turns,
             "response_tokens": t.n_sampled, "seq_len": len(t.tokens),
             "abstention": task.kind == "abstention",
             "answered": t.finish_reason == "answered"}
            for task, g in zip(tasks, groups, strict=True) for t in g]


def summarize_episodes(records: Sequence[dict[str, Any]]) -> dict[str, float]:
    """The step's rollout metrics (module docstring) over `episode_records` rows."""
    out: dict[str, float] = {"episodes": float(len(records))}
    if not records:
        return out
    names = sorted({k for r in records for k in r["rewards"]})
    for name in names:
        out[f"reward/{name}"] = _mean([r["rewards"][name] for r in records
                                       if name in r["rewards"]])
    out["failed"] = _mean([float(r["failed"]) for r in records])
    out["calls_per_episode"] = _mean([r["calls"] for r in records])
    for key in ("assistant_turns", "user_turns", "response_tokens", "seq_len"):
        out[key] = _mean([r[key] for r in records])
    out["abstention_accuracy"] = _mean([float(r["calls"] == 0) for r in records
                                        if r["abstention"]])
    out["answered"] = _mean([float(r["answered"]) for r in records])
    return out


class MetricsWriter:
    """One JSON line per step in <workdir>/metrics.jsonl and TensorBoard scalars in
    <workdir>/tb. A resumed run truncates lines past its restored step, so the file never
    holds a step twice."""

    def __init__(self, workdir: str | os.PathLike, *, resume_step: int = 0,
                 tensorboard: bool = True):
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.path = self.workdir / "metrics.jsonl"
        kept = [r for r in read_metrics(self.path) if r["step"] <= resume_step]
        with open(self.path, "w") as f:
            for row in kept:
                f.write(json.dumps(row) + "\n")
        self._tb = None
        if tensorboard:
            from tensorboardX import SummaryWriter
            self._tb = SummaryWriter(str(self.workdir / "tb"))

    def write(self, step: int, metrics: dict[str, Any]) -> None:
        row = {"step": step, **{k: _plain(v) for k, v in metrics.items()}}
        with open(self.path, "a") as f:
            f.write(json.dumps(row) + "\n")
        if self._tb is not None:
            for key, value in row.items():
                if key != "step" and isinstance(value, float) and math.isfinite(value):
                    self._tb.add_scalar(key, value, step)
            self._tb.flush()

    def close(self) -> None:
        if self._tb is not None:
            self._tb.close()


def _plain(v: Any) -> Any:
    if isinstance(v, np.generic | np.ndarray) or hasattr(v, "dtype"):
        v = np.asarray(v).item()
    if isinstance(v, int | float | bool):
        return float(v)
    return v


def read_metrics(path: str | os.PathLike) -> list[dict[str, Any]]:
    path = Path(path)
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def plot_rewards(metrics_path: str | os.PathLike, out_png: str | os.PathLike) -> Path:
    """reward.png: every reward component's step mean over training steps."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = read_metrics(metrics_path)
    keys = sorted({k for r in rows for k in r if k.startswith("reward/")})
    fig, ax = plt.subplots(figsize=(7, 4), dpi=100)
    for key in keys:
        pts = [(r["step"], r[key]) for r in rows if isinstance(r.get(key), float)
               and math.isfinite(r[key])]
        if pts:
            ax.plot(*zip(*pts, strict=True), marker="o", markersize=3,
                    label=key.removeprefix("reward/"), linewidth=2 if key == "reward/total"
                    else 1)
    ax.set_xlabel("step")
    ax.set_ylabel("mean reward")
    ax.set_title("reward components")
    ax.grid(alpha=0.3)
    if keys:
        ax.legend(fontsize=8, ncol=2)
    fig.tight_layout()
    out = Path(out_png)
    fig.savefig(out)
    plt.close(fig)
    return out
