"""One MCP connection per server, and the types the manager and its callers share.

`Connection` owns one live `mcp.Client` in its own task (anyio scopes must be entered and left
in one task): a stdio subprocess it starts, an HTTP URL, or an in-process server.
"""

from __future__ import annotations

import asyncio
import json
import sys
from dataclasses import dataclass
from typing import Any, Literal

from mcp import Client
from mcp.client.stdio import StdioServerParameters

__all__ = ["CONTROL_KEY", "ERROR_KIND_KEY", "SESSION_KEY", "CallResult", "Connection",
           "ManagerError", "ServerDied", "ServerSpec", "Transport", "error_text"]

SESSION_KEY = "prove/session"
CONTROL_KEY = "prove/control"
ERROR_KIND_KEY = "prove/error_kind"
Transport = Literal["stdio", "http", "inprocess"]


class ManagerError(RuntimeError):
    """A server that cannot be started or reached; the message names it."""


@dataclass(frozen=True)
class ServerSpec:
    name: str
    transport: Transport = "stdio"
    url: str | None = None  # http: e.g. http://10.0.0.5:8765/mcp
    seed: int = 0  # seed of the server's default session (stdio/inprocess)

    @property
    def where(self) -> str:
        """The server as error messages name it: `'payments' at http://...` or `'payments'
        (stdio)`."""
        return (f"{self.name!r} at {self.url}" if self.transport == "http"
                else f"{self.name!r} ({self.transport})")


@dataclass(frozen=True)
class CallResult:
    """One tool call's outcome as the rollout and the rewards see it."""

    server: str | None
    tool: str
    ok: bool
    payload: dict | None = None
    error: str | None = None
    kind: str = "ok"  # ok | schema_error | execution_error | unknown_tool | session_lost | ...

    def text(self) -> str:
        """What the policy reads back."""
        return json.dumps(self.payload, ensure_ascii=False) if self.ok else f"Error: {self.error}"


class Connection:
    """One live MCP client to one server, owned by a background task."""

    def __init__(self, spec: ServerSpec, generation: int):
        self.spec, self.generation = spec, generation
        self.client: Client | None = None
        self.tools: list[Any] = []
        self.ready = asyncio.Event()
        self.stop = asyncio.Event()
        self.error: BaseException | None = None
        self.task: asyncio.Task | None = None
        self.lost: str | None = None  # set once declared dead: why its sessions are gone

    def target(self) -> Any:
        spec = self.spec
        if spec.transport == "stdio":
            return StdioServerParameters(
                command=sys.executable,
                args=["-m", "servers", spec.name, "--transport", "stdio", "--seed", str(spec.seed)])
        if spec.transport == "http":
            if not spec.url:
                raise ManagerError(f"server {spec.name!r}: http transport needs a url")
            return spec.url
        from servers.core.app import build_server  # in-process only: no JAX-side dependency
        from servers.core.runtime import Runtime
        from servers.registry import load_domain

        return build_server(Runtime(load_domain(spec.name), default_seed=spec.seed))

    async def run(self) -> None:
        try:
            async with Client(self.target()) as client:
                self.client = client
                # the control tools too: listed, calling them never triggers a re-list
                self.tools = (await client.list_tools(meta={CONTROL_KEY: True})).tools
                self.ready.set()
                await self.stop.wait()
        except BaseException as err:  # reported to whoever waits on ready
            self.error = err
        finally:
            self.client = None
            self.ready.set()


class ServerDied(ManagerError):
    """The server went away during a call; the message says which and why."""


def error_text(err: BaseException | None) -> str:
    """The innermost first error of `err` (anyio wraps transport errors in groups)."""
    while isinstance(err, BaseExceptionGroup) and err.exceptions:
        err = err.exceptions[0]
    if err is None:
        return "connection closed"
    return f"{type(err).__name__}: {err}" if str(err) else type(err).__name__
