"""Re-validation reports a row it cannot replay (its session does not open) and goes on with
the others, instead of ending at the first such row."""

from __future__ import annotations

import asyncio

from prove_jax.synthesis.revalidate import revalidate

WALLET = {"steps": [[{"name": "get_wallet", "arguments": {}}]], "edges": []}


def _row(row_id: str, seed: int) -> dict:
    return {"id": row_id, "servers": ["payments"], "seed": seed, "truth": WALLET}


def test_an_unopenable_row_is_reported_and_the_rest_are_checked():
    rows = [_row("good-a", 0), _row("bad", -7), _row("good-b", 3)]
    report = asyncio.run(revalidate(rows, 3, transport="inprocess"))
    assert report["checked"] == 3 and report["calls"] == 2 and report["errors"] == 0
    assert list(report["unplayable"]) == ["bad"] and "seed" in report["unplayable"]["bad"]
    assert report["hash_mismatch"] == [] and report["passed"] is False
    assert asyncio.run(revalidate([rows[0], rows[2]], 2, transport="inprocess"))["passed"]
