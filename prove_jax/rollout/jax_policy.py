"""The JAX sampler as a rollout Policy.

Sampling runs in a worker thread so the event loop keeps executing tool calls of other
episodes meanwhile. Each turn's sampling seed mixes the episode's seed with the context length,
so successive turns of one episode draw from different random streams, reproducibly.
"""

from __future__ import annotations

import asyncio
import dataclasses

from prove_jax.rollout.policy import Generation, GenerationRequest
from prove_jax.sampling import Sampler, SamplingParams


def turn_seed(seed: int, context_len: int) -> int:
    return (seed * 1_000_003 + context_len) % (2**32)


class SamplerPolicy:
    def __init__(self, sampler: Sampler, params: SamplingParams):
        self.sampler, self.params = sampler, params

    async def generate(self, requests: list[GenerationRequest]) -> list[Generation]:
        if not requests:
            return []
        params = dataclasses.replace(self.params,
                                     max_new_tokens=max(r.max_new_tokens for r in requests))
        seeds = [turn_seed(r.seed, len(r.tokens)) for r in requests]
        outs = await asyncio.to_thread(self.sampler.generate, [r.tokens for r in requests],
                                       params, seeds)
        stops = set(params.stop_token_ids)
        results = []
        for request, out in zip(requests, outs, strict=True):
            tokens = out.tokens[:request.max_new_tokens]
            reason = "stop" if tokens and tokens[-1] in stops else "length"
            results.append(Generation(tokens, out.logprobs[:len(tokens)], reason))
        return results
