"""Tool-call throughput and latency of our MCP servers vs a bare-SDK floor, same run, same client.

Measures one read-only call, `payments.get_payment` of the first payment built, and the two
session operations every episode pays for: `_session_open` + `_session_close` of a fresh seeded
session, as one operation, and `_session_snapshot`, the canonical-JSON hash of the session's
state. Opens come in two kinds. "open+close" cycles over 97 seeds, so after the first pass it
copies the server's cached initial state of the seed, as the G rollouts of a GRPO group and
repeated evaluations do. "open+close new" opens a seed never seen before, so the world is built
from scratch every time: the worst case, paid once per task seed and server process.
Three transports (in-process `Client(server)`, stdio subprocess, streamable HTTP via uvicorn in
a subprocess), each with 1, 16 and 128 concurrent workers (session operations: 1 and 16).
Every worker has its own session
(opened with `_session_open`, carried as `meta={"prove/session": sid}`); all workers of a
transport share one client connection and issue their calls as asyncio tasks. Reported per cell:
calls/s (timed calls / wall time) and p50/p99 latency of single calls (ms), after a warm-up.

Baselines, measured in the same run:
  python floor: `Runtime.call("get_payment", ...)` and the raw tool function on the session's
                State, called in a plain loop (µs per call; no MCP at all);
  bare-SDK floor: the official high-level `mcp.server.mcpserver.MCPServer` with one tool per
                operation, of the same signature, returning a fixed dict of the same shape, no
                session logic (the meta key is ignored, no world is built, nothing is hashed),
                served over the same transports at the same concurrency. Its return
                type is a TypedDict of the payment's fields, so like ours it returns structured
                content plus JSON text and lists an output schema (a bare `-> dict` gets text only).
The ratio ours/floor is per-call wall time, i.e. floor calls/s / ours calls/s (1/throughput);
the target is ≤ 1.5×. Ours and the floor alternate round by round (best round kept), so a busy
shared machine hurts both alike.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from importlib.metadata import version
from pathlib import Path
from typing import Any

from mcp import Client
from mcp.client.stdio import StdioServerParameters

from servers.core import ids
from servers.core.app import CONTROL_KEY, SESSION_KEY, build_server
from servers.core.runtime import Runtime
from servers.registry import load_domain

ROOT = Path(__file__).resolve().parents[1]
SEED = 0  # the world every measured session plays (ids are seeded: ARGS name its payment)
ARGS = ids.resolve({"payment_id": "pay_0001"}, SEED)  # the first payment built
LEVELS = (1, 16, 128)
SESSION_LEVELS = (1, 16)
TARGET = 1.5
FLOOR_SOURCE = '''\
import sys
from typing import TypedDict

from mcp.server.mcpserver import MCPServer

PAYMENT = {payment!r}
Payment = TypedDict("Payment", {{k: type(v) for k, v in PAYMENT.items()}})
server = MCPServer("floor", log_level="WARNING")


Opened = TypedDict("Opened", {{"session_id": str, "seed": int, "hash": str, "pid": int,
                               "now": str}})
Snapshot = TypedDict("Snapshot", {{"session_id": str, "hash": str, "now": str}})
Closed = TypedDict("Closed", {{"session_id": str, "closed": bool}})
HASH = "0" * 64
NOW = "2026-06-15T12:00+02:00"


@server.tool()
def get_payment(payment_id: str) -> Payment:
    """Get one payment's details."""
    return dict(PAYMENT, payment_id=payment_id)


@server.tool(name="_session_open")
def session_open(seed: int) -> Opened:
    """Open a session (the floor builds nothing)."""
    return {{"session_id": f"s{{seed}}", "seed": seed, "hash": HASH, "pid": 1, "now": NOW}}


@server.tool(name="_session_snapshot")
def session_snapshot() -> Snapshot:
    """Snapshot a session (the floor hashes nothing)."""
    return {{"session_id": "s0", "hash": HASH, "now": NOW}}


@server.tool(name="_session_close")
def session_close() -> Closed:
    """Close a session."""
    return {{"session_id": "s0", "closed": True}}


if __name__ == "__main__":
    if sys.argv[1] == "stdio":
        server.run("stdio")
    else:
        import uvicorn
        uvicorn.run(server.streamable_http_app(), host="127.0.0.1", port=int(sys.argv[2]),
                    log_level="warning")
'''


def per_call_us(fn: Any, n: int, repeats: int = 3) -> float:
    """Best-of-`repeats` mean µs per call of fn() over n calls."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, time.perf_counter() - start)
    return best / n * 1e6


def python_floor(n: int) -> dict:
    runtime = Runtime(load_domain("payments"))
    sid = runtime.open(SEED).id
    state, spec = runtime.session(sid).state, runtime.domain.tools["get_payment"]
    outcome = runtime.call("get_payment", ARGS, sid)
    assert outcome.ok and outcome.payload["payment_id"] == ARGS["payment_id"], outcome
    us_runtime = per_call_us(lambda: runtime.call("get_payment", ARGS, sid), n)
    us_raw = per_call_us(lambda: spec.fn(state, **ARGS), n)
    print(f"python floor ({n} calls, best of 3): Runtime.call {us_runtime:.1f} µs/call, "
          f"raw get_payment(state, ...) {us_raw:.1f} µs/call")
    return outcome.payload


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_http(cmd: list[str], procs: list[subprocess.Popen]) -> str:
    """Start an HTTP server subprocess on a free port; wait until it accepts; return its URL."""
    port = free_port()
    proc = subprocess.Popen([*cmd, str(port)], cwd=ROOT, stdin=subprocess.DEVNULL)
    procs.append(proc)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{cmd} exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return f"http://127.0.0.1:{port}/mcp"
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"{cmd} did not accept connections on port {port} within 60 s")


async def _call(client: Client, tool: str, args: dict, sid: str | None) -> Any:
    result = await client.call_tool(tool, args, meta={SESSION_KEY: sid} if sid else None)
    if result.is_error:
        raise RuntimeError(f"{tool} failed: {result.content}")
    return result.structured_content or {}


async def op_get_payment(client: Client, sid: str, k: int) -> None:
    await _call(client, "get_payment", ARGS, sid)


async def op_open_close(client: Client, sid: str, k: int) -> None:
    opened = await _call(client, "_session_open", {"seed": k % 97}, None)
    await _call(client, "_session_close", {}, opened["session_id"])


_NEW_SEEDS = itertools.count(1_000_000)


async def op_open_close_new(client: Client, sid: str, k: int) -> None:
    opened = await _call(client, "_session_open", {"seed": next(_NEW_SEEDS)}, None)
    await _call(client, "_session_close", {}, opened["session_id"])


async def op_snapshot(client: Client, sid: str, k: int) -> None:
    await _call(client, "_session_snapshot", {}, sid)


OPS = {"get_payment": op_get_payment, "open+close": op_open_close,
       "open+close new": op_open_close_new, "snapshot": op_snapshot}


async def measure(client: Client, sids: list[str], calls: int, warmup: int,
                  op: str = "get_payment") -> tuple:
    """(ops/s, p50 ms, p99 ms) of `calls` operations spread over one task per session id."""
    latencies: list[float] = []
    run_op = OPS[op]

    async def worker(sid: str, n: int, record: bool) -> None:
        for k in range(n):
            start = time.perf_counter()
            await run_op(client, sid, k)
            if record:
                latencies.append(time.perf_counter() - start)

    check = await client.call_tool("get_payment", ARGS, meta={SESSION_KEY: sids[0]})
    assert (check.structured_content or {}).get("payment_id") == ARGS["payment_id"], check
    await asyncio.gather(*(worker(s, max(1, warmup // len(sids)), False) for s in sids))
    per_worker = max(1, calls // len(sids))
    start = time.perf_counter()
    await asyncio.gather(*(worker(s, per_worker, True) for s in sids))
    wall = time.perf_counter() - start
    q = statistics.quantiles(latencies, n=100)
    return len(latencies) / wall, q[49] * 1e3, q[98] * 1e3


async def bench_transport(name: str, ours_target: Any, floor_target: Any, args: Any) -> list:
    rows = []
    async with Client(ours_target) as ours, Client(floor_target) as floor:
        # list first: modern connections check the listed schema (ours: with the control
        # tools, as the manager lists, so opening sessions costs no re-list)
        await ours.list_tools(meta={CONTROL_KEY: True})
        await floor.list_tools()
        sids = []
        for _ in range(max(LEVELS)):
            opened = await ours.call_tool("_session_open", {"seed": SEED})
            sids.append(opened.structured_content["session_id"])
        cells = [("get_payment", conc, args.calls) for conc in LEVELS]
        # session operations: fewer of them (an episode pays each once, not per call)
        cells += [(op, conc, max(20, args.calls // 4))
                  for op in ("open+close", "open+close new", "snapshot") for conc in SESSION_LEVELS]
        for op, conc, calls in cells:
            best: dict[str, tuple] = {}
            for _ in range(args.rounds):  # alternate ours / floor; keep each one's best round
                for label, client, ids in (("ours", ours, sids[:conc]),
                                           ("floor", floor, [f"s{i}" for i in range(conc)])):
                    got = await measure(client, ids, calls, args.warmup, op)
                    if label not in best or got[0] > best[label][0]:
                        best[label] = got
            rows.append((name, op, conc, best["ours"], best["floor"]))
            o, f = best["ours"], best["floor"]
            print(f"  {name:10s} {op:14s} x{conc:<3d} ours {o[0]:7.0f}/s  floor {f[0]:7.0f}/s",
                  flush=True)
    return rows


def print_table(rows: list) -> None:
    print("\nratio = ours/floor per-call wall time = floor calls/s / ours calls/s "
          f"(1/throughput); target ≤ {TARGET}×\n")
    print("| transport | operation | sessions | ours ops/s | ours p50 ms | ours p99 ms | "
          "floor ops/s | floor p50 ms | floor p99 ms | ratio | ≤ 1.5× |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, op, conc, (oc, op50, op99), (fc, fp50, fp99) in rows:
        ratio = fc / oc
        print(f"| {name} | {op} | {conc} | {oc:.0f} | {op50:.2f} | {op99:.2f} | {fc:.0f} | "
              f"{fp50:.2f} | {fp99:.2f} | {ratio:.2f} | {'yes' if ratio <= TARGET else 'NO'} |")


async def run(args: Any, payment: dict, tmp: Path, procs: list[subprocess.Popen]) -> list:
    floor_file = tmp / "floor_server.py"
    floor_file.write_text(FLOOR_SOURCE.format(payment=payment))
    namespace: dict[str, Any] = {"__name__": "floor_server"}
    exec(compile(FLOOR_SOURCE.format(payment=payment), str(floor_file), "exec"), namespace)
    py = sys.executable
    ours_stdio = StdioServerParameters(command=py, args=["-m", "servers", "payments"], cwd=ROOT)
    floor_stdio = StdioServerParameters(command=py, args=[str(floor_file), "stdio"], cwd=ROOT)
    ours_http = start_http([py, "-m", "servers", "payments", "--transport", "http", "--port"],
                           procs)
    floor_http = start_http([py, str(floor_file), "http"], procs)
    rows = []
    for name, ours, floor in (
            ("in-process", build_server(Runtime(load_domain("payments"))), namespace["server"]),
            ("stdio", ours_stdio, floor_stdio), ("http", ours_http, floor_http)):
        rows += await bench_transport(name, ours, floor, args)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, help="timed calls per cell (default 2000; 300 quick)")
    parser.add_argument("--rounds", type=int, help="alternating rounds per cell, best kept "
                        "(default 2; 1 quick)")
    parser.add_argument("--warmup", type=int, default=50, help="untimed calls before each cell")
    parser.add_argument("--quick", action="store_true", help="smoke run: fewer calls")
    args = parser.parse_args()
    args.calls = args.calls or (300 if args.quick else 2000)
    args.rounds = args.rounds or (1 if args.quick else 2)
    print(f"python {platform.python_version()}, mcp {version('mcp')}, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.2f}; "
          f"{args.calls} timed calls per cell, best of {args.rounds} round(s), "
          f"{args.warmup} warm-up calls")
    payment = python_floor(20_000 if args.quick else 100_000)
    procs: list[subprocess.Popen] = []
    try:
        with tempfile.TemporaryDirectory(prefix="tool_calls_") as tmp:
            rows = asyncio.run(run(args, payment, Path(tmp), procs))
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    print_table(rows)
    print(f"\nload average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
