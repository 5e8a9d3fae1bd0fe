"""The dependency graph: explicit edges by name, type and entity kind; implicit edges from
declared preconditions and the read-after-write rule; the schema-hash cache."""

from __future__ import annotations

import asyncio
import json

import pytest

from prove_jax.synthesis.graph import build_graph, graph_key, load_or_build
from prove_jax.tools.manager import MCPManager, ServerSpec
from tests.synthesis.common import SERVERS


@pytest.fixture(scope="module")
def tools():
    async def fetch():
        async with MCPManager([ServerSpec(s, "inprocess") for s in SERVERS]) as mgr:
            return {s: mgr.tool_metadata(s) for s in SERVERS}
    return asyncio.run(fetch())


@pytest.fixture(scope="module")
def graph(tools):
    return build_graph(tools)


def _edges(graph, src, dst):
    return {(e.kind, e.rule) for e in graph.edges_between(src, dst)}


def test_tool_metadata_has_output_schemas_and_requires(tools):
    pay = {t["name"]: t for t in tools["payments"]}
    assert len(pay) == 10 and not any(n.startswith("_") for n in pay)
    assert pay["get_wallet"]["read_only"] and not pay["send_payment"]["read_only"]
    assert "payment_id" in pay["send_payment"]["output_schema"]["properties"]
    shop = {t["name"]: t for t in tools["shopping"]}
    assert shop["checkout"]["meta"]["prove/requires"] == ["add_to_cart"]


def test_explicit_edge_by_name_type_and_kind(graph):
    [edge] = [e for e in graph.edges_between("payments.search_contacts", "payments.send_payment")]
    assert edge.kind == "explicit" and ("contacts.[].contact_id", "contact_id") in edge.via
    # a role prefix names the role, not another kind: list_accounts feeds from_account_id
    via = {v for e in graph.edges_between("banking.list_accounts",
                                          "banking.transfer_between_accounts") for v in e.via}
    assert ("accounts.[].account_id", "from_account_id") in via
    assert ("accounts.[].account_id", "to_account_id") in via
    # plural ids take single ids: get_order's items feed request_return's item_ids
    via = {v for e in graph.edges_between("shopping.get_order", "shopping.request_return")
           for v in e.via}
    assert ("items.[].item_id", "item_ids") in via


def test_no_edge_between_different_kinds(graph):
    # an email address is not an email id; a payment id does not feed a contact id
    assert not graph.edges_between("payments.search_contacts", "email.get_email")
    assert not _edges(graph, "payments.get_payment", "payments.send_payment") & {
        ("explicit", "schema")}
    # only REQUIRED inputs make explicit edges: list_payments' optional contact_id does not
    assert not graph.edges_between("payments.search_contacts", "payments.list_payments")


def test_implicit_edges(graph):
    assert ("implicit", "requires") in _edges(graph, "shopping.add_to_cart", "shopping.checkout")
    assert ("implicit", "read_after_write") in _edges(graph, "payments.send_payment",
                                                      "payments.list_payments")
    # read-after-write needs a reader without required inputs that lists the written kind
    assert not _edges(graph, "payments.send_payment", "payments.search_contacts")


def test_cross_server_edges_are_marked(graph):
    cross = [e for e in graph.edges if e.cross]
    assert cross and all(graph.nodes[e.src].server != graph.nodes[e.dst].server for e in cross)
    # people's email addresses feed calendar invitations
    assert any(e.src.startswith("email.") and e.dst == "calendar.add_attendees" for e in cross)


def test_graph_round_trips_through_json(graph):
    again = type(graph).from_json(json.loads(json.dumps(graph.to_json())))
    assert again.edges == graph.edges and again.nodes == graph.nodes
    for key, node in graph.nodes.items():  # argument order survives (fill order depends on it)
        assert list(again.nodes[key].properties) == list(node.properties)


def test_cache_hit_and_miss_by_schema_hash(tools, tmp_path):
    first, hit = asyncio.run(load_or_build(tools, tmp_path))
    assert not hit and len(list(tmp_path.glob("graph_*.json"))) == 1
    second, hit = asyncio.run(load_or_build(tools, tmp_path))
    assert hit and second.edges == first.edges and second.key == first.key
    assert all(list(second.nodes[k].properties) == list(n.properties)
               for k, n in first.nodes.items())
    changed = {s: [dict(t) for t in ts] for s, ts in tools.items()}
    changed["payments"][0]["description"] += " (changed)"
    assert graph_key(changed) != graph_key(tools)
    _, hit = asyncio.run(load_or_build(changed, tmp_path))
    assert not hit and len(list(tmp_path.glob("graph_*.json"))) == 2


def test_labeler_drops_or_confirms_ambiguous_edges(tools, tmp_path):
    async def labeler(src, dst, edge):
        return "none" if edge.cross else "explicit"

    plain, _ = asyncio.run(load_or_build(tools, tmp_path / "a"))
    labeled, hit = asyncio.run(load_or_build(tools, tmp_path / "b", labeler, "fake"))
    assert not hit
    assert not any(e.cross for e in labeled.edges) and any(e.cross for e in plain.edges)
    assert all(not e.ambiguous for e in labeled.edges)
