"""servers/core/schema.py: schemas derived from a tool signature, and the validator's answers
on the edges (bool vs integer, integer vs number, null, enums, nesting, non-finite and
non-JSON values). Expected schemas and messages are written out by hand."""

from __future__ import annotations

import collections
import decimal
from typing import Annotated, Literal, TypedDict

import pytest

from servers.core.errors import SchemaError
from servers.core.schema import Arg, check_value, make_validator, signature_schemas


class Out(TypedDict):
    id: str
    score: float | None


def tool(s,
         name: Annotated[str, Arg("Name", min_length=1, max_length=5)],
         count: Annotated[int, Arg("How many", minimum=1, maximum=9)] = 3,
         tags: Annotated[list[str] | None, Arg("Tags", max_length=2)] = None,
         mode: Annotated[Literal["a", "b"], Arg("Mode")] = "a") -> Out:
    return {"id": name, "score": None}


INPUT = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "description": "Name", "minLength": 1, "maxLength": 5},
        "count": {"type": "integer", "description": "How many", "minimum": 1, "maximum": 9,
                  "default": 3},
        "tags": {"type": "array", "items": {"type": "string"}, "description": "Tags",
                 "maxItems": 2},
        "mode": {"type": "string", "enum": ["a", "b"], "description": "Mode", "default": "a"},
    },
    "required": ["name"],
    "additionalProperties": False,
}
OUTPUT = {"type": "object", "properties": {"id": {"type": "string"},
                                           "score": {"type": ["number", "null"]}},
          "required": ["id", "score"]}


def test_signature_gives_the_schemas_written_by_hand():
    assert signature_schemas(tool) == (INPUT, OUTPUT, ["name", "count", "tags", "mode"])


validate = make_validator("t", INPUT)


@pytest.mark.parametrize("args,kwargs", [
    ({"name": "ab"}, {"name": "ab"}),  # defaults are the function's, not filled in here
    ({"name": "ab", "count": None, "tags": None}, {"name": "ab"}),  # null = not given
    ({"name": "ab", "count": 2.0}, {"name": "ab", "count": 2}),
    ({"name": "abcde", "tags": [], "mode": "b"}, {"name": "abcde", "tags": [], "mode": "b"}),
])
def test_valid_arguments(args, kwargs):
    out = validate(args)
    assert out == kwargs
    assert [type(v) for v in out.values()] == [type(v) for v in kwargs.values()]


@pytest.mark.parametrize("args,message", [
    ({"count": 2}, "t: missing required argument 'name' (Name)"),
    ({"name": None}, "t: missing required argument 'name' (Name)"),
    (None, "t: missing required argument 'name' (Name)"),
    ({"name": "ab", "zz": 1},
     "t: unknown argument 'zz'; valid arguments: name, count, tags, mode"),
    (["name"], "t: arguments must be a JSON object, got array"),
    ("name", "t: arguments must be a JSON object, got string"),
    ({"name": "ab", "count": True},
     "t: argument 'count' must be an integer, got a boolean (true/false) True"),
    ({"name": "ab", "count": 2.5}, "t: argument 'count' must be an integer, got a number 2.5"),
    ({"name": "ab", "count": "2"}, "t: argument 'count' must be an integer, got a string '2'"),
    ({"name": "ab", "count": 0}, "t: argument 'count' must be >= 1, got 0"),
    ({"name": "ab", "count": 10}, "t: argument 'count' must be <= 9, got 10"),
    ({"name": ""}, "t: argument 'name' must not be empty"),
    ({"name": "abcdef"}, "t: argument 'name' must be at most 5 characters, got 6"),
    ({"name": 5}, "t: argument 'name' must be a string, got an integer 5"),
    ({"name": "ab", "tags": ["x", "y", "z"]}, "t: argument 'tags' takes at most 2 items"),
    ({"name": "ab", "tags": ["x", 1]}, "t: argument 'tags'[1] must be a string, got an integer 1"),
    ({"name": "ab", "tags": "x"}, "t: argument 'tags' must be an array, got a string 'x'"),
    ({"name": "ab", "mode": "c"}, "t: argument 'mode' must be one of ['a', 'b'], got 'c'"),
])
def test_invalid_arguments_say_what_is_wrong(args, message):
    with pytest.raises(SchemaError) as err:
        validate(args)
    assert str(err.value) == message


# ----------------------------------------------------------------------------- check_value
@pytest.mark.parametrize("value,schema,expected", [
    (5, {"type": "number"}, 5.0),
    (-0.5, {"type": "number"}, -0.5),
    (7.0, {"type": "integer"}, 7),
    (1e20, {"type": "integer"}, 100000000000000000000),
    (10 ** 30, {"type": "integer"}, 10 ** 30),
    (1.0, {"type": "integer", "enum": [1, 2]}, 1),
    (False, {"type": "boolean"}, False),
    (None, {"type": "null"}, None),
    ({"k": [1]}, {"type": "object"}, {"k": [1]}),
    (collections.OrderedDict(k=1), {"type": "object"}, collections.OrderedDict(k=1)),
    ((1, "x"), {}, (1, "x")),  # no type: anything goes
    ([[1, 2.0], [3]], {"type": "array", "items": {"type": "array",
                                                  "items": {"type": "integer"}}}, [[1, 2], [3]]),
    ([None, "a"], {"type": "array", "items": {"type": ["string", "null"]}}, [None, "a"]),
    ("1234", {"type": "string", "pattern": r"\d{4}"}, "1234"),
    (["a"], {"type": "array", "minItems": 1}, ["a"]),
])
def test_check_value_accepts_and_normalises(value, schema, expected):
    out = check_value(value, schema, "x")
    assert out == expected and type(out) is type(expected)
    if isinstance(expected, list) and expected and isinstance(expected[0], list):
        assert [type(v) for row in out for v in row] == [int, int, int]


@pytest.mark.parametrize("value,schema,message", [
    (True, {"type": "integer"}, "must be an integer, got a boolean (true/false) True"),
    (True, {"type": "number"}, "must be a number, got a boolean (true/false) True"),
    (1, {"type": "boolean"}, "must be a boolean (true/false), got an integer 1"),
    (None, {"type": "string"}, "must be a string, got null None"),
    (True, {"type": "integer", "enum": [0, 1]}, "must be an integer, got a boolean"),
    (3, {"type": "integer", "enum": [1, 2]}, "must be one of [1, 2], got 3"),
    ("12345", {"type": "string", "pattern": r"\d{4}"}, r"must match \d{4}, got '12345'"),
    ("", {"type": "string", "minLength": 3}, "needs >= 3 characters"),
    ([], {"type": "array", "minItems": 1}, "needs at least 1 items"),
    ([[1, "z"]], {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}},
     "argument x[0][1] must be an integer, got a string 'z'"),
    ([1], {"type": "array", "items": {"type": ["string", "null"]}},
     "argument x[0] must be a string, got an integer 1"),
    ([], {"type": "object"}, "must be an object, got an array []"),
    (float("nan"), {"type": "number", "minimum": 0.01, "maximum": 100},
     "must be a finite number, got nan"),
    (float("inf"), {"type": "number"}, "must be a finite number, got inf"),
    (-float("inf"), {"type": "number", "minimum": 0}, "must be a finite number, got -inf"),
    (float("nan"), {"type": "integer"}, "must be an integer, got a number nan"),
    pytest.param(10 ** 400, {"type": "number"},
                 "argument x must be a finite number, got an integer beyond 1.8e+308",
                 id="huge-int-for-number"),
    ((1, 2), {"type": "array"}, "must be an array, got non-JSON tuple (1, 2)"),
    ({1}, {"type": "array"}, "must be an array, got non-JSON set {1}"),
    (b"ab", {"type": "string"}, "must be a string, got non-JSON bytes b'ab'"),
    (decimal.Decimal("1.5"), {"type": "number"}, "must be a number, got non-JSON Decimal"),
    (object(), {"type": "object"}, "must be an object, got non-JSON object"),
])
def test_check_value_rejects(value, schema, message):
    with pytest.raises(SchemaError) as err:
        check_value(value, schema, "x")
    assert message in str(err.value)
    assert str(err.value).startswith("argument x")


# ----------------------------------------------------------------------------- refused tools
class Point(TypedDict):
    x: int


def _refusal(fn) -> str:
    with pytest.raises(TypeError) as err:
        signature_schemas(fn)
    return str(err.value)


def test_structured_parameters_are_refused():
    """Nested fields would be advertised but never checked."""
    def one(s, p: Annotated[Point, Arg("A point")]) -> Out: ...
    def many(s, ps: Annotated[list[Point], Arg("Points")]) -> Out: ...
    assert "one: parameter 'p' is an object with fields" in _refusal(one)
    assert "many: parameter 'ps' is an object with fields" in _refusal(many)


def test_signatures_the_validator_cannot_serve_are_refused():
    def union(s, v: Annotated[int | str, Arg("Either")]) -> Out: ...
    def bare(s, v: int) -> Out: ...
    def untyped(s, v) -> Out: ...
    def loose(s, v: Annotated[int, Arg("V")]) -> dict: ...
    assert "unsupported type" in _refusal(union)
    assert "parameter 'v' needs Arg(description)" in _refusal(bare)
    assert "parameter 'v' needs a type hint" in _refusal(untyped)
    assert "return type must be a TypedDict" in _refusal(loose)
