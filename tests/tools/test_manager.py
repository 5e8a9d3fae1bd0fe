"""The MCPManager over real transports: per-episode sessions, routing, crash recovery."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time

import pytest

from prove_jax.tools.manager import ManagerError, MCPManager, ServerSpec
from tests.net import free_port
from tests.tools.common import a_contact

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend():
    return "asyncio"


async def test_episodes_are_isolated_and_routed_inprocess():
    async with MCPManager([ServerSpec("payments", "inprocess")]) as mgr:
        a = await mgr.open_episode(["payments"], seed=0)
        b = await mgr.open_episode(["payments"], seed=0)
        assert {s["function"]["name"] for s in a.schemas} >= {"send_payment", "get_wallet"}
        assert not any(s["function"]["name"].startswith("_") for s in a.schemas)
        before = (await mgr.call(b, "get_wallet", {})).payload["balance"]
        payee = await a_contact(mgr, a)
        sent = await mgr.call(a, "send_payment", {"contact_id": payee, "amount": 10.0,
                                                  "note": "x"})
        assert sent.ok and sent.server == "payments"
        after_a = (await mgr.call(a, "get_wallet", {})).payload["balance"]
        after_b = (await mgr.call(b, "get_wallet", {})).payload["balance"]
        assert after_a == pytest.approx(before - 10.0) and after_b == before
        snap_a, snap_b = await mgr.snapshot(a), await mgr.snapshot(b)
        assert snap_a["payments"]["hash"] != snap_b["payments"]["hash"]

        bad = await mgr.call(a, "send_payment", {"contact_id": payee})
        assert not bad.ok and bad.kind == "schema_error" and "amount" in bad.error
        missing = await mgr.call(a, "send_payment", {"contact_id": "zz", "amount": 1.0,
                                                     "note": "x"})
        assert not missing.ok and missing.kind == "execution_error"
        unknown = await mgr.call(a, "teleport", {})
        assert not unknown.ok and unknown.kind == "unknown_tool"
        assert "send_payment" in unknown.error
        assert (await mgr.snapshot(a))["payments"]["hash"] == snap_a["payments"]["hash"]
        reset = await mgr.reset_episode(a)  # back to the seed's world, like b before its calls
        assert reset["payments"] == (await mgr.snapshot(b))["payments"]["hash"]
        await mgr.close_episode(a)
        closed = await mgr.call(a, "get_wallet", {})
        assert not closed.ok and closed.kind == "session_lost"


async def test_unknown_server_is_a_clear_error():
    async with MCPManager([ServerSpec("payments", "inprocess")]) as mgr:
        with pytest.raises(ManagerError, match="not running"):
            await mgr.open_episode(["banking_x"], seed=0)
    with pytest.raises(ManagerError, match="failed to start"):
        async with MCPManager([ServerSpec("payments", "http", url="http://127.0.0.1:9/mcp")]):
            pass


async def test_stdio_server_restarts_after_kill_and_reports_lost_episodes():
    async with MCPManager(["payments"], call_timeout=20) as mgr:
        doomed = await mgr.open_episode(["payments"], seed=1)
        ok = await mgr.call(doomed, "get_wallet", {})
        assert ok.ok
        pid = (await mgr._control("payments", "_session_open", {"seed": 0}, None))["pid"]
        os.kill(pid, signal.SIGKILL)
        await asyncio.sleep(0.3)
        failed = await mgr.call(doomed, "get_wallet", {})
        assert not failed.ok and failed.kind == "session_lost"
        assert doomed.id in mgr.lost_episodes and mgr.restarts["payments"] == 1
        again = await mgr.call(doomed, "get_wallet", {})  # stays lost: never a silent new world
        assert not again.ok and again.kind == "session_lost"
        fresh = await mgr.open_episode(["payments"], seed=1)
        result = await mgr.call(fresh, "get_wallet", {})
        assert result.ok and result.payload["balance"] == ok.payload["balance"]
        new_pid = (await mgr._control("payments", "_session_open", {"seed": 0}, None))["pid"]
        assert new_pid != pid


async def test_http_server_with_meta_sessions():
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "servers", "payments", "--transport", "http",
                             "--port", str(port)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    try:
        deadline = time.time() + 30
        while time.time() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            await asyncio.sleep(0.2)
        url = f"http://127.0.0.1:{port}/mcp"
        async with MCPManager([ServerSpec("payments", "http", url=url)]) as mgr:
            a = await mgr.open_episode(["payments"], seed=0)
            b = await mgr.open_episode(["payments"], seed=0)
            payee = await a_contact(mgr, a)
            sent = await mgr.call(a, "send_payment", {"contact_id": payee, "amount": 5.0,
                                                      "note": "http"})
            assert sent.ok
            wa = (await mgr.call(a, "get_wallet", {})).payload["balance"]
            wb = (await mgr.call(b, "get_wallet", {})).payload["balance"]
            assert wb == pytest.approx(wa + 5.0)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


async def test_servers_start_a_few_at_a_time(monkeypatch):
    """Each connect timeout covers one server's own start: the manager never has more than
    `start_concurrency` starts in flight (20 stdio servers at once on 2 cores timed out)."""
    in_flight, peak = 0, 0
    real = MCPManager._connect

    async def counting(self, name):
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        try:
            await asyncio.sleep(0.01)  # let the others start too if nothing holds them back
            return await real(self, name)
        finally:
            in_flight -= 1

    monkeypatch.setattr(MCPManager, "_connect", counting)
    names = ["payments", "budget", "banking", "calendar", "maps"]
    mgr = MCPManager([ServerSpec(n, "inprocess") for n in names])
    mgr.start_concurrency = 2
    async with mgr:
        assert sorted(mgr._conns) == sorted(names)
    assert peak == 2
