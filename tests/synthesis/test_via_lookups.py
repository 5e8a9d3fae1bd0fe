"""An entity no tool finds by its own name is named through a record that points at it: no
marketplace tool lists sellers, so the user says "the seller of the listing 'Vespa'" and the
truth searches the listing (issue 23: users name what they know, not 'p_k7qm2x'). The
resolution check reads such a name back to the seller it means."""

from __future__ import annotations

import asyncio
import random

from prove_jax.synthesis.context import Context
from prove_jax.synthesis.dialogue import arg_spec
from prove_jax.synthesis.graph import build_graph
from prove_jax.synthesis.lookups import add_lookups
from prove_jax.synthesis.records import Filled
from prove_jax.synthesis.resolution import meanings
from prove_jax.synthesis.verbalize import slot_text
from prove_jax.tools.manager import CallResult
from tests.synthesis.toy import _tool

LISTING = {"type": "object", "properties": {"listing_id": {"type": "string"},
                                            "title": {"type": "string"},
                                            "seller_id": {"type": "string"}}}
PAGE = {"type": "object", "properties": {"listings": {"type": "array", "items": LISTING}}}
TOOLS = {"marketplace": [
    _tool("search_listings", True, {"query": {"type": "string", "description": "Words"}}, [],
          PAGE, "Search listings."),
    _tool("get_seller_profile", True, {"seller_id": {"type": "string"}}, ["seller_id"],
          {"type": "object"}, "A seller's profile."),
]}
SELLER, OTHER = "p_k7qm2x", "p_r4tw9b"
LISTINGS = [{"listing_id": "lst_aaaaa1", "title": "Vespa Primavera", "seller_id": SELLER},
            {"listing_id": "lst_aaaaa2", "title": "Standing desk", "seller_id": OTHER},
            {"listing_id": "lst_aaaaa3", "title": "Vespa Primavera helmet", "seller_id": OTHER}]


def _run(listings: list[dict]):
    graph = build_graph(TOOLS)
    ctx = Context("marketplace", 0)
    ctx.add("search_listings", {"listings": listings}, listed=True)
    assert ctx.entity("seller", SELLER) is None  # nothing lists sellers themselves
    filled = {"seller_id": Filled(SELLER, "context", "seller", None)}
    calls = []

    async def call(node, args):
        calls.append((node.name, args))
        q = args.get("query", "").lower()
        return CallResult("marketplace", node.name, True,
                          {"listings": [x for x in listings if q in x["title"].lower()]})

    names = {("marketplace", t["name"]): t["name"] for t in TOOLS["marketplace"]}
    stats: dict = {}
    added = asyncio.run(add_lookups(graph, graph.nodes["marketplace.get_seller_profile"],
                                    filled, [], ctx, names, call, random.Random(0), stats))
    return added, calls, filled, stats


def test_a_seller_is_named_by_the_listing_that_points_at_it():
    added, calls, filled, stats = _run(LISTINGS)
    assert calls == [("search_listings", {"query": "Vespa Primavera"})]
    assert [s.lookup for s in added] == [True] and stats["via_lookups"] == 1
    f = filled["seller_id"]
    assert (f.source, f.value, f.from_step, f.entity.kind) == ("derived", SELLER, 0, "listing")
    spec = arg_spec("seller_id", f, added)
    assert (spec.how, spec.kind, spec.via, spec.label) == \
        ("entity", "seller", "listing", "Vespa Primavera")
    assert slot_text(spec, random.Random(0)) == "the seller of the listing 'Vespa Primavera'"
    # read back from what the look-up showed, it means this seller and no other
    assert meanings(spec, added, 1) == {SELLER}


def test_a_listing_that_names_two_sellers_of_the_kind_is_no_way_to_name_one():
    twice = [{**LISTINGS[0], "seller_id": [SELLER, OTHER]}, *LISTINGS[1:]]
    added, calls, filled, _ = _run(twice)
    assert added == [] and calls == [] and filled["seller_id"].source == "context"
