"""Every server as its own stdio process, driven through the MCPManager: all tools work, bad
input comes back as errors, and the process is still serving afterwards."""

from __future__ import annotations

import pytest

from prove_jax.tools.manager import MCPManager
from servers.registry import TOOL_COUNTS, available
from tests.servers.common import examples

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend():
    return "asyncio"


async def test_all_servers_over_stdio():
    names = available()
    async with MCPManager(names, call_timeout=30) as mgr:
        for name in names:
            episode = await mgr.open_episode([name], seed=0)
            assert len(episode.schemas) == TOOL_COUNTS[name]
            for tool, args in examples(name):
                result = await mgr.call(episode, tool, args)
                assert result.ok, f"{name}.{tool}({args}): {result.error}"
            hash_before = (await mgr.snapshot(episode))[name]["hash"]
            for bad in ({"zz_unknown_argument": 1}, ["not", "an", "object"]):
                result = await mgr.call(episode, examples(name)[0][0], bad)
                assert not result.ok and result.kind == "schema_error", result
            assert (await mgr.snapshot(episode))[name]["hash"] == hash_before
            tool, args = examples(name)[0]
            assert (await mgr.call(episode, tool, args)).ok  # the process still serves
            await mgr.close_episode(episode)
        assert mgr.restarts == {}
