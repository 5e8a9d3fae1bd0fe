"""The prompt loader's process blocks: every process draws its contiguous block of the batch one
process would draw, all processes keep the same iterator state, and resuming from a state
continues with the same next block."""

import json

import pytest

from prove_jax.data.loader import row_batches, task_batches
from prove_jax.rollout.task import Task

TRUTH = {"steps": [], "edges": [], "kind": "abstention"}


@pytest.fixture()
def tasks_file(tmp_path):
    path = tmp_path / "tasks.jsonl"
    rows = [Task(f"t{i}", ("payments",), (f"task {i}",), TRUTH, seed=i).to_dict()
            for i in range(10)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _ids(batch):
    return [t.id for t in batch]


def test_process_blocks_make_up_the_single_process_batch(tasks_file):
    one = task_batches(tasks_file, 4, seed=3)
    parts = [task_batches(tasks_file, 4, seed=3, process_index=p, process_count=2)
             for p in range(2)]
    for _ in range(6):  # past an epoch boundary (10 tasks, 4 per batch)
        whole = _ids(next(one))
        blocks = [_ids(next(it)) for it in parts]
        assert blocks[0] + blocks[1] == whole
        assert len(blocks[0]) == len(blocks[1]) == 2
    assert parts[0].get_state() == parts[1].get_state() == one.get_state()


def test_a_restored_state_draws_the_same_next_block(tasks_file):
    it = task_batches(tasks_file, 4, seed=1, process_index=1, process_count=2)
    for _ in range(3):
        next(it)
    state = it.get_state()
    expected = _ids(next(it))
    again = task_batches(tasks_file, 4, seed=1, process_index=1, process_count=2)
    again.set_state(state)
    assert _ids(next(again)) == expected


def test_shuffle_seed_changes_the_order_not_the_epoch(tasks_file):
    a = [r["id"] for r in next(row_batches(tasks_file, 10, seed=0))]
    b = [r["id"] for r in next(row_batches(tasks_file, 10, seed=1))]
    assert a != b and sorted(a) == sorted(b) == sorted(f"t{i}" for i in range(10))


@pytest.mark.parametrize(("size", "index", "count", "message"), [
    (0, 0, 1, "batch_size must be >= 1"),
    (4, 2, 2, "process_index 2 not in"),
    (5, 0, 2, "does not split over 2 processes"),
])
def test_bad_arguments_name_the_cause(tasks_file, size, index, count, message):
    with pytest.raises(ValueError, match=message):
        row_batches(tasks_file, size, process_index=index, process_count=count)
