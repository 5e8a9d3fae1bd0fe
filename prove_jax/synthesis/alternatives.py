"""Alternatives of a read step (issue 23, item 4): other read-only tools of the same server that,
called on the same live state, surface what the step is there for. The truth records them on
the step's call ("alternatives": [{name, arguments}]) and the reward accepts a call to one of
them in the step's place (`RewardConfig.accept_alternatives`).

Two phases, so that nothing unverified is ever recorded:
  probe   while the chain runs (machine.py, lookups.py), right after a read step runs and before
          anything writes: each candidate is called once on the same episode and its result
          kept. Candidates (sorted by name, no randomness) take only values the conversation
          already offers. For a look-up: the server's other tools that list the entity's kind,
          with no arguments or the name the user says as their query. For a read the user
          asked for: tools whose required arguments the step's own arguments fill by name
          (the same id, the same query), or that take none, and whose output declares every
          field the step's records show.
  select  once the truth is final (example.py): a probe becomes an alternative when
          - every value a later truth step takes from the step is in its result, where a model
            finds it with what the user says of it (dialogue.arg_spec): the entity's name (a
            look-up's): records holding that name hold that id and no other of its kind; a
            selector: the named fields single out the same record there; "that one": the
            read's request named the entity, or the probe shows no other of its kind; a value
            the user states: anywhere in the result;
          - and, for a read the user asked for (not a look-up, which only serves a value), its
            result shows every record the step's result shows, each with all its fields equal
            (nested lines and items too).
          A probe that failed, and a tool hidden from the task, are never recorded.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from prove_jax.synthesis.dialogue import ArgSpec, arg_spec
from prove_jax.synthesis.generators import QUERY_LIKE, check_value
from prove_jax.synthesis.graph import ToolGraph, ToolNode
from prove_jax.synthesis.records import Filled, StepRecord
from prove_jax.synthesis.schemas import (
    entity_kind,
    key_of,
    out_fields,
    record_fields,
    walk_records,
)

__all__ = ["Probe", "lookup_probe_args", "probe", "read_candidates", "select_alternatives"]

Call = Callable[[ToolNode, dict], Awaitable[Any]]  # (node, args) -> CallResult


@dataclass
class Probe:
    """A candidate alternative, called on the step's live state."""

    node: ToolNode
    name: str  # the exposed name the policy sees in this task
    args: dict[str, Any]
    payload: Any  # the result; None when the call failed


async def probe(candidates: list[tuple[ToolNode, dict]], names: Mapping[tuple[str, str], str],
                call: Call, known: Mapping[str, tuple[dict, Any]] | None = None) -> list[Probe]:
    """Call each candidate (in the given order) and keep its result; `known`: tool name ->
    (arguments, CallResult) of calls already made on this state, not made again."""
    out = []
    for node, args in candidates:
        args_then, result = (known or {}).get(node.name, (None, None))
        if result is None or args_then != args:
            result = await call(node, args)
        out.append(Probe(node, names[(node.server, node.name)], args,
                         result.payload if result.ok else None))
    return out


def lookup_probe_args(tool: ToolNode, query_arg: str | None, label: str) -> list[dict]:
    """The arguments to try a look-up tool with, for an entity the user calls `label`: its
    required query, else none and, where it takes an optional query, that query too."""
    props = tool.properties
    if query_arg is not None:
        return [{query_arg: label}] if check_value(label, props.get(query_arg, {})) else []
    optional = [a for a in props if a in QUERY_LIKE and check_value(label, props[a])]
    return [{}, {optional[0]: label}] if optional else [{}]


_FIELD_NAMES: dict[int, tuple[dict, frozenset[str]]] = {}


def _field_names(node: ToolNode) -> frozenset[str]:
    """Every field name `node`'s output schema declares (cached per schema object)."""
    hit = _FIELD_NAMES.get(id(node.output_schema))
    if hit is None or hit[0] is not node.output_schema:
        hit = (node.output_schema, frozenset(f.name for f in out_fields(node.output_schema)))
        _FIELD_NAMES[id(node.output_schema)] = hit
    return hit[1]


def read_candidates(graph: ToolGraph, node: ToolNode, args: Mapping[str, Any],
                    payload: Any) -> list[tuple[ToolNode, dict]]:
    """(tool, arguments) of the other read-only tools of `node`'s server that could show what
    a read of `node` showed: arguments from the step's own (the same id, the same query), or
    none; an output schema declaring every field of the step's records. Sorted by name."""
    records = list(walk_records(payload))
    if not records:
        return []
    shown = set().union(*(record_fields(r) for r in records))
    query = next((v for a, v in args.items() if a in QUERY_LIKE), None)
    out = []
    for other in sorted(graph.tools_of(node.server), key=lambda n: n.name):
        if other.name == node.name or not other.read_only:
            continue
        if not shown <= _field_names(other):
            continue
        alt_args = {}
        for a in other.required:
            value = args.get(a, query if a in QUERY_LIKE else None)
            if value is None or not check_value(value, other.properties.get(a, {})):
                break
            alt_args[a] = value
        else:
            out.append((other, alt_args))
    return out


# ------------------------------------------------------------------------------ selection
def _strings(value: Any) -> Iterator[Any]:
    """Every scalar inside a value."""
    if isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)
    else:
        yield value


def _named(payload: Any, kind: str, value: Any, label: str) -> bool:
    """Does the name the user says tie `value` in a probe's result: some record holds both,
    and every record holding the name holds no other id of `kind` (a transaction that shows
    the payee's name next to the payee's id names the payee as the payee list does)?"""
    ids: set[Any] = set()
    for r in walk_records(payload):
        fields = record_fields(r)
        if label in set(_strings(fields)):
            ids |= {v for k, v in fields.items() if isinstance(v, str) and entity_kind(k) == kind}
    return ids == {value}


def _found(payload: Any, spec: ArgSpec, f: Filled, step: StepRecord) -> bool:
    """Does a probe's result hold value `f` (taken from `step`'s result) where a model finds
    it with what the user says of it (`spec`, as the dialogue states it)?"""
    values = f.value if isinstance(f.value, list) else [f.value]
    if spec.how == "entity":  # by the name the user says (a look-up's entity)
        return f.kind is not None and spec.label is not None and len(values) == 1 and \
            _named(payload, f.kind, values[0], spec.label)
    if spec.how == "literal":  # the user states the value
        shown = set(_strings(payload))
        return all(v in shown for v in values)
    element = f.element if isinstance(f.element, dict) else None
    key = key_of(element) if element is not None else None
    if key is None:
        return False
    field, ident = key[0], element[key[0]]
    same = [r for r in walk_records(payload) if key_of(r) == key]
    mine = next((r for r in same if r[field] == ident), None)
    if mine is None or not all(v in set(_strings(record_fields(mine))) for v in values):
        return False
    if spec.how == "selector":  # the fields the user names single the record out there too
        return {(key_of(r)[0], r[key_of(r)[0]]) for r in walk_records(payload)
                if all(r.get(k) == v for k, v in spec.pairs)} == {(field, ident)}
    # a back-reference ("that one"): the read's request named it, or the probe shows only it
    return ident in set(_strings(step.args)) or len({r[field] for r in same}) == 1


def _covers(payload: Any, shown: Any) -> bool:
    """Does a probe's result show every record of `shown`, each with every one of its fields
    (nested lists and objects included) equal? A record's own lines, counts or items must be
    there too, not only its id and scalars."""
    records = list(walk_records(shown))
    if not records:
        return False
    index: dict[tuple[str, Any], list[dict]] = {}
    for r in walk_records(payload):
        field = key_of(r)[0]
        index.setdefault((field, r[field]), []).append(r)
    for r in records:
        field = key_of(r)[0]
        if not any(all(k in o and o[k] == v for k, v in r.items())
                   for o in index.get((field, r[field]), ())):
            return False
    return True


def select_alternatives(steps: list[StepRecord], hidden: str | None = None) -> None:
    """Set each step's `alternatives` from its probes (module docstring), then drop the
    probes; `steps` is the final truth, `hidden` the node key of a tool the task hides."""
    for j, step in enumerate(steps):
        probes, step.probes = step.probes, []
        if not probes:
            continue
        needs = [(arg_spec(arg, f, steps, g), f) for g in range(j + 1, len(steps))
                 for arg, f in steps[g].filled.items()
                 if f.source == "derived" and f.from_step == j]
        if step.lookup and not needs:
            continue
        chosen: dict[str, dict] = {}  # one per tool: the first of its probes that qualifies
        for p in probes:
            if p.name not in chosen and p.payload is not None and p.node.key != hidden \
                    and (step.lookup or _covers(p.payload, step.payload)) \
                    and all(_found(p.payload, spec, f, step) for spec, f in needs):
                chosen[p.name] = {"name": p.name, "arguments": p.args}
        step.alternatives = list(chosen.values())
