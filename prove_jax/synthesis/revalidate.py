"""Independent re-validation of a written dataset: replay a sample of rows' truth, exactly as
stored (exposed names, arguments, world seed), on fresh server processes (stdio by default)
and in-process, and compare. A row passes when at most `max_error_frac` of its calls fail,
both replays end in the same state hashes and the truth's end state, and every alternative a
truth call records runs without error where it stands (called right after that call: a read,
so the state and hashes stay the truth's).

    python -m prove_jax.synthesis.revalidate runs/synth --n 500
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from prove_jax.tools.manager import MCPManager, ServerSpec

__all__ = ["replay_row", "revalidate"]


async def replay_row(manager: MCPManager, row: dict, alt_failures: list[str] | None = None
                     ) -> tuple[int, int, dict[str, str], dict[str, str]]:
    """(calls, errors, server -> final state hash, server -> its clock-free hash) of one row's
    truth on a new episode. With `alt_failures` (a list), each truth call's alternatives are
    called right after it too (reads: the state and hashes must not change), and the ones
    that fail are appended to it ("step S: NAME")."""
    episode = await manager.open_episode(row["servers"], row["seed"])
    calls = errors = 0
    try:
        for s, step in enumerate(row["truth"]["steps"]):
            for call in step:
                calls += 1
                result = await manager.call(episode, call["name"], call["arguments"])
                errors += not result.ok
                for alt in call.get("alternatives", ()) if alt_failures is not None else ():
                    if not (await manager.call(episode, alt["name"], alt["arguments"])).ok:
                        alt_failures.append(f"step {s}: {alt['name']}")
        snaps = await manager.snapshot(episode, clock_free=True)
    finally:
        await manager.close_episode(episode)
    return (calls, errors, {s: v["hash"] for s, v in snaps.items()},
            {s: v["clock_free_hash"] for s, v in snaps.items()})


async def _replay_all(rows: Sequence[dict], transport: str) -> list[tuple]:
    """(calls, errors, hashes, clock-free hashes, why a row could not be replayed, failed
    alternatives) per row: a row whose session cannot open (or whose replay breaks) is
    reported, not the end of the check. Alternatives are called beside their truth calls."""
    servers = sorted({s for r in rows for s in r["servers"]})
    out = []
    async with MCPManager([ServerSpec(s, transport) for s in servers], call_timeout=60) as mgr:
        for row in rows:
            failed: list[str] = []
            try:
                out.append((*await replay_row(mgr, row, failed), None, failed))
            except Exception as err:
                out.append((0, 0, None, None, f"{type(err).__name__}: {err}", failed))
    return out


async def revalidate(rows: Sequence[dict], n: int, seed: int = 0, transport: str = "stdio",
                     max_error_frac: float = 0.3) -> dict[str, Any]:
    """Check a random sample of n rows with truth calls; returns a report."""
    candidates = [r for r in rows if r["truth"]["steps"]]
    sample = random.Random(seed).sample(candidates, min(n, len(candidates)))
    fresh = await _replay_all(sample, transport)
    local = await _replay_all(sample, "inprocess")
    too_many, differ, wrong_end, unplayable, alt_failed = [], [], [], {}, {}
    for row, (calls, errors, hashes, ends, why, failed), (_, _, mine, _, why_local, _) in zip(
            sample, fresh, local, strict=True):
        if why or why_local:
            unplayable[row["id"]] = why or why_local
            continue
        if failed:
            alt_failed[row["id"]] = failed
        if calls and errors / calls > max_error_frac:
            too_many.append(row["id"])
        if hashes != mine or set(hashes) != set(row["servers"]):
            differ.append(row["id"])
        expected = row["truth"].get("end_state") or {}
        if any(ends.get(s) != h for s, h in expected.items()):
            wrong_end.append(row["id"])
    return {"checked": len(sample), "transport": transport,
            "calls": sum(r[0] for r in fresh), "errors": sum(r[1] for r in fresh),
            "over_error_threshold": too_many, "hash_mismatch": differ,
            "with_end_state": sum(bool(r["truth"].get("end_state")) for r in sample),
            "end_state_mismatch": wrong_end, "unplayable": unplayable,
            "alternatives": sum(len(c.get("alternatives", ())) for r in sample
                                for step in r["truth"]["steps"] for c in step),
            "alternative_failures": alt_failed,
            "passed": not too_many and not differ and not wrong_end and not unplayable
            and not alt_failed}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m prove_jax.synthesis.revalidate",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dir", help="dataset directory (train.jsonl, test.jsonl)")
    parser.add_argument("--n", type=int, default=500, help="rows to re-validate")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--transport", default="stdio", choices=["stdio", "inprocess"])
    args = parser.parse_args(argv)
    rows = [json.loads(line) for name in ("train.jsonl", "test.jsonl")
            for line in (Path(args.out_dir) / name).read_text().splitlines()]
    report = asyncio.run(revalidate(rows, args.n, args.seed, args.transport))
    print(json.dumps(report, indent=1))
    return 0 if report["passed"] else 1


if __name__ == "__main__":
    sys.exit(main())
