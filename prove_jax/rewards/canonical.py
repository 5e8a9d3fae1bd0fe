"""JSON canonicalization: argument values compare by meaning, not by spelling.

`canonical(value)` maps a JSON value to a hashable form whose `==` is the comparison the rewards
use ("exactly matching values"):
  - numbers: int and float compare by value (5 == 5.0; 10**20 == 1e20); bools are *not* numbers
    (True != 1, False != 0), so they map to private sentinels;
  - non-finite floats (NaN, ±inf are not JSON but `json.loads` accepts them) map to sentinels, so
    NaN equals NaN;
  - objects map to a frozenset of (key, value) pairs: key order is ignored; keys must be strings;
  - arrays (list or tuple) map to tuples: order matters;
  - strings compare exactly, or after `strip().casefold()` when `normalize_strings` is set (object
    keys are never normalized); an ISO date-time compares by its clock, so "2026-06-30T13:00"
    equals "2026-06-30T13:00:00" (the servers read both alike); None stays None.
Any other type (set, bytes, objects, non-string keys) raises ValueError naming its path.
Arrays become tuples and objects frozensets, so an array never equals an object and a string
never equals either.

`json_equal(a, b)` equals `canonical(a) == canonical(b)` for JSON values but compares in place,
stopping at the first difference; the rewards call it only on the values they compare, so the
rest of a trajectory's argument values are never walked (this is what keeps scoring cheap). A
non-JSON value raises ValueError when a comparison reaches it (a comparison that stops earlier
does not see it).
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Mapping
from typing import Any

__all__ = ["canonical", "check_arguments", "json_equal"]


class _Sentinel:
    """A JSON value with no faithful Python twin; equal only to itself."""

    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    def __repr__(self) -> str:
        return self._name


_TRUE, _FALSE = _Sentinel("true"), _Sentinel("false")
_NAN, _POS_INF, _NEG_INF = _Sentinel("NaN"), _Sentinel("Infinity"), _Sentinel("-Infinity")
_MISSING = _Sentinel("missing")


# An ISO date-time says one instant however its clock is written: "2026-06-30T13:00",
# "2026-06-30T13:00:00" and "2026-06-30 13:00" are the same argument to every server here
_CLOCK = re.compile(r"^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?(Z|[+-]\d{2}:\d{2})?$")


def _clock(value: str) -> str | None:
    """The one spelling of an ISO date-time (seconds written, 'Z' as +00:00); None for any
    other string."""
    m = _CLOCK.match(value) if len(value) >= 16 else None
    if m is None:
        return None
    zone = "+00:00" if m.group(5) == "Z" else (m.group(5) or "")
    return f"{m.group(1)}T{m.group(2)}:{m.group(3)}:{m.group(4) or '00'}{zone}"


def _same_clock(a: str, b: str) -> bool:
    ca = _clock(a)
    return ca is not None and ca == _clock(b)


def _float(v: float) -> Hashable:
    if v - v == 0.0:  # finite (inf - inf and NaN - NaN are NaN)
        return v
    if v != v:
        return _NAN
    return _POS_INF if v > 0 else _NEG_INF


def canonical(value: Any, normalize_strings: bool = False, path: str = "$") -> Hashable:
    """The hashable canonical form of a JSON value (see the module docstring).

    Raises ValueError naming the path (rooted at `path`) of a value that is not JSON.
    """
    t = type(value)
    if t is str:
        if (when := _clock(value)) is not None:
            return when
        return value.strip().casefold() if normalize_strings else value
    if t is int or value is None:
        return value
    if t is bool:
        return _TRUE if value else _FALSE
    if t is float:
        return _float(value)
    if t is dict or isinstance(value, Mapping):
        items = []
        for k, v in value.items():
            if type(k) is not str:
                raise ValueError(f"{path}: object key {k!r} is not a string")
            items.append((k, canonical(v, normalize_strings, f"{path}.{k}")))
        return frozenset(items)
    if t is list or t is tuple:
        return tuple([canonical(v, normalize_strings, f"{path}[{i}]")
                      for i, v in enumerate(value)])
    # subclasses of the JSON types (str/int/float enums and the like), after the fast paths
    if isinstance(value, str):
        return canonical(str(value), normalize_strings, path)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return _float(float(value))
    raise ValueError(f"{path}: {t.__name__} is not a JSON value")


def json_equal(a: Any, b: Any, normalize_strings: bool = False) -> bool:
    """canonical(a) == canonical(b), compared in place (no forms built) when the types agree.

    Raises ValueError naming the path ("$[1].k") of a non-JSON value the comparison reaches.
    """
    try:
        return _eq(a, b, normalize_strings)
    except ValueError:  # walk both whole values, with paths, to name a culprit
        canonical(a, normalize_strings)
        canonical(b, normalize_strings)
        raise


def _eq(a: Any, b: Any, ns: bool) -> bool:
    ta, tb = type(a), type(b)
    if ta is str:
        if tb is str:
            return a == b or (ns and a.strip().casefold() == b.strip().casefold()) \
                or _same_clock(a, b)
    elif ta is int or ta is float:
        if tb is int or tb is float:
            return a == b or (a != a and b != b)  # NaN equals NaN
    elif ta is dict:
        if tb is dict:
            if len(a) != len(b):
                return False
            for k, v in a.items():
                if type(k) is not str:
                    raise ValueError(f"object key {k!r} is not a string")
                w = b.get(k, _MISSING)
                if w is _MISSING:
                    return False
                tv = type(v)
                if tv is type(w) and (tv is int or (tv is str and not ns)):
                    # leaf fast path (most values), same result as _eq
                    if v != w and not (tv is str and _same_clock(v, w)):
                        return False
                elif not _eq(v, w, ns):
                    return False
            return True
    elif ta is list or ta is tuple:
        if tb is list or tb is tuple:
            if len(a) != len(b):
                return False
            for v, w in zip(a, b, strict=True):
                tv = type(v)
                if tv is type(w) and (tv is int or (tv is str and not ns)):
                    if v != w and not (tv is str and _same_clock(v, w)):
                        return False
                elif not _eq(v, w, ns):
                    return False
            return True
    elif ta is bool:
        if tb is bool:
            return a is b
    elif a is None and b is None:
        return True
    # mixed or unusual types: compare the canonical forms (raises on a non-JSON value)
    return canonical(a, ns) == canonical(b, ns)


def check_arguments(arguments: Any, path: str = "arguments") -> Mapping[str, Any]:
    """Check that a call's arguments are an object with string keys; return it unchanged.

    Values are not walked here (see json_equal). Raises ValueError naming `path`.
    """
    if type(arguments) is not dict and not isinstance(arguments, Mapping):
        raise ValueError(f"{path}: must be an object, got {type(arguments).__name__}")
    for k in arguments:
        if type(k) is not str:
            raise ValueError(f"{path}: key {k!r} is not a string")
    return arguments
