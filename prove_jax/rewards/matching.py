"""Deterministic matching of model calls to ground-truth calls (PROVE's R_cov and R_arg).

Rule: greedy, in order of appearance. Walk the model calls in trajectory order; a call whose
outcome is in `match_outcomes` may match one not-yet-matched truth call that
  (1) has the same tool name, and
  (2) has every one of its argument keys present in the call (extra keys in the call are allowed);
among those eligible it takes the one with the most exactly-matching argument values
(`canonical.json_equal`), ties going to the earliest truth call in (step, position) order. A call
matches at most one truth call and a truth call at most one model call; unmatched calls are
simply extra.

Alternatives (`accept_alternatives`, on by default; off is the paper's literal rule): a truth
call's recorded alternatives (another read that surfaces the same value) are further ways to
cover it. A call named like one of them is eligible for that truth call by rule (2) against the
alternative's own arguments, and competes with the same-name candidates by matching values
(ties still to the earliest truth call); `Match.alt` records which alternative covered it, so
R_arg divides by that alternative's argument count.

Why greedy rather than an optimal assignment: the position at which a step is first performed is
what the dependency factor o(g) reads (the server state changed then), so the first eligible call
should own the step, as a checker walking the trajectory would decide; an assignment that
reorders matches to maximise a score could credit a later call for a step an earlier call already
performed. Preferring the most matching values keeps parallel calls of one tool with different
arguments (send to A, send to B, in any order) aligned to the right truth calls. It is
O(N · n_gt) per trajectory and needs no solver.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any, NamedTuple

from prove_jax.rewards.canonical import json_equal
from prove_jax.rewards.types import Call, Truth

__all__ = ["Match", "match_calls"]

_MISSING = object()


class Match(NamedTuple):
    """`call_of[t]`: index of the model call matched to truth call t, or -1.

    `hits[t]`: how many of truth call t's argument values that model call matches (0 if none).
    `alt[t]`: the index of the alternative of truth call t that model call used, or -1 (the
    truth call itself, or unmatched); the hits then count that alternative's values. `alt` is
    None when the truth lists no alternatives or they are not accepted (then all are -1).
    """

    call_of: list[int]
    hits: list[int]
    alt: list[int] | None = None


def match_calls(calls: Sequence[Call], truth: Truth, match_outcomes: Collection[str] = ("ok",),
                normalize_strings: bool = False, accept_alternatives: bool = True) -> Match:
    """Greedy matching in order of appearance (see the module docstring).

    Raises ValueError when a compared argument value is not JSON.
    """
    if accept_alternatives and truth.alt_by_name:
        return _match_with_alternatives(calls, truth, match_outcomes, normalize_strings)
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


def _match_with_alternatives(calls: Sequence[Call], truth: Truth,
                             match_outcomes: Collection[str], normalize_strings: bool) -> Match:
    """match_calls' rule where some truth calls list alternatives (kept apart from the hot
    path): a call is eligible for the truth calls of its name and for those listing it as an
    alternative; most matching values, then the earliest truth call."""
    tcalls = truth.calls
    call_of = [-1] * len(tcalls)
    hits = [0] * len(tcalls)
    alt = [-1] * len(tcalls)
    for i, c in enumerate(calls):
        if c.outcome not in match_outcomes:
            continue
        options = [(t, -1) for t in truth.by_name.get(c.name, ())]
        options += truth.alt_by_name.get(c.name, ())
        best, best_hits, best_alt = -1, -1, -1
        for t, a in sorted(options):
            if call_of[t] >= 0:
                continue
            want = tcalls[t].args if a < 0 else tcalls[t].alts[a][1]
            n = _hits(c.args, want, normalize_strings, i, truth, t, a)
            if n > best_hits:
                best, best_hits, best_alt = t, n, a
        if best >= 0:
            call_of[best] = i
            hits[best] = best_hits
            alt[best] = best_alt
    return Match(call_of, hits, alt)


def _hits(args: Mapping[str, Any], want: Mapping[str, Any], normalize_strings: bool, i: int,
          truth: Truth, t: int, a: int) -> int:
    """How many of `want`'s values `args` matches; -1 when a key of `want` is missing. `a`:
    the index of the alternative `want` is, or -1 (truth call t itself), for errors."""
    n = 0
    for k, v in want.items():
        got = args.get(k, _MISSING)
        if got is _MISSING:
            return -1
        try:
            n += json_equal(got, v, normalize_strings)
        except ValueError as e:
            where = f"{_where(truth, t)}.alternatives[{a}]" if a >= 0 else _where(truth, t)
            raise ValueError(f"calls[{i}].arguments.{k} or the truth call "
                             f"{where}.arguments.{k}: {e}") from None
    return n


def _where(truth: Truth, t: int) -> str:
    """'truth.steps[s][p]' of truth call t."""
    s = truth.calls[t].step
    return f"truth.steps[{s}][{truth.step_calls[s].index(t)}]"
