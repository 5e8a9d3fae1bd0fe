"""Reward configuration: one frozen dataclass, built from a plain dict or a config section.

Fields (defaults are the paper's, REFERENCE.md §3):
  kind               "prove" (the PROVE reward) or "toolrl" (the ToolRL baseline, for ablations)
  w_val, w_cov, w_eff, w_name, w_arg   R_total weights: 0.5, 0.5, 0.15, 0.2, 0.1
  alpha              efficiency penalty scale α = 0.5
  beta               budget slack β = 0.5 (budget B = n_gt + ceil(β·n_gt)); β = 0: flat budget
  normalize_strings  compare string values after strip + casefold (off by default)
  w_state            weight of the optional end-state term (0: the paper's formula; see
                     prove_jax.rewards.prove.r_state)
  w_repeat           weight of the repeat charge (0: the paper's formula): calls identical in
                     name and arguments to an earlier call, beyond the truth's own repeats,
                     per truth call (prove_jax.rewards.prove.r_repeat). The paper's R_val and
                     R_name average over calls, so a repeated valid call costs nothing there.
  w_finish           weight of the finish term (0: the paper's formula): what an episode that
                     ended on the model's own final answer earns; 0 when a turn, token or length
                     cap (or a failure) ended it (prove_jax.rewards.prove.r_finish). Nothing in
                     the paper's reward tells an answer from running out of turns.
  finish             what an answer earns: "covered" (default) R_cov, so an answer pays for the
                     work done before it; "answer" 1 for any answer, the rule GRPO learned to
                     game in the fifth reading (answers with no call at all; README)
  match_outcomes     outcomes of model calls that may match a truth call for R_cov / R_arg
                     (default: all four, the paper's rule; ["ok"] is an ablation, see
                     prove_jax.rewards). ToolRL ignores it.
  accept_alternatives  a call to one of a truth call's recorded alternatives (another read
                     whose result surfaces the same value) covers it, its name counts as a
                     truth name and its values compare with the alternative's arguments (on by
                     default; off: the paper's literal rule, only the recorded call). Both
                     rewards honour it (see prove_jax.rewards.matching and .toolrl).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from prove_jax.rewards.types import OUTCOMES

__all__ = ["FINISH_RULES", "KINDS_OF_REWARD", "RewardConfig"]

KINDS_OF_REWARD = ("prove", "toolrl")
FINISH_RULES = ("covered", "answer")


@dataclass(frozen=True)
class RewardConfig:
    """Which reward and its knobs (module docstring); validated on construction."""

    kind: str = "prove"
    w_val: float = 0.5
    w_cov: float = 0.5
    w_eff: float = 0.15
    w_name: float = 0.2
    w_arg: float = 0.1
    w_state: float = 0.0
    w_repeat: float = 0.0
    w_finish: float = 0.0
    finish: str = "covered"
    alpha: float = 0.5
    beta: float = 0.5
    normalize_strings: bool = False
    match_outcomes: tuple[str, ...] = OUTCOMES
    accept_alternatives: bool = True

    def __post_init__(self) -> None:
        if self.kind not in KINDS_OF_REWARD:
            raise ValueError(f"RewardConfig.kind: {self.kind!r} is not one of "
                             f"{', '.join(KINDS_OF_REWARD)}")
        for f in ("w_val", "w_cov", "w_eff", "w_name", "w_arg", "w_state", "w_repeat", "w_finish",
                  "alpha", "beta"):
            v = getattr(self, f)
            if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
                raise ValueError(f"RewardConfig.{f}: must be a finite number, got {v!r}")
        for f in ("alpha", "beta", "w_repeat", "w_finish"):
            if getattr(self, f) < 0:
                raise ValueError(f"RewardConfig.{f}: must be >= 0, got {getattr(self, f)!r}")
        if self.finish not in FINISH_RULES:
            raise ValueError(f"RewardConfig.finish: {self.finish!r} is not one of "
                             f"{', '.join(FINISH_RULES)}")
        for f in ("normalize_strings", "accept_alternatives"):
            if not isinstance(getattr(self, f), bool):
                raise ValueError(f"RewardConfig.{f}: must be a bool, got {getattr(self, f)!r}")
        mo = self.match_outcomes
        if isinstance(mo, str) or not isinstance(mo, list | tuple):
            raise ValueError(f"RewardConfig.match_outcomes: must be a list of outcomes, got {mo!r}")
        bad = [o for o in mo if o not in OUTCOMES]
        if bad:
            raise ValueError(f"RewardConfig.match_outcomes: unknown outcomes {bad} "
                             f"(expected some of {', '.join(OUTCOMES)})")
        object.__setattr__(self, "match_outcomes", tuple(mo))

    @classmethod
    def from_dict(cls, d: Any) -> RewardConfig:
        """Build from a Mapping or an ml_collections ConfigDict; unknown keys raise ValueError."""
        if hasattr(d, "to_dict"):
            d = d.to_dict()
        if not isinstance(d, Mapping):
            raise ValueError(f"reward config: expected a mapping, got {type(d).__name__}")
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(map(str, set(d) - names))
        if unknown:
            raise ValueError(f"reward config: unknown keys {unknown} (known: {sorted(names)})")
        return cls(**d)

    @classmethod
    def coerce(cls, config: RewardConfig | Mapping | None) -> RewardConfig:
        """None -> defaults; a RewardConfig as is; anything else through from_dict."""
        if config is None:
            return _DEFAULT
        if isinstance(config, RewardConfig):
            return config
        return cls.from_dict(config)


_DEFAULT = RewardConfig()
