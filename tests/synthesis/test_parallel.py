"""Independent reads of one user turn become one truth step of parallel calls (issue 23,
item 5); anything that depends on another, writes, or belongs to another turn stays apart."""

from __future__ import annotations

import json

from prove_jax.synthesis.parallel import parallel_groups
from prove_jax.synthesis.records import StepRecord


class _Node:
    def __init__(self, read_only: bool):
        self.read_only = read_only


def _step(read_only: bool, deps: list[int] | None = None) -> StepRecord:
    return StepRecord(node=_Node(read_only), name="t", args={}, filled={}, payload={},
                      deps=deps or [])


def test_reads_of_a_turn_that_need_nothing_from_each_other_are_one_step():
    # look up the payee and the account, pay (needs both), then list cards and transactions
    steps = [_step(True), _step(True), _step(False, [0, 1]), _step(True), _step(True)]
    assert parallel_groups(steps, [0, 0, 0, 1, 1]) == [[0, 1], [2], [3, 4]]


def test_a_dependent_read_a_write_or_another_turn_breaks_the_run():
    steps = [_step(True), _step(True, [0]), _step(True), _step(False), _step(True)]
    assert parallel_groups(steps, [0, 0, 0, 0, 0]) == [[0], [1, 2], [3], [4]]
    assert parallel_groups([_step(True), _step(True)], [0, 1]) == [[0], [1]]


def test_synthesized_rows_carry_parallel_steps_and_meta_indexes_them(dataset):
    rows = [json.loads(line) for line in dataset.paths["train.jsonl"].read_text().splitlines()]
    meta = {m["id"]: m for m in map(json.loads,
                                    dataset.paths["meta.jsonl"].read_text().splitlines())}
    normal = [r for r in rows if r["truth"]["kind"] == "normal"]
    parallel = [r for r in normal if any(len(s) > 1 for s in r["truth"]["steps"])]
    assert len(parallel) / len(normal) >= 0.1
    for r in rows:
        n = len(r["truth"]["steps"])
        assert len(meta[r["id"]]["step_turn"]) == n
        assert all(0 <= a < b < n for a, b in r["truth"]["edges"])
        assert all(a != b for a, b in r["truth"]["edges"])
