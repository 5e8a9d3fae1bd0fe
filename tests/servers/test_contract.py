"""Every server against the shared contract, over real MCP (in-process and stdio).

Counts, valid schemas, every tool called successfully, bad input rejected without changing
state, deterministic resets across processes, and per-episode isolation.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import subprocess
import sys
from typing import TypedDict

import pytest
from jsonschema import Draft202012Validator

from servers.core.app import CONTROL_KEY, CONTROL_TOOLS, REQUIRES_KEY
from servers.core.runtime import Runtime
from servers.registry import TOOL_COUNTS, available, load_domain
from tests.servers.common import (
    call,
    client,
    examples,
    list_with_controls,
    open_session,
    snapshot_hash,
    text,
    wrong_value,
)

SERVERS = available()
pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.mark.parametrize("name", SERVERS)
def test_tool_count_matches_reference(name):
    assert len(load_domain(name).tools) == TOOL_COUNTS[name]


def test_cli_lists_servers_and_counts():
    out = subprocess.run([sys.executable, "-m", "servers", "--list"], capture_output=True,
                         text=True, check=True).stdout
    for name in SERVERS:
        assert f"{name:16s} {TOOL_COUNTS[name]:3d} tools" in out
    total = sum(TOOL_COUNTS[n] for n in SERVERS)
    assert f"{len(SERVERS)} servers, {total} tools" in out


@pytest.mark.parametrize("name", SERVERS)
async def test_schemas_are_valid(name):
    c, _ = client(name)
    async with c:
        policy = (await c.list_tools()).tools  # a plain listing: the domain's tools only
        every = await list_with_controls(c)
    assert len(policy) == TOOL_COUNTS[name]
    assert [t.name for t in policy] == [t.name for t in every if not (t.meta or {}).get(
        CONTROL_KEY)]
    assert {t.name for t in every} - {t.name for t in policy} == set(CONTROL_TOOLS)
    for tool in policy:
        Draft202012Validator.check_schema(tool.input_schema)
        Draft202012Validator.check_schema(tool.output_schema)
        assert tool.input_schema["type"] == "object" and tool.output_schema["type"] == "object"
        assert tool.description and len(tool.description) > 15, tool.name
        for prop, schema in tool.input_schema["properties"].items():
            assert schema.get("description"), f"{tool.name}.{prop} has no description"
        spec = load_domain(name).tools[tool.name]
        assert tool.annotations.read_only_hint == spec.read_only
        requires = (tool.meta or {}).get(REQUIRES_KEY, [])
        assert requires == list(spec.requires)
        assert all(r in load_domain(name).tools for r in requires), tool.name


async def test_plain_listing_hides_controls_and_they_still_work(caplog):
    """An ordinary client sees the paper's count; control calls need no listing, and the
    manager's listing (with controls) spares its client a re-list on every control call."""
    name = SERVERS[0]
    c, _ = client(name)
    async with c:
        plain = (await c.list_tools()).tools
        assert not {t.name for t in plain} & set(CONTROL_TOOLS)
        assert len(plain) == TOOL_COUNTS[name]
        with caplog.at_level("WARNING"):
            session = await open_session(c, seed=3)  # unlisted, yet it answers
        assert "_session_open not listed" in caplog.text  # the client had to look for it
        await list_with_controls(c)
        caplog.clear()
        with caplog.at_level("WARNING"):
            again = await open_session(c, seed=3)
            assert await snapshot_hash(c, again) == await snapshot_hash(c, session)
        assert "not listed" not in caplog.text


@pytest.mark.parametrize("name", SERVERS)
def test_examples_cover_every_tool(name):
    assert {tool for tool, _ in examples(name)} == set(load_domain(name).tools)


@pytest.mark.parametrize("name", SERVERS)
async def test_every_tool_succeeds_over_mcp(name):
    """The client validates each structured result against the tool's output schema."""
    c, _ = client(name)
    async with c:
        await list_with_controls(c)
        session = await open_session(c, seed=0)
        for tool, args in examples(name):
            result = await call(c, tool, args, session)
            assert not result.is_error, f"{tool}({args}): {text(result)}"
            assert isinstance(result.structured_content, dict)
            assert json.loads(result.content[0].text) == result.structured_content


@pytest.mark.parametrize("name", SERVERS)
async def test_bad_input_is_rejected_and_changes_nothing(name):
    c, _runtime = client(name)
    tools = load_domain(name).tools
    async with c:
        await list_with_controls(c)
        session = await open_session(c, seed=0)
        for tool, args in examples(name):
            schema = tools[tool].input_schema
            before = await snapshot_hash(c, session)
            bad_calls = []
            for arg in schema["required"]:
                bad_calls.append(({k: v for k, v in args.items() if k != arg}, arg, "missing"))
            for arg in args:
                bad_calls.append(({**args, arg: wrong_value(schema["properties"][arg])}, arg,
                                  "wrong type"))
                if arg.endswith("_id") and isinstance(args[arg], str):
                    bad_calls.append(({**args, arg: "zz_no_such_id_999"}, "zz_no_such_id_999",
                                      "nonexistent id"))
            bad_calls.append(({**args, "not_a_param": 1}, "not_a_param", "unknown argument"))
            for bad, needle, why in bad_calls:
                result = await call(c, tool, bad, session)
                assert result.is_error, f"{tool} accepted {why} {bad}"
                assert needle in text(result), f"{tool} {why}: unclear message {text(result)!r}"
                assert await snapshot_hash(c, session) == before, f"{tool} {why} changed state"
            result = await call(c, tool, args, session)  # the good call still works
            assert not result.is_error, f"{tool}({args}): {text(result)}"
        unknown = await call(c, "no_such_tool", {}, session)
        assert unknown.is_error and "available tools" in text(unknown)


def _hash_in_subprocess(name: str, seed: int) -> str:
    code = ("from servers.core.runtime import Runtime; from servers.registry import load_domain;"
            f"print(Runtime(load_domain({name!r}), default_seed={seed}).session(None)"
            ".state.digest())")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip()


@pytest.mark.parametrize("name", SERVERS)
def test_reset_is_deterministic_across_processes(name):
    here = Runtime(load_domain(name), default_seed=7).session(None).state.digest()
    assert _hash_in_subprocess(name, 7) == here
    assert Runtime(load_domain(name), default_seed=8).session(None).state.digest() != here


def _random_plan(name: str, rng: random.Random, n_calls: int) -> list[tuple[str, dict]]:
    """Calls drawn from the examples, mutating ones favoured (some will fail: that's fine)."""
    domain = load_domain(name)
    pool = examples(name)
    writes = [e for e in pool if not domain.tools[e[0]].read_only] or pool
    return [rng.choice(writes if rng.random() < 0.8 else pool) for _ in range(n_calls)]


@pytest.mark.parametrize("name", SERVERS)
async def test_200_concurrent_sessions_are_isolated(name):
    n_sessions, n_calls = 200, 6
    rng = random.Random(name)
    plans = [_random_plan(name, rng, n_calls) for _ in range(n_sessions)]
    seeds = [rng.randrange(5) for _ in range(n_sessions)]
    c, _runtime = client(name)
    async with c:
        await list_with_controls(c)
        sessions = await asyncio.gather(*(open_session(c, s) for s in seeds))

        async def play(session: str, plan: list) -> str:
            for tool, args in plan:
                await call(c, tool, args, session)
                await asyncio.sleep(0)  # interleave sessions
            return await snapshot_hash(c, session)

        finals = await asyncio.gather(*(play(s, p) for s, p in zip(sessions, plans, strict=True)))
    assert len(set(sessions)) == n_sessions
    for seed, plan, final in zip(seeds, plans, finals, strict=True):
        alone = Runtime(load_domain(name), default_seed=seed)
        for tool, args in plan:
            alone.call(tool, args)
        assert alone.session(None).state.digest() == final


@pytest.mark.parametrize("name", SERVERS)
def test_cached_worlds_and_memoised_hashes_stay_true(name):
    """Sessions of a seed are copies of one cached initial state and hashes are memoised:
    after every call the memo equals a fresh hash (no tool changes state behind the journal),
    and the cached state is untouched by what its copies went through."""
    domain = load_domain(name)
    runtime = Runtime(domain, default_seed=1)
    rng = random.Random(f"cache-{name}")
    for seed in (1, 1, 4):
        sid = runtime.open(seed).id
        state = runtime.session(sid).state
        for tool, args in examples(name) + _random_plan(name, rng, 12):
            runtime.call(tool, args, sid)
            assert state.digest() == hashlib.sha256(state.canonical().encode()).hexdigest(), (
                f"{name}.{tool} changed state without the journal")
    for seed in (1, 4):
        copy = runtime.open(seed).state
        built = Runtime(domain, default_seed=seed).session(None).state
        assert copy.canonical() == built.canonical()
        assert copy.digest() == hashlib.sha256(built.canonical().encode()).hexdigest()


async def test_session_errors_are_clear():
    c, _ = client(SERVERS[0])
    async with c:
        await list_with_controls(c)
        tool, args = examples(SERVERS[0])[0]
        result = await call(c, tool, args, "never-opened")
        assert result.is_error and "unknown or closed session" in text(result)
        session = await open_session(c, 1)
        assert not (await call(c, "_session_close", {}, session)).is_error
        result = await call(c, tool, args, session)
        assert result.is_error and "unknown or closed session" in text(result)
        dup = await c.call_tool("_session_open", {"seed": 1, "session_id": "abc"})
        assert not dup.is_error
        dup = await c.call_tool("_session_open", {"seed": 1, "session_id": "abc"})
        assert dup.is_error and "already open" in text(dup)
        bad = await c.call_tool("_session_open", {"seed": "x"})
        assert bad.is_error and "seed" in text(bad)
        default = await call(c, tool, args)  # no session id: the default world
        assert not default.is_error


class Done(TypedDict):
    done: bool


def test_requires_must_name_tools_of_the_domain():
    from servers.core.domain import Domain

    domain = Domain("toy", "A toy domain for the check.", lambda s, w, r: None)

    @domain.tool(read_only=False, requires=("no_such_tool",))
    def do_thing(s) -> Done:
        """Does a thing that needs another thing first."""
        return {"done": True}

    with pytest.raises(ValueError, match="no_such_tool"):
        domain.check()
