"""Exposed names computed without sessions agree with the manager's own episode routing."""

from __future__ import annotations

import asyncio

from prove_jax.synthesis.routes import exposed_names
from prove_jax.tools.manager import MCPManager, ServerSpec


def test_exposed_names_match_episode_routes():
    servers = ["payments", "shopping", "email", "banking"]

    async def check():
        async with MCPManager([ServerSpec(s, "inprocess") for s in servers]) as mgr:
            for combo in (["payments"], ["payments", "shopping"], ["email", "payments"],
                          ["shopping", "banking", "payments", "email"]):
                ep = await mgr.open_episode(combo, 0)
                names = exposed_names(mgr, combo)
                assert {v: k for k, v in names.items()} == ep.routes
                await mgr.close_episode(ep)
            return exposed_names(mgr, ["payments", "shopping", "email"])

    names = asyncio.run(check())
    assert names[("payments", "search_contacts")] == "payments__search_contacts"
    assert names[("shopping", "list_payment_methods")] == "list_payment_methods"
    assert names[("payments", "send_payment")] == "send_payment"
