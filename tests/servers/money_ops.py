"""Seeded random operation sequences for the money reconciliation tests.

A test gives, per tool, a function (rng, state) -> arguments; `run_ops` draws tools and
arguments and calls them. Failures of single operations are fine (they must leave the state as
it was, which the runtime's journal guarantees); what the tests check afterwards is that the
balances still reconcile with the recorded transactions.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from servers.core import money
from servers.core.runtime import Runtime
from servers.core.state import State

ArgMaker = Callable[[random.Random, State], dict[str, Any]]
# seeds of the reconciliation tests: EUR, USD and JPY worlds
SEEDS = (0, 2, 10)


def amount(rng: random.Random, s: State, lo: float = 1, hi: float = 200) -> float | int:
    """A plausible input amount in the session's currency; now and then one with a decimal
    too many (which must be refused)."""
    cur = money.currency_of(s)
    minor = money.seed(round(rng.uniform(lo, hi), 2), cur)
    major = money.to_major(minor, cur)
    if rng.random() < 0.05:
        return float(major) + 0.001 if money.digits(cur) else float(major) + 0.5
    return major


Call = tuple[str, dict[str, Any], dict[str, Any]]  # tool, arguments, result


def run_ops(rt: Runtime, makers: dict[str, ArgMaker], n: int, seed: int
            ) -> tuple[list[Call], int]:
    """n random calls; returns the successful ones in order and the number that failed."""
    rng = random.Random(f"money-ops:{seed}")
    s = rt.session(None).state
    names = sorted(makers)
    done: list[Call] = []
    failed = 0
    for _ in range(n):
        tool = rng.choice(names)
        args = makers[tool](rng, s)
        out = rt.call(tool, args)
        if out.ok:
            done.append((tool, args, out.payload))
        else:
            failed += 1
    return done, failed


def minor(value: float | int, currency: str) -> int:
    """An amount the test sent, in minor units, computed apart from the code under test."""
    digits = {"JPY": 0}.get(currency, 2)
    exact = Decimal(repr(value)).scaleb(digits)
    assert exact == exact.to_integral_value(), value
    return int(exact)
