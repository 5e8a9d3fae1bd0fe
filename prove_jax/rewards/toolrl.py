"""ToolRL's reward (Qian et al. 2025, arXiv 2504.13958), the ablation baseline.

R = R_format + R_correct, R_correct = 6·S/S_max - 3 in [-3, 3], so R in [-3, 4].
  S = name Jaccard + Σ over matched truth calls (key Jaccard + count of exactly matching values),
  S_max = 1 + Σ_j (1 + |keys(G_j)|).
Following ToolRL's released scorer:
  - name Jaccard is over the *multisets* of tool names (model vs truth); two empty lists score 1;
  - matching walks the truth calls in (step, position) order; each takes the unused model call
    with the same name and the highest key-Jaccard + value-count (> 0), ties to the earliest
    call; key Jaccard of two empty key sets is 1.
ToolRL scores one turn of parallel calls and knows nothing of execution, so here every truth
call of every step is pooled, edges and order are ignored, and outcomes do not gate matching.
Values compare canonically (`canonical.json_equal`), unlike ToolRL's raw Python `==`.
R_format: ToolRL checks the response's tag structure, which this JSON form does not carry; a
trajectory is well-formed (1) unless some call has outcome "unknown_tool", the outcome a parser
gives a call it could not route to any tool. Calls missing a name or an arguments object never
reach the scorer (score() raises). Abstention (no truth calls): S_max = 1 and S = 1 exactly when
the model makes no call, so R_correct = +3 with no call and -3 otherwise.
Alternatives (`accept_alternatives`, on by default): each truth call is resolved to the variant
(itself or one of its alternatives) whose best unused model call scores highest (ties to the
call itself; unmatched: itself), and that variant's name, keys and values stand for it in the
name Jaccard, the matching and S_max; so either path scores the same. Off: only the call itself.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from prove_jax.rewards.canonical import json_equal
from prove_jax.rewards.types import Call, Truth

__all__ = ["multiset_jaccard", "toolrl_reward"]

_MISSING = object()


def multiset_jaccard(a: Sequence, b: Sequence) -> float:
    """|a ∩ b| / |a ∪ b| over multisets; 1 when both are empty."""
    if not a and not b:
        return 1.0
    ca, cb = Counter(a), Counter(b)
    inter = sum(min(n, cb[k]) for k, n in ca.items() if k in cb)
    return inter / (len(a) + len(b) - inter)


def _best(calls: Sequence[Call], candidates: Sequence[int], used: set[int],
          want: Mapping[str, Any], normalize_strings: bool) -> tuple[int, float, float, int]:
    """(call, key Jaccard + value count, key Jaccard, value count) of the unused candidate
    scoring highest against `want` (> 0; ties to the earliest); call -1 when none scores."""
    keys = want.keys()
    best, best_score, best_kj, best_vals = -1, 0.0, 0.0, 0
    for i in candidates:
        if i in used:
            continue
        cargs = calls[i].args
        inter = len(keys & cargs.keys())
        union = len(keys) + len(cargs) - inter
        kj = inter / union if union else 1.0
        vals = 0
        for k, v in want.items():
            got = cargs.get(k, _MISSING)
            if got is _MISSING:
                continue
            tg = type(got)
            if tg is type(v) and (tg is str or tg is int) and not normalize_strings:
                vals += got == v  # the common case, without a call
                continue
            try:
                vals += json_equal(got, v, normalize_strings)
            except ValueError as e:
                raise ValueError(f"calls[{i}].arguments.{k} or a truth call's "
                                 f"arguments.{k}: {e}") from None
        if kj + vals > best_score:
            best, best_score, best_kj, best_vals = i, kj + vals, kj, vals
    return best, best_score, best_kj, best_vals


def _resolve(calls: Sequence[Call], truth: Truth, by_name: Mapping[str, list[int]],
             normalize_strings: bool) -> list[tuple[str, Mapping[str, Any]]]:
    """Each truth call as the (name, arguments) of the variant (itself or an alternative)
    whose best unused model call scores highest, in the matching's own order; ties and
    unmatched calls keep the truth call itself."""
    used: set[int] = set()
    out = []
    for tc in truth.calls:
        want = (tc.name, tc.args)
        best, score = _best(calls, by_name.get(tc.name, ()), used, tc.args, normalize_strings)[:2]
        for alt, alt_args in tc.alts:
            got = _best(calls, by_name.get(alt, ()), used, alt_args, normalize_strings)
            if got[1] > score:
                best, score, want = got[0], got[1], (alt, alt_args)
        if best >= 0:
            used.add(best)
        out.append(want)
    return out


def toolrl_reward(calls: Sequence[Call], truth: Truth, normalize_strings: bool = False,
                  accept_alternatives: bool = True) -> dict[str, float]:
    """Components "format", "name", "param", "value", "correct" and "total" (see docstring)."""
    by_name: dict[str, list[int]] = {}
    for i, c in enumerate(calls):
        by_name.setdefault(c.name, []).append(i)
    if accept_alternatives and truth.alt_by_name:
        wanted = _resolve(calls, truth, by_name, normalize_strings)
    else:
        wanted = [(tc.name, tc.args) for tc in truth.calls]
    name_score = multiset_jaccard([c.name for c in calls], [name for name, _ in wanted])
    used: set[int] = set()
    param = value = 0.0
    s_max = 1.0
    for name, want in wanted:
        s_max += 1 + len(want)
        best, _, best_kj, best_vals = _best(calls, by_name.get(name, ()), used, want,
                                            normalize_strings)
        if best >= 0:
            used.add(best)
            param += best_kj
            value += best_vals
    s = name_score + param + value
    correct = 6 * s / s_max - 3
    fmt = 0.0 if any(c.outcome == "unknown_tool" for c in calls) else 1.0
    return {"format": fmt, "name": name_score, "param": param, "value": value,
            "correct": correct, "total": fmt + correct}
