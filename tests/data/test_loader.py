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


def _mixed_file(tmp_path):
    """12 tasks: 3 abstention (t0, t4, t8), the rest normal."""
    path = tmp_path / "mixed.jsonl"
    normal = {"steps": [[{"name": "get_balance", "arguments": {}}]], "edges": [],
              "kind": "normal"}
    rows = [Task(f"t{i}", ("payments",), (f"task {i}",), TRUTH if i % 4 == 0 else normal,
                 seed=i).to_dict() for i in range(12)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_kind_repeats_show_a_kind_more_often_in_every_epoch(tmp_path):
    from collections import Counter

    path = _mixed_file(tmp_path)
    it = task_batches(path, 6, seed=2, kind_repeats={"abstention": 3})
    epoch = [t.id for _ in range(3) for t in next(it)]  # 9 normal + 3 x 3 abstention = 18
    counts = Counter(epoch)
    assert {counts[f"t{i}"] for i in (0, 4, 8)} == {3}
    assert {counts[f"t{i}"] for i in range(12) if i % 4} == {1}
    # shuffled like any epoch (not the copies side by side), and resumable
    assert epoch != sorted(epoch, key=lambda x: int(x[1:]))
    state = it.get_state()
    expected = [t.id for t in next(it)]
    again = task_batches(path, 6, seed=2, kind_repeats={"abstention": 3})
    again.set_state(state)
    assert [t.id for t in next(again)] == expected
    # all ones: the plain order
    plain = [t.id for t in next(task_batches(path, 12, seed=2))]
    ones = [t.id for t in next(task_batches(path, 12, seed=2, kind_repeats={"abstention": 1}))]
    assert ones == plain


@pytest.mark.parametrize(("repeats", "message"), [
    ({"refusal": 2}, "data.kind_repeats: unknown task kind 'refusal'"),
    ({"abstention": 0}, "data.kind_repeats.abstention must be an integer >= 1, got 0"),
    ({"abstention": 2.5}, "must be an integer >= 1, got 2.5"),
])
def test_bad_kind_repeats_name_the_key(tmp_path, repeats, message):
    with pytest.raises(ValueError, match=message):
        task_batches(_mixed_file(tmp_path), 4, kind_repeats=repeats)


@pytest.mark.parametrize(("size", "index", "count", "message"), [
    (0, 0, 1, "batch_size must be >= 1"),
    (4, 2, 2, "process_index 2 not in"),
    (5, 0, 2, "does not split over 2 processes"),
])
def test_bad_arguments_name_the_cause(tasks_file, size, index, count, message):
    with pytest.raises(ValueError, match=message):
        row_batches(tasks_file, size, process_index=index, process_count=count)


def test_cap_tools_keeps_truth_tools_then_offered_alternatives():
    """max_tools=3 of 5: both truth tools, then the alternative's tool before others in list
    order; an alternative whose tool is cut leaves the truth, so an unoffered call covers
    nothing."""
    from prove_jax.data.loader import cap_tools
    from prove_jax.rewards import score
    from prove_jax.rollout.task import Task

    read = {"name": "get_account", "arguments": {"account_id": "acc_x1"},
            "alternatives": [{"name": "list_accounts", "arguments": {}},
                             {"name": "search_accounts", "arguments": {"query": "savings"}}]}
    pay = {"name": "send_payment", "arguments": {"account_id": "acc_x1", "amount": 5}}
    task = Task(id="t", servers=["banking"], user_turns=["pay 5 from savings"],
                truth={"steps": [[read], [pay]], "edges": [[0, 1]], "kind": "normal"},
                tools=("get_wallet", "search_accounts", "get_account", "list_accounts",
                       "send_payment"))
    capped = cap_tools(task, 3)
    assert capped.tools == ("search_accounts", "get_account", "send_payment")
    (alt,) = capped.truth["steps"][0][0]["alternatives"]
    assert alt["name"] == "search_accounts" and task.truth["steps"][0][0] is read  # no mutation
    unoffered = [{"name": "list_accounts", "arguments": {}, "outcome": "unknown_tool"}]
    assert score(unoffered, task.truth)["cov"] > 0 and score(unoffered, capped.truth)["cov"] == 0
    assert cap_tools(task, 0) is task and cap_tools(task, 5) is task
