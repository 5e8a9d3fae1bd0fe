"""The greedy matching rule: order of appearance, key-containment, value preference, tie-break."""

from __future__ import annotations

from prove_jax.rewards import match_calls, parse_calls, parse_truth, r_arg, r_cov, score
from tests.rewards.builders import call, tc


def match(calls: list[dict], truth: dict, outcomes=("ok",)) -> list[int]:
    return match_calls(parse_calls(calls), parse_truth(truth), outcomes).call_of


SENDS = {"steps": [[tc("send", to="a")], [tc("send", to="b")]]}  # no edges


def test_preference_for_matching_values():
    # send(b) first takes the truth call it matches (1 value) over the earlier send(a) (0).
    calls = [call("send", to="b"), call("send", to="a")]
    assert match(calls, SENDS) == [1, 0]
    t = parse_truth(SENDS)
    m = match_calls(parse_calls(calls), t)
    assert r_arg(m, t) == 1.0  # earliest-first would have paired a<->b twice: arg 0
    assert r_cov(m, t) == 1.0


def test_tie_goes_to_the_earliest_truth_call():
    # send(c) matches neither value: 0 vs 0, so the earlier truth call (step 0) takes it.
    assert match([call("send", to="c")], SENDS) == [0, -1]
    assert match([call("send", to="c"), call("send", to="d")], SENDS) == [0, 1]


def test_first_eligible_call_owns_the_step():
    # A later, better call cannot steal a step already matched: order of appearance wins.
    calls = [call("send", to="x"), call("send", to="a")]
    truth = {"steps": [[tc("send", to="a")]]}
    assert match(calls, truth) == [0]


def test_every_truth_key_must_be_present_extra_keys_allowed():
    truth = {"steps": [[tc("f", a=1, b=2)]]}
    assert match([call("f", a=1)], truth) == [-1]
    assert match([call("f", a=1, b=2, c=3)], truth) == [0]
    # keys present but values wrong still match (R_arg measures the values)
    assert match([call("f", a=9, b=9)], truth) == [0]


def test_more_matching_values_beats_fewer_keys():
    # truth: f(a=1) at step 0, f(a=1, b=2) at step 1. f(a=1, b=2) is eligible for both and
    # takes step 1 (2 values > 1); f(a=1) then takes step 0.
    truth = {"steps": [[tc("f", a=1)], [tc("f", a=1, b=2)]]}
    assert match([call("f", a=1, b=2), call("f", a=1)], truth) == [1, 0]


def test_outcome_gate():
    truth = {"steps": [[tc("f", a=1)]]}
    for outcome in ("execution_error", "schema_error", "unknown_tool"):
        assert match([call("f", outcome, a=1)], truth) == [-1]
        assert match([call("f", outcome, a=1)], truth, (outcome,)) == [0]


def test_name_must_match():
    assert match([call("g", to="a")], SENDS) == [-1, -1]


def test_matching_is_deterministic_across_runs():
    calls = [call("send", to="b"), call("send", to="c"), call("send", to="a")]
    first = score(calls, SENDS)
    assert all(score(calls, SENDS) == first for _ in range(5))
