"""Reading what the viewer shows: the episode files of a run (schema in
`prove_jax.rollout.record`), its metrics, and the GRPO groups the episodes form."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["Group", "Source", "ViewError", "find_sources", "group_episodes", "load_episodes",
           "load_metrics", "reward_of", "step_summary"]

_STEP_FILE = re.compile(r"step_(\d+)\.jsonl")


class ViewError(Exception):
    """A problem the user can fix (wrong dir, no episode files, a broken line): one line."""


@dataclass(frozen=True)
class Source:
    """One episode file and the page name its view gets (`step_000012`, `episodes`)."""

    path: Path
    name: str
    step: int | None = None


@dataclass
class Group:
    """Rollouts of one task that share (step, task_id, group): a GRPO group in training, the
    samples of one task in an evaluation."""

    task_id: str
    step: int | None
    group: int | None
    episodes: list[dict[str, Any]] = field(default_factory=list)


def find_sources(run: str | Path, step: int | None = None) -> tuple[str, list[Source]]:
    """("train", the step files in step order) or ("eval", [episodes.jsonl]) for a run dir;
    ViewError when it holds neither (or not the asked step)."""
    run = Path(run)
    if not run.is_dir():
        raise ViewError(f"--run={run}: no such directory")
    steps = sorted((int(m.group(1)), p) for p in (run / "episodes").glob("step_*.jsonl")
                   if (m := _STEP_FILE.fullmatch(p.name)))
    if steps:
        if step is not None:
            steps = [(s, p) for s, p in steps if s == step]
            if not steps:
                raise ViewError(f"--step={step}: {run}/episodes has no step_{step:06d}.jsonl")
        return "train", [Source(p, f"step_{s:06d}", s) for s, p in steps]
    if (run / "episodes.jsonl").is_file():
        if step is not None:
            raise ViewError(f"--step={step}: {run} is an evaluation dir (episodes.jsonl), "
                            "it has no steps")
        return "eval", [Source(run / "episodes.jsonl", "episodes")]
    raise ViewError(f"{run} holds no episode files (episodes/step_*.jsonl of a training run "
                    "or episodes.jsonl of an evaluation)")


def load_episodes(path: str | Path) -> list[dict[str, Any]]:
    """The episode records of one JSON-lines file; ViewError names a line that is not an
    episode object."""
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as err:
                raise ViewError(f"{path}:{n}: not JSON ({err.msg})") from None
            if not isinstance(record, dict) or "task_id" not in record:
                raise ViewError(f"{path}:{n}: not an episode record (no task_id)")
            out.append(record)
    return out


def load_metrics(path: str | Path) -> tuple[list[dict[str, Any]], int]:
    """(rows of metrics.jsonl that have a step, the count of lines that did not parse): the
    curve is a side view, so a line a live run is still writing does not stop the viewer."""
    path = Path(path)
    if not path.is_file():
        return [], 0
    rows, bad = [], 0
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            bad += 1
            continue
        if isinstance(row, dict) and isinstance(row.get("step"), int | float):
            rows.append(row)
        else:
            bad += 1
    return rows, bad


def group_episodes(records: Sequence[dict[str, Any]]) -> list[Group]:
    """Episodes grouped by (step, task_id, group) in order of first appearance, each group's
    episodes by sample index."""
    groups: dict[tuple, Group] = {}
    for r in records:
        key = (r.get("step"), str(r.get("task_id")), r.get("group"))
        if key not in groups:
            groups[key] = Group(key[1], key[0], key[2])
        groups[key].episodes.append(r)
    for g in groups.values():
        g.episodes.sort(key=lambda r: r.get("sample") if isinstance(r.get("sample"), int) else 0)
    return list(groups.values())


def reward_of(record: dict[str, Any]) -> float | None:
    """The episode's total reward, None where the run has no rewards (BFCL, tau2)."""
    rewards = record.get("rewards") or {}
    value = rewards.get("total")
    return float(value) if isinstance(value, int | float) and math.isfinite(value) else None


def step_summary(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """What the index shows per episode file: counts, mean reward, failures, call outcomes."""
    rewards = [x for r in records if (x := reward_of(r)) is not None]
    outcomes: dict[str, int] = {}
    for r in records:
        for c in r.get("calls") or []:
            key = "malformed" if c.get("kind") == "malformed_call" else str(c.get("outcome"))
            outcomes[key] = outcomes.get(key, 0) + 1
    return {"episodes": len(records), "groups": len(group_episodes(records)),
            "mean_reward": sum(rewards) / len(rewards) if rewards else None,
            "failed": sum(1 for r in records if r.get("failed")),
            "outcomes": dict(sorted(outcomes.items()))}
