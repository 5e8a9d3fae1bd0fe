"""PROVE reward components (REFERENCE.md §3), each a pure function, and their weighted total.

Notation: N model calls, n_gt truth calls (parallel calls inside a step count one by one).
Empty means are 0: R_val and R_name with N = 0, R_arg with no matched pair, R_cov with
n_gt = 0 (abstention only), so a trajectory is never rewarded for saying nothing on a task that
needs calls. Bounds: R_val, R_cov, R_name, R_arg in [0, 1]; -α·N / max(B, 1) <= R_eff <= 0.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence

from prove_jax.rewards.canonical import canonical
from prove_jax.rewards.config import RewardConfig
from prove_jax.rewards.matching import Match, match_calls
from prove_jax.rewards.types import Call, Truth

__all__ = ["CALL_VALIDITY", "budget", "prove_reward", "r_arg", "r_cov", "r_eff", "r_finish",
           "r_name", "r_repeat", "r_state", "r_val"]

# 1/3 for a tool name that exists, +1/3 for required parameters present with JSON-compatible
# types, +1/3 for successful execution.
CALL_VALIDITY = {"unknown_tool": 0.0, "schema_error": 1 / 3, "execution_error": 2 / 3, "ok": 1.0}


def r_val(calls: Sequence[Call]) -> float:
    """Mean per-call validity (CALL_VALIDITY); 0 with no calls."""
    if not calls:
        return 0.0
    v = CALL_VALIDITY
    return sum([v[c.outcome] for c in calls]) / len(calls)


def r_cov(match: Match, truth: Truth) -> float:
    """(1/n_gt) Σ_g m(g)·o(g) over truth calls g; 0 when n_gt = 0.

    m(g) = 1 when g is matched. o(g) = 1 when every call of every step that g's step depends on
    (direct edges [j, step(g)]) is matched at an earlier position than g's match.
    """
    n = truth.n_calls
    if n == 0:
        return 0.0
    call_of, dep_calls = match.call_of, truth.dep_calls
    covered = 0
    for t, tc in enumerate(truth.calls):
        pos = call_of[t]
        if pos < 0:
            continue
        for u in dep_calls[tc.step]:
            if not 0 <= call_of[u] < pos:
                break
        else:
            covered += 1
    return covered / n


def budget(n_gt: int, beta: float) -> int:
    """B = n_gt + ceil(β·n_gt) (rounded to 9 decimals first, so 0.7·10 gives 7, not 8)."""
    return n_gt + math.ceil(round(beta * n_gt, 9))


def r_eff(n_calls: int, n_gt: int, alpha: float, beta: float) -> float:
    """-α · max(0, n_calls - B) / B; B = 0 (abstention) divides by 1: each call costs α."""
    b = budget(n_gt, beta)
    over = n_calls - b
    return -alpha * over / max(b, 1) if over > 0 else 0.0


def r_name(calls: Sequence[Call], truth: Truth, alternatives: bool = True) -> float:
    """Fraction of the model's calls whose name is among the truth's tool names (with
    `alternatives`, its calls' alternatives' names too); 0 with no calls."""
    if not calls:
        return 0.0
    names = truth.by_name
    alts = truth.alt_by_name if alternatives else None
    if alts:
        return sum([c.name in names or c.name in alts for c in calls]) / len(calls)
    return sum([c.name in names for c in calls]) / len(calls)


def r_arg(match: Match, truth: Truth) -> float:
    """Mean over matched (model, truth) pairs of the fraction of the truth call's argument keys
    whose values match exactly (a truth call without arguments scores 1); 0 with no pair. A
    pair made through an alternative counts that alternative's keys (`Match.alt`)."""
    total, pairs = 0.0, 0
    call_of, alt = match.call_of, match.alt
    for t, tc in enumerate(truth.calls):
        if call_of[t] >= 0:
            pairs += 1
            n_keys = len(tc.args) if alt is None or alt[t] < 0 else len(tc.alts[alt[t]][1])
            total += match.hits[t] / n_keys if n_keys else 1.0
    return total / pairs if pairs else 0.0


def r_state(truth: Truth, end_state: Mapping[str, str] | None) -> float | None:
    """1 when every server the truth writes ended in the truth's end state (clock-free hashes,
    so any valid order of independent calls counts), else 0; None when either side has no
    end state (a row made before end states, or an episode not snapshotted)."""
    if truth.end_state is None or end_state is None:
        return None
    return float(all(end_state.get(s) == h for s, h in truth.end_state.items()))


def r_repeat(calls: Sequence[Call], truth: Truth) -> float:
    """-(repeated calls) / max(n_gt, 1): a call repeats when an earlier call of the episode has
    the same name and canonically equal arguments; the truth's own repeats (a read before and
    after a write, say) are allowed as often as the truth makes them. In [-N / max(n_gt, 1), 0].
    """
    if len(calls) < 2:
        return 0.0
    made = Counter((c.name, canonical(c.args)) for c in calls)
    allowed = Counter((t.name, canonical(t.args)) for t in truth.calls)
    # per call key: a key made less often than the truth allows must not offset another's
    repeats = sum(max(0, n - max(1, allowed[key])) for key, n in made.items())
    return -repeats / max(truth.n_calls, 1)


def r_finish(finished: bool, cov: float, rule: str = "covered") -> float:
    """0 unless the episode ended on the model's own final answer; then R_cov ("covered": an
    answer pays for the work done before it, nothing for a bare claim) or 1 ("answer")."""
    if not finished:
        return 0.0
    return 1.0 if rule == "answer" else cov


def prove_reward(calls: Sequence[Call], truth: Truth, config: RewardConfig | None = None,
                 end_state: Mapping[str, str] | None = None,
                 finished: bool | None = None) -> dict[str, float]:
    """Every component ("val", "cov", "eff", "name", "arg", and "state" where the truth and
    the episode both give an end state) and their weighted "total"; `w_state` = 0 (default)
    keeps the paper's formula. With `w_repeat` > 0, "repeat" (r_repeat) joins them; with
    `w_finish` > 0 and `finished` given (did the episode end on the model's answer?), "finish".

    Abstention tasks: total = 1 when the model makes no call, else 0; the components are still
    computed by the rules above (with no truth calls: cov 0, arg 0, name 0, eff = -α·N).
    """
    cfg = config or RewardConfig()
    match = match_calls(calls, truth, cfg.match_outcomes, cfg.normalize_strings,
                        cfg.accept_alternatives)
    out = {
        "val": r_val(calls),
        "cov": r_cov(match, truth),
        "eff": r_eff(len(calls), truth.n_calls, cfg.alpha, cfg.beta),
        "name": r_name(calls, truth, cfg.accept_alternatives),
        "arg": r_arg(match, truth),
    }
    state = r_state(truth, end_state)
    if state is not None:
        out["state"] = state
    if cfg.w_repeat:
        out["repeat"] = r_repeat(calls, truth)
    if cfg.w_finish and finished is not None:
        out["finish"] = r_finish(finished, out["cov"], cfg.finish)
    if truth.kind == "abstention":
        out["total"] = 0.0 if calls else 1.0
    else:
        out["total"] = (cfg.w_val * out["val"] + cfg.w_cov * out["cov"] + cfg.w_eff * out["eff"]
                        + cfg.w_name * out["name"] + cfg.w_arg * out["arg"]
                        + (cfg.w_state * state if state is not None else 0.0)
                        + cfg.w_repeat * out.get("repeat", 0.0)
                        + cfg.w_finish * out.get("finish", 0.0))
    return out
