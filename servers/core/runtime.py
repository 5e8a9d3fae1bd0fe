"""One server process's sessions, and the dispatch of a call into a session (no MCP here).

Each episode gets its own session: its own State, built from (seed, domain) on the shared world.
Calls are all-or-nothing: the state's journal is rolled back on any failure.

Opening a session copies a cached initial state of its seed when there is one: the G rollouts
of a GRPO group, and every evaluation of a task, open the same seed again and again, and
unpickling a built world is 5-10x cheaper than building it (and its hash is known already).
"""

from __future__ import annotations

import logging
import pickle
import uuid
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from servers.core.domain import Domain
from servers.core.errors import SessionError, ToolError, UnknownToolError
from servers.core.state import State
from servers.core.world import make_world, rng_for

log = logging.getLogger(__name__)

DEFAULT_SESSION = "default"
MAX_SESSIONS = 4096
TEMPLATES = 256  # initial states kept per server process, least recently used dropped


@dataclass
class Session:
    id: str
    seed: int
    state: State


@dataclass(frozen=True)
class Outcome:
    """A call's result: `payload` on success, else `error` with its `kind`."""

    payload: dict | None = None
    error: str | None = None
    kind: str = "ok"  # ok | schema_error | execution_error | unknown_tool | session_error

    @property
    def ok(self) -> bool:
        return self.error is None


class Runtime:
    def __init__(self, domain: Domain, default_seed: int = 0, max_sessions: int = MAX_SESSIONS):
        self.domain = domain
        self.max_sessions = max_sessions
        self.sessions: dict[str, Session] = {}
        # seed -> (pickled initial state, its digest)
        self._templates: OrderedDict[int, tuple[bytes, str]] = OrderedDict()
        self.sessions[DEFAULT_SESSION] = self._fresh(DEFAULT_SESSION, default_seed)

    def _fresh(self, session_id: str, seed: int) -> Session:
        template = self._templates.get(seed)
        if template is None:
            world = make_world(seed)
            state = self.domain.new_state(world, rng_for(seed, self.domain.name))
            template = (pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL), state.digest())
            self._templates[seed] = template
            if len(self._templates) > TEMPLATES:
                self._templates.popitem(last=False)
        else:
            self._templates.move_to_end(seed)
            state = pickle.loads(template[0])
        state._digest = template[1]
        return Session(session_id, seed, state)

    def session(self, session_id: str | None) -> Session:
        key = DEFAULT_SESSION if session_id is None else session_id
        session = self.sessions.get(key)
        if session is None:
            raise SessionError(f"unknown or closed session {session_id!r}; open one first")
        return session

    # --------------------------------------------------------------- control operations
    def open(self, seed: int, session_id: str | None = None) -> Session:
        if session_id is None:
            session_id = uuid.uuid4().hex
        if session_id in self.sessions:
            raise SessionError(f"session {session_id!r} is already open")
        if len(self.sessions) >= self.max_sessions:
            raise SessionError(f"too many open sessions ({self.max_sessions}); close some first")
        session = self._fresh(session_id, seed)
        self.sessions[session_id] = session
        return session

    def reset(self, session_id: str | None, seed: int) -> Session:
        old = self.session(session_id)
        session = self._fresh(old.id, seed)
        self.sessions[old.id] = session
        return session

    def close(self, session_id: str | None) -> None:
        session = self.session(session_id)
        if session.id == DEFAULT_SESSION:
            raise SessionError("the default session cannot be closed; reset it instead")
        del self.sessions[session.id]

    # --------------------------------------------------------------- tool calls
    def call(self, name: str, arguments: Any, session_id: str | None = None) -> Outcome:
        try:
            spec = self.domain.tools.get(name)
            if spec is None:
                raise UnknownToolError(
                    f"unknown tool {name!r} on server {self.domain.name!r}; available tools: "
                    + ", ".join(self.domain.tools))
            kwargs = spec.validate(arguments)
            state = self.session(session_id).state
        except ToolError as err:
            return Outcome(error=str(err), kind=err.kind)
        state.begin()
        try:
            payload = spec.fn(state, **kwargs)
        except ToolError as err:
            state.rollback()
            return Outcome(error=f"{name}: {err}", kind=err.kind)
        except Exception as err:  # a bug in a tool must not kill the server or leak state
            state.rollback()
            log.exception("tool %s.%s crashed", self.domain.name, name)
            return Outcome(error=f"{name}: internal error ({type(err).__name__}: {err})",
                           kind="execution_error")
        state.commit()
        return Outcome(payload=payload)
