"""A look-up is what a person does to find an entity they know by name: a search by that
name where the tool can search, a full listing only where it cannot. A lister's first page
often leaves the entity out (32 places, 10 a page), so listing first lost the look-up and the
user quoted the internal id instead."""

from __future__ import annotations

import asyncio
import random

from prove_jax.synthesis.context import Context
from prove_jax.synthesis.graph import build_graph
from prove_jax.synthesis.lookups import add_lookups
from prove_jax.synthesis.records import Filled
from prove_jax.tools.manager import CallResult
from tests.synthesis.toy import _tool

PLACE = {"type": "object", "properties": {"place_id": {"type": "string"},
                                          "name": {"type": "string"}}}
PAGE = {"type": "object", "properties": {"places": {"type": "array", "items": PLACE}}}
PLACES = [{"place_id": f"pl_{k}", "name": f"Cafe {k}"} for k in range(30)]
TOOLS = {"maps": [
    _tool("search_places", True, {"query": {"type": "string", "description": "Words"},
                                  "limit": {"type": "integer"}}, [], PAGE, "Search places."),
    _tool("save_place", False, {"place_id": {"type": "string", "description": "Place id"}},
          ["place_id"], PLACE, "Save a place."),
]}


def _search(node, args):  # a first page of 10; a query matches names
    q = args.get("query", "").lower()
    found = [p for p in PLACES if q in p["name"].lower()] if q else PLACES[:10]
    return CallResult("maps", node.name, True, {"places": found})


def _lookup(target: dict) -> tuple[list, list, dict]:
    graph = build_graph(TOOLS)
    ctx = Context("maps", 0)
    ctx.add("search_places", {"places": PLACES}, listed=True)
    entity = ctx.entity("place", target["place_id"])
    filled = {"place_id": Filled(target["place_id"], "context", "place", entity)}
    calls = []

    async def call(node, args):
        calls.append((node.name, args))
        return _search(node, args)

    names = {("maps", t["name"]): t["name"] for t in TOOLS["maps"]}
    stats: dict = {}
    added = asyncio.run(add_lookups(graph, graph.nodes["maps.save_place"], filled, [], ctx,
                                    names, call, random.Random(0), stats))
    return added, calls, filled


def test_a_look_up_searches_by_the_name_before_listing_everything():
    added, calls, filled = _lookup(PLACES[23])  # not on the first page
    assert calls[0] == ("search_places", {"query": "Cafe 23"})
    assert [(s.name, s.args) for s in added] == [("search_places", {"query": "Cafe 23"})]
    assert filled["place_id"].source == "derived" and filled["place_id"].from_step == 0


def test_a_name_that_does_not_single_the_entity_out_gives_no_look_up():
    # the search for 'Cafe 2' also returns Cafe 20..29, whose names differ: the look-up stands
    added, _, _ = _lookup(PLACES[2])
    assert [s.args for s in added] == [{"query": "Cafe 2"}]
    # a namesake on the search results and on the first page: nothing tells them apart
    PLACES.insert(0, {"place_id": "pl_twin", "name": "Cafe 2"})
    try:
        added, calls, filled = _lookup(PLACES[3])
        assert added == [] and filled["place_id"].source == "context"
        assert calls == [("search_places", {"query": "Cafe 2"}), ("search_places", {})]
    finally:
        PLACES.pop(0)


def test_a_list_of_one_entity_is_named_and_looked_up_like_one_value():
    graph = build_graph(TOOLS)
    ctx = Context("maps", 0)
    ctx.add("search_places", {"places": PLACES}, listed=True)
    target = PLACES[23]
    filled = {"place_id": Filled([target["place_id"]], "context", "place",
                                 ctx.entity("place", target["place_id"]))}

    async def call(node, args):
        return _search(node, args)

    names = {("maps", t["name"]): t["name"] for t in TOOLS["maps"]}
    added = asyncio.run(add_lookups(graph, graph.nodes["maps.save_place"], filled, [], ctx,
                                    names, call, random.Random(0), {}))
    assert [s.args for s in added] == [{"query": "Cafe 23"}]
    f = filled["place_id"]
    assert (f.source, f.value, f.from_step) == ("derived", [target["place_id"]], 0)
