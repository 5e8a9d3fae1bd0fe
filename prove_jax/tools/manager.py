"""MCPManager: runs the servers, gives every episode its own session on each server its task
needs, routes the policy's calls by tool name, and survives server crashes.

Servers are reached over real MCP: a stdio subprocess per server (the default), an HTTP URL
(servers on other hosts), or in-process (tests, single-process demos). Each connection lives in
its own task (anyio scopes must be entered and left in one task). The episode's session id
travels as request meta, so one server process serves many episodes at once.

If a server process dies, the manager restarts it; sessions that lived in the dead process are
gone, so the episodes that held them are reported as lost and every later call on them fails
with kind "session_lost": their rewards count the failure, never a silent success.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from mcp import Client
from mcp.client.stdio import StdioServerParameters

log = logging.getLogger(__name__)

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
        import json

        return json.dumps(self.payload, ensure_ascii=False) if self.ok else f"Error: {self.error}"


class _Connection:
    """One live MCP client to one server, owned by a background task."""

    def __init__(self, spec: ServerSpec, generation: int):
        self.spec, self.generation = spec, generation
        self.client: Client | None = None
        self.tools: list[Any] = []
        self.ready = asyncio.Event()
        self.stop = asyncio.Event()
        self.error: BaseException | None = None
        self.task: asyncio.Task | None = None

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
                self.tools = (await client.list_tools()).tools
                self.ready.set()
                await self.stop.wait()
        except BaseException as err:  # reported to whoever waits on ready
            self.error = err
        finally:
            self.client = None
            self.ready.set()


@dataclass
class Episode:
    """One episode's sessions: server name -> session id, plus the routing table."""

    id: int
    seed: int
    sessions: dict[str, tuple[str, int]]  # server -> (session id, connection generation)
    routes: dict[str, tuple[str, str]]  # exposed tool name -> (server, tool name on server)
    schemas: list[dict] = field(default_factory=list)
    lost: set[str] = field(default_factory=set)  # servers whose session died with a crash
    closed: bool = False


class MCPManager:
    def __init__(self, specs: Iterable[ServerSpec | str], *, max_in_flight: int = 256,
                 call_timeout: float = 60.0, restart_attempts: int = 3):
        self.specs = {s.name: s for s in (ServerSpec(x) if isinstance(x, str) else x
                                          for x in specs)}
        self._conns: dict[str, _Connection] = {}
        self._generation = 0
        self._slots = asyncio.Semaphore(max_in_flight)  # the one bound on concurrent calls
        self.call_timeout = call_timeout
        self.restart_attempts = restart_attempts
        self._restart_locks: dict[str, asyncio.Lock] = {}
        self._episodes: dict[int, Episode] = {}
        self._next_episode = 0
        self.lost_episodes: set[int] = set()
        self.restarts: dict[str, int] = {}

    # ---------------------------------------------------------------- lifecycle
    async def __aenter__(self) -> MCPManager:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def start(self) -> None:
        await asyncio.gather(*(self._connect(name) for name in self.specs))

    async def stop(self) -> None:
        conns = list(self._conns.values())
        for conn in conns:
            conn.stop.set()
        await asyncio.gather(*(c.task for c in conns if c.task), return_exceptions=True)
        self._conns.clear()

    async def _connect(self, name: str) -> _Connection:
        self._generation += 1
        conn = _Connection(self.specs[name], self._generation)
        conn.task = asyncio.create_task(conn.run(), name=f"mcp-{name}")
        await conn.ready.wait()
        if conn.client is None:
            raise ManagerError(f"server {name!r} ({conn.spec.transport}) failed to start: "
                               f"{conn.error!r}")
        self._conns[name] = conn
        return conn

    async def _restart(self, name: str, dead: _Connection) -> None:
        lock = self._restart_locks.setdefault(name, asyncio.Lock())
        async with lock:
            if self._conns.get(name) is not dead:
                return  # someone else restarted it already
            dead.stop.set()
            for episode in self._episodes.values():
                held = episode.sessions.get(name)
                if held and held[1] == dead.generation and not episode.closed:
                    episode.lost.add(name)
                    self.lost_episodes.add(episode.id)
            log.warning("server %s died; restarting (lost episodes: %s)", name,
                        sorted(self.lost_episodes))
            self.restarts[name] = self.restarts.get(name, 0) + 1
            for attempt in range(self.restart_attempts):
                try:
                    await self._connect(name)
                    return
                except ManagerError:
                    if attempt == self.restart_attempts - 1:
                        raise
                    await asyncio.sleep(0.2 * (attempt + 1))

    # ---------------------------------------------------------------- raw calls
    async def _raw(self, name: str, tool: str, args: dict, session: str | None) -> Any:
        conn = self._conns.get(name)
        if conn is None or conn.client is None:
            raise ManagerError(f"server {name!r} is not running")
        meta = {SESSION_KEY: session} if session is not None else None
        async with self._slots:
            try:
                return await asyncio.wait_for(conn.client.call_tool(tool, args, meta=meta),
                                              self.call_timeout)
            except TimeoutError:
                raise
            except Exception as err:
                if not await self._alive(conn):
                    await self._restart(name, conn)
                    raise _ServerDied(name) from err
                raise

    async def _alive(self, conn: _Connection) -> bool:
        """After a failed call: is the connection still usable? (it still answers a listing)"""
        client = conn.client
        if client is None or (conn.task is not None and conn.task.done()):
            return False
        try:
            await asyncio.wait_for(client.list_tools(), 5.0)
        except Exception:  # any failure to answer means dead
            return False
        return True

    async def _control(self, name: str, tool: str, args: dict, session: str | None) -> dict:
        result = await self._raw(name, tool, args, session)
        if result.is_error:
            raise ManagerError(f"{name}.{tool}: {_text(result)}")
        return result.structured_content

    # ---------------------------------------------------------------- episodes
    def policy_tools(self, name: str) -> list[dict]:
        """OpenAI-style schemas of a server's policy-visible tools."""
        return [_openai(t) for t in self._conns[name].tools
                if not (t.meta or {}).get(CONTROL_KEY)]

    def tool_metadata(self, name: str) -> list[dict]:
        """Raw metadata of a server's policy-visible tools, as the server listed them: name,
        description, input and output schemas, read-only hint and `_meta` (the synthesizer's
        dependency graph reads output schemas and `prove/requires` from here)."""
        out = []
        for t in self._conns[name].tools:
            meta = dict(t.meta or {})
            if meta.get(CONTROL_KEY):
                continue
            ann = t.annotations
            out.append({"name": t.name, "description": t.description or "",
                        "input_schema": t.input_schema or {},
                        "output_schema": t.output_schema or {},
                        "read_only": bool(ann is not None and ann.read_only_hint),
                        "meta": meta})
        return out

    async def open_episode(self, servers: Iterable[str], seed: int) -> Episode:
        """A session seeded with `seed` on each server the task needs, and its tool routes.

        Tool names shared by two of the task's servers are exposed as `server__tool`."""
        servers = list(dict.fromkeys(servers))
        unknown = [s for s in servers if s not in self._conns]
        if unknown:
            raise ManagerError(f"servers {unknown} are not running; running: {list(self._conns)}")
        opened = await asyncio.gather(
            *(self._control(s, "_session_open", {"seed": seed}, None) for s in servers))
        sessions = {s: (o["session_id"], self._conns[s].generation)
                    for s, o in zip(servers, opened, strict=True)}
        counts: dict[str, int] = {}
        for s in servers:
            for schema in self.policy_tools(s):
                counts[schema["function"]["name"]] = counts.get(schema["function"]["name"], 0) + 1
        routes, schemas = {}, []
        for s in servers:
            for schema in self.policy_tools(s):
                tool = schema["function"]["name"]
                exposed = tool if counts[tool] == 1 else f"{s}__{tool}"
                routes[exposed] = (s, tool)
                schemas.append({"type": "function",
                                "function": {**schema["function"], "name": exposed}})
        self._next_episode += 1
        episode = Episode(self._next_episode, seed, sessions, routes, schemas)
        self._episodes[episode.id] = episode
        return episode

    async def call(self, episode: Episode, tool: str, arguments: Any) -> CallResult:
        """Route one policy call; every failure comes back as a CallResult, never raised."""
        route = episode.routes.get(tool)
        if route is None:
            return CallResult(None, tool, False, kind="unknown_tool", error=(
                f"unknown tool {tool!r}; available tools: {', '.join(episode.routes)}"))
        server, name = route
        if episode.closed or server in episode.lost:
            return CallResult(server, tool, False, kind="session_lost", error=(
                f"the {server} session of this episode was lost (server restarted)"))
        if not isinstance(arguments, dict):
            return CallResult(server, tool, False, kind="schema_error",
                              error=f"{tool}: arguments must be a JSON object")
        try:
            result = await self._raw(server, name, arguments, episode.sessions[server][0])
        except _ServerDied:
            return CallResult(server, tool, False, kind="session_lost",
                              error=f"the {server} server crashed during this call")
        except TimeoutError:
            return CallResult(server, tool, False, kind="execution_error",
                              error=f"{tool}: timed out after {self.call_timeout}s")
        except Exception as err:  # surfaced to the episode, not the run
            return CallResult(server, tool, False, kind="execution_error",
                              error=f"{tool}: {type(err).__name__}: {err}")
        if result.is_error:
            kind = (result.meta or {}).get(ERROR_KIND_KEY, "execution_error")
            if kind == "session_error":
                kind = "session_lost"
            return CallResult(server, tool, False, kind=kind, error=_text(result))
        return CallResult(server, tool, True, payload=result.structured_content)

    async def reset_episode(self, episode: Episode, seed: int | None = None) -> dict[str, str]:
        """Rebuild every live session of the episode from `seed` (default: its own);
        returns server -> state hash."""
        seed = episode.seed if seed is None else seed
        out = {}
        for server, (session, _) in episode.sessions.items():
            if server not in episode.lost:
                reply = await self._control(server, "_session_reset", {"seed": seed}, session)
                out[server] = reply["hash"]
        episode.seed = seed
        return out

    async def snapshot(self, episode: Episode, include_state: bool = False) -> dict[str, dict]:
        """server -> {"hash", ["state"]} for the episode's live sessions."""
        out = {}
        for server, (session, _) in episode.sessions.items():
            if server in episode.lost:
                continue
            out[server] = await self._control(server, "_session_snapshot",
                                              {"include_state": include_state}, session)
        return out

    async def close_episode(self, episode: Episode) -> None:
        if episode.closed:
            return
        episode.closed = True
        for server, (session, generation) in episode.sessions.items():
            conn = self._conns.get(server)
            if server in episode.lost or conn is None or conn.generation != generation:
                continue
            try:
                await self._control(server, "_session_close", {}, session)
            except Exception as err:  # closing is best effort
                log.warning("closing %s session of episode %d: %s", server, episode.id, err)
        self._episodes.pop(episode.id, None)


class _ServerDied(Exception):
    pass


def _text(result: Any) -> str:
    return " ".join(getattr(c, "text", "") for c in result.content)


def _openai(tool: Any) -> dict:
    return {"type": "function", "function": {"name": tool.name, "description": tool.description,
                                             "parameters": tool.input_schema}}
