"""Programmatic rewards for tool-use trajectories: PROVE (REFERENCE.md §3) and ToolRL.

`score(calls, truth, config=None)` takes the JSON form of a trajectory's calls and of a task's
ground truth (documented in `prove_jax.rewards.types`), validates it (ValueError naming the bad
element; nothing is silently dropped) and returns {component: value} including "total". The
typed path, `parse_calls` / `parse_truth` then `prove_reward` / `toolrl_reward`, lets a caller
parse a task's truth once and score many rollouts against it.

Decisions (the paper leaves these open):
  - Units. Parallel calls count one by one: every truth call is a unit of coverage (|G| = n_gt,
    the number of truth calls), and an edge [j, g] between steps applies to every call of step
    g: o(g) = 1 only if all calls of every step g directly depends on were matched at earlier
    positions (index in the calls list) than g's match. Dependencies are direct, not transitive.
  - Matching: greedy in order of appearance, preferring the truth call with the most matching
    values (ties to the earliest); see `matching` for the rule and why not an optimal assignment.
  - Any call matches by name + argument keys, whatever its outcome: the paper's literal rule
    (the default). `match_outcomes=["ok"]` is an ablation where only successful calls match: a
    failed call performed nothing on the server, so with it a corrected retry owns the step
    instead of the failed attempt. R_val and R_name always see every call.
  - Values compare after JSON canonicalization (5 == 5.0, True != 1, key order ignored, arrays
    ordered); strip + casefold string normalization only with `normalize_strings` (see
    `canonical`). Only compared values are canonicalized (lazily), so parsing checks structure
    and top-level argument keys but not every nested value; a non-JSON value raises ValueError
    when a reward compares it.
  - Empty cases: R_val and R_name are 0 without calls, R_arg 0 without matched pairs, R_cov 0
    without truth calls; a truth call with no arguments scores 1 on R_arg when matched.
  - Budget: B = n_gt + ceil(β·n_gt); R_eff counts every call, whatever its outcome.
  - Clarification tasks: the truth steps are the calls made once the user supplies the missing
    value; they are scored exactly like normal tasks (any guessing call before it is extra).
  - Abstention tasks (no truth calls): total = 1 with no call, else 0. Components are still
    reported by the same rules: val (mean validity, 0 with no call), cov 0, name 0, arg 0,
    eff = -α·N (a zero budget divides by 1). Note the scale: a perfect normal trajectory totals
    Σ positive weights = 1.3 with the defaults, an abstention at most 1; GRPO advantages compare
    rollouts of one task, so this only matters when pooling tasks.
  - Alternatives (`accept_alternatives`, on by default): a truth call may list other calls
    that do its job (a read whose live result surfaces the same value, verified when the row
    was synthesized). A call to one covers the truth call (R_cov, with the same o(g)), its name
    counts for R_name, and R_arg compares its values with, and divides by the key count of, the
    alternative's recorded arguments. Off: only the recorded call counts (the paper's rule).
  - Habit terms, off by default (`w_repeat`, `w_finish`; see `config`): the paper's reward
    never charges a repeated call (R_val and R_name are means over calls, R_cov cannot fall)
    and cannot tell a final answer from a turn cap, and GRPO on it learned to call again and
    not finish (README, the fourth reading). A repeat is judged on name + canonical
    arguments; the finish term needs the episode's end, so `score` takes `finished`, and by
    default pays an answer R_cov (`finish="covered"`): with 1 for any answer (`"answer"`),
    GRPO learned to answer without calling (the fifth reading).
  - ToolRL: see `toolrl` (pooled truth calls, multiset name Jaccard, R_format from outcomes).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from prove_jax.rewards.canonical import canonical, check_arguments, json_equal
from prove_jax.rewards.config import RewardConfig
from prove_jax.rewards.matching import Match, match_calls
from prove_jax.rewards.prove import (
    CALL_VALIDITY,
    budget,
    prove_reward,
    r_arg,
    r_cov,
    r_eff,
    r_finish,
    r_name,
    r_repeat,
    r_state,
    r_val,
)
from prove_jax.rewards.toolrl import multiset_jaccard, toolrl_reward
from prove_jax.rewards.types import (
    KINDS,
    OUTCOMES,
    Call,
    Truth,
    TruthCall,
    parse_calls,
    parse_truth,
)

__all__ = [
    "CALL_VALIDITY", "KINDS", "OUTCOMES", "Call", "Match", "RewardConfig", "Truth", "TruthCall",
    "alignment", "budget", "canonical", "check_arguments", "json_equal", "match_calls",
    "multiset_jaccard", "parse_calls", "parse_truth", "prove_reward", "r_arg", "r_cov", "r_eff",
    "r_finish", "r_name", "r_repeat", "r_state", "r_val", "score", "score_parsed", "toolrl_reward",
]


def score_parsed(calls: tuple[Call, ...], truth: Truth,
                 config: RewardConfig | Mapping[str, Any] | None = None,
                 end_state: Mapping[str, str] | None = None,
                 finished: bool | None = None) -> dict[str, float]:
    """Score already-parsed calls against a parsed truth with the reward `config.kind` selects."""
    cfg = RewardConfig.coerce(config)
    if cfg.kind == "toolrl":
        return toolrl_reward(calls, truth, cfg.normalize_strings, cfg.accept_alternatives)
    return prove_reward(calls, truth, cfg, end_state, finished)


def score(calls: Any, truth: Any, config: RewardConfig | Mapping[str, Any] | None = None,
          end_state: Mapping[str, str] | None = None,
          finished: bool | None = None) -> dict[str, float]:
    """Score one trajectory from its JSON form; returns {component name: value, "total": ...}.

    `config`: None (PROVE defaults), a RewardConfig, or a dict / ConfigDict for
    RewardConfig.from_dict. `end_state`: server -> clock-free hash of the episode's final
    state, for the optional state term; `finished`: whether the episode ended on the model's
    final answer, for the optional finish term. Raises ValueError on malformed input or config.
    """
    cfg = RewardConfig.coerce(config)
    return score_parsed(parse_calls(calls), parse_truth(truth), cfg, end_state, finished)


def alignment(calls: Any, truth: Any,
              config: RewardConfig | Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """Which model call covered each truth call, as the PROVE coverage sees it (the viewer
    shows it; the ToolRL reward pools calls and has no alignment of its own, so this is the
    PROVE matching whatever `config.kind` says). One entry per truth call, in (step, position)
    order: {"step", "name", "call": index into `calls` or None, "hits": matching values,
    "keys": the truth call's argument count (the alternative's, when one covered it),
    "alternative": the name of the alternative that covered it or None, "in_order": its
    dependencies were matched earlier (o(g) of R_cov)}."""
    cfg = RewardConfig.coerce(config)
    parsed, t = parse_calls(calls), parse_truth(truth)
    match = match_calls(parsed, t, cfg.match_outcomes, cfg.normalize_strings,
                        cfg.accept_alternatives)
    out = []
    for g, tc in enumerate(t.calls):
        pos, a = match.call_of[g], -1 if match.alt is None else match.alt[g]
        in_order = pos >= 0 and all(0 <= match.call_of[u] < pos for u in t.dep_calls[tc.step])
        out.append({"step": tc.step, "name": tc.name, "call": pos if pos >= 0 else None,
                    "hits": match.hits[g], "keys": len(tc.args if a < 0 else tc.alts[a][1]),
                    "alternative": tc.alts[a][0] if a >= 0 else None, "in_order": in_order})
    return out
