"""Helpers for the tool-manager tests."""

from __future__ import annotations

from prove_jax.tools.manager import MCPManager


async def a_contact(mgr: MCPManager, episode) -> str:
    """Some payments contact of the episode's world, looked up as a policy would (ids are
    opaque and seeded)."""
    found = await mgr.call(episode, "search_contacts", {"query": "@"})
    assert found.ok, found.error
    return found.payload["contacts"][0]["contact_id"]
