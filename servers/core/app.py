"""The MCP face of a Runtime: a low-level `mcp` Server listing the domain's tools and routing
calls to sessions by the per-request meta session id.

Control operations (open/reset/snapshot/close a session) are tools too, but a plain
`tools/list` shows only the domain's tools, so any MCP client (a desktop assistant, the Node
SDK) sees the paper's count and never offers `_session_reset` to its model. A listing whose
request `_meta` carries `{"prove/control": true}` adds them, each marked with that same
`_meta`: the manager lists that way once per connection, so its client knows their (absent)
output schemas, calling them never makes it re-list tools, and each costs one round trip like
any call. Control calls work whether or not they were listed.
A request without a session id uses the default session, so any MCP client can use a server.
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import Any

import mcp_types as types
from mcp.server.lowlevel import Server

from servers.core import clock
from servers.core.errors import SchemaError, ToolError
from servers.core.runtime import Runtime
from servers.core.schema import make_validator

SESSION_KEY = "prove/session"  # the meta key carrying the episode's session id
CONTROL_KEY = "prove/control"
REQUIRES_KEY = "prove/requires"  # tool _meta: tools that must run first (implicit dependencies)
ERROR_KIND_KEY = "prove/error_kind"

_SEED = {"type": "integer", "minimum": 0, "description": "Seed of the world to build"}
CONTROL_TOOLS: dict[str, dict[str, Any]] = {
    "_session_open": {"description": "Open a new session seeded with `seed`.",
                      "properties": {"seed": _SEED, "session_id": {
                          "type": "string", "minLength": 1,
                          "description": "Id to use (default: a new random id)"}},
                      "required": ["seed"]},
    "_session_reset": {"description": "Rebuild the request's session from `seed`.",
                       "properties": {"seed": _SEED}, "required": ["seed"]},
    "_session_snapshot": {"description": "Canonical JSON state of the session and its sha256.",
                          "properties": {"include_state": {
                              "type": "boolean", "description": "Return the state itself too"},
                              "clock_free": {
                              "type": "boolean", "description": "Also the sha256 of the state "
                              "less its clock-stamped fields (clock_free_hash)"}},
                          "required": []},
    "_session_close": {"description": "Close the request's session.", "properties": {},
                       "required": []},
}
_CONTROL_VALIDATORS = {
    name: make_validator(name, {"type": "object", "properties": spec["properties"],
                                "required": spec["required"]})
    for name, spec in CONTROL_TOOLS.items()}


def _text(payload: Any) -> list[types.TextContent]:
    return [types.TextContent(type="text", text=json.dumps(payload, ensure_ascii=False))]


def error_result(message: str, kind: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=message)],
                                is_error=True, _meta={ERROR_KIND_KEY: kind})


def control(runtime: Runtime, name: str, arguments: Any, session_id: str | None) -> dict:
    """Run one control operation; raise ToolError on bad input."""
    args = _CONTROL_VALIDATORS[name](arguments)
    if name == "_session_open":
        session = runtime.open(args["seed"], args.get("session_id"))
        return {"session_id": session.id, "seed": session.seed, "hash": session.state.digest(),
                "now": clock.now_stamp(session.state), "pid": os.getpid()}
    if name == "_session_reset":
        session = runtime.reset(session_id, args["seed"])
        return {"session_id": session.id, "seed": session.seed, "hash": session.state.digest(),
                "now": clock.now_stamp(session.state)}
    if name == "_session_snapshot":
        session = runtime.session(session_id)
        out: dict[str, Any] = {"session_id": session.id, "hash": session.state.digest(),
                               "now": clock.now_stamp(session.state)}
        if args.get("clock_free"):  # on request: it costs as much again as the hash
            out["clock_free_hash"] = hashlib.sha256(
                runtime.domain.without_clock(session.state).encode()).hexdigest()
        if args.get("include_state"):
            out["state"] = session.state.to_json()
        return out
    runtime.close(session_id)
    return {"session_id": session_id, "closed": True}


def list_tools(runtime: Runtime, *, controls: bool = False) -> list[types.Tool]:
    """The domain's tools; with `controls`, the session-control tools after them."""
    tools = [types.Tool(name=spec.name, description=spec.description,
                        input_schema=spec.input_schema, output_schema=spec.output_schema,
                        annotations=types.ToolAnnotations(read_only_hint=spec.read_only,
                                                          destructive_hint=not spec.read_only),
                        _meta={REQUIRES_KEY: list(spec.requires)} if spec.requires else None)
             for spec in runtime.domain.tools.values()]
    if not controls:
        return tools
    return tools + [types.Tool(name=name, description=spec["description"],
                         input_schema={"type": "object", "properties": spec["properties"],
                                       "required": spec["required"]},
                         _meta={CONTROL_KEY: True})
              for name, spec in CONTROL_TOOLS.items()]


def wants_controls(params: Any) -> bool:
    """Does a tools/list request ask for the control tools (`_meta` {"prove/control": true})?"""
    meta = getattr(params, "meta", None)
    if meta is None:
        return False
    value = meta.get(CONTROL_KEY) if isinstance(meta, dict) else getattr(meta, CONTROL_KEY, None)
    return value is True


def session_id_of(params: types.CallToolRequestParams) -> str | None:
    meta = params.meta
    if meta is None:
        return None
    value = meta.get(SESSION_KEY) if isinstance(meta, dict) else getattr(meta, SESSION_KEY, None)
    return None if value is None else str(value)


def build_server(runtime: Runtime) -> Server:
    """A low-level MCP server for one domain's runtime (any transport can run it)."""
    plain, every = list_tools(runtime), list_tools(runtime, controls=True)

    async def on_list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=every if wants_controls(params) else plain)

    async def on_call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        session_id = session_id_of(params)
        if params.name in CONTROL_TOOLS:
            try:
                payload = control(runtime, params.name, params.arguments, session_id)
            except ToolError as err:
                return error_result(str(err), err.kind)
            except (TypeError, ValueError) as err:
                return error_result(str(SchemaError(str(err))), "schema_error")
            return types.CallToolResult(content=_text(payload), structured_content=payload)
        outcome = runtime.call(params.name, params.arguments, session_id)
        if not outcome.ok:
            return error_result(outcome.error, outcome.kind)
        return types.CallToolResult(content=_text(outcome.payload),
                                    structured_content=outcome.payload)

    # The HTTP transport checks Mcp-Param headers against the called tool's input schema; a
    # lookup saves it from running (and serialising) the whole tools/list on every call.
    input_schemas = {t.name: t.input_schema for t in every}
    return Server(runtime.domain.name, version="0.1.0",
                  instructions=runtime.domain.description,
                  get_tool_input_schema=input_schemas.get,
                  on_list_tools=on_list_tools, on_call_tool=on_call_tool)
