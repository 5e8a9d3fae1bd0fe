"""Communication per train step, read from a compiled XLA executable's HLO text.

`collective_bytes` walks the partitioned (per-device) HLO module and sums, for each collective
kind, the bytes of the collective's operands times how many times the instruction runs per
execution: a collective in a while-loop body (the layer scan, the micro-batch scan, chunk loops)
counts once per trip, using the trip count XLA proved and wrote on the `while` as
`backend_config={...,"known_trip_count":{"n":"5"}}`. A loop without one counts once and is
reported in "unknown_trip_loops".

The dry-run memory plan compiles on virtual CPU devices, so these are XLA:CPU's collectives for
that sharding: an estimate of what the accelerator's compiler would emit, not a measurement on
it (GPU/TPU passes may combine, decompose or reorder collectives, e.g. all-reduce into
reduce-scatter + all-gather, or merge many small ones into one).
"""

from __future__ import annotations

import dataclasses
import math
import re
from typing import Any

KINDS = ("all-gather", "reduce-scatter", "all-reduce", "all-to-all", "collective-permute")

# Bits per element; sub-byte arrays are rounded up to whole bytes per array.
_BITS = {
    "pred": 8, "s4": 4, "u4": 4, "s8": 8, "u8": 8, "s16": 16, "u16": 16, "f16": 16, "bf16": 16,
    "s32": 32, "u32": 32, "f32": 32, "s64": 64, "u64": 64, "f64": 64, "c64": 64, "c128": 128,
    "f8e4m3fn": 8, "f8e5m2": 8, "f8e4m3": 8, "f8e4m3fnuz": 8, "f8e5m2fnuz": 8, "f8e4m3b11fnuz": 8,
    "f8e3m4": 8, "f8e8m0fnu": 8, "token": 0,
}
_ARRAY = re.compile(r"\b([a-z][a-z0-9]*)\[([^\]]*)\]")
_COMMENT = re.compile(r"/\*.*?\*/")
# Matches both the plain JSON form and the older escaped-string form (\"n\":\"5\").
_TRIPS = re.compile(r'known_trip_count\\?"\s*:\s*\{\s*\\?"n\\?"\s*:\s*\\?"?(\d+)')
_CLOSE = {"(": ")", "[": "]", "{": "}"}


@dataclasses.dataclass
class _Instr:
    name: str
    shape: str
    opcode: str
    operands: list[str]
    attrs: dict[str, str]


@dataclasses.dataclass
class _Comp:
    name: str
    shapes: dict[str, str]  # value name -> shape text, parameters included
    instrs: list[_Instr]


def shape_bytes(shape: str) -> int:
    """Bytes of an HLO shape string (`f32[4,8]{1,0}`, tuples summed, layouts ignored)."""
    total = 0
    for dtype, dims in _ARRAY.findall(shape):
        if dtype not in _BITS:
            raise ValueError(f"unknown HLO element type {dtype!r} in shape {shape!r}")
        n = math.prod(int(d.strip().lstrip("<=")) for d in dims.split(",") if d.strip())
        total += (n * _BITS[dtype] + 7) // 8
    return total


def _match(s: str, i: int) -> int:
    """Index of the bracket or quote closing s[i], skipping double-quoted strings."""
    if s[i] == '"':
        j = i + 1
        while j < len(s) and s[j] != '"':
            j += 2 if s[j] == "\\" else 1
        if j >= len(s):
            raise ValueError(f"unterminated string in HLO text: {s[i:i + 80]!r}")
        return j
    stack: list[str] = []
    j = i
    while j < len(s):
        c = s[j]
        if c == '"':
            j = _match(s, j)
        elif c in _CLOSE:
            stack.append(_CLOSE[c])
        elif stack and c == stack[-1]:
            stack.pop()
            if not stack:
                return j
        j += 1
    raise ValueError(f"unbalanced brackets in HLO text: {s[i:i + 80]!r}")


def _split(s: str) -> list[str]:
    """Split on commas outside brackets and quotes."""
    parts, start, j = [], 0, 0
    while j < len(s):
        c = s[j]
        if c in _CLOSE or c == '"':
            j = _match(s, j)
        elif c == ",":
            parts.append(s[start:j])
            start = j + 1
        j += 1
    parts.append(s[start:])
    return [p.strip() for p in parts if p.strip()]


def _parse_instr(line: str) -> _Instr | None:
    lhs, eq, rhs = line.removeprefix("ROOT ").partition(" = ")
    if not eq:
        return None
    rhs = rhs.strip()
    end = _match(rhs, 0) + 1 if rhs.startswith("(") else rhs.index(" ")
    shape, rest = rhs[:end], rhs[end:].lstrip()
    open_ = rest.find("(")
    if open_ <= 0:
        return None
    close = _match(rest, open_)
    attrs = {}
    for part in _split(rest[close + 1:].lstrip(", ")):
        key, _, value = part.partition("=")
        attrs[key.strip()] = value.strip()
    return _Instr(lhs.strip().lstrip("%"), shape, rest[:open_].strip(),
                  _split(rest[open_ + 1:close]), attrs)


def _parse(hlo_text: str) -> tuple[dict[str, _Comp], str]:
    comps: dict[str, _Comp] = {}
    entry, cur = "", None
    for raw in hlo_text.splitlines():
        line = _COMMENT.sub("", raw).strip()
        if cur is None:
            # A computation header: `[ENTRY] %name (p: f32[2], ...) -> f32[2] {`.
            if not line.endswith("{") or " -> " not in line:
                continue
            is_entry = line.startswith("ENTRY ")
            head = line.removeprefix("ENTRY ").strip()
            name = head.split()[0].split("(")[0].lstrip("%")
            cur = _Comp(name, {}, [])
            comps[name] = cur
            entry = name if is_entry else entry
            open_ = head.find("(")
            for p in _split(head[open_ + 1:_match(head, open_)]):
                pname, _, pshape = p.partition(":")
                cur.shapes[pname.strip().lstrip("%")] = pshape.strip()
        elif line == "}":
            cur = None
        elif (instr := _parse_instr(line)) is not None:
            cur.shapes[instr.name] = instr.shape
            cur.instrs.append(instr)
    if not comps:
        raise ValueError("no HLO computations found in the text")
    # The printer puts ENTRY last; without the marker (a snippet) the last one is the entry.
    return comps, entry or list(comps)[-1]


def _callees(instr: _Instr) -> list[tuple[str, int | None]]:
    """(computation, runs per execution of instr); None runs: a loop of unknown trip count."""
    names = lambda v: [n.strip().lstrip("%") for n in v.strip("{}").split(",") if n.strip()]
    a, op = instr.attrs, instr.opcode
    if op == "while":
        m = _TRIPS.search(a.get("backend_config", ""))
        trips = int(m.group(1)) if m else None
        return [(c, trips) for k in ("body", "condition") for c in names(a.get(k, ""))]
    if op in ("async-update", "async-done"):
        return []  # they repeat async-start's calls=; the wrapped op runs once
    keys = ["calls", "branch_computations", "true_computation", "false_computation",
            "called_computations"]
    if op == "call":
        keys.append("to_apply")  # elsewhere to_apply is a reduction, not an execution
    return [(c, 1) for k in keys for c in names(a.get(k, ""))]


def _multiplicities(comps: dict[str, _Comp], entry: str) -> tuple[dict[str, int], int]:
    callers: dict[str, list[tuple[str, int]]] = {}
    unknown: set[tuple[str, str]] = set()
    for comp in comps.values():
        for instr in comp.instrs:
            for callee, runs in _callees(instr):
                if runs is None:
                    unknown.add((comp.name, instr.name))
                callers.setdefault(callee, []).append((comp.name, 1 if runs is None else runs))
    memo: dict[str, int] = {entry: 1}

    def mult(name: str) -> int:
        if name not in memo:
            memo[name] = 0  # HLO call graphs are acyclic; this only guards malformed text
            memo[name] = sum(mult(c) * runs for c, runs in callers.get(name, []))
        return memo[name]

    out = {name: mult(name) for name in comps}
    return out, sum(1 for comp, _ in unknown if out.get(comp, 0) > 0)


def _operand_bytes(operand: str, shapes: dict[str, str]) -> int:
    typed, _, name = operand.strip().rpartition(" ")
    if typed:  # `f32[4,8]{1,0} %x`: the shape is printed inline
        return shape_bytes(typed)
    name = name.lstrip("%")
    if name not in shapes:
        raise ValueError(f"collective operand {name!r} has no shape in its computation")
    return shape_bytes(shapes[name])


def collective_bytes(hlo_text: str) -> dict[str, int]:
    """Per-device bytes per execution for each kind in KINDS (0 when absent), plus "total" and
    "unknown_trip_loops" (executed while loops without a known trip count, counted once)."""
    comps, entry = _parse(hlo_text)
    mults, unknown = _multiplicities(comps, entry)
    out = dict.fromkeys(KINDS, 0)
    for comp in comps.values():
        if not mults[comp.name]:
            continue
        for instr in comp.instrs:
            kind = instr.opcode.removesuffix("-start")  # `-done` never matches a kind
            if kind not in out:
                continue
            operands = instr.operands
            if kind == "collective-permute" and "slice_sizes" in instr.attrs:
                operands = operands[:1]  # in-place form: output buffer and indices follow
            nbytes = sum(_operand_bytes(o, comp.shapes) for o in operands)
            out[kind] += nbytes * mults[comp.name]
    out["total"] = sum(out[k] for k in KINDS)
    out["unknown_trip_loops"] = unknown
    return out


def compiled_collective_bytes(compiled: Any) -> dict[str, int]:
    """`collective_bytes` of a jax `Compiled` (`jax.jit(f).lower(...).compile()`)."""
    text = compiled.as_text()
    if not text:
        raise ValueError("the compiled executable has no HLO text (as_text() returned nothing)")
    return collective_bytes(text)
