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
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

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


def toolrl_reward(calls: Sequence[Call], truth: Truth,
                  normalize_strings: bool = False) -> dict[str, float]:
    """Components "format", "name", "param", "value", "correct" and "total" (see docstring)."""
    name_score = multiset_jaccard([c.name for c in calls], [t.name for t in truth.calls])
    by_name: dict[str, list[int]] = {}
    for i, c in enumerate(calls):
        by_name.setdefault(c.name, []).append(i)
    used: set[int] = set()
    param = value = 0.0
    s_max = 1.0
    for tc in truth.calls:
        s_max += 1 + len(tc.args)
        keys = tc.args.keys()
        best, best_score, best_kj, best_vals = -1, 0.0, 0.0, 0
        for i in by_name.get(tc.name, ()):
            if i in used:
                continue
            cargs = calls[i].args
            inter = len(keys & cargs.keys())
            union = len(keys) + len(cargs) - inter
            kj = inter / union if union else 1.0
            vals = 0
            for k, v in tc.args.items():
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
        if best >= 0:
            used.add(best)
            param += best_kj
            value += best_vals
    s = name_score + param + value
    correct = 6 * s / s_max - 3
    fmt = 0.0 if any(c.outcome == "unknown_tool" for c in calls) else 1.0
    return {"format": fmt, "name": name_score, "param": param, "value": value,
            "correct": correct, "total": fmt + correct}
