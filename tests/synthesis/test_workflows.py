"""Goal-coherent chains (issue 23 item 1): workflow patterns over every server, each one a
story whose cross-server step follows a shared person, place or meeting; a synthesized run
draws them and keeps their order in the truth."""

from __future__ import annotations

import json
import random

from prove_jax.synthesis.workflows import WORKFLOWS, _walkable, draw_workflow, patterns_for
from servers.registry import TOOL_COUNTS
from tests.synthesis.test_cross_server import _graph

GRAPH = _graph(tuple(sorted(TOOL_COUNTS)))


def test_every_pattern_can_be_drawn_and_every_server_has_goals():
    assert all(t in GRAPH.nodes for tools in WORKFLOWS.values() for t in tools)
    assert all(_walkable(GRAPH, tools) for tools in WORKFLOWS.values())
    for server in TOOL_COUNTS:
        assert len(patterns_for(GRAPH, server, None, 5)) >= 2, server


def test_a_cross_server_pattern_needs_a_coherent_edge_and_its_partner():
    # a meeting found in the calendar and emailed to nobody in particular: two chains
    assert not _walkable(GRAPH, ("calendar.get_event", "email.send_email"))
    assert _walkable(GRAPH, ("crm.get_contact", "email.send_email"))
    assert "email a contact" not in patterns_for(GRAPH, "crm", None, 5)
    assert "email a contact" in patterns_for(GRAPH, "crm", "email", 5)
    assert "email a contact" not in patterns_for(GRAPH, "crm", "email", 2)  # too long
    goals = {draw_workflow(GRAPH, "crm", "email", 5, random.Random(s))[0] for s in range(40)}
    assert {"email a contact", "log a call"} <= goals


def test_a_run_follows_its_goals_in_order(dataset):
    metas = [json.loads(line) for line in dataset.paths["meta.jsonl"].read_text().splitlines()]
    goals = [m for m in metas if m["goal"]]
    assert len(goals) >= len(metas) // 4
    whole = 0
    for m in goals:
        pattern = list(WORKFLOWS[m["goal"]])
        # the goal's own tools in its order, look-ups between; a story whose action fails
        # ends there (a prefix), it never wanders off to another tool
        # (a look-up may use one of its tools too: each counts once)
        done = list(dict.fromkeys(k for k in m["chain"] if k in pattern))
        assert done == pattern[:len(done)] and done, (m["goal"], m["chain"])
        whole += done == pattern
    assert whole >= len(goals) // 2


def test_a_share_outside_zero_to_one_is_refused_by_name():
    import pytest

    from prove_jax.synthesis.settings import SynthConfig

    with pytest.raises(ValueError, match=r"p_workflow=1\.5"):
        SynthConfig(p_workflow=1.5)
    with pytest.raises(ValueError, match=r"missing_first_turn=-0\.1"):
        SynthConfig(missing_first_turn=-0.1)
    assert SynthConfig(p_workflow=0.0).p_workflow == 0.0
    with pytest.raises(ValueError, match=r"drop_internal_ids must be True or False, got 'no'"):
        SynthConfig(drop_internal_ids="no")
    with pytest.raises(ValueError, match=r"kind_mix_slack in \[0, 1\], got True, 2"):
        SynthConfig(kind_mix_slack=2)
    with pytest.raises(ValueError, match=r"enforce_kind_mix must be True or False.*'yes'"):
        SynthConfig(enforce_kind_mix="yes")
    from configs.synth import get_config

    c = get_config()
    assert SynthConfig.from_config(c).drop_internal_ids is True
    c.validation.drop_internal_ids = False
    assert SynthConfig.from_config(c).drop_internal_ids is False


def test_a_goal_step_continues_the_story_only_with_what_earlier_steps_found():
    """'research then buy': the order's symbol must come from the quote the chain got (a
    derived value), not a stock named afresh; a step no earlier output can feed (list the
    positions after the order) continues the story as it is."""
    from prove_jax.synthesis.graph import Edge, ToolGraph, ToolNode
    from prove_jax.synthesis.machine import continues_story
    from prove_jax.synthesis.records import Filled, StepRecord

    def node(name, required=(), read_only=True):
        schema = {"properties": {a: {"type": "string"} for a in required},
                  "required": list(required)}
        return ToolNode("trading", name, "", schema, {}, read_only)

    quote, order = node("get_quote", ["symbol"]), node("place_order", ["symbol"], False)
    positions = node("list_positions")
    graph = ToolGraph({n.key: n for n in (quote, order, positions)},
                      [Edge(quote.key, order.key, "explicit", "schema", (("symbol", "symbol"),))])
    steps = [StepRecord(quote, "get_quote", {"symbol": "RSOF"},
                        {"symbol": Filled("RSOF", "context", "stock")}, {"symbol": "RSOF"})]
    found = {"symbol": Filled("RSOF", "derived", "stock", from_step=0)}
    fresh = {"symbol": Filled("AAPL", "context", "stock")}
    assert continues_story(graph, order, found, steps)
    assert not continues_story(graph, order, fresh, steps)
    assert continues_story(graph, positions, {}, steps)
    # a value a look-up found for a name the user says is no part of the story so far
    lookup = StepRecord(quote, "get_quote", {}, {}, {}, lookup=True)
    named = {"symbol": Filled("AAPL", "derived", "stock", from_step=1)}
    assert not continues_story(graph, order, named, [*steps, lookup])
