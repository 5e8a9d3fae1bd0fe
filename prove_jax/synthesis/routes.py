"""Exposed tool names, as `MCPManager.open_episode` names them: a tool name shared by two of
a task's servers is exposed as `server__tool`. Computed without opening sessions, so that
distractor servers (whose tools are only offered, never called) cost nothing at generation
time; tests check that this agrees with the manager's own routing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["exposed_names"]


def exposed_names(manager: Any, servers: Sequence[str]) -> dict[tuple[str, str], str]:
    """(server, tool) -> exposed name for an episode over `servers` (in that order)."""
    servers = list(dict.fromkeys(servers))
    counts: dict[str, int] = {}
    tools = {s: [t["function"]["name"] for t in manager.policy_tools(s)] for s in servers}
    for s in servers:
        for name in tools[s]:
            counts[name] = counts.get(name, 0) + 1
    return {(s, name): name if counts[name] == 1 else f"{s}__{name}"
            for s in servers for name in tools[s]}
