"""The prompt loader of a training run: a Grain pipeline over a task split.

    source (one JSONL row per task, each kind's rows `kind_repeats` times)
    -> shuffle(seed) -> repeat (a new order every epoch)
    -> global batches of `batch_size` rows -> this process's block of each
    -> validated Tasks

With several processes, process p takes rows [p * batch_size / n, (p + 1) * batch_size / n) of
every global batch: the processes' blocks, in process order, are exactly the batch a single
process would draw, and every process's iterator state is the same (the global batch index).

The iterator's state (`get_state()`, a small JSON dict) goes into every checkpoint, so a
resumed run draws exactly the batch the interrupted one would have drawn next.
"""

from __future__ import annotations

import dataclasses
import functools
import os
from array import array
from collections.abc import Mapping
from typing import Any

import grain

from prove_jax.data.tasks import TaskSource
from prove_jax.rollout.task import Task

__all__ = ["RepeatedSource", "row_batches", "task_batches"]


def cap_tools(task: Task, max_tools: int) -> Task:
    """The task offering at most `max_tools` tools: every tool its truth calls, then the
    tools of its calls' alternatives, then the others in their listed order; alternatives
    whose tool is cut leave the truth (a call to a tool not offered must not cover a step).
    For small-context runs (the tiny CPU config), where the tool schemas are most of the
    prompt; 0 keeps them all."""
    if max_tools <= 0 or task.tools is None or len(task.tools) <= max_tools:
        return task
    calls = [call for step in task.truth.get("steps", []) for call in step]
    needed = {call["name"] for call in calls}
    wanted = {alt["name"] for call in calls for alt in call.get("alternatives", ())}
    names = [t["function"]["name"] if isinstance(t, dict) else t for t in task.tools]
    room = max_tools - sum(n in needed for n in names)
    kept = set(needed)
    for name in names:  # alternatives first, in listed order, then the rest
        if room > 0 and name in wanted - kept:
            kept.add(name)
            room -= 1
    for name in names:
        if room > 0 and name not in kept:
            kept.add(name)
            room -= 1
    tools = tuple(t for t, n in zip(task.tools, names, strict=True) if n in kept)
    truth = task.truth
    if wanted - kept:
        truth = {**truth, "steps": [[_offered_alternatives(call, kept) for call in step]
                                    for step in truth["steps"]]}
    return dataclasses.replace(task, tools=tools, truth=truth)


def _offered_alternatives(call: dict[str, Any], offered: set[str]) -> dict[str, Any]:
    alts = [a for a in call.get("alternatives", ()) if a["name"] in offered]
    out = {k: v for k, v in call.items() if k != "alternatives"}
    return {**out, "alternatives": alts} if alts else out


class RepeatedSource:
    """A random-access source showing each row of `source` `repeats[kind]` times (a kind not
    named: once), the copies next to each other; the kind is the row's `truth.kind`."""

    def __init__(self, source: Any, repeats: Mapping[str, int]):
        from prove_jax.data.sft import check_kind_repeats

        check_kind_repeats(repeats, "data.kind_repeats")
        self.source = source
        self.index = array("q")
        for i in range(len(source)):
            kind = source[i].get("truth", {}).get("kind", "normal")
            self.index.extend([i] * repeats.get(kind, 1))

    def __len__(self) -> int:
        return len(self.index)

    def __getitem__(self, index: int) -> dict[str, Any]:
        return self.source[self.index[index]]


def _tasks(rows: list[dict[str, Any]], max_tools: int = 0) -> list[Task]:
    return [cap_tools(Task.from_dict(row), max_tools) for row in rows]


def task_batches(path: str | os.PathLike, batch_size: int, *, seed: int = 0,
                 shuffle: bool = True, process_index: int = 0, process_count: int = 1,
                 max_tools: int = 0, kind_repeats: Mapping[str, int] | None = None
                 ) -> grain.DatasetIterator:
    """An endless, checkpointable iterator of this process's share of `batch_size`-task
    global batches; `kind_repeats`: each task kind's copies per epoch (None: once each)."""
    return row_batches(path, batch_size, seed=seed, shuffle=shuffle,
                       process_index=process_index, process_count=process_count,
                       batch_fn=functools.partial(_tasks, max_tools=max_tools),
                       kind_repeats=kind_repeats)


def row_batches(path: str | os.PathLike, batch_size: int, *, seed: int = 0,
                shuffle: bool = True, process_index: int = 0, process_count: int = 1,
                batch_fn: Any = list, kind_repeats: Mapping[str, int] | None = None
                ) -> grain.DatasetIterator:
    """The same pipeline over any JSONL file; `batch_fn` turns a list of row dicts (this
    process's block of a global batch) into a batch (default: the list itself)."""
    if batch_size < 1:
        raise ValueError(f"batch_size must be >= 1, got {batch_size}")
    if not 0 <= process_index < process_count:
        raise ValueError(f"process_index {process_index} not in [0, {process_count})")
    if batch_size % process_count:
        raise ValueError(f"a global batch of {batch_size} does not split over {process_count} "
                         "processes")
    source = TaskSource(path)
    if len(source) == 0:
        raise ValueError(f"no tasks in {source.path}")
    if kind_repeats:
        from prove_jax.data.sft import check_kind_repeats

        check_kind_repeats(kind_repeats, "data.kind_repeats")
        if any(n != 1 for n in kind_repeats.values()):
            source = RepeatedSource(source, kind_repeats)
    ds = grain.MapDataset.source(source)
    if shuffle:
        ds = ds.shuffle(seed=seed)
    share = batch_size // process_count
    lo = process_index * share
    # Only this process's rows are read: the global batch b's block is rows
    # b * batch_size + lo ... + share of the repeated order.
    ds = ds.repeat()
    blocks = grain.MapDataset.range(len(ds) // batch_size).map(
        lambda b: batch_fn([ds[b * batch_size + lo + j] for j in range(share)]))
    return iter(blocks.to_iter_dataset())
