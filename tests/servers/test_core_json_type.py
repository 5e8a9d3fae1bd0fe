"""The two copies of json_type (servers/core/schema.py and prove_jax/synthesis/schemas.py; the
packages do not import each other) give the same answer for every kind of value."""

from __future__ import annotations

import collections
import decimal
import enum
import fractions

import pytest

from prove_jax.synthesis.schemas import json_type as synthesis_json_type
from servers.core.schema import json_type as server_json_type


class Level(enum.IntEnum):
    LOW = 1


class Name(enum.StrEnum):
    ALICE = "alice"


class Ratio(float):
    pass


TABLE = [
    (None, "null"),
    (True, "boolean"),
    (False, "boolean"),
    (0, "integer"),
    (-(10 ** 30), "integer"),
    (Level.LOW, "integer"),  # subclasses count as their base
    (1.5, "number"),
    (float("nan"), "number"),
    (Ratio(0.5), "number"),
    ("", "string"),
    (Name.ALICE, "string"),
    ([], "array"),
    ([1, "a"], "array"),
    ({}, "object"),
    (collections.OrderedDict(a=1), "object"),
    (collections.defaultdict(list), "object"),
    ((1, 2), "non-JSON tuple"),  # JSON decoding never makes these
    ({1}, "non-JSON set"),
    (frozenset(), "non-JSON frozenset"),
    (b"x", "non-JSON bytes"),
    (bytearray(b"x"), "non-JSON bytearray"),
    (decimal.Decimal("1.5"), "non-JSON Decimal"),
    (fractions.Fraction(1, 3), "non-JSON Fraction"),
    (1j, "non-JSON complex"),
    (object(), "non-JSON object"),  # must not pass for a JSON object
    (range(2), "non-JSON range"),
]


@pytest.mark.parametrize("value,expected", TABLE, ids=[type(v).__name__ for v, _ in TABLE])
def test_both_copies_give_the_expected_name(value, expected):
    assert server_json_type(value) == expected
    assert synthesis_json_type(value) == expected
