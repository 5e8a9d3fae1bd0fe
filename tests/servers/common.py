"""Helpers for server tests: in-process MCP clients, session control, wrong-typed values, and
direct calls on a Runtime (the `rt` fixture, `ok`, `fails`, `digest`) for domain-rule tests."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from mcp import Client

from servers.core import ids
from servers.core.app import CONTROL_KEY, SESSION_KEY, build_server
from servers.core.domain import Domain
from servers.core.runtime import Runtime
from servers.core.state import State
from servers.registry import load_domain


def examples(name: str, seed: int = 0) -> list[tuple[str, dict]]:
    """The server's example calls, written against the seed-0 world's built (positional) ids,
    as calls on the world of `seed` (servers.core.ids.resolve)."""
    return [(tool, ids.resolve(args, seed))
            for tool, args in importlib.import_module(f"servers.{name}").EXAMPLES]




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


def rows_where(rt: Runtime, table: str, **where: Any) -> list[dict]:
    """Rows of the default session's `table` whose fields equal `where`: how a test finds the
    entity it needs (ids are opaque and seeded, and seeds vary the world's structure)."""
    return [r for r in state(rt)[table].rows() if all(r.get(k) == v for k, v in where.items())]


def row_where(rt: Runtime, table: str, **where: Any) -> dict:
    """The first such row; fails the test naming what was looked for when there is none."""
    found = rows_where(rt, table, **where)
    assert found, f"no row of {table} with {where} at this seed"
    return found[0]


def world_shape(name: str, seed: int, tables: dict[str, str | None]) -> dict:
    """Row counts of `tables` and, where a status field is named, each status's count."""
    s = Runtime(load_domain(name), default_seed=seed).session(None).state
    shape: dict = {}
    for table, status in tables.items():
        rows = s[table].rows()
        shape[table] = len(rows)
        if status:
            shape[f"{table}.{status}"] = sorted(
                (str(v), sum(1 for r in rows if r.get(status) == v))
                for v in {r.get(status) for r in rows})
    return shape


def assert_world_varies(name: str, tables: dict[str, str | None]) -> None:
    """#20: seeds vary the structure, not only ids. Between seeds 11 and 12 every main table's
    row count differs and so does each named status mix; over seeds 0-5 each count takes at
    least 3 values."""
    a, b = world_shape(name, 11, tables), world_shape(name, 12, tables)
    same = [k for k in a if a[k] == b[k]]
    assert not same, f"{name}: equal at seeds 11 and 12: {[(k, a[k]) for k in same]}"
    for table in tables:
        counts = {world_shape(name, seed, {table: None})[table] for seed in range(6)}
        assert len(counts) >= 3, f"{name}.{table}: row counts over seeds 0-5 are {counts}"
