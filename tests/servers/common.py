"""Helpers for server tests: in-process MCP clients, session control, wrong-typed values."""

from __future__ import annotations

import importlib
from typing import Any

from mcp import Client

from servers.core.app import SESSION_KEY, build_server
from servers.core.runtime import Runtime
from servers.registry import load_domain


def examples(name: str) -> list[tuple[str, dict]]:
    return importlib.import_module(f"servers.{name}").EXAMPLES


def client(name: str, seed: int = 0) -> tuple[Client, Runtime]:
    runtime = Runtime(load_domain(name), default_seed=seed)
    return Client(build_server(runtime)), runtime


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
