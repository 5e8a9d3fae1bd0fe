"""Generated phone numbers look like the world's own (country code and prefix of a number the
server shows, new subscriber digits), not a fixed '+1-555' number in a Berlin world."""

from __future__ import annotations

import asyncio
import datetime as dt
import random
import re

from prove_jax.synthesis.context import build_context
from prove_jax.synthesis.graph import build_graph
from prove_jax.synthesis.values import ValueFiller, like_phone
from prove_jax.tools.manager import MCPManager, ServerSpec


def test_like_phone_keeps_the_country_code_prefix_and_format():
    rng = random.Random(0)
    for sample in ("+49 151 23456789", "+1 212-555-1234", "+33 6 12 34 56 78",
                   "+81 90-1234-5678", "+65 8123 4567"):
        made = {like_phone(sample, rng) for _ in range(20)}
        shape = re.sub(r"\d", "#", sample)
        head = re.match(r"\+\d+[ -]\d+", sample).group(0)
        assert all(re.sub(r"\d", "#", m) == shape and m.startswith(head) for m in made)
        assert len(made) > 15  # the rest is drawn


def test_a_new_crm_contact_gets_a_phone_in_a_world_format():
    async def go() -> tuple[list[str], set[str]]:
        async with MCPManager([ServerSpec("crm", "inprocess")]) as mgr:
            graph = build_graph({"crm": mgr.tool_metadata("crm")})
            ctx = await build_context(mgr, graph, "crm", 3, random.Random(1))
            filler = ValueFiller(graph, dt.date(2026, 6, 15), 1.0)  # optional args: always
            node = graph.nodes["crm.create_contact"]
            phones = []
            for k in range(60):
                filled = filler.fill(node, [], {"crm": ctx}, random.Random(k))
                if filled and "phone" in filled:
                    phones.append(filled["phone"].value)
            return phones, {p for p in ctx.by_name.get("phone", []) if isinstance(p, str)}

    phones, shown = asyncio.run(go())
    assert phones and shown
    heads = {re.match(r"\+\d+[ -]\d+", p).group(0) for p in shown if p}
    for phone in phones:
        assert not phone.startswith("+1-555") and phone not in shown
        assert re.match(r"\+\d+[ -]\d+", phone).group(0) in heads, phone
