"""What one episode leaves behind: the token sequence the trainer consumes, and the record the
rewards and the logs read.

The sequence is built only by `append`: the policy's sampled tokens with mask 1 and their
sampler log-probs, the environment's tokens (prompt, tool results, user turns) with mask 0 and
log-prob 0. Keeping the three lists behind one method is what guarantees they stay aligned.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["CallRecord", "Trajectory", "outcome_of"]

# The parser's and manager's kinds in the rewards' vocabulary (REFERENCE.md §3 /
# prove_jax.rewards.types). A malformed call (no name readable) scores as an unknown tool: it
# names no tool that exists (R_val 0, ToolRL format 0). session_lost is an infrastructure
# failure: it scores as an execution error and also marks the trajectory failed, so a trainer
# can drop it.
_OUTCOMES = {"ok": "ok", "execution_error": "execution_error", "schema_error": "schema_error",
             "unknown_tool": "unknown_tool", "malformed_call": "unknown_tool",
             "session_lost": "execution_error"}


def outcome_of(kind: str) -> str:
    """The rewards' outcome of a manager / parser kind (anything unexpected: execution_error)."""
    return _OUTCOMES.get(kind, "execution_error")


@dataclass
class CallRecord:
    """One call the model made, in order of appearance."""

    turn: int  # index of the assistant turn that made it
    name: str
    arguments: dict
    outcome: str  # ok | execution_error | schema_error | unknown_tool
    kind: str  # the raw kind (parser or manager), e.g. session_lost, malformed_call
    result: str  # the text the model read back
    server: str | None = None
    error: str | None = None

    def to_reward(self) -> dict:
        return {"name": self.name, "arguments": self.arguments, "outcome": self.outcome}


@dataclass
class Trajectory:
    task_id: str
    sample: int  # index of the rollout in its GRPO group
    seed: int  # the policy's sampling seed
    tokens: list[int] = field(default_factory=list)
    loss_mask: list[int] = field(default_factory=list)  # 1 exactly on sampled tokens
    logprobs: list[float] = field(default_factory=list)  # sampler log-probs, 0 where mask 0
    prompt_len: int = 0
    calls: list[CallRecord] = field(default_factory=list)
    snapshots: dict[str, str] = field(default_factory=dict)  # server -> state hash at the end
    # server -> clock-free hash at the end, where the truth has an end state to compare with
    end_state: dict[str, str] | None = None
    rewards: dict[str, float] = field(default_factory=dict)
    finish_reason: str = "running"  # answered | max_assistant_turns | max_user_turns |
    #                  max_total_tokens | length | stop_token | failed | timeout
    failed: str | None = None  # why the episode could not be played to its end
    assistant_turns: int = 0
    user_turns: int = 0
    # The conversation as it happened, for people (episode files, the viewer); the trainer
    # never reads it. Entries: {"role": "system"|"user", "text"}, {"role": "assistant",
    # "text", "calls": [indices into `calls`], "complete": bool}, {"role": "tool", "call": i}.
    transcript: list[dict] = field(default_factory=list)
    timings: dict[str, float] = field(
        default_factory=lambda: {"generate_s": 0.0, "tools_s": 0.0, "total_s": 0.0})

    def append(self, tokens: Sequence[int], *, sampled: bool = False,
               logprobs: Sequence[float] | None = None) -> None:
        """Grow the sequence; sampled tokens need their sampler log-probs."""
        tokens = list(tokens)
        if sampled:
            if logprobs is None or len(logprobs) != len(tokens):
                raise ValueError(f"{len(tokens)} sampled tokens need as many log-probs, got "
                                 f"{None if logprobs is None else len(logprobs)}")
            self.logprobs.extend(float(x) for x in logprobs)
        else:
            self.logprobs.extend([0.0] * len(tokens))
        self.tokens.extend(tokens)
        self.loss_mask.extend([int(sampled)] * len(tokens))

    def fail(self, reason: str, finish_reason: str = "failed") -> None:
        """Mark the episode failed; the first reason wins (later ones are consequences)."""
        if self.failed is None:
            self.failed = reason
        self.finish_reason = finish_reason

    def reward_calls(self) -> list[dict]:
        """The calls in the JSON form `prove_jax.rewards.score` accepts."""
        return [c.to_reward() for c in self.calls]

    @property
    def n_sampled(self) -> int:
        return sum(self.loss_mask)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready record (logs, dumps)."""
        return {"task_id": self.task_id, "sample": self.sample, "seed": self.seed,
                "tokens": self.tokens, "loss_mask": self.loss_mask, "logprobs": self.logprobs,
                "prompt_len": self.prompt_len, "calls": [vars(c) for c in self.calls],
                "snapshots": self.snapshots, "end_state": self.end_state,
                "rewards": self.rewards, "finish_reason": self.finish_reason, "failed": self.failed,
                "assistant_turns": self.assistant_turns, "user_turns": self.user_turns,
                "timings": self.timings}
