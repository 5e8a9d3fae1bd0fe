"""The tool dependency graph: nodes are the policy tools of every server, edges say which tool
can feed or must precede which.

  explicit  A -> B: a field of A's output (nested objects and arrays walked) has the same JSON
            type as a REQUIRED input of B and holds the same entity kind (`schemas.entity_kind`:
            for `*_id` names the name itself, role prefixes dropped). Across servers too: world
            people ('p_004') and places ('pl_0021') are shared by every server; whether a kind's
            values really cross is checked on live data when a chain uses the edge.
  implicit  A -> B: A must run first for B to act on the state the user means. Declared ones
            come from the tool's `_meta["prove/requires"]` (add_to_cart -> checkout). A generic
            rule adds read-after-write pairs: a write tool A whose result is an entity of kind K,
            and a read tool B without required inputs that lists entities of kind K
            (send_payment -> list_payments): B shows the state A changed.

Pairs matched only through a role prefix, a non-id kind (email, path, ...) or across servers
are "ambiguous"; an optional labeler (an LLM behind an OpenAI-compatible endpoint) may confirm
or drop them. The graph is cached as JSON keyed by the sha256 of the canonical tool schemas.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from prove_jax.synthesis.schemas import arg_kind, out_fields, schema_types

__all__ = ["GRAPH_VERSION", "SHARED_KINDS", "Edge", "ToolGraph", "ToolNode", "build_graph",
           "coherent", "graph_key", "load_or_build"]

GRAPH_VERSION = 3
REQUIRES_KEY = "prove/requires"
Labeler = Callable[["ToolNode", "ToolNode", "Edge"], Awaitable[str]]


@dataclass(frozen=True)
class ToolNode:
    server: str
    name: str
    description: str
    input_schema: dict
    output_schema: dict
    read_only: bool
    requires: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        return f"{self.server}.{self.name}"

    @property
    def required(self) -> list[str]:
        return list(self.input_schema.get("required") or [])

    @property
    def properties(self) -> dict[str, dict]:
        return dict(self.input_schema.get("properties") or {})


@dataclass(frozen=True)
class Edge:
    src: str  # "server.tool"
    dst: str
    kind: str  # explicit | implicit
    rule: str  # schema | requires | read_after_write
    via: tuple[tuple[str, str], ...] = ()  # (output field path, input argument)
    cross: bool = False
    ambiguous: bool = False


@dataclass
class ToolGraph:
    nodes: dict[str, ToolNode]
    edges: list[Edge]
    key: str = ""
    succ: dict[str, list[Edge]] = field(default_factory=dict, repr=False)
    pred: dict[str, list[Edge]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.succ = {k: [] for k in self.nodes}
        self.pred = {k: [] for k in self.nodes}
        for e in self.edges:
            self.succ[e.src].append(e)
            self.pred[e.dst].append(e)

    def tools_of(self, server: str) -> list[ToolNode]:
        return [n for n in self.nodes.values() if n.server == server]

    def edges_between(self, src: str, dst: str) -> list[Edge]:
        return [e for e in self.succ.get(src, []) if e.dst == dst]

    def to_json(self) -> dict:
        return {"version": GRAPH_VERSION, "key": self.key,
                "nodes": [asdict(n) for n in self.nodes.values()],
                "edges": [asdict(e) for e in self.edges]}

    @classmethod
    def from_json(cls, data: Mapping) -> ToolGraph:
        nodes = {}
        for n in data["nodes"]:
            node = ToolNode(**{**n, "requires": tuple(n["requires"])})
            nodes[node.key] = node
        edges = [Edge(**{**e, "via": tuple(tuple(v) for v in e["via"])}) for e in data["edges"]]
        return cls(nodes, edges, data.get("key", ""))


def _nodes(tools: Mapping[str, Sequence[dict]]) -> dict[str, ToolNode]:
    nodes = {}
    for server in sorted(tools):
        for t in sorted(tools[server], key=lambda t: t["name"]):
            requires = tuple((t.get("meta") or {}).get(REQUIRES_KEY) or ())
            node = ToolNode(server, t["name"], t.get("description") or "",
                            t.get("input_schema") or {}, t.get("output_schema") or {},
                            bool(t.get("read_only")), requires)
            nodes[node.key] = node
    return nodes


def _compatible(arg_schema: dict, f) -> bool:
    """Can output field f fill this argument? Same scalar type; an array argument takes
    scalars or arrays of its item type; a scalar argument takes one element of an array."""
    want = schema_types(arg_schema) - {"null"}
    if "array" in want:
        item = schema_types(arg_schema.get("items") or {})
        return bool(item & (f.types | f.item_types))
    have = f.item_types if "array" in f.types else f.types
    return bool(want & have)


def build_graph(tools: Mapping[str, Sequence[dict]]) -> ToolGraph:
    """The graph of `tools` (server -> tool metadata as `MCPManager.tool_metadata` gives it)."""
    nodes = _nodes(tools)
    producers: dict[str, list[tuple[str, object]]] = {}  # kind -> [(node key, field)]
    listed: dict[str, set[str]] = {}  # node -> kinds it lists (in arrays)
    results: dict[str, set[str]] = {}  # node -> kinds of its top-level result
    for key, node in nodes.items():
        for f in out_fields(node.output_schema):
            kind = f.kind
            if kind is None:
                continue
            producers.setdefault(kind, []).append((key, f))
            if f.in_array:
                listed.setdefault(key, set()).add(kind)
            elif len(f.path) <= 2:
                results.setdefault(key, set()).add(kind)
    edges: list[Edge] = []
    for dst, node in nodes.items():
        via: dict[str, list[tuple[str, str]]] = {}
        ambiguous: dict[str, bool] = {}
        for arg in node.required:
            schema = node.properties.get(arg, {})
            kind = arg_kind(arg, schema)
            if kind is None:
                continue
            for src, f in producers.get(kind, []):
                if src == dst or not _compatible(schema, f):
                    continue
                via.setdefault(src, []).append((".".join(f.path), arg))
                exact = f.name == arg and arg.endswith(("_id", "_ids"))
                ambiguous[src] = ambiguous.get(src, False) or not exact
        for src in sorted(via):
            cross = nodes[src].server != node.server
            edges.append(Edge(src, dst, "explicit", "schema", tuple(via[src]), cross,
                              ambiguous[src] or cross))
        for req in node.requires:
            src = f"{node.server}.{req}"
            if src in nodes:
                edges.append(Edge(src, dst, "implicit", "requires"))
    explicit = {(e.src, e.dst) for e in edges}
    for src, node in nodes.items():
        if node.read_only or not results.get(src):
            continue
        for dst, other in nodes.items():
            if (other.server != node.server or not other.read_only or other.required
                    or (src, dst) in explicit):
                continue
            if results[src] & listed.get(dst, set()):
                edges.append(Edge(src, dst, "implicit", "read_after_write"))
    edges.sort(key=lambda e: (e.src, e.dst, e.kind, e.rule))
    return ToolGraph(nodes, edges)


def graph_key(tools: Mapping[str, Sequence[dict]], labeler_name: str = "") -> str:
    """sha256 of the canonical schemas (plus the graph rules' version and any labeler)."""
    canon = {s: sorted(({"name": t["name"], "description": t.get("description") or "",
                         "input_schema": t.get("input_schema") or {},
                         "output_schema": t.get("output_schema") or {},
                         "read_only": bool(t.get("read_only")),
                         "requires": list((t.get("meta") or {}).get(REQUIRES_KEY) or ())}
                        for t in ts), key=lambda t: t["name"]) for s, ts in tools.items()}
    text = json.dumps({"version": GRAPH_VERSION, "labeler": labeler_name, "tools": canon},
                      sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


async def _label(graph: ToolGraph, labeler: Labeler) -> ToolGraph:
    kept = []
    for e in graph.edges:
        if not e.ambiguous:
            kept.append(e)
            continue
        verdict = await labeler(graph.nodes[e.src], graph.nodes[e.dst], e)
        if verdict in ("explicit", "implicit"):
            kept.append(Edge(e.src, e.dst, verdict, e.rule + "+llm", e.via, e.cross, False))
    return ToolGraph(graph.nodes, kept, graph.key)


async def load_or_build(tools: Mapping[str, Sequence[dict]], cache_dir: str | os.PathLike,
                        labeler: Labeler | None = None, labeler_name: str = ""
                        ) -> tuple[ToolGraph, bool]:
    """(graph, cache hit): the cached graph for these schemas, or a new one (then cached)."""
    key = graph_key(tools, labeler_name if labeler else "")
    path = Path(cache_dir) / f"graph_{key[:16]}.json"
    if path.exists():
        data = json.loads(path.read_text())
        if data.get("key") == key:
            return ToolGraph.from_json(data), True
    graph = build_graph(tools)
    graph.key = key
    if labeler is not None:
        graph = await _label(graph, labeler)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    # Key order is kept (not sorted): argument order in a schema is the tool's own order, and
    # a reloaded graph must behave exactly like the built one.
    tmp.write_text(json.dumps(graph.to_json(), indent=1))
    tmp.replace(path)
    return graph, False


# Kinds of value that mean the same thing on every server of a world: people's addresses,
# and the world's shared people, companies, places and meetings (servers.core.world). An
# order id of one service in another service's order tool is a name collision, not a flow.
SHARED_KINDS = frozenset(("@email", "@phone", "contact", "person", "member", "participant",
                          "attendee", "company", "place", "meeting"))
# Of those, the values good on every server as they are: addresses, and the world's places (a
# place found on maps is a destination in the car: servers/vehicle/data.py). Ids of the
# others cross only where the other server knows them (its records are its own).
WORLD_WIDE = frozenset(("@email", "@phone", "place"))


def coherent(graph: ToolGraph, e: Edge) -> bool:
    """A cross-server edge a person would follow: every value it carries is a shared kind."""
    dst = graph.nodes[e.dst]
    return e.cross and e.kind == "explicit" and bool(e.via) and all(
        arg_kind(arg, dst.properties.get(arg, {})) in SHARED_KINDS for _, arg in e.via)
