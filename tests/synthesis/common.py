"""Shared helpers of the synthesis tests: small configs, one run, the servers they use."""

from __future__ import annotations

import asyncio
from pathlib import Path

from prove_jax.synthesis.run import SynthResult, synthesize
from prove_jax.synthesis.settings import SynthConfig

# Library I's servers: enough variety (ids, people, money, files, carts) and quick to start.
SERVERS = ("payments", "banking", "shopping", "calendar", "email", "filesystem")


def config(out: Path, cache: Path, **changes: object) -> SynthConfig:
    base = dict(num_examples=60, seed=0, out_dir=str(out), servers=SERVERS, progress=False,
                concurrency=16, context_refresh_k=10, graph_cache_dir=str(cache))
    base.update(changes)
    return SynthConfig(**base)


def run(cfg: SynthConfig) -> SynthResult:
    return asyncio.run(synthesize(cfg))
