"""A task (one dataset row) and the knobs of a rollout.

A task is data only: what the model is told (system prompt, user turns), which tools it is
offered, which servers hold its world (and the seed that builds it), and the ground truth the
rewards score against, in the JSON form `prove_jax.rewards.score` accepts. The truth is
validated when the task is built, so a bad dataset row fails at load time with the rewards'
own message instead of after a whole episode was played.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from prove_jax.rewards import RewardConfig, parse_truth

__all__ = ["RolloutConfig", "Task"]


@dataclass(frozen=True)
class Task:
    id: str
    servers: tuple[str, ...]  # the MCP servers whose sessions the episode opens
    user_turns: tuple[str, ...]  # the first user message, then scripted follow-ups
    truth: Mapping[str, Any]  # {"steps": [[call, ...], ...], "edges": [[j, g]], "kind": ...}
    system_prompt: str | None = None
    # Tools offered: None = every policy tool of the task's servers; else exposed tool names
    # (str) or full OpenAI-style schemas (dict) whose names the servers route.
    tools: tuple[str | dict, ...] | None = None
    seed: int = 0  # the servers' world seed; every rollout of a group sees the same world

    def __post_init__(self) -> None:
        if not self.servers:
            raise ValueError(f"task {self.id!r}: needs at least one server")
        if not self.user_turns or not all(isinstance(t, str) for t in self.user_turns):
            raise ValueError(f"task {self.id!r}: user_turns must be a non-empty list of strings")
        try:
            parse_truth(self.truth)
        except ValueError as err:
            raise ValueError(f"task {self.id!r}: {err}") from None
        object.__setattr__(self, "servers", tuple(self.servers))
        object.__setattr__(self, "user_turns", tuple(self.user_turns))
        if self.tools is not None:
            object.__setattr__(self, "tools", tuple(self.tools))

    @property
    def kind(self) -> str:
        return self.truth.get("kind", "normal")

    def offered(self, available: Sequence[dict]) -> list[dict]:
        """The schemas shown to the model, from the episode's routable schemas."""
        if self.tools is None:
            return list(available)
        by_name = {s["function"]["name"]: s for s in available}
        out = []
        for tool in self.tools:
            name = tool["function"]["name"] if isinstance(tool, dict) else tool
            if name not in by_name:
                raise ValueError(f"task {self.id!r}: offers tool {name!r}, which its servers "
                                 f"{list(self.servers)} do not route")
            out.append(tool if isinstance(tool, dict) else by_name[name])
        return out

    def messages(self) -> list[dict]:
        """The first prompt's messages: system (if any) and the first user turn."""
        head = [{"role": "system", "content": self.system_prompt}] if self.system_prompt else []
        return [*head, {"role": "user", "content": self.user_turns[0]}]

    @classmethod
    def from_dict(cls, row: Mapping[str, Any]) -> Task:
        """A task from its JSON form (the keys are this class's fields)."""
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(row) - known)
        if unknown:
            raise ValueError(f"task row: unknown keys {unknown} (expected {sorted(known)})")
        return cls(**{k: tuple(v) if k in ("servers", "user_turns", "tools") and v is not None
                      else v for k, v in row.items()})

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "servers": list(self.servers), "user_turns": list(self.user_turns),
                "truth": dict(self.truth), "system_prompt": self.system_prompt,
                "tools": None if self.tools is None else list(self.tools), "seed": self.seed}


@dataclass(frozen=True)
class RolloutConfig:
    """Caps and concurrency of rollouts (REFERENCE.md §4: 5 user / 10 assistant turns)."""

    max_assistant_turns: int = 10
    max_user_turns: int = 5
    max_total_tokens: int = 28_768  # prompt 12,384 + response 16,384
    max_new_tokens: int = 4_096  # per assistant turn
    episode_timeout_s: float = 900.0
    max_concurrent_episodes: int = 256  # AioPool size: live episodes (and their sessions)
    batch_wait_s: float = 0.02  # the batcher flushes early only when every live episode waits
    max_batch_size: int | None = None  # None: one generate call for every waiting episode
    compact_schemas: bool = False  # show tools without validation-only keywords (tools.compact)
    reward: RewardConfig | Mapping[str, Any] | None = field(default=None)

    def __post_init__(self) -> None:
        for name in ("max_assistant_turns", "max_user_turns", "max_total_tokens",
                     "max_new_tokens", "max_concurrent_episodes"):
            if getattr(self, name) < 1:
                raise ValueError(f"RolloutConfig.{name} must be >= 1, got {getattr(self, name)}")
        if self.max_batch_size is not None and self.max_batch_size < 1:
            raise ValueError(f"RolloutConfig.max_batch_size must be >= 1 or None, got "
                             f"{self.max_batch_size}")
        if self.episode_timeout_s <= 0 or self.batch_wait_s < 0:
            raise ValueError("RolloutConfig: episode_timeout_s must be > 0, batch_wait_s >= 0")
