"""Cross-server chains only along values every server of a world shares (issue 23, item 5):
people's addresses, the world's people, companies, places and meetings; never an order id of
one service fed to another service's order tool."""

from __future__ import annotations

from prove_jax.synthesis.graph import ToolGraph, build_graph
from prove_jax.synthesis.plan import coherent
from servers.registry import load_domain

WORLD_PREFIXES = ("p_", "co_", "pl_", "mtg_")


def _graph(servers: tuple[str, ...]) -> ToolGraph:
    """The dependency graph of `servers`, from their registered tools (no session needed)."""
    tools = {s: [{"name": t.name, "description": t.description, "input_schema": t.input_schema,
                  "output_schema": t.output_schema, "read_only": t.read_only}
                 for t in load_domain(s).tools.values()] for s in servers}
    return build_graph(tools)


def test_only_edges_carrying_shared_kinds_are_coherent():
    graph = _graph(("email", "calendar", "shopping", "food_delivery", "maps", "banking"))
    cross = [e for e in graph.edges if e.cross and e.kind == "explicit"]
    good = [e for e in cross if coherent(graph, e)]
    assert good and len(good) < len(cross)
    # an email address found in a message, used to invite someone in the calendar: coherent
    assert any(e.src.startswith("email.") and e.dst.startswith("calendar.") for e in good)
    # a food order id is no shop order (the two services' ids only share a field name)
    orders = [e for e in cross if any(a.endswith("order_id") for _, a in e.via)]
    assert orders and not any(coherent(graph, e) for e in orders)


def test_a_cross_server_flow_carries_an_address_or_a_shared_entity(dataset):
    flows = 0
    for conv in dataset.kept:
        for step in conv.steps:
            for arg, f in step.filled.items():
                if f.source != "derived" or conv.steps[f.from_step].node.server == \
                        step.node.server:
                    continue
                flows += 1
                for v in f.value if isinstance(f.value, list) else [f.value]:
                    assert "@" in v or v.startswith(WORLD_PREFIXES), (conv.plan.id, arg, v)
    assert flows > 0
