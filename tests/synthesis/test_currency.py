"""Generated money arguments follow the world's currency, read from the live outputs: a yen
world gets whole, yen-sized amounts that its servers accept, not dollar-like decimals."""

from __future__ import annotations

import asyncio
import datetime as dt
import random

from prove_jax.synthesis.context import build_context
from prove_jax.synthesis.generators import gen_number, offer_below
from prove_jax.synthesis.graph import build_graph
from prove_jax.synthesis.values import ValueFiller
from prove_jax.tools.manager import MCPManager, ServerSpec

JPY_SEED, EUR_SEED = 10, 0  # world seeds whose user lives in Tokyo / a euro city
SERVERS = ("banking", "budget", "payments")
MONEY = {"type": "number", "minimum": 0.01}


def test_zero_decimal_currency_amounts_are_whole_and_scaled():
    rng = random.Random(0)
    yen = [gen_number("amount", MONEY, rng, False, "JPY") for _ in range(200)]
    assert all(v == int(v) and v >= 100 for v in yen)
    euro = [gen_number("amount", MONEY, rng, False, "EUR") for _ in range(200)]
    assert any(v != int(v) for v in euro) and max(euro) <= 180


def _generated_amounts(seed: int) -> tuple[set, list[tuple[str, float, str | None]]]:
    """(currencies the contexts saw, [(tool, amount, error)]) for every write tool with an
    `amount` argument that the filler can fill from the live state alone."""
    async def go():
        async with MCPManager([ServerSpec(s, "inprocess") for s in SERVERS]) as mgr:
            graph = build_graph({s: mgr.tool_metadata(s) for s in SERVERS})
            ctxs = {s: await build_context(mgr, graph, s, seed, random.Random(1))
                    for s in SERVERS}
            filler = ValueFiller(graph, dt.date(2026, 6, 15), 0.0)
            out = []
            for node in sorted(graph.nodes.values(), key=lambda n: n.key):
                if node.read_only or "amount" not in node.required:
                    continue
                filled = filler.fill(node, [], ctxs, random.Random(node.key))
                if filled is None:
                    continue
                args = {a: f.value for a, f in filled.items()}
                episode = await mgr.open_episode([node.server], seed)
                try:
                    result = await mgr.call(episode, node.name, args)
                finally:
                    await mgr.close_episode(episode)
                out.append((node.name, args["amount"], result.error))
            return {c.currency for c in ctxs.values()}, out
    return asyncio.run(go())


def test_a_yen_world_gets_yen_amounts_its_servers_accept():
    currencies, calls = _generated_amounts(JPY_SEED)
    assert currencies == {"JPY"} and len(calls) >= 2, calls
    for tool, amount, error in calls:
        assert amount == int(amount) and amount >= 100, (tool, amount)
        assert "decimals" not in (error or ""), (tool, error)
    currencies, calls = _generated_amounts(EUR_SEED)
    assert currencies == {"EUR"} and len(calls) >= 2
    assert all(amount <= 180 for _, amount, _ in calls), calls


def test_an_offer_is_a_round_figure_a_little_under_the_asking_price():
    # a reading found 5000 offered on a listing priced 48,000
    rng = random.Random(3)
    for price in (48000, 450.0, 89.99, 7):
        offers = {offer_below(price, rng) for _ in range(50)}
        assert all(0.7 * price <= o < price for o in offers), (price, offers)
    assert all(o % 1000 == 0 for o in (offer_below(48000, rng) for _ in range(20)))

    async def go():
        async with MCPManager([ServerSpec("marketplace", "inprocess")]) as mgr:
            graph = build_graph({"marketplace": mgr.tool_metadata("marketplace")})
            ctxs = {"marketplace": await build_context(mgr, graph, "marketplace", JPY_SEED,
                                                       random.Random(1))}
            filler = ValueFiller(graph, dt.date(2026, 6, 15), 0.0)
            node = graph.nodes["marketplace.make_offer"]
            out = []
            for i in range(6):
                filled = filler.fill(node, [], ctxs, random.Random(i))
                if filled is not None:
                    listing = filled["listing_id"].entity.fields
                    out.append((filled["amount"].value, listing["price"]))
            return out
    pairs = asyncio.run(go())
    assert pairs and all(0.7 * price <= amount < price for amount, price in pairs), pairs
