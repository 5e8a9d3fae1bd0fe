"""A Grain random-access source over a JSONL split of synthesized tasks (one
`Task.to_dict()` row per line). The file is indexed once by line offsets, so `source[i]` reads
one line with `os.pread` (safe from Grain's reader threads); the source pickles as (path,
offsets) for Grain worker processes, each of which opens its own descriptor.

    ds = grain.MapDataset.source(TaskSource("runs/synth/train.jsonl")).shuffle(seed=0)
    task = Task.from_dict(ds[0])
"""

from __future__ import annotations

import json
import os
from array import array
from typing import Any

from prove_jax.rollout.task import Task

__all__ = ["TaskSource", "load_tasks"]


class TaskSource:
    """`len(source)` rows; `source[i]` is row i as a dict (Task.from_dict accepts it)."""

    def __init__(self, path: str | os.PathLike):
        self.path = os.fspath(path)
        if not os.path.isfile(self.path):
            raise FileNotFoundError(f"no task file at {self.path}")
        offsets, lengths = array("q"), array("q")
        with open(self.path, "rb") as f:
            pos = 0
            for line in f:
                if line.strip():
                    offsets.append(pos)
                    lengths.append(len(line))
                pos += len(line)
        self._offsets, self._lengths = offsets, lengths
        self._fd: int | None = None

    def __len__(self) -> int:
        return len(self._offsets)

    def __getitem__(self, index: int) -> dict[str, Any]:
        n = len(self._offsets)
        if not -n <= index < n:
            raise IndexError(f"task index {index} out of range for {n} rows in {self.path}")
        if self._fd is None:
            self._fd = os.open(self.path, os.O_RDONLY)  # kept open across reads
        # pread: no shared file position, so Grain's reader threads can read concurrently
        return json.loads(os.pread(self._fd, self._lengths[index], self._offsets[index]))

    def __repr__(self) -> str:
        return f"TaskSource({self.path!r}, rows={len(self)})"

    def __getstate__(self) -> dict[str, Any]:
        return {"path": self.path, "_offsets": self._offsets, "_lengths": self._lengths,
                "_fd": None}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def __del__(self) -> None:
        if getattr(self, "_fd", None) is not None:
            os.close(self._fd)


def load_tasks(path: str | os.PathLike) -> list[Task]:
    """Every row of a split as a Task (validated: a bad row fails here, naming itself)."""
    source = TaskSource(path)
    return [Task.from_dict(source[i]) for i in range(len(source))]
