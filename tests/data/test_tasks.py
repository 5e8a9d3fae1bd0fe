"""TaskSource: a Grain random-access source over a JSONL split of task rows."""

from __future__ import annotations

import json
import pickle

import grain
import pytest

from prove_jax.data import TaskSource, load_tasks
from prove_jax.rollout.task import Task


def _row(i: int) -> dict:
    return Task(id=f"t{i}", servers=("payments",), user_turns=(f"hello {i}", "then ünïcode"),
                truth={"steps": [[{"name": "get_wallet", "arguments": {}}]], "edges": [],
                       "kind": "normal"}, tools=("get_wallet",), seed=i).to_dict()


@pytest.fixture
def split(tmp_path):
    path = tmp_path / "train.jsonl"
    lines = [json.dumps(_row(i), sort_keys=True, ensure_ascii=False) for i in range(7)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_random_access(split):
    src = TaskSource(split)
    assert len(src) == 7 and src[3] == _row(3) and src[-1] == _row(6)
    assert src[0]["user_turns"][1] == "then ünïcode"
    with pytest.raises(IndexError):
        src[7]
    assert [Task.from_dict(src[i]).seed for i in (5, 1, 5)] == [5, 1, 5]


def test_grain_map_dataset_and_pickling(split):
    src = TaskSource(split)
    ds = grain.MapDataset.source(src)
    assert len(ds) == 7 and ds[2] == _row(2)
    shuffled = [r["id"] for r in ds.shuffle(seed=0)]
    assert sorted(shuffled) == sorted(f"t{i}" for i in range(7))
    again = pickle.loads(pickle.dumps(src))
    assert again[4] == _row(4) and len(again) == 7


def test_load_tasks_and_errors(split, tmp_path):
    tasks = load_tasks(split)
    assert [t.id for t in tasks] == [f"t{i}" for i in range(7)]
    with pytest.raises(FileNotFoundError):
        TaskSource(tmp_path / "missing.jsonl")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({**_row(0), "extra": 1}) + "\n")
    with pytest.raises(ValueError, match="unknown keys"):
        load_tasks(bad)
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert len(TaskSource(empty)) == 0
