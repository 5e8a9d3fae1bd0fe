"""Deterministic matching of model calls to ground-truth calls (PROVE's R_cov and R_arg).

Rule: greedy, in order of appearance. Walk the model calls in trajectory order; a call whose
outcome is in `match_outcomes` may match one not-yet-matched truth call that
  (1) has the same tool name, and
  (2) has every one of its argument keys present in the call (extra keys in the call are allowed);
among those eligible it takes the one with the most exactly-matching argument values
(`canonical.json_equal`), ties going to the earliest truth call in (step, position) order. A call
matches at most one truth call and a truth call at most one model call; unmatched calls are
simply extra.

Why greedy rather than an optimal assignment: the position at which a step is first performed is
what the dependency factor o(g) reads (the server state changed then), so the first eligible call
should own the step, as a checker walking the trajectory would decide; an assignment that
reorders matches to maximise a score could credit a later call for a step an earlier call already
performed. Preferring the most matching values keeps parallel calls of one tool with different
arguments (send to A, send to B, in any order) aligned to the right truth calls. It is
O(N · n_gt) per trajectory and needs no solver.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import NamedTuple

from prove_jax.rewards.canonical import json_equal
from prove_jax.rewards.types import Call, Truth

__all__ = ["Match", "match_calls"]

_MISSING = object()


class Match(NamedTuple):
    """`call_of[t]`: index of the model call matched to truth call t, or -1.

    `hits[t]`: how many of truth call t's argument values that model call matches (0 if none).
    """

    call_of: list[int]
    hits: list[int]


def match_calls(calls: Sequence[Call], truth: Truth, match_outcomes: Collection[str] = ("ok",),
                normalize_strings: bool = False) -> Match:
    """Greedy matching in order of appearance (see the module docstring).

    Raises ValueError when a compared argument value is not JSON.
    """
    tcalls = truth.calls
    call_of = [-1] * len(tcalls)
    hits = [0] * len(tcalls)
    by_name = truth.by_name
    for i, c in enumerate(calls):
        if c.outcome not in match_outcomes:
            continue
        cands = by_name.get(c.name)
        if cands is None:
            continue
        args = c.args
        best, best_hits = -1, -1
        for t in cands:
            if call_of[t] >= 0:
                continue
            n = 0
            for k, v in tcalls[t].args.items():
                got = args.get(k, _MISSING)
                if got is _MISSING:
                    break
                tg = type(got)
                if tg is type(v) and (tg is str or tg is int) and not normalize_strings:
                    n += got == v  # the common case, without a call
                    continue
                try:
                    n += json_equal(got, v, normalize_strings)
                except ValueError as e:
                    raise ValueError(f"calls[{i}].arguments.{k} or the truth call "
                                     f"{_where(truth, t)}.arguments.{k}: {e}") from None
            else:  # every truth key present
                if n > best_hits:
                    best, best_hits = t, n
        if best >= 0:
            call_of[best] = i
            hits[best] = best_hits
    return Match(call_of, hits)


def _where(truth: Truth, t: int) -> str:
    """'truth.steps[s][p]' of truth call t."""
    s = truth.calls[t].step
    return f"truth.steps[{s}][{truth.step_calls[s].index(t)}]"
