"""Each state of the synthesis state machine on a toy world with scripted outcomes:
QUERY (plan), TURN (propose; malformed proposals regenerated), EXECUTE (success / partial /
failure), RESPONSE (retry with corrected arguments, switch tool, give up), CONTINUATION
(follow-up turns, clarification, abstention, truncation)."""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter

from prove_jax.synthesis import phrases
from prove_jax.synthesis.dialogue import shape
from prove_jax.synthesis.graph import Edge, ToolGraph
from prove_jax.synthesis.machine import (
    Outcome,
    Phase,
    _implicit_deps,
    execute_chain,
    payload_empty,
)
from prove_jax.synthesis.plan import sample_plan, sample_turns
from prove_jax.tools.manager import CallResult
from tests.synthesis import toy


def _run(chain, manager=None, info="complete", c=None, seed=0):
    c = c or toy.cfg()
    manager = manager or toy.ScriptedManager()
    run = asyncio.run(execute_chain(toy.plan(chain, info=info), toy.graph(), c, toy.filler(c),
                                    manager, toy.Episode(), {"toy": toy.context()}, toy.NAMES,
                                    random.Random(seed)))
    return run, manager


def test_query_state_plans_from_the_example_rng():
    g, c = toy.graph(), toy.cfg(p_unsatisfiable=0.0, p_missing_function=0.0)
    a = sample_plan(7, c, g, ["toy"], random.Random("x"), len(phrases.PERSONAS))
    b = sample_plan(7, c, g, ["toy"], random.Random("x"), len(phrases.PERSONAS))
    assert a == b and a.variant == "chain" and 2 <= len(a.chain) <= 5
    assert all(k in g.nodes for k in a.chain)
    assert all(any(e.dst == k for j in a.chain[:i] for e in g.succ[j])
               for i, k in enumerate(a.chain) if i)  # every next tool follows an edge
    counts = Counter(sample_turns(random.Random(i), 2, 3, 0.5) for i in range(3000))
    assert set(counts) == {2, 3} and 0.6 < counts[2] / 3000 < 0.73  # P(2) = 1 / 1.5


def test_success_path_records_real_outputs_and_edges():
    run, _ = _run(["list_items", "archive_item"])
    assert [s.name for s in run.steps] == ["list_items", "archive_item"]
    archive = run.steps[1]
    item = archive.filled["item_id"]
    assert item.source == "derived" and item.from_step == 0 and item.siblings == 3
    assert archive.deps == [0] and archive.args["item_id"] in {i["item_id"] for i in toy.ITEMS}
    # the description says "active": over many draws, active items are strongly preferred
    picks = Counter(_run(["list_items", "archive_item"], seed=s)[0].steps[1].args["item_id"]
                    for s in range(40))
    assert picks["i_3"] < 8
    assert archive.payload == toy.ok("archive_item", archive.args).payload
    assert run.trace[:4] == [Phase.QUERY, Phase.TURN, Phase.EXECUTE, Phase.RESPONSE]
    assert run.trace[-1] == Phase.CONTINUATION


def test_turn_regenerates_malformed_proposals():
    class Sloppy(toy.filler().__class__):
        first = True

        def fill(self, node, *a, **k):
            out = super().fill(node, *a, **k)
            if node.name == "archive_item" and Sloppy.first:
                Sloppy.first = False
                out["note"].value = "x" * 100  # longer than the schema allows
            return out

    c = toy.cfg()
    run = asyncio.run(execute_chain(toy.plan(["get_item", "archive_item"]), toy.graph(), c,
                                    Sloppy(toy.graph(), c.today, 0.0), toy.ScriptedManager(),
                                    toy.Episode(), {"toy": toy.context()}, toy.NAMES,
                                    random.Random(0)))
    assert run.stats["regenerated"] == 1
    assert len(run.steps[-1].args["note"]) <= 40


def test_failure_is_retried_with_corrected_arguments():
    mgr = toy.ScriptedManager({"archive_item": [toy.fail("archive_item"),
                                                lambda a: toy.ok("archive_item", a)]})
    run, _ = _run(["list_items", "archive_item"], mgr)
    tried = [args["item_id"] for tool, args in mgr.calls if tool == "archive_item"]
    assert len(tried) == 2 and tried[0] != tried[1]  # the failed value is not proposed again
    assert run.stats["failed_calls"] == 1 and run.stats["retries"] == 1
    assert [s.name for s in run.steps] == ["list_items", "archive_item"]  # no failed call
    assert run.steps[1].args["item_id"] == tried[1]


def test_partial_read_is_retried_but_a_write_is_kept():
    mgr = toy.ScriptedManager({"find_items": [toy.empty("find_items"),
                                              lambda a: toy.ok("find_items", a)]})
    run, _ = _run(["find_items", "archive_item"], mgr)
    assert run.stats["partial_retries"] == 1 and payload_empty({"items": []})
    assert run.steps[0].payload["items"]  # the kept look-up found something
    # a write that ran changed the state: whatever it returned, it is not retried
    mgr = toy.ScriptedManager({"archive_item": [toy.empty("archive_item")]})
    run, mgr = _run(["archive_item", "list_items"], mgr)
    assert sum(t == "archive_item" for t, _ in mgr.calls) == 1
    assert run.steps[0].name == "archive_item" and "partial_retries" not in run.stats
    assert {o.value for o in Outcome} == {"success", "partial", "failure"}


def test_switch_to_another_tool_then_give_up():
    mgr = toy.ScriptedManager({"get_item": [toy.fail("get_item")]})
    run, _ = _run(["list_items", "get_item"], mgr)
    assert run.stats["switched_tool"] == 1
    assert run.steps[0].name == "list_items" and run.steps[1].name != "get_item"
    everything = {t["name"]: [toy.fail(t["name"])] for t in toy.TOOLS["toy"]}
    run, mgr = _run(["list_items", "get_item"], toy.ScriptedManager(everything))
    assert run.stats["gave_up"] == 1 and run.steps == []
    # bounded, never forever: the planned tool and two others, each with its retries
    assert len(mgr.calls) <= 3 * (toy.cfg().max_retries + 1)
    assert len({t for t, _ in mgr.calls}) == 3


def test_minimal_level_adds_a_lookup_with_an_edge():
    run, _ = _run(["archive_item", "get_item"], info="minimal", seed=3)
    lookups = [i for i, s in enumerate(run.steps) if s.lookup]
    assert lookups, [s.name for s in run.steps]
    i = lookups[0]
    consumer = run.steps[i + 1]
    assert consumer.filled["item_id"].from_step == i and i in consumer.deps
    label = consumer.filled["item_id"].entity.label[1]
    # the look-up really lists the entity, and its query (if any) is the name the user says
    assert any(it["item_id"] == consumer.args["item_id"] for it in run.steps[i].payload["items"])
    assert run.steps[i].args in ({}, {"query": label})


def _steps(chain=("list_items", "archive_item", "get_item")):
    run, _ = _run(list(chain), seed=1)
    assert len(run.steps) == 3
    return run.steps


def test_continuation_follow_up_turns():
    shaped = shape(toy.plan([], n_turns=3), _steps(), 2, 3, random.Random(0), ["toy"],
                   "2026-06-15")
    assert shaped.kind == "normal" and len(shaped.spec.turns) == 3
    assert [t.role for t in shaped.spec.turns] == ["request"] * 3
    assert shaped.step_turn == [0, 1, 2] and shaped.spec.turns[1].follow_up


def test_continuation_clarification_turn():
    shaped = shape(toy.plan([], info="missing", missing_first=True, n_turns=2), _steps(), 2, 3,
                   random.Random(0), ["toy"], "2026-06-15")
    assert shaped.kind == "clarification" and [t.role for t in shaped.spec.turns] == \
        ["request", "supply"]
    gap = shaped.gap
    withheld = [a for s in shaped.spec.turns[0].steps for a in s.args if a.how == "withheld"]
    assert [a.arg for a in withheld] == [gap["arg"]]
    assert shaped.spec.turns[1].supply.value == gap["value"]
    # mid-conversation variant: the follow-up lacks the value, the next turn gives it
    steps = _steps(("list_items", "get_item", "archive_item"))  # the last part has a note
    shaped = shape(toy.plan([], info="missing", missing_first=False, n_turns=3), steps, 2,
                   3, random.Random(0), ["toy"], "2026-06-15")
    assert shaped.kind == "normal" and shaped.info == "missing_followup"
    assert [t.role for t in shaped.spec.turns] == ["request", "request", "supply"]


def test_continuation_missing_function_hides_only_an_action_and_too_short():
    steps = _steps()  # list_items (a read), archive_item (an action), get_item (a read)
    # a read is not hidden: another offered read may answer it in part, so refusing would
    # be wrong; the action after it is hidden instead, asked for after the truth's steps
    first = shape(toy.plan([], variant="missing_function", hide_pos=0), steps, 2, 3,
                  random.Random(0), ["toy"], "2026-06-15")
    assert first.kind == "normal" and first.hidden == "toy.archive_item"
    assert [s.name for s in first.steps] == ["list_items"]
    assert first.spec.turns[-1].steps[0].tool == "archive_item"  # asked for, not in the truth
    assert shape(toy.plan([], variant="missing_function", hide_pos=2), steps, 2, 3,
                 random.Random(0), ["toy"], "2026-06-15") == "hidden_tool_reads"
    act = _run(["archive_item", "list_items", "get_item"], seed=1)[0].steps  # action first
    refused = shape(toy.plan([], variant="missing_function", hide_pos=0), act, 2, 3,
                    random.Random(0), ["toy"], "2026-06-15")
    assert refused.kind == "abstention" and refused.steps == []
    assert refused.hidden == "toy.archive_item"
    assert [t.role for t in refused.spec.turns] == ["request", "insist"]
    assert shape(toy.plan([]), steps[:1], 2, 3, random.Random(0), ["toy"],
                 "2026-06-15") == "chain_too_short"


def test_scripted_results_are_call_results():
    assert isinstance(toy.ok("get_item", {"item_id": "i_2"}), CallResult)


def test_read_after_write_edge_only_when_the_read_observes_the_write():
    # archive_item -> list_items is a read-after-write pair of the graph; list_items takes no
    # value from it, so the edge stands only when the list shows the archived item
    g = toy.graph()
    assert [e.rule for e in g.edges_between("toy.archive_item", "toy.list_items")] == \
        ["read_after_write"]
    run, _ = _run(["archive_item", "list_items"])
    assert [s.name for s in run.steps] == ["archive_item", "list_items"]
    archived = run.steps[0].args["item_id"]
    assert archived in {i["item_id"] for i in run.steps[1].payload["items"]}
    assert run.steps[1].deps == [0]
    node = g.nodes["toy.list_items"]
    others = {"items": [i for i in toy.ITEMS if i["item_id"] != archived]}
    assert others["items"] and _implicit_deps(g, run.steps[:1], node, others) == set()
    # a `requires` precondition is an edge whatever the read shows (data edges: see the
    # success-path test)
    g = ToolGraph(g.nodes, [*g.edges, Edge("toy.archive_item", "toy.list_items", "implicit",
                                           "requires")])
    assert _implicit_deps(g, run.steps[:1], node, others) == {0}


def _live(server: str, chain: list[str], seed: int = 0):
    """`chain` run by the machine on a live session of `server` (in-process, world `seed`)."""
    from prove_jax.synthesis.context import build_context
    from prove_jax.synthesis.graph import build_graph
    from prove_jax.synthesis.routes import exposed_names
    from prove_jax.synthesis.values import ValueFiller
    from prove_jax.tools.manager import MCPManager, ServerSpec

    async def go():
        async with MCPManager([ServerSpec(server, "inprocess")]) as mgr:
            graph = build_graph({server: mgr.tool_metadata(server)})
            c = toy.cfg()
            ctx = await build_context(mgr, graph, server, seed, random.Random(1))
            plan = toy.plan([], server=server, servers=[server], world_seed=seed)
            plan.chain = [f"{server}.{t}" for t in chain]
            episode = await mgr.open_episode([server], seed)
            try:
                run = await execute_chain(plan, graph, c, ValueFiller(graph, c.today, 0.0),
                                          mgr, episode, {server: ctx},
                                          exposed_names(mgr, [server]), random.Random(0))
            finally:
                await mgr.close_episode(episode)
            return graph, run
    return asyncio.run(go())


def test_read_after_write_edge_kept_when_the_read_shows_the_written_entity():
    # payments: the user pays a request, then lists payments: the list shows the payment
    # the write made (a model that lists first sees a stale list)
    graph, run = _live("payments", ["respond_to_request", "list_payments"])
    assert [e.rule for e in graph.edges_between("payments.respond_to_request",
                                                "payments.list_payments")] == \
        ["read_after_write"]
    # the request's internal id is found by a look-up first (users do not quote 'req_...')
    find, pay, listing = run.steps
    assert [s.name for s in run.steps] == ["list_payment_requests", "respond_to_request",
                                           "list_payments"] and find.lookup
    assert pay.args["action"] == "pay" and pay.payload["payment_id"] == "pay_kwdffx"
    assert listing.payload["payments"][0]["payment_id"] == "pay_kwdffx"
    assert listing.payload["payments"][0]["created_at"] == "2026-06-15T12:01+02:00"  # now
    assert pay.deps == [0] and listing.deps == [1]


def test_no_read_after_write_edge_when_the_read_shows_other_entities():
    # food delivery: a cart line is no order; the orders listed (placed before) show neither
    # the item added nor the cart's restaurant
    graph, run = _live("food_delivery", ["add_to_cart", "list_orders"])
    assert [e.rule for e in graph.edges_between("food_delivery.add_to_cart",
                                                "food_delivery.list_orders")] == \
        ["read_after_write"]
    add, orders = run.steps
    assert [s.name for s in run.steps] == ["add_to_cart", "list_orders"]
    item, restaurant = add.args["item_id"], add.payload["restaurant_id"]
    assert item.startswith("itm_") and restaurant.startswith("rst_")
    shown = json.dumps(orders.payload)
    assert len(orders.payload["orders"]) >= 3
    assert item not in shown and restaurant not in shown
    assert orders.deps == []


def test_an_action_another_offered_tool_can_do_is_never_hidden(monkeypatch):
    from prove_jax.synthesis import dialogue
    from servers.registry import load_domain

    for key in dialogue.REPLACEABLE:  # every entry is a real tool
        server, tool = key.split(".")
        assert tool in load_domain(server).tools, key
    monkeypatch.setattr(dialogue, "REPLACEABLE", frozenset({"toy.archive_item"}))
    steps = _steps()  # list_items, archive_item, get_item: the one action has a substitute
    assert shape(toy.plan([], variant="missing_function", hide_pos=0), steps, 2, 3,
                 random.Random(0), ["toy"], "2026-06-15") == "hidden_tool_replaceable"
