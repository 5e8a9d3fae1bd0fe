"""Trajectory calls and task ground truth, parsed (and validated) from their JSON form.

JSON form (what `prove_jax.rewards.score` accepts):
  calls = [{"name": str, "arguments": {...}, "outcome": OUTCOME}, ...]  in order of appearance
    OUTCOME: "ok"              the call ran and succeeded
             "execution_error" a valid call; the tool ran and failed
             "schema_error"    a known tool, a required argument missing or of a wrong type
             "unknown_tool"    no tool by that name (also how a parser reports an unroutable call)
    Extra keys on a call (an id, the tool's result text) are ignored.
  truth = {"steps": [[{"name": str, "arguments": {...}}, ...], ...],   each step: >= 1 parallel call
           "edges": [[j, g], ...],   step j must run before step g (g depends on j); default []
           "kind": "normal" | "clarification" | "abstention"}              default "normal"
    Abstention tasks have no steps and no edges; other kinds have at least one step. Edges name
    existing steps, are not self-edges and form no cycle. Unknown top-level truth keys raise.
    A truth call may carry "alternatives": [{"name": str, "arguments": {...}}, ...], other tools
    that do the same job (a read whose result surfaces the same value, see
    `prove_jax.synthesis.alternatives`); each has only these two keys, a name other than its
    call's and than the call's other alternatives. The reward honours them unless
    `RewardConfig.accept_alternatives` is off (see `matching`).
Every violation raises ValueError naming the element (e.g. "calls[3].outcome: ...").

Parsing checks the structure above and that arguments are objects with string keys; argument
values are kept as given and compared with `canonical.json_equal` (JSON canonical equality) only
where a reward compares them, so a non-JSON value (a set, bytes) raises when compared.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, NamedTuple

from prove_jax.rewards.canonical import check_arguments

__all__ = ["KINDS", "OUTCOMES", "Call", "Truth", "TruthCall", "parse_calls", "parse_truth"]

OUTCOMES = ("ok", "execution_error", "schema_error", "unknown_tool")
KINDS = ("normal", "clarification", "abstention")
_OUTCOME_SET = frozenset(OUTCOMES)
_MISSING = object()
_TRUTH_KEYS = frozenset({"steps", "edges", "kind", "end_state"})
_ALT_KEYS = frozenset({"name", "arguments"})
_NO_ALTS: Mapping[str, tuple[tuple[int, int], ...]] = MappingProxyType({})
_new = tuple.__new__  # NamedTuple construction without the Python-level __new__ (hot path)


class Call(NamedTuple):
    """One model call: its name, arguments (as given) and execution outcome."""

    name: str
    args: Mapping[str, Any]
    outcome: str


class TruthCall(NamedTuple):
    """One ground-truth call; `step` is the index of the step that holds it; `alts` its
    alternatives as (name, arguments) pairs, in their listed order."""

    name: str
    args: Mapping[str, Any]
    step: int
    alts: tuple[tuple[str, Mapping[str, Any]], ...] = ()


class Truth(NamedTuple):
    """A task's ground truth, flattened: `calls` in (step, position) order.

    `step_calls[s]` are the indices into `calls` of step s; `deps[s]` the steps that step s
    depends on (edge [j, s]); `dep_calls[s]` the indices of every call of those steps (a list);
    `by_name` maps a tool name to its truth-call indices in order; `alt_by_name` an
    alternative's name to the (truth call, alternative) index pairs that list it, in order
    (empty when no call has alternatives). `end_state`: server ->
    the clock-free hash of its state after the truth's replay, for the servers the truth
    writes (None when the row carries none); any valid order of the calls reaches it.
    """

    calls: tuple[TruthCall, ...]
    step_calls: tuple[tuple[int, ...], ...]
    deps: tuple[tuple[int, ...], ...]
    dep_calls: tuple[Sequence[int], ...]
    kind: str
    by_name: Mapping[str, tuple[int, ...]]
    end_state: Mapping[str, str] | None = None
    alt_by_name: Mapping[str, tuple[tuple[int, int], ...]] = _NO_ALTS

    @property
    def n_calls(self) -> int:
        return len(self.calls)


def _seq(obj: Any, path: str) -> Sequence:
    if not isinstance(obj, list | tuple):
        raise ValueError(f"{path}: must be a list, got {type(obj).__name__}")
    return obj


def _plain_fields(obj: Any) -> tuple[str, Mapping[str, Any]] | None:
    """(name, arguments) of a plain, valid call dict; None sends the caller to _call_fields."""
    if type(obj) is dict:
        name, args = obj.get("name"), obj.get("arguments")
        if type(name) is str and type(args) is dict:
            for k in args:
                if type(k) is not str:
                    return None
            return name, args
    return None


def _call_fields(obj: Any, path: str) -> tuple[str, Mapping[str, Any]]:
    """(name, arguments) of any call object, or a ValueError naming what is wrong."""
    if not isinstance(obj, Mapping):
        raise ValueError(f"{path}: must be an object, got {type(obj).__name__}")
    if "name" not in obj:
        raise ValueError(f"{path}: missing 'name'")
    name = obj["name"]
    if not isinstance(name, str):
        raise ValueError(f"{path}.name: must be a string, got {type(name).__name__}")
    if "arguments" not in obj:
        raise ValueError(f"{path}: missing 'arguments'")
    return name, check_arguments(obj["arguments"], f"{path}.arguments")


def parse_calls(calls: Any) -> tuple[Call, ...]:
    """Validate a trajectory's calls (JSON form above)."""
    out = []
    for i, obj in enumerate(_seq(calls, "calls")):
        name, args = _plain_fields(obj) or _call_fields(obj, f"calls[{i}]")
        outcome = obj.get("outcome", _MISSING)
        if type(outcome) is not str or outcome not in _OUTCOME_SET:
            if outcome is _MISSING:
                raise ValueError(f"calls[{i}]: missing 'outcome'")
            raise ValueError(f"calls[{i}].outcome: {outcome!r} is not one of "
                             f"{', '.join(OUTCOMES)}")
        out.append(_new(Call, (name, args, outcome)))
    return tuple(out)


def _edges(edges: Any, n_steps: int) -> list[list[int]]:
    """deps[g] = the steps g depends on; raises on a bad edge or a cycle."""
    deps: list[list[int]] = [[] for _ in range(n_steps)]
    backward = False
    for k, e in enumerate(_seq(edges, "truth.edges")):
        if not isinstance(e, list | tuple) or len(e) != 2 or type(e[0]) is not int \
                or type(e[1]) is not int:
            raise ValueError(f"truth.edges[{k}]: must be a pair [j, g] of step indices, got {e!r}")
        j, g = e
        if not (0 <= j < n_steps and 0 <= g < n_steps):
            x = g if 0 <= j < n_steps else j
            raise ValueError(f"truth.edges[{k}]: step {x} out of range "
                             f"(the task has {n_steps} steps)")
        if j == g:
            raise ValueError(f"truth.edges[{k}]: self-edge on step {j}")
        if j not in deps[g]:
            deps[g].append(j)
        backward = backward or j > g
    if backward:  # edges that all point to later steps cannot form a cycle
        _check_acyclic(deps)
    return deps


def _check_acyclic(deps: list[list[int]]) -> None:
    """Kahn's algorithm over deps; raises naming the steps left on a cycle."""
    n_deps = [len(d) for d in deps]
    users: list[list[int]] = [[] for _ in deps]
    for g, d in enumerate(deps):
        for j in d:
            users[j].append(g)
    ready = [g for g, n in enumerate(n_deps) if n == 0]
    while ready:
        j = ready.pop()
        for g in users[j]:
            n_deps[g] -= 1
            if n_deps[g] == 0:
                ready.append(g)
    stuck = [g for g, n in enumerate(n_deps) if n > 0]
    if stuck:
        raise ValueError(f"truth.edges: dependency cycle through steps {stuck}")


def parse_truth(truth: Any) -> Truth:
    """Validate a task's ground truth (JSON form above)."""
    if type(truth) is not dict and not isinstance(truth, Mapping):
        raise ValueError(f"truth: must be an object, got {type(truth).__name__}")
    if not truth.keys() <= _TRUTH_KEYS:
        unknown = sorted(map(str, set(truth) - _TRUTH_KEYS))
        raise ValueError(f"truth: unknown keys {unknown} (expected steps, edges, kind, "
                         "end_state)")
    if "steps" not in truth:
        raise ValueError("truth: missing 'steps'")
    kind = truth.get("kind", "normal")
    if type(kind) is not str or kind not in KINDS:
        raise ValueError(f"truth.kind: {kind!r} is not one of {', '.join(KINDS)}")
    steps = _seq(truth["steps"], "truth.steps")
    if kind == "abstention" and steps:
        raise ValueError(f"truth.steps: an abstention task has no steps, got {len(steps)}")
    if kind != "abstention" and not steps:
        raise ValueError(f"truth.steps: a {kind} task needs at least one step")
    calls: list[TruthCall] = []
    step_calls = []
    by_name: dict[str, list[int]] = {}
    alt_by_name: dict[str, list[tuple[int, int]]] | None = None  # made on the first alternative
    for s, step in enumerate(steps):
        if type(step) is not list:
            _seq(step, f"truth.steps[{s}]")
        if not step:
            raise ValueError(f"truth.steps[{s}]: a step needs at least one call")
        start = len(calls)
        for p, obj in enumerate(step):
            name, args = _plain_fields(obj) or _call_fields(obj, f"truth.steps[{s}][{p}]")
            if name in by_name:
                by_name[name].append(len(calls))
            else:
                by_name[name] = [len(calls)]
            alts = obj.get("alternatives")  # obj is a Mapping here (else it raised)
            if alts is not None:
                alts = _alternatives(alts, name, f"truth.steps[{s}][{p}].alternatives")
                if alt_by_name is None:
                    alt_by_name = {}
                for a, (alt, _) in enumerate(alts):
                    alt_by_name.setdefault(alt, []).append((len(calls), a))
            calls.append(_new(TruthCall, (name, args, s, alts or ())))
        step_calls.append(tuple(range(start, len(calls))))
    deps = _edges(truth.get("edges", []), len(steps))
    dep_calls = tuple([u for j in d for u in step_calls[j]] if d else () for d in deps)
    return _new(Truth, (tuple(calls), tuple(step_calls), tuple(map(tuple, deps)), dep_calls,
                        kind, {k: tuple(v) for k, v in by_name.items()},
                        _end_state(truth.get("end_state")),
                        {k: tuple(v) for k, v in alt_by_name.items()} if alt_by_name
                        else _NO_ALTS))


def _alternatives(alts: Any, name: str, path: str) -> tuple[tuple[str, Mapping[str, Any]], ...]:
    """A truth call's alternatives, validated: (name, arguments) pairs."""
    out: list[tuple[str, Mapping[str, Any]]] = []
    for a, obj in enumerate(_seq(alts, path)):
        alt, args = _plain_fields(obj) or _call_fields(obj, f"{path}[{a}]")
        unknown = sorted(map(str, set(obj) - _ALT_KEYS))
        if unknown:
            raise ValueError(f"{path}[{a}]: unknown keys {unknown} (expected name, arguments)")
        if alt == name:
            raise ValueError(f"{path}[{a}].name: {alt!r} is the truth call's own name")
        if any(alt == n for n, _ in out):
            raise ValueError(f"{path}[{a}].name: {alt!r} is listed twice")
        out.append((alt, args))
    return tuple(out)


def _end_state(value: Any) -> dict[str, str] | None:
    if value is None:
        return None
    if not isinstance(value, Mapping) or not all(
            type(k) is str and type(v) is str and v for k, v in value.items()):
        raise ValueError(f"truth.end_state: must map server names to state hashes, got {value!r}")
    return dict(value)
