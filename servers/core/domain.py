"""A domain module declares its state generator and its tools; the core does the rest.

    banking = Domain("banking", "Personal banking: accounts, transfers, cards.", build_state)

    @banking.tool(read_only=True)
    def get_account(s: State, account_id: Annotated[str, Arg("Account id from list_accounts")]
                    ) -> AccountOut:
        '''Get one account with its balance.'''
        return {...}

Tools are plain functions on the session's State; their schemas come from their signatures.
"""

from __future__ import annotations

import functools
import inspect
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from servers.core import clock, ids, paging
from servers.core.schema import make_validator, signature_schemas
from servers.core.state import State
from servers.core.world import WORLD_ID_PREFIXES, World


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    input_schema: dict
    output_schema: dict
    read_only: bool
    fn: Callable[..., dict]
    validate: Callable[[Any], dict]
    # Tools that must have run earlier in the session for this one to succeed on the state the
    # user means (add_to_cart before checkout): the synthesizer's implicit dependency edges.
    requires: tuple[str, ...] = ()

    def openai_schema(self) -> dict:
        """The OpenAI-style function schema a policy sees."""
        return {"type": "function", "function": {"name": self.name,
                                                 "description": self.description,
                                                 "parameters": self.input_schema}}


def _check_paged(server: str, tool: str, input_schema: dict, output_schema: dict) -> None:
    """A paged tool takes both paging arguments and replies with next_cursor."""
    missing = [a for a in paging.PAGING_ARGS if a not in input_schema["properties"]]
    if missing or "next_cursor" not in output_schema["properties"]:
        raise TypeError(f"{server}.{tool}: a paged tool takes limit and cursor and returns "
                        "next_cursor")


def _paged(fn: Callable[..., dict]) -> Callable[..., dict]:
    """Run a paged tool with its filter arguments (all but limit/cursor, defaults applied)
    recorded for paging.page, so every filter is in the cursor's fingerprint."""
    sig = inspect.signature(fn)

    @functools.wraps(fn)
    def call(s: State, **kwargs: Any) -> dict:
        bound = sig.bind(s, **kwargs)
        bound.apply_defaults()
        filters = {k: v for k, v in list(bound.arguments.items())[1:]
                   if k not in paging.PAGING_ARGS}
        with paging.query(fn.__name__, filters):
            return fn(s, **kwargs)
    return call


@dataclass
class Domain:
    name: str
    description: str
    build: Callable[[State, World, random.Random], None]  # fills a fresh State
    tools: dict[str, ToolSpec] = field(default_factory=dict)
    # table -> field paths written from the session clock (see clock.without_clock)
    clock_fields: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def tool(self, *, read_only: bool, requires: tuple[str, ...] = ()
             ) -> Callable[[Callable[..., dict]], Callable[..., dict]]:
        def register(fn: Callable[..., dict]) -> Callable[..., dict]:
            if fn.__name__ in self.tools:
                raise ValueError(f"{self.name}: tool {fn.__name__!r} defined twice")
            doc = inspect.getdoc(fn)
            if not doc:
                raise TypeError(f"{self.name}.{fn.__name__} needs a docstring (its description)")
            input_schema, output_schema, _ = signature_schemas(fn)
            call = fn
            if "cursor" in input_schema["properties"]:  # a paged tool: see servers/core/paging
                _check_paged(self.name, fn.__name__, input_schema, output_schema)
                call = _paged(fn)
            self.tools[fn.__name__] = ToolSpec(
                name=fn.__name__, description=doc, input_schema=input_schema,
                output_schema=output_schema, read_only=read_only, fn=call,
                validate=make_validator(fn.__name__, input_schema), requires=tuple(requires))
            return fn
        return register

    def check(self) -> None:
        """Declarations that can only be checked once every tool is registered."""
        for spec in self.tools.values():
            unknown = [r for r in spec.requires if r not in self.tools or r == spec.name]
            if unknown:
                raise ValueError(f"{self.name}.{spec.name} requires unknown tools {unknown}")

    def new_state(self, world: World, rng: random.Random) -> State:
        state = State()
        state.id_salt = str(world.seed)  # ids minted while building are the world's too
        clock.begin(state, world)  # every server's session starts at the world's now
        self.build(state, world, rng)
        ids.seal(state, world.seed, WORLD_ID_PREFIXES)
        state.commit()  # generation is not undoable
        return state

    def without_clock(self, state: State) -> str:
        """Canonical JSON of the state less its clock-derived fields."""
        return clock.canonical_without_clock(state, self.clock_fields)
