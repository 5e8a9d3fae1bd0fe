"""MCPManager: runs the servers, gives every episode its own session on each server its task
needs, routes the policy's calls by tool name, and survives server crashes.

Servers are reached over real MCP: a stdio subprocess per server (the default), an HTTP URL
(servers on other hosts), or in-process (tests, single-process demos). Each connection lives in
its own task (anyio scopes must be entered and left in one task). The episode's session id
travels as request meta, so one server process serves many episodes at once.

If a server goes away, the sessions that lived in it are gone: the episodes that held them are
reported as lost and every later call on them fails with kind "session_lost" and a reason naming
the server (and its URL): their rewards count the failure, never a silent success. A server the
manager owns (stdio, in-process) is restarted; an HTTP server it does not own is only
reconnected: once right away, then on every later `open_episode` that needs it (one try per
wave of callers), and episodes that cannot get a session fail with a clear ManagerError.
Nothing waits without bound: calls by `call_timeout`, connecting by `connect_timeout`.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

# Re-exported: callers import the shared types from here.
from prove_jax.tools.connection import (
    CONTROL_KEY,
    ERROR_KIND_KEY,
    SESSION_KEY,
    CallResult,
    Connection,
    ManagerError,
    ServerDied,
    ServerSpec,
    Transport,
    error_text,
)

__all__ = ["CONTROL_KEY", "ERROR_KIND_KEY", "SESSION_KEY", "CallResult", "Episode",
           "MCPManager", "ManagerError", "ServerSpec", "Transport"]

log = logging.getLogger(__name__)


@dataclass
class Episode:
    """One episode's sessions: server name -> session id, plus the routing table."""

    id: int
    seed: int
    sessions: dict[str, tuple[str, int]]  # server -> (session id, connection generation)
    routes: dict[str, tuple[str, str]]  # exposed tool name -> (server, tool name on server)
    schemas: list[dict] = field(default_factory=list)
    lost: set[str] = field(default_factory=set)  # servers whose session died with a crash
    why: dict[str, str] = field(default_factory=dict)  # lost server -> why (names server, URL)
    closed: bool = False


class MCPManager:
    def __init__(self, specs: Iterable[ServerSpec | str], *, max_in_flight: int = 256,
                 call_timeout: float = 60.0, connect_timeout: float = 20.0,
                 restart_attempts: int = 3):
        self.specs = {s.name: s for s in (ServerSpec(x) if isinstance(x, str) else x
                                          for x in specs)}
        self._conns: dict[str, Connection] = {}
        self._retired: list[Connection] = []  # dead connections still shutting down
        self._down: dict[str, tuple[str, float]] = {}  # server -> (why, when the try ended)
        self._generation = 0
        self._slots = asyncio.Semaphore(max_in_flight)  # the one bound on concurrent calls
        self.call_timeout = call_timeout
        self.connect_timeout = connect_timeout
        self.restart_attempts = restart_attempts
        self.start_concurrency = max(2, os.cpu_count() or 2)
        self._locks: dict[str, asyncio.Lock] = {}
        self._episodes: dict[int, Episode] = {}
        self._next_episode = 0
        self.lost_episodes: set[int] = set()
        self.restarts: dict[str, int] = {}  # server -> times it died (restarted/reconnected)

    # ---------------------------------------------------------------- lifecycle
    async def __aenter__(self) -> MCPManager:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def start(self) -> None:
        # A few servers at a time, so that each connect_timeout measures that server's own
        # start: 20 stdio servers started at once on 2 cores queue for the CPU (~25 s), and
        # the last ones timed out although nothing was wrong with them.
        gate = asyncio.Semaphore(self.start_concurrency)

        async def connect(name: str) -> None:
            async with gate:
                await self._connect(name)

        await asyncio.gather(*(connect(name) for name in self.specs))

    async def stop(self) -> None:
        conns = [*self._conns.values(), *self._retired]
        for conn in conns:
            conn.stop.set()
        tasks = [c.task for c in conns if c.task is not None and not c.task.done()]
        if tasks:  # a server that stopped answering must not hold the shutdown
            _, pending = await asyncio.wait(tasks, timeout=self.connect_timeout)
            for task in pending:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        self._conns.clear()
        self._retired.clear()

    async def _connect(self, name: str) -> Connection:
        self._generation += 1
        conn = Connection(self.specs[name], self._generation)
        conn.task = asyncio.create_task(conn.run(), name=f"mcp-{name}")
        failed = (f"server {conn.spec.where} is unreachable: failed to start a connection"
                  if conn.spec.transport == "http" else f"server {conn.spec.where} failed to start")
        try:
            await asyncio.wait_for(conn.ready.wait(), self.connect_timeout)
        except TimeoutError:
            conn.stop.set()
            conn.task.cancel()
            await asyncio.gather(conn.task, return_exceptions=True)
            raise ManagerError(f"{failed}: no answer within {self.connect_timeout}s") from None
        if conn.client is None:
            raise ManagerError(f"{failed}: {error_text(conn.error)}")
        self._conns[name] = conn
        return conn

    async def _reconnect(self, name: str, attempts: int = 1) -> Connection:
        for attempt in range(attempts):
            try:
                conn = await self._connect(name)
            except ManagerError as err:
                self._down[name] = (str(err), time.monotonic())
                if attempt == attempts - 1:
                    raise
                await asyncio.sleep(0.2 * (attempt + 1))
            else:
                self._down.pop(name, None)
                return conn
        raise AssertionError("unreachable")

    async def _recover(self, name: str, dead: Connection, cause: BaseException | None) -> str:
        """`dead` stopped answering: mark the episodes holding sessions on it lost, then
        restart the server (stdio/inprocess: the manager owns it) or try once to reconnect
        (http: a server on another host that only its owner can restart). Returns why the
        sessions were lost; never raises (a server still down is retried by open_episode)."""
        async with self._locks.setdefault(name, asyncio.Lock()):
            if dead.lost is not None:
                return dead.lost  # someone else handled it already
            dead.lost = (f"the server {dead.spec.where} went away ({error_text(cause)}); the "
                         "episode's session on it is gone")
            dead.stop.set()
            if self._conns.get(name) is dead:
                del self._conns[name]
            self._retired = [c for c in self._retired if c.task is not None
                             and not c.task.done()] + [dead]
            lost = [e for e in self._episodes.values() if not e.closed
                    and e.sessions.get(name, ("", -1))[1] == dead.generation]
            for episode in lost:
                self._lose(episode, name, dead.lost)
            owned = dead.spec.transport != "http"
            log.warning("server %s died (%s); %d open episodes lost their session; %s",
                        dead.spec.where, error_text(cause), len(lost),
                        "restarting" if owned else "reconnecting")
            self.restarts[name] = self.restarts.get(name, 0) + 1
            try:
                await self._reconnect(name, self.restart_attempts if owned else 1)
            except ManagerError as err:
                log.warning("%s; episodes that need it fail until it is back", err)
            return dead.lost

    def _lose(self, episode: Episode, server: str, why: str) -> None:
        episode.lost.add(server)
        episode.why[server] = why
        self.lost_episodes.add(episode.id)

    async def _available(self, name: str) -> None:
        """Make sure `name` has a live connection, reconnecting one that is down. Callers
        that asked while a try was under way share its outcome instead of trying again."""
        if name in self._conns:
            return
        asked = time.monotonic()
        async with self._locks.setdefault(name, asyncio.Lock()):
            if name in self._conns:
                return
            why, tried = self._down.get(name, ("", -1.0))
            if tried >= asked:
                raise ManagerError(why)
            await self._reconnect(name)

    # ---------------------------------------------------------------- raw calls
    async def _raw(self, name: str, tool: str, args: dict, session: str | None) -> Any:
        conn = self._conns.get(name)
        if conn is None:
            why = self._down.get(name, (f"server {name!r} is not running", 0.0))[0]
            raise ManagerError(why)
        if conn.client is None:  # its connection ended since the last call
            raise ServerDied(await self._recover(name, conn, conn.error))
        meta = {SESSION_KEY: session} if session is not None else None
        async with self._slots:
            try:
                return await asyncio.wait_for(conn.client.call_tool(tool, args, meta=meta),
                                              self.call_timeout)
            except TimeoutError:
                raise
            except Exception as err:
                if not await self._alive(conn):
                    raise ServerDied(await self._recover(name, conn, err)) from err
                raise

    async def _alive(self, conn: Connection) -> bool:
        """After a failed call: is the connection still usable? (it still answers a listing)"""
        client = conn.client
        if client is None or conn.lost is not None or (conn.task is not None
                                                       and conn.task.done()):
            return False
        try:
            await asyncio.wait_for(client.list_tools(cache_mode="bypass"),
                                   min(5.0, self.call_timeout))
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

        Tool names shared by two of the task's servers are exposed as `server__tool`. A
        server that is down is reconnected first; if that fails, or a session cannot be
        opened, this raises ManagerError naming the server (sessions opened on the task's
        other servers are closed again)."""
        servers = list(dict.fromkeys(servers))
        unknown = [s for s in servers if s not in self.specs]
        if unknown:
            raise ManagerError(f"servers {unknown} are not running; running: {list(self._conns)}")
        opened = await asyncio.gather(*(self._open_session(s, seed) for s in servers),
                                      return_exceptions=True)
        errors = [o for o in opened if isinstance(o, BaseException)]
        if errors:
            for s, o in zip(servers, opened, strict=True):
                if not isinstance(o, BaseException):
                    await self._close_session(s, *o)
            err = errors[0]
            raise err if isinstance(err, ManagerError) else ManagerError(
                f"opening a session failed: {error_text(err)}") from err
        sessions = dict(zip(servers, opened, strict=True))
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

    async def _open_session(self, name: str, seed: int) -> tuple[str, int]:
        """(session id, connection generation) of a new session seeded with `seed`."""
        for attempt in range(2):
            await self._available(name)
            generation = self._conns[name].generation
            try:
                opened = await self._control(name, "_session_open", {"seed": seed}, None)
            except ServerDied:  # a restarted server: its old connection died unnoticed
                if attempt:
                    raise
                continue
            except TimeoutError:
                raise ManagerError(f"server {self.specs[name].where}: opening a session got "
                                   f"no answer within {self.call_timeout}s") from None
            return opened["session_id"], generation
        raise AssertionError("unreachable")

    async def _close_session(self, name: str, session: str, generation: int) -> None:
        conn = self._conns.get(name)
        if conn is None or conn.generation != generation:
            return  # the session died with its connection
        try:
            await self._control(name, "_session_close", {}, session)
        except Exception as err:  # closing is best effort
            log.warning("closing a %s session: %s", name, error_text(err))

    async def call(self, episode: Episode, tool: str, arguments: Any) -> CallResult:
        """Route one policy call; every failure comes back as a CallResult, never raised."""
        route = episode.routes.get(tool)
        if route is None:
            return CallResult(None, tool, False, kind="unknown_tool", error=(
                f"unknown tool {tool!r}; available tools: {', '.join(episode.routes)}"))
        server, name = route
        if episode.closed:
            return CallResult(server, tool, False, kind="session_lost",
                              error="this episode is closed")
        if server in episode.lost:
            return CallResult(server, tool, False, kind="session_lost",
                              error=episode.why.get(server, f"the {server} session was lost"))
        if not isinstance(arguments, dict):
            return CallResult(server, tool, False, kind="schema_error",
                              error=f"{tool}: arguments must be a JSON object")
        try:
            result = await self._raw(server, name, arguments, episode.sessions[server][0])
        except ManagerError as err:  # the server went away during this call, or is down
            return CallResult(server, tool, False, kind="session_lost", error=f"{tool}: {err}")
        except TimeoutError:
            return CallResult(server, tool, False, kind="execution_error",
                              error=f"{tool}: the server {self.specs[server].where} did "
                              f"not answer within {self.call_timeout}s")
        except Exception as err:  # surfaced to the episode, not the run
            return CallResult(server, tool, False, kind="execution_error",
                              error=f"{tool}: {type(err).__name__}: {err}")
        if result.is_error:
            kind = (result.meta or {}).get(ERROR_KIND_KEY, "execution_error")
            if kind == "session_error":  # e.g. a server restarted behind a stateless URL
                self._lose(episode, server, f"the server {self.specs[server].where} no longer "
                           f"knows this episode's session (restarted?): {_text(result)}")
                return CallResult(server, tool, False, kind="session_lost",
                                  error=f"{tool}: {episode.why[server]}")
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

    async def snapshot(self, episode: Episode, include_state: bool = False,
                       clock_free: bool = False) -> dict[str, dict]:
        """server -> {"hash", ["clock_free_hash": less clock fields], ["state"]}, live ones."""
        out = {}
        args = {"include_state": include_state, "clock_free": clock_free}
        for server, (session, _) in episode.sessions.items():
            if server in episode.lost:
                continue
            out[server] = await self._control(server, "_session_snapshot", args, session)
        return out

    async def close_episode(self, episode: Episode) -> None:
        if episode.closed:
            return
        episode.closed = True
        for server, (session, generation) in episode.sessions.items():
            if server not in episode.lost:
                await self._close_session(server, session, generation)
        self._episodes.pop(episode.id, None)


def _text(result: Any) -> str:
    return " ".join(getattr(c, "text", "") for c in result.content)


def _openai(tool: Any) -> dict:
    return {"type": "function", "function": {"name": tool.name, "description": tool.description,
                                             "parameters": tool.input_schema}}
