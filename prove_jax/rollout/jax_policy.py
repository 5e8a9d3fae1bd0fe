"""The JAX sampler as a rollout Policy.

Sampling runs in a worker thread so the event loop keeps executing tool calls of other
episodes meanwhile. Each turn's sampling seed mixes the episode's seed with the context length,
so successive turns of one episode draw from different random streams, reproducibly.

With a KV budget (`kv_reuse_bytes` > 0, the default path) each episode's KV after a turn is
kept, keyed by (task id, episode seed), and its next turn prefills only the tokens that came
since (tool results, the next user turn): equal to recomputing the context, which a budget of
0 does (the reference mode). The engine calls `release_cache()` when a rollout ends, so kept
KV never lingers into training.
"""

from __future__ import annotations

import asyncio
import dataclasses

from prove_jax.rollout.policy import Generation, GenerationRequest
from prove_jax.sampling import Sampler, SamplingParams
from prove_jax.sampling.prefix_cache import PrefixStore


def turn_seed(seed: int, context_len: int) -> int:
    return (seed * 1_000_003 + context_len) % (2**32)


class SamplerPolicy:
    def __init__(self, sampler: Sampler, params: SamplingParams, kv_reuse_bytes: int = 0):
        self.sampler, self.params = sampler, params
        self.store = PrefixStore(kv_reuse_bytes) if kv_reuse_bytes > 0 else None

    async def generate(self, requests: list[GenerationRequest]) -> list[Generation]:
        if not requests:
            return []
        params = dataclasses.replace(self.params,
                                     max_new_tokens=max(r.max_new_tokens for r in requests))
        seeds = [turn_seed(r.seed, len(r.tokens)) for r in requests]
        keys = [(r.task_id, r.seed) for r in requests]
        keep = self.store is not None
        prefixes = [self.store.get(k) for k in keys] if keep else None
        outs = await asyncio.to_thread(self.sampler.generate, [r.tokens for r in requests],
                                       params, seeds, prefixes, keep)
        stops = set(params.stop_token_ids)
        results = []
        for request, key, out in zip(requests, keys, outs, strict=True):
            tokens = out.tokens[:request.max_new_tokens]
            reason = "stop" if tokens and tokens[-1] in stops else "length"
            results.append(Generation(tokens, out.logprobs[:len(tokens)], reason))
            if keep and out.prefix is not None:
                self.store.put(key, out.prefix)
        return results

    def release_cache(self) -> None:
        """Drop every kept KV (a rollout ended: its episodes will not ask again)."""
        if self.store is not None:
            self.store.clear()
