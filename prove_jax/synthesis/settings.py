"""SynthConfig: every knob of the synthesizer as plain values, read once from the ConfigDict
(`configs/synth.py`) at the edge and passed down."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

__all__ = ["SynthConfig"]


@dataclass(frozen=True)
class SynthConfig:
    num_examples: int = 13_500  # examples KEPT after validation (generation runs until then)
    seed: int = 0
    out_dir: str = "runs/synth"
    servers: tuple[str, ...] = ()  # () = every available server
    transport: str = "inprocess"  # inprocess | stdio | http
    urls: Mapping[str, str] = field(default_factory=dict)  # http: server -> url
    concurrency: int = 64  # conversations in flight
    context_refresh_k: int = 40  # conversations per block (one world seed, one context)
    context_gets_per_kind: int = 3
    reference_date: str = "2026-06-15"  # "today" in every world (servers' REFERENCE_DATE)
    # Query information levels (paper: 60/20/20).
    p_complete: float = 0.6
    p_missing: float = 0.2
    p_minimal: float = 0.2
    missing_first_turn: float = 1.0  # share of missing-value gaps in the first user turn
    # chains above the minimal level that name ids a user holds (an order, a booking) where
    # the entity has a name, as people often do ("my booking on flight AT804")
    p_name_held: float = 0.75
    min_turns: int = 2
    max_turns: int = 3
    turn_decay: float = 0.5  # P(n turns) ∝ decay ** (n - min_turns)
    p_distractors: float = 0.4
    min_distractors: int = 3
    max_distractors: int = 8
    p_enum_strip: float = 0.3
    p_unsatisfiable: float = 0.05
    p_missing_function: float = 0.14
    min_chain: int = 2
    max_chain: int = 5
    p_cross_server: float = 1.0  # a partner server allowed; about 1 in 6 realizes a flow
    p_workflow: float = 0.5  # chains drawn from goal patterns (workflows.py), not walks
    p_optional_arg: float = 0.25
    max_retries: int = 3  # corrected-argument retries per step before another tool / give up
    max_regenerate: int = 3  # malformed proposals regenerated per attempt
    kind_mix: Mapping[str, float] = field(default_factory=lambda: {
        "normal": 0.806, "clarification": 0.111, "abstention": 0.083})
    # hold the kind mix while keeping rows: a row of a kind above its share by more than
    # the slack (a share of num_examples, at least 3 rows) is dropped (kind_quota)
    enforce_kind_mix: bool = True
    kind_mix_slack: float = 0.004
    max_error_frac: float = 0.3
    jaccard: float = 0.70
    # drop a row whose user turns quote an id no user holds ('pm_mef9qc', 'dev_cwqqvp'):
    # the reading check counts every such row unnatural (issue 23: ids only where held)
    drop_internal_ids: bool = True
    test_frac: float = 0.05
    overgenerate: float = 1.15  # expected tries per kept example (progress-bar estimate only)
    teacher_url: str = ""  # OpenAI-compatible endpoint base; empty = template verbalizer
    teacher_model: str = ""
    teacher_api_key_env: str = ""
    teacher_timeout_s: float = 60.0
    teacher_temperature: float = 0.7
    teacher_label_graph: bool = False
    graph_cache_dir: str = ""  # empty = <out_dir>/graph_cache
    progress: bool = True

    def __post_init__(self) -> None:
        levels = self.p_complete + self.p_missing + self.p_minimal
        if abs(levels - 1.0) > 1e-6:
            raise ValueError(f"info levels must sum to 1, got {levels}")
        odd = [f"{k}={v}" for k, v in vars(self).items()
               if (k.startswith("p_") or k == "missing_first_turn") and not 0 <= v <= 1]
        if odd:
            raise ValueError(f"probabilities must lie in [0, 1], got {', '.join(odd)}")
        if not 1 <= self.min_turns <= self.max_turns:
            raise ValueError(f"need 1 <= min_turns <= max_turns, got {self.min_turns}, "
                             f"{self.max_turns}")
        if not 1 <= self.min_chain <= self.max_chain:
            raise ValueError(f"need 1 <= min_chain <= max_chain, got {self.min_chain}, "
                             f"{self.max_chain}")
        if not 0 <= self.min_distractors <= self.max_distractors:
            raise ValueError("need 0 <= min_distractors <= max_distractors")
        if self.num_examples < 1 or self.concurrency < 1 or self.context_refresh_k < 1:
            raise ValueError("num_examples, concurrency and context_refresh_k must be >= 1")
        if not isinstance(self.enforce_kind_mix, bool) or not 0 <= self.kind_mix_slack <= 1:
            raise ValueError(f"enforce_kind_mix must be True or False and kind_mix_slack in "
                             f"[0, 1], got {self.enforce_kind_mix!r}, {self.kind_mix_slack!r}")
        if not isinstance(self.drop_internal_ids, bool):
            raise ValueError(f"drop_internal_ids must be True or False, got "
                             f"{self.drop_internal_ids!r}")
        if self.transport not in ("inprocess", "stdio", "http"):
            raise ValueError(f"transport must be inprocess, stdio or http, got "
                             f"{self.transport!r}")

    def reachable_kind_mix(self) -> dict[str, float]:
        """`kind_mix` over the kinds these knobs can produce, renormalised: with no
        unsatisfiable or missing-function rows there is no abstention to wait for."""
        can = {"normal": True,
               "clarification": self.p_missing > 0 and self.missing_first_turn > 0,
               "abstention": self.p_unsatisfiable > 0 or self.p_missing_function > 0}
        mix = {k: v for k, v in self.kind_mix.items() if can.get(k, True)}
        total = sum(mix.values())
        return {k: v / total for k, v in mix.items()} if total > 0 else {}

    @property
    def today(self) -> dt.date:
        return dt.date.fromisoformat(self.reference_date)

    @property
    def cache_dir(self) -> str:
        return self.graph_cache_dir or f"{self.out_dir}/graph_cache"

    @classmethod
    def from_config(cls, c: Any) -> SynthConfig:
        """From the ConfigDict tree of configs/synth.py."""
        servers = c.servers
        if isinstance(servers, str):
            servers = [s.strip() for s in servers.split(",") if s.strip()]
        return cls(
            num_examples=c.num_examples, seed=c.seed, out_dir=c.out_dir,
            servers=tuple(servers), transport=c.transport, urls=dict(c.urls),
            concurrency=c.concurrency, context_refresh_k=c.context_refresh_k,
            context_gets_per_kind=c.context_gets_per_kind, reference_date=c.reference_date,
            p_complete=c.info_levels.complete, p_missing=c.info_levels.missing,
            p_minimal=c.info_levels.minimal, missing_first_turn=c.missing_first_turn,
            p_name_held=c.p_name_held,
            min_turns=c.user_turns.min, max_turns=c.user_turns.max,
            turn_decay=c.user_turns.decay, p_distractors=c.distractors.p,
            min_distractors=c.distractors.min_tools, max_distractors=c.distractors.max_tools,
            p_enum_strip=c.p_enum_strip, p_unsatisfiable=c.p_unsatisfiable,
            p_missing_function=c.p_missing_function, min_chain=c.chain.min_len,
            max_chain=c.chain.max_len, p_cross_server=c.chain.p_cross_server,
            p_workflow=c.chain.p_workflow,
            p_optional_arg=c.chain.p_optional_arg, max_retries=c.chain.max_retries,
            max_regenerate=c.chain.max_regenerate, kind_mix=dict(c.kind_mix),
            enforce_kind_mix=c.get("enforce_kind_mix", True),
            kind_mix_slack=c.get("kind_mix_slack", 0.004),
            max_error_frac=c.validation.max_error_frac, jaccard=c.validation.jaccard,
            drop_internal_ids=c.validation.get("drop_internal_ids", True),
            test_frac=c.test_frac, overgenerate=c.overgenerate, teacher_url=c.teacher.url,
            teacher_model=c.teacher.model, teacher_api_key_env=c.teacher.api_key_env,
            teacher_timeout_s=c.teacher.timeout_s, teacher_temperature=c.teacher.temperature,
            teacher_label_graph=c.teacher.label_graph, graph_cache_dir=c.graph_cache_dir,
            progress=c.progress)

    def replace(self, **changes: Any) -> SynthConfig:
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values.update(changes)
        return SynthConfig(**values)
