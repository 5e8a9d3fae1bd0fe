"""ToolRL baseline on hand-computed cases: R = format + 6·S/S_max - 3."""

from __future__ import annotations

import pytest

from prove_jax.rewards import multiset_jaccard, score
from tests.rewards.builders import ACCOUNT, BALANCE, CHAIN, EMAIL, TRANSFER, as_model, call, tc

TOOLRL = {"kind": "toolrl"}


def check(got: dict, **want: float) -> None:
    assert set(got) == {"format", "name", "param", "value", "correct", "total"}
    for k in want:
        assert got[k] == pytest.approx(want[k], abs=1e-12), k


def test_perfect():
    # S_max = 1 + (1+1) + (1+1) + (1+3) + (1+2) = 12 = S; correct = 6 - 3 = 3; total = 1 + 3
    calls = [as_model(c) for c in (ACCOUNT, BALANCE, TRANSFER, EMAIL)]
    check(score(calls, CHAIN, TOOLRL), format=1, name=1, param=4, value=7, correct=3, total=4)


def test_order_is_ignored():
    calls = [as_model(c) for c in (EMAIL, TRANSFER, BALANCE, ACCOUNT)]
    check(score(calls, CHAIN, TOOLRL), correct=3, total=4)


def test_partial_with_hallucinated_tool():
    # truth f(a=1,b=2), g(x="y"); model f(a=1,b=3), h() unknown.
    # names {f,h} vs {f,g}: 1/(2+2-1) = 1/3. f: key Jaccard 1, 1 value; g: no candidate.
    # S = 1/3 + 1 + 1 = 7/3; S_max = 1 + 3 + 2 = 6; correct = 6·(7/3)/6 - 3 = -2/3;
    # format 0 (unknown_tool); total = -2/3
    truth = {"steps": [[tc("f", a=1, b=2)], [tc("g", x="y")]], "edges": [[0, 1]]}
    calls = [call("f", a=1, b=3), call("h", "unknown_tool")]
    check(score(calls, truth, TOOLRL), format=0, name=1 / 3, param=1, value=1,
          correct=-2 / 3, total=-2 / 3)


def test_extra_key_lowers_key_jaccard():
    # truth f(a=1); model f(a=1, z=0): key Jaccard 1/2, 1 value. S = 1 + 0.5 + 1 = 2.5,
    # S_max = 1 + 2 = 3; correct = 6·2.5/3 - 3 = 2; total = 3
    check(score([call("f", a=1, z=0)], {"steps": [[tc("f", a=1)]]}, TOOLRL),
          param=0.5, value=1, correct=2, total=3)


def test_best_model_call_per_truth_call():
    # truth f(a=1), f(a=2) (parallel); model f(a=2), f(a=1), f(a=1).
    # f(a=1) takes the model call 1 (score 2 > model 0's 1); f(a=2) takes call 0 (score 2).
    # names [f,f,f] vs [f,f]: 2/(3+2-2) = 2/3. S = 2/3 + 2 + 2 = 14/3; S_max = 1 + 2 + 2 = 5.
    # correct = 6·(14/3)/5 - 3 = 28/5 - 3 = 2.6
    truth = {"steps": [[tc("f", a=1), tc("f", a=2)]]}
    calls = [call("f", a=2), call("f", a=1), call("f", a=1)]
    check(score(calls, truth, TOOLRL), name=2 / 3, param=2, value=2, correct=2.6, total=3.6)


def test_failed_execution_still_counts():
    # ToolRL knows nothing of execution: an execution_error call matches like any other.
    check(score([call("f", "execution_error", a=1)], {"steps": [[tc("f", a=1)]]}, TOOLRL),
          correct=3, total=4)


def test_abstention():
    # No truth calls: S_max = 1; no model call -> name Jaccard 1 -> correct 3, total 4.
    abstain = {"steps": [], "kind": "abstention"}
    check(score([], abstain, TOOLRL), name=1, correct=3, total=4)
    # One call: name Jaccard 0 -> correct -3; format 1 -> total -2.
    check(score([call("f")], abstain, TOOLRL), name=0, correct=-3, total=-2)


def test_no_calls_on_a_normal_task():
    # names [] vs [f]: 0; S = 0 -> correct -3; format 1 (nothing malformed) -> total -2
    check(score([], {"steps": [[tc("f", a=1)]]}, TOOLRL), correct=-3, total=-2)


def test_multiset_jaccard():
    assert multiset_jaccard([], []) == 1.0
    assert multiset_jaccard(["a"], []) == 0.0
    assert multiset_jaccard(["a", "a", "b"], ["a", "b", "b"]) == pytest.approx(2 / 4)
