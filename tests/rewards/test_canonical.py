"""JSON canonicalization of argument values."""

from __future__ import annotations

import json
import re

import pytest

from prove_jax.rewards import canonical, check_arguments, json_equal


@pytest.mark.parametrize(("a", "b"), [
    (5, 5.0),
    (0, -0.0),
    (10**20, 1e20),
    ({"a": 1, "b": [1, 2]}, {"b": [1.0, 2], "a": 1.0}),
    ({"x": {"y": {"z": None}}}, {"x": {"y": {"z": None}}}),
    ([1, [2, {"k": "v"}]], (1, (2, {"k": "v"}))),
    (float("nan"), float("nan")),
    ("é", "é"),
])
def test_equal(a, b):
    assert canonical(a) == canonical(b)
    assert hash(canonical(a)) == hash(canonical(b))
    assert json_equal(a, b) and json_equal(b, a)


@pytest.mark.parametrize(("a", "b"), [
    (True, 1), (False, 0), (True, 1.0), (True, "true"), (None, 0), (None, "null"),
    ([1, 2], [2, 1]), ([], {}), ({"a": 1}, [["a", 1]]), ("5", 5), ("Oslo", "oslo"),
    (float("inf"), float("-inf")), (1, 1.5), ({"a": 1}, {"a": 1, "b": 2}),
])
def test_not_equal(a, b):
    assert canonical(a) != canonical(b)
    assert not json_equal(a, b) and not json_equal(b, a)


def test_string_normalization_flag():
    assert canonical(" Oslo ", normalize_strings=True) == canonical("oslo", normalize_strings=True)
    assert canonical({"Key": [" A "]}, True) == canonical({"Key": ["a"]}, True)
    assert canonical({"Key": 1}, True) != canonical({"key": 1}, True)  # keys are not normalized
    assert canonical("Straße", True) == canonical("STRASSE", True)  # casefold, not lower
    assert json_equal(" Oslo ", "oslo", True) and not json_equal(" Oslo ", "oslo")
    assert json_equal([" A "], ["a"], True) and not json_equal([" A "], ["a"])


def test_json_round_trip_is_stable():
    v = {"b": [1, 2.5, {"c": True, "d": None}], "a": "x"}
    assert canonical(json.loads(json.dumps(v))) == canonical(v)


@pytest.mark.parametrize(("value", "where"), [
    ({1, 2}, "$"), (b"x", "$"), ({"a": object()}, "$.a"), ([1, {"b": {2}}], "$[1].b"),
    ({1: "x"}, "object key 1"),
])
def test_non_json_values_raise_naming_the_path(value, where):
    with pytest.raises(ValueError, match=re.escape(where)):
        canonical(value)


def test_json_equal_raises_on_a_non_json_value():
    with pytest.raises(ValueError, match=re.escape("$[0]: set is not a JSON value")):
        json_equal([{1}], [1])
    with pytest.raises(ValueError, match=re.escape("$.a: object key 1 is not a string")):
        json_equal({"a": {1: "x"}}, {"a": {1: "x"}})


def test_check_arguments():
    with pytest.raises(ValueError, match="arguments: must be an object, got list"):
        check_arguments([1])
    with pytest.raises(ValueError, match="arguments: key 1 is not a string"):
        check_arguments({1: "x"})
    args = {"a": {1}}  # values are not walked
    assert check_arguments(args) is args


def test_a_date_time_compares_by_its_clock_not_its_spelling():
    # a user says "June 30 at 1:00 pm"; the servers read all three spellings alike
    same = ["2026-06-30T13:00", "2026-06-30T13:00:00", "2026-06-30 13:00"]
    for a in same:
        for b in same:
            assert json_equal(a, b) and canonical(a) == canonical(b)
            assert json_equal({"start": a, "n": 1}, {"start": b, "n": 1})
            assert json_equal([a], [b])
    assert json_equal("2026-06-30T13:00Z", "2026-06-30T13:00:00+00:00")
    assert not json_equal("2026-06-30T13:00", "2026-06-30T13:01")
    assert not json_equal("2026-06-30T13:00", "2026-06-30T13:00+02:00")  # another instant
    assert not json_equal("2026-06-30", "2026-06-30T00:00")  # a day is not a time
    assert not json_equal({"start": "2026-06-30T13:00"}, {"start": "2026-06-30T14:00:00"})
