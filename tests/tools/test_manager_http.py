"""The MCPManager against HTTP servers it does not own: a server killed mid-run loses exactly
the sessions it held (with a reason naming it and its URL), never hangs a caller, and is
reconnected once it is back at the same URL."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from prove_jax.tools.manager import ManagerError, MCPManager, ServerSpec
from tests.net import free_port
from tests.tools.common import a_contact

pytestmark = [pytest.mark.anyio, pytest.mark.timeout(120)]  # a hang fails, not stalls
ROOT = Path(__file__).resolve().parents[2]
QUICK = 10.0  # seconds: "returns promptly" on a loaded 2-core machine (a hang is >= 20 s)


@pytest.fixture
def anyio_backend():
    return "asyncio"


class _Servers:
    """HTTP server processes on 127.0.0.1, by name; each keeps its port across restarts."""

    def __init__(self) -> None:
        self.procs: dict[str, subprocess.Popen] = {}
        self.ports: dict[str, int] = {}

    def start(self, name: str) -> str:
        port = self.ports.setdefault(name, free_port())
        self.procs[name] = subprocess.Popen(
            [sys.executable, "-m", "servers", name, "--transport", "http", "--port", str(port)],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 60
        while True:
            assert self.procs[name].poll() is None, f"{name} server exited"
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    return self.url(name)
            assert time.time() < deadline, f"{name} server never listened on {port}"
            time.sleep(0.1)

    def url(self, name: str) -> str:
        return f"http://127.0.0.1:{self.ports[name]}/mcp"

    def kill(self, name: str) -> None:
        proc = self.procs[name]
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)

    def stop_all(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.kill()
                proc.wait(timeout=10)


@contextmanager
def _servers(*names: str) -> Iterator[_Servers]:
    servers = _Servers()
    try:
        for name in names:
            servers.start(name)
        yield servers
    finally:
        servers.stop_all()


def _specs(servers: _Servers) -> list[ServerSpec]:
    return [ServerSpec(n, "http", url=servers.url(n)) for n in servers.ports]


async def _timed(coro):
    t0 = time.monotonic()
    out = await coro
    return out, time.monotonic() - t0


async def test_killed_server_loses_its_episodes_only_and_is_reconnected_when_back():
    with _servers("payments", "budget") as servers:
        url = servers.url("payments")
        async with MCPManager(_specs(servers), call_timeout=20, connect_timeout=5) as mgr:
            a = await mgr.open_episode(["payments"], seed=0)
            b = await mgr.open_episode(["payments"], seed=1)
            other = await mgr.open_episode(["budget"], seed=0)
            both = await mgr.open_episode(["payments", "budget"], seed=0)
            first = await mgr.call(a, "get_wallet", {})
            assert first.ok
            budget_tool = "list_budgets"
            assert (await mgr.call(other, budget_tool, {})).ok

            servers.kill("payments")
            results, took = await _timed(asyncio.gather(
                mgr.call(a, "get_wallet", {}), mgr.call(b, "get_wallet", {}),
                mgr.call(both, "get_wallet", {}), mgr.call(other, budget_tool, {}),
                mgr.call(both, budget_tool, {})))
            assert took < QUICK, f"calls on a dead server took {took:.1f}s"
            for lost in results[:3]:
                assert not lost.ok and lost.kind == "session_lost", lost
                assert "payments" in lost.error and url in lost.error, lost.error
            assert results[3].ok and results[4].ok  # budget sessions are unaffected
            assert mgr.lost_episodes == {a.id, b.id, both.id}
            again = await mgr.call(a, "get_wallet", {})
            assert again.kind == "session_lost" and url in again.error
            snap = await mgr.snapshot(both)  # the live half of an episode still answers
            assert set(snap) == {"budget"}

            t0 = time.monotonic()
            with pytest.raises(ManagerError, match="payments") as err:
                await mgr.open_episode(["payments", "budget"], seed=0)
            assert url in str(err.value) and time.monotonic() - t0 < QUICK
            fine, took = await _timed(mgr.open_episode(["budget"], seed=0))
            assert (await mgr.call(fine, budget_tool, {})).ok and took < QUICK

            servers.start("payments")  # back at the same URL: a later open reconnects
            fresh = await mgr.open_episode(["payments"], seed=0)
            back = await mgr.call(fresh, "get_wallet", {})
            assert back.ok and back.payload == first.payload
            assert (await mgr.call(a, "get_wallet", {})).kind == "session_lost"  # stays lost
            for episode in (a, b, other, both, fine, fresh):
                await mgr.close_episode(episode)


async def test_server_restarted_between_calls_loses_old_sessions_and_serves_new_ones():
    with _servers("payments") as servers:
        async with MCPManager(_specs(servers), call_timeout=20, connect_timeout=5) as mgr:
            old = await mgr.open_episode(["payments"], seed=0)
            payee = await a_contact(mgr, old)
            sent = await mgr.call(old, "send_payment", {"contact_id": payee, "amount": 5.0,
                                                        "note": "x"})
            assert sent.ok
            servers.kill("payments")
            servers.start("payments")
            # The old world is gone with the process: never a silent fresh world.
            lost = await mgr.call(old, "get_wallet", {})
            assert not lost.ok and lost.kind == "session_lost", lost
            assert servers.url("payments") in lost.error and old.id in mgr.lost_episodes
            # An open right after the restart succeeds on its first try.
            new = await mgr.open_episode(["payments"], seed=0)
            assert (await mgr.call(new, "get_wallet", {})).ok
            assert (await mgr.call(old, "get_wallet", {})).kind == "session_lost"
            await mgr.close_episode(old)  # a lost session is not closed again
            await mgr.close_episode(new)


async def test_silent_and_frozen_servers_are_bounded_by_the_timeouts():
    silent = socket.socket()  # accepts connections, never answers
    silent.bind(("127.0.0.1", 0))
    silent.listen()
    url = f"http://127.0.0.1:{silent.getsockname()[1]}/mcp"
    try:
        t0 = time.monotonic()
        with pytest.raises(ManagerError, match="no answer within") as err:
            await MCPManager([ServerSpec("payments", "http", url=url)], connect_timeout=1).start()
        assert url in str(err.value) and time.monotonic() - t0 < QUICK
    finally:
        silent.close()

    with _servers("payments") as servers:
        mgr = MCPManager(_specs(servers), call_timeout=1, connect_timeout=2)
        await mgr.start()
        try:
            episode = await mgr.open_episode(["payments"], seed=0)
            os.kill(servers.procs["payments"].pid, signal.SIGSTOP)
            result, took = await _timed(mgr.call(episode, "get_wallet", {}))
            assert not result.ok and "did not answer within 1" in result.error
            assert took < QUICK
            t0 = time.monotonic()
            with pytest.raises(ManagerError, match="payments"):
                await mgr.open_episode(["payments"], seed=0)
            assert time.monotonic() - t0 < QUICK
        finally:
            _, took = await _timed(mgr.stop())
            os.kill(servers.procs["payments"].pid, signal.SIGCONT)
        assert took < QUICK
