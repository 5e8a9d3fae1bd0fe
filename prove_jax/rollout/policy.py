"""What the rollout engine needs from a policy: batched, token-in/token-out generation.

The engine gathers every episode waiting for a policy turn and makes one `generate` call for
all of them (a step-synchronous batcher). A request carries the episode's whole token sequence
so far; the policy returns only the new tokens it sampled (the stop token included when it
stopped on one), with their log-probs under the sampling distribution.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol


@dataclass(frozen=True)
class GenerationRequest:
    tokens: list[int]  # the full context: prompt + every earlier turn, as token ids
    max_new_tokens: int
    seed: int  # per-episode sampling seed (GRPO: each rollout of a group has its own)
    # Where the episode stands, for policies that replay a known script (the oracle); a
    # sampler ignores them. user_turn: index of the latest user turn in the context;
    # assistant_turn: index of the turn asked for, counted over the whole episode;
    # turn_step: assistant turns already taken since the latest user turn.
    task_id: str = ""
    user_turn: int = 0
    assistant_turn: int = 0
    turn_step: int = 0


@dataclass(frozen=True)
class Generation:
    tokens: list[int]  # newly sampled ids only
    logprobs: list[float]  # log p(token) under the sampler's distribution, one per token
    finish_reason: Literal["stop", "length"]


class Policy(Protocol):
    async def generate(self, requests: list[GenerationRequest]) -> list[Generation]:
        """One batched call; results in request order."""
        ...
