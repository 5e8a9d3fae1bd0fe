"""Helpers for server tests: in-process MCP clients, session control, wrong-typed values, and
direct calls on a Runtime (the `rt` fixture, `ok`, `fails`, `digest`) for domain-rule tests."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from mcp import Client

from servers.core.app import CONTROL_KEY, SESSION_KEY, build_server
from servers.core.domain import Domain
from servers.core.runtime import Runtime
from servers.core.state import State
from servers.registry import load_domain


def examples(name: str) -> list[tuple[str, dict]]:
    return importlib.import_module(f"servers.{name}").EXAMPLES


def client(name: str, seed: int = 0) -> tuple[Client, Runtime]:
    runtime = Runtime(load_domain(name), default_seed=seed)
    return Client(build_server(runtime)), runtime


async def list_with_controls(c: Client) -> list:
    """The listing the manager takes: the domain's tools, then the session-control tools."""
    return (await c.list_tools(meta={CONTROL_KEY: True})).tools


async def call(c: Client, tool: str, args: dict, session: str | None = None) -> Any:
    meta = {SESSION_KEY: session} if session is not None else None
    return await c.call_tool(tool, args, meta=meta)


async def open_session(c: Client, seed: int) -> str:
    result = await c.call_tool("_session_open", {"seed": seed})
    assert not result.is_error, result.content
    return result.structured_content["session_id"]


async def snapshot_hash(c: Client, session: str | None) -> str:
    result = await call(c, "_session_snapshot", {}, session)
    assert not result.is_error, result.content
    return result.structured_content["hash"]


def wrong_value(schema: dict) -> Any:
    """A value of the wrong JSON type for a property schema."""
    kind = schema.get("type")
    kind = kind[0] if isinstance(kind, list) else kind
    return {"string": 12345, "integer": "twelve", "number": "twelve", "boolean": "yes",
            "array": "not-a-list", "object": ["not", "an", "object"]}.get(kind, object())


def text(result: Any) -> str:
    return " ".join(getattr(c, "text", "") for c in result.content)


# Direct calls on a Runtime (no MCP): the helpers every domain-rule test uses.


def runtime_fixture(domain: Domain | str, seed: int = 0):
    """An `rt` fixture: a fresh Runtime of `domain` (or the server of that name) per test.

    Use as `rt = runtime_fixture(DOMAIN)` at module level."""

    @pytest.fixture(name="rt")
    def rt() -> Runtime:
        return Runtime(load_domain(domain) if isinstance(domain, str) else domain,
                       default_seed=seed)

    return rt


def state(rt: Runtime) -> State:
    """The default session's state."""
    return rt.session(None).state


def digest(rt: Runtime) -> str:
    return state(rt).digest()


def ok(rt: Runtime, tool: str, args: dict) -> dict:
    """Call `tool`, assert it succeeded, and return its payload."""
    out = rt.call(tool, args)
    assert out.ok, f"{tool}({args}): {out.error}"
    return out.payload


def ok_all(rt: Runtime, tool: str, args: dict, field: str) -> list:
    """Every row of a paged tool's answer: follow next_cursor (100 rows a page) to the end."""
    rows, cursor = [], None
    while True:
        page = ok(rt, tool, {**args, "limit": 100, **({"cursor": cursor} if cursor else {})})
        rows += page[field]
        cursor = page["next_cursor"]
        if cursor is None:
            return rows


def fails(rt: Runtime, tool: str, args: dict, *needles: str) -> str:
    """The call fails, its error says every needle, and the state is exactly as it was.
    Returns the error message."""
    before = digest(rt)
    out = rt.call(tool, args)
    assert not out.ok, f"{tool}({args}) should fail, got {out.payload}"
    for needle in needles:
        assert needle in out.error, f"{tool}: {needle!r} not in {out.error!r}"
    assert digest(rt) == before, f"{tool}({args}) changed state"
    return out.error
