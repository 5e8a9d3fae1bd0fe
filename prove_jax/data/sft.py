"""SFT examples (the baseline PROVE is compared against): the oracle's replay of each task's
ground truth, played through the rollout engine against the task's own servers, so the
sequence holds the real tool results and exactly the tokens the chat format would give the
policy during RL.

A row is {"task_id", "tokens", "loss_mask"}: loss_mask is 1 exactly on the assistant's tokens
(the oracle's turns, each ending with the end-of-turn token) and 0 on the prompt, the tool
results and the scripted user turns. An episode that did not play to its end (a failure, a
cap, a call that errored) is not a demonstration: it is dropped and counted by reason.

    rows = await sft_examples(tasks, chat, manager, RolloutConfig(), meta=load_meta(dir))
    write_sft_jsonl(rows, "runs/sft/train.jsonl")
    source = SFTSource("runs/sft/train.jsonl")  # a Grain random-access source

A task kind can be shown more often than the others (`repeat_kinds`): the warm start sees few
abstention replays in a short run, and a policy that never abstains gives GRPO no group on an
abstention task whose rollouts disagree.
"""

from __future__ import annotations

import json
import logging
import os
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from prove_jax.data.tasks import TaskSource
from prove_jax.rollout.engine import RolloutEngine
from prove_jax.rollout.episode import ToolHost
from prove_jax.rollout.oracle import OraclePolicy
from prove_jax.rollout.task import RolloutConfig, Task
from prove_jax.rollout.trajectory import Trajectory
from prove_jax.tools.chat import ChatFormat

__all__ = ["SFTRows", "SFTSource", "check_kind_repeats", "drop_reason", "repeat_kinds",
           "sft_examples", "write_sft_jsonl"]

log = logging.getLogger(__name__)


class SFTRows(list):
    """The kept rows (a plain list of dicts) plus `dropped`: reason -> episodes dropped."""

    dropped: Counter

    def __init__(self, rows: Iterable[dict] = (), dropped: Mapping[str, int] | None = None):
        super().__init__(rows)
        self.dropped = Counter(dropped or {})


def drop_reason(traj: Trajectory) -> str | None:
    """Why an oracle episode is no demonstration (None: keep it)."""
    if traj.failed is not None:
        return "failed"
    if traj.finish_reason != "answered":
        return traj.finish_reason  # a cap: the demonstration would stop mid-conversation
    if any(c.outcome != "ok" for c in traj.calls):
        return "call_error"  # would teach a call that fails
    return None


async def sft_examples(tasks: Sequence[Task], chat: ChatFormat, manager: ToolHost,
                       rollout_config: RolloutConfig | None = None, *,
                       meta: Mapping[str, Mapping[str, Any]] | None = None,
                       seed: int = 0) -> SFTRows:
    """Play the oracle once per task (G=1); rows in task order, dropped episodes counted."""
    policy = OraclePolicy(chat, {t.id: t for t in tasks}, meta=meta)
    engine = RolloutEngine(policy, manager, chat, rollout_config)
    groups = await engine.run_groups(tasks, 1, seed)
    rows = SFTRows()
    for (traj,) in groups:
        reason = drop_reason(traj)
        if reason is None:
            rows.append({"task_id": traj.task_id, "tokens": list(traj.tokens),
                         "loss_mask": list(traj.loss_mask)})
        else:
            rows.dropped[reason] += 1
            log.warning("sft: dropped %s (%s: %s)", traj.task_id, reason,
                        traj.failed or traj.finish_reason)
    return rows


def check_kind_repeats(repeats: Mapping[str, int], name: str = "sft.kind_repeats") -> None:
    """Every key a task kind, every repeat an integer >= 1 (`name`: the config key, for the
    message: `sft.kind_repeats` or GRPO's `data.kind_repeats`)."""
    from prove_jax.rewards.types import KINDS

    for kind, n in repeats.items():
        if kind not in KINDS:
            raise ValueError(f"{name}: unknown task kind {kind!r} (known: {KINDS})")
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"{name}.{kind} must be an integer >= 1, got {n!r}")


def repeat_kinds(rows: Iterable[Mapping[str, Any]], kinds: Mapping[str, str],
                 repeats: Mapping[str, int]) -> list[Mapping[str, Any]]:
    """Each row `repeats[kind]` times in a row (a kind not named: once), its kind looked up by
    task id in `kinds`."""
    check_kind_repeats(repeats)
    out = []
    for row in rows:
        if row["task_id"] not in kinds:
            raise ValueError(f"repeat_kinds: no task {row['task_id']!r} to take its kind from")
        out.extend([row] * repeats.get(kinds[row["task_id"]], 1))
    return out


def write_sft_jsonl(rows: Iterable[Mapping[str, Any]], path: str | os.PathLike) -> Path:
    """One row per line (keys sorted); written to a temporary file, then moved into place."""
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(out.suffix + ".tmp")
    with tmp.open("w", encoding="utf-8") as f:
        for row in rows:
            if len(row["tokens"]) != len(row["loss_mask"]):
                raise ValueError(f"sft row {row.get('task_id')!r}: {len(row['tokens'])} tokens "
                                 f"but {len(row['loss_mask'])} loss-mask entries")
            f.write(json.dumps({"task_id": row["task_id"], "tokens": list(row["tokens"]),
                                "loss_mask": list(row["loss_mask"])},
                               sort_keys=True, separators=(",", ":")) + "\n")
    tmp.replace(out)
    return out


class SFTSource(TaskSource):
    """A Grain random-access source over an SFT JSONL file: `source[i]` is row i as a dict.
    TaskSource already reads any JSON-lines file by offsets; only the name differs."""

    def __repr__(self) -> str:
        return f"SFTSource({self.path!r}, rows={len(self)})"
