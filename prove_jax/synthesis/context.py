"""Live-state sampling: what really exists in a world, gathered through the tools themselves.

For one (server, world seed) a fresh session is opened; every read-only tool without required
arguments is called, then read-only "get" tools (one required reference argument) on a sample
of the ids found. Every record in the results (a dict with an id-like key) becomes an entity;
entities are merged across tools and kept only when they carry enough data. Field values are
pooled by name and by entity kind so that arguments can be filled with values that exist.
The context is built once per (server, world seed) and shared by that block's conversations.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from prove_jax.synthesis.graph import ToolGraph
from prove_jax.synthesis.schemas import (
    arg_kind,
    entity_kind,
    key_of,
    label_of,
    record_fields,
    walk_records,
)

__all__ = ["Context", "Entity", "build_context"]

# "Enough supporting data": an entity needs this many non-null scalar fields, and none of
# these quantities may be zero (an empty account or an out-of-stock item makes a poor query).
MIN_FIELDS = 3
NONZERO = ("balance", "available_balance", "stock", "points", "cash", "buying_power")


@dataclass
class Entity:
    kind: str
    key: str
    key_field: str
    fields: dict[str, Any]
    sources: list[str] = field(default_factory=list)

    @property
    def label(self) -> tuple[str, str] | None:
        return label_of(self.fields)


@dataclass
class Context:
    server: str
    seed: int
    entities: dict[str, dict[str, Entity]] = field(default_factory=dict)  # kind -> key -> e
    by_name: dict[str, list[Any]] = field(default_factory=dict)  # field name -> values seen
    by_kind: dict[str, list[Any]] = field(default_factory=dict)  # kind -> values seen
    listers: dict[str, dict[str, list[str]]] = field(default_factory=dict)  # kind->tool->keys
    calls: int = 0
    filtered: int = 0

    # ---------------------------------------------------------------- building
    def _pool(self, pools: dict[str, list[Any]], name: str, value: Any) -> None:
        if isinstance(value, (str, int, float)) and not isinstance(value, bool) and value != "":
            seen = pools.setdefault(name, [])
            if value not in seen:
                seen.append(value)

    def _values(self, payload: Any) -> None:
        """Pool every named scalar (and every scalar inside a list of scalars)."""
        if isinstance(payload, dict):
            for name, value in payload.items():
                if isinstance(value, (dict, list)) and not _scalars(value):
                    self._values(value)
                    continue
                kind = entity_kind(name)
                for v in value if isinstance(value, list) else [value]:
                    self._pool(self.by_name, name, v)
                    if kind:
                        self._pool(self.by_kind, kind, v)
        elif isinstance(payload, list):
            for value in payload:
                self._values(value)

    def add(self, tool: str, payload: Any, listed: bool) -> None:
        self._values(payload)
        for record in walk_records(payload):
            key_field, kind = key_of(record)
            key = record[key_field]
            ent = self.entities.setdefault(kind, {}).get(key)
            fields = record_fields(record)
            if ent is None:
                ent = Entity(kind, key, key_field, fields)
                self.entities[kind][key] = ent
            else:
                ent.fields = {**fields, **ent.fields}
            if tool not in ent.sources:
                ent.sources.append(tool)
            if listed:
                keys = self.listers.setdefault(kind, {}).setdefault(tool, [])
                if key not in keys:
                    keys.append(key)

    def prune(self) -> None:
        for kind in list(self.entities):
            kept = {}
            for key, ent in self.entities[kind].items():
                full = sum(v is not None and v != "" for v in ent.fields.values())
                empty = any(ent.fields.get(f) == 0 for f in NONZERO)
                # an id and a name are enough to name it by (a watchlist 'Main')
                if (full >= MIN_FIELDS or ent.label is not None) and not empty:
                    kept[key] = ent
                else:
                    self.filtered += 1
            self.entities[kind] = kept

    # ---------------------------------------------------------------- queries
    @property
    def currency(self) -> str | None:
        """The currency the server's outputs name most often (every money field carries one),
        or None where nothing names a currency."""
        seen = [v for v in self.by_name.get("currency", []) if isinstance(v, str)]
        return max(sorted(set(seen)), key=seen.count) if seen else None

    def entity(self, kind: str, key: Any) -> Entity | None:
        return self.entities.get(kind, {}).get(key) if isinstance(key, str) else None

    def keys(self, kind: str) -> list[str]:
        return list(self.entities.get(kind, {}))

    def owner(self, value: Any) -> Entity | None:
        """The entity whose key is `value`, of any kind (ids are unique within a server)."""
        if not isinstance(value, str):
            return None
        for kind in self.entities:
            ent = self.entities[kind].get(value)
            if ent is not None:
                return ent
        return None

    def knows(self, kind: str, value: Any) -> bool:
        return value in self.by_kind.get(kind, ()) or self.entity(kind, value) is not None


def _scalars(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, (str, int, float)) for v in value)


async def build_context(manager: Any, graph: ToolGraph, server: str, seed: int,
                        rng: random.Random, get_per_kind: int = 3) -> Context:
    """Sample the live state of `server` in world `seed` on a fresh session."""
    ctx = Context(server, seed)
    episode = await manager.open_episode([server], seed)
    try:
        nodes = sorted(graph.tools_of(server), key=lambda n: n.name)
        for node in nodes:
            if node.read_only and not node.required:
                result = await manager.call(episode, node.name, {})
                ctx.calls += 1
                if result.ok:
                    ctx.add(node.name, result.payload, listed=True)
        for node in nodes:
            if not node.read_only or len(node.required) != 1:
                continue
            arg = node.required[0]
            kind = arg_kind(arg, node.properties.get(arg, {}))
            # ids only: value kinds (paths, emails) are many and their get-tools add little
            keys = ctx.keys(kind) if kind and not kind.startswith("@") else []
            for key in rng.sample(keys, min(get_per_kind, len(keys))):
                result = await manager.call(episode, node.name, {arg: key})
                ctx.calls += 1
                if result.ok:
                    ctx.add(node.name, result.payload, listed=False)
    finally:
        await manager.close_episode(episode)
    ctx.prune()
    return ctx
