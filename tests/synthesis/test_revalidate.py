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


def test_alternatives_are_called_where_they_stand_and_a_failing_one_fails_the_row():
    def row(row_id: str, alts: list[dict]) -> dict:
        call = {"name": "get_wallet", "arguments": {}, "alternatives": alts}
        return {**_row(row_id, 0), "truth": {"steps": [[call]], "edges": []}}

    good = row("good", [{"name": "list_payments", "arguments": {}}])
    bad = row("bad", [{"name": "get_payment", "arguments": {"payment_id": "pay_none"}}])
    report = asyncio.run(revalidate([good], 1, transport="inprocess"))
    assert report["alternatives"] == 1 and report["alternative_failures"] == {}
    assert report["passed"] and report["hash_mismatch"] == []  # a read changes no state
    report = asyncio.run(revalidate([good, bad], 2, transport="inprocess"))
    assert report["alternative_failures"] == {"bad": ["step 0: get_payment"]}
    assert report["errors"] == 0 and not report["passed"]
