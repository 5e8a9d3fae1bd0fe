"""Look-ups: the user names an entity ("Dana Costa", "my Holiday Savings account") and the model
must find its id first. Users do not hold internal ids ('acc_k7qm2x'), so every information
level names those entities this way; ids a user really holds (order numbers, booking codes,
ticket keys, paths, tickers: `user_holds`) are stated, except at the "minimal" level and in a
share of other chains (`p_name_held`), which name every entity they can. For a context id
argument we look for a read-only tool of the same server that lists that kind: a search tool
taking the name as its query (tried first), or a lister without required arguments. The
look-up is executed for real; it counts only if its output holds the entity and the name
singles it out there. It then becomes a truth step with an explicit edge to the call that
uses the id."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from prove_jax.synthesis.alternatives import lookup_probe_args, probe
from prove_jax.synthesis.context import Context, Entity
from prove_jax.synthesis.generators import QUERY_LIKE
from prove_jax.synthesis.graph import ToolGraph, ToolNode
from prove_jax.synthesis.held import user_holds
from prove_jax.synthesis.records import Filled, StepRecord
from prove_jax.synthesis.schemas import key_of, naming, out_fields, values_of_kind, walk_records

__all__ = ["add_lookups", "lookup_tools"]

Call = Callable[[ToolNode, dict], Any]  # async: (node, args) -> CallResult

MAX_LOOKUP_CALLS = 4  # look-up calls tried per entity, searches first


def _lists_records_of(node: ToolNode, kind: str) -> bool:
    """Does the tool list records of `kind` themselves (their own id is the first id field of
    an array element), not records that merely point at one (cards naming their account)?"""
    first: dict[tuple[str, ...], Any] = {}
    for f in out_fields(node.output_schema):
        if f.in_array and (f.name == "id" or f.name.endswith("_id")):
            first.setdefault(f.path[:-1], f)
    return any(f.kind == kind for f in first.values())


def _search_first(tool: ToolNode, query_arg: str | None, label: str) -> list[dict]:
    """A person looks an entity up by its name where the tool searches (its required or
    optional query), and lists everything only where it does not: a lister's first page
    often leaves the entity out."""
    return list(reversed(lookup_probe_args(tool, query_arg, label)))


def lookup_tools(graph: ToolGraph, server: str, kind: str) -> list[tuple[ToolNode, str | None]]:
    """(tool, its query argument or None) for read tools of `server` that list `kind`, by
    name."""
    out = []
    for node in sorted(graph.tools_of(server), key=lambda n: n.name):
        if not node.read_only:
            continue
        if not any(f.in_array and f.kind == kind for f in out_fields(node.output_schema)):
            continue
        if not node.required:
            out.append((node, None))
        elif len(node.required) == 1 and node.required[0] in QUERY_LIKE:
            out.append((node, node.required[0]))
    return out


def _match(payload: Any, kind: str, key: str, label: tuple[str, str]) -> tuple[dict, list] | None:
    """The record of (kind, key) in a look-up's output, if what the user says of it (its
    name, with another field where namesakes share it) singles it out there."""
    records = [r for r in walk_records(payload) if key_of(r) and key_of(r)[1] == kind]
    # the record must show the name the user says (a scene's device shows a `device_name`,
    # not its `name`: that look-up shows nothing the user named)
    mine = [r for r in records if r.get(key_of(r)[0]) == key and r.get(label[0]) == label[1]]
    if not mine:
        return None
    return (mine[0], records) if naming(mine[0], records, label) is not None else None


def _reuse(steps: list[StepRecord], kind: str, key: str, label: tuple[str, str]
           ) -> tuple[int, dict, list] | None:
    """An earlier read (a look-up, or a list the user asked for) whose output already singles
    the entity out: the model has it in view, so no second look-up."""
    for i in range(len(steps) - 1, -1, -1):
        if steps[i].lookup or steps[i].node.read_only:
            found = _match(steps[i].payload, kind, key, label)
            if found is not None:
                return i, *found
    return None


async def _find(graph: ToolGraph, server: str, kind: str, key: str, label: tuple[str, str],
                call: Call, rng: random.Random, stats: dict[str, int],
                holds: tuple[str, str] | None = None) -> tuple | None:
    """Search for the record (kind, key) by `label` with the server's look-up tools, searches
    first (MAX_LOOKUP_CALLS calls at most): (tool, args, result, record, its siblings, every
    candidate tool, what was tried), or None. With `holds` (kind, value), the record found
    must also point at that value and at no other of its kind."""
    tools = lookup_tools(graph, server, kind)
    candidates = list(tools)  # by name, before the shuffle
    # those that list the records themselves are tried first
    primary = [t for t in tools if _lists_records_of(t[0], kind)]
    others = [t for t in tools if t not in primary]
    rng.shuffle(primary)
    rng.shuffle(others)
    tried: dict[str, tuple[dict, Any]] = {}
    attempts = [(t, a) for t, q in primary + others for a in _search_first(t, q, label[1])]
    for tool, args in attempts[:MAX_LOOKUP_CALLS]:
        result = await call(tool, args)
        tried[tool.name] = (args, result)
        stats["lookup_calls"] = stats.get("lookup_calls", 0) + 1
        found = _match(result.payload, kind, key, label) if result.ok else None
        if found is not None and (holds is None
                                  or values_of_kind(found[0], holds[0]) == {holds[1]}):
            return tool, args, result, *found, candidates, tried
    return None


MAX_OWNERS = 2  # records pointing at an entity tried for a look-up through them


def _owners(ctx: Context, kind: str, value: str, rng: random.Random) -> list[Entity]:
    """Named records of other kinds in the world that point at `value` and at no other
    value of its kind (a listing names one seller), for an entity the user cannot find by
    its own name: no tool lists sellers, so the user says "the seller of the listing
    'Vespa Primavera'"."""
    out = [e for k, ents in sorted(ctx.entities.items()) if k != kind
           for e in ents.values()
           if e.label is not None and values_of_kind(e.fields, kind) == {value}]
    rng.shuffle(out)
    return out[:MAX_OWNERS]


async def add_lookups(graph: ToolGraph, node: ToolNode, filled: dict[str, Filled],
                      done: list[StepRecord], ctx: Context,
                      names: Mapping[tuple[str, str], str], call: Call, rng: random.Random,
                      stats: dict[str, int], probe_call: Call | None = None,
                      every: bool = True) -> list[StepRecord]:
    """Look-up steps for `node`'s context ids (rewriting those arguments as derived); an
    earlier look-up that already shows the entity is reused instead of repeated. With
    `probe_call`, each new look-up also gets its probes: the other look-up tools of the kind,
    called right away on the same state (alternatives.py selects among them later). With
    `every` False, only ids the user does not hold are looked up."""
    added: list[StepRecord] = []
    n_steps = len(done)
    for arg, f in list(filled.items()):
        # one id, or a list of one ("invite ['p_k7qm2x']": the member 'Alice Usman')
        one = f.value[0] if isinstance(f.value, list) and len(f.value) == 1 else f.value
        if f.source != "context" or not f.kind or f.kind.startswith("@") \
                or not isinstance(one, str) or (not every and user_holds(one)):
            continue
        label = f.entity.label if f.entity is not None else None
        again = _reuse([*done, *added], f.kind, one, label) if label else None
        if again is not None:
            index, element, siblings = again
            filled[arg] = Filled(f.value, "derived", f.kind, f.entity, index, element,
                                 len(siblings), siblings)
            continue
        found = await _find(graph, node.server, f.kind, one, label, call, rng, stats) \
            if label else None
        entity = f.entity
        if found is None:  # "the seller of the listing 'Vespa'": found through a record
            for owner in _owners(ctx, f.kind, one, rng):  # that points at it
                found = await _find(graph, node.server, owner.kind, owner.key, owner.label,
                                    call, rng, stats, holds=(f.kind, one))
                if found is not None:
                    entity, label = owner, owner.label
                    stats["via_lookups"] = stats.get("via_lookups", 0) + 1
                    break
        if found is None:
            continue
        tool, args, result, element, siblings, candidates, tried = found
        index = n_steps + len(added)
        query = {a: Filled(label[1], "generated", None, entity) for a in args}
        added.append(StepRecord(tool, names[(tool.server, tool.name)], args, query,
                                result.payload, lookup=True))
        if probe_call is not None:
            others = [(t, a) for t, q in candidates if t.name != tool.name
                      for a in lookup_probe_args(t, q, label[1])]
            added[-1].probes = await probe(others, names, probe_call, tried)
        filled[arg] = Filled(f.value, "derived", f.kind, entity, index, element,
                             len(siblings), siblings)
        stats["lookups"] = stats.get("lookups", 0) + 1
    return added
