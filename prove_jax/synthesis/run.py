"""The asyncio driver: one MCPManager for the servers, many conversations in flight (bounded by
an AioPool), each generated and then validated by replay; kept in index order (near-duplicate
check, stop at num_examples) whatever order they finish in, so a rerun is byte-identical."""

from __future__ import annotations

import asyncio
import gc
import logging
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from asyncio_pool import AioPool
from tqdm import tqdm

from prove_jax.synthesis.dedup import NearDuplicateIndex, call_tokens
from prove_jax.synthesis.example import Engine, synthesize_one
from prove_jax.synthesis.graph import load_or_build
from prove_jax.synthesis.records import Conversation, Drop
from prove_jax.synthesis.settings import SynthConfig
from prove_jax.synthesis.teacher import TeacherLabeler, TeacherVerbalizer, teacher_from
from prove_jax.synthesis.validate import credential_problems, replay
from prove_jax.synthesis.verbalize import TemplateVerbalizer
from prove_jax.synthesis.writer import stats_of, write_dataset
from prove_jax.tools.manager import MCPManager, ServerSpec

__all__ = ["SynthResult", "resolve_servers", "synthesize", "synthesize_with"]

log = logging.getLogger(__name__)


@dataclass
class SynthResult:
    kept: list[Conversation]
    drops: list[Drop]
    generated: int
    seconds: float
    stats: dict[str, Any]
    paths: dict[str, Path]
    graph_cache_hit: bool

    @property
    def examples_per_s(self) -> float:
        return len(self.kept) / self.seconds if self.seconds else 0.0


def resolve_servers(cfg: SynthConfig) -> list[str]:
    """The configured servers, or every available server whose module loads."""
    if cfg.servers:
        return list(cfg.servers)
    from servers.registry import available, load_domain  # the server library's own listing

    out = []
    for name in available():
        try:
            load_domain(name)
        except Exception as err:  # a half-written server must not stop the run
            log.warning("skipping server %s: %s", name, err)
            continue
        out.append(name)
    return out


async def _one(index: int, eng: Engine) -> Conversation | Drop:
    """Generate example `index`, then validate it by replay on a fresh session."""
    try:
        conv = await synthesize_one(index, eng)
    except Exception as err:  # one broken example must not end the run; it is reported
        log.debug("example %d failed", index, exc_info=True)
        return Drop(index, f"synth-{index:06d}", "generation_error",
                    f"{type(err).__name__}: {err}")
    if isinstance(conv, Drop):
        return conv
    rep = await replay(eng.manager, conv, end_state=True)
    if rep.calls and rep.errors / rep.calls > eng.cfg.max_error_frac:
        return Drop(index, conv.plan.id, "replay_errors", f"{rep.errors}/{rep.calls}")
    if rep.mismatches:
        return Drop(index, conv.plan.id, "replay_mismatch", f"{rep.mismatches}/{rep.calls}")
    problems = credential_problems(conv)
    if problems:
        return Drop(index, conv.plan.id, "credential_untraced", "; ".join(problems[:3]))
    conv.end_state = rep.end_state
    return conv


FREEZE_EVERY = 250  # finished conversations between two collections


def _freeze() -> None:
    """Collect, then move every surviving object out of the cyclic GC's sight. A long run
    keeps thousands of finished conversations alive and makes millions of short-lived
    objects; automatic collection (off during a run) would walk the survivors again and
    again (a quarter of the run's CPU at 13.5K examples). One explicit collection every
    FREEZE_EVERY conversations bounds the garbage and only looks at new objects."""
    gc.collect()
    gc.freeze()


class _Keeper:
    """Consumes results strictly in index order (near-duplicate check, stop at the target),
    so what is kept never depends on which conversation finished first."""

    def __init__(self, cfg: SynthConfig):
        self.target = cfg.num_examples
        # the kind mix held while rows are kept: a kind already above its share (plus the
        # slack, in rows) waits for the others, so every stretch of the run, each world's
        # rows and the test split alike, carries the configured mix
        self.mix = cfg.reachable_kind_mix() if cfg.enforce_kind_mix else {}
        self.slack = max(3.0, cfg.kind_mix_slack * cfg.num_examples)
        self.kinds: dict[str, int] = {}
        self.kept: list[Conversation] = []
        self.drops: list[Drop] = []
        self.dedup = NearDuplicateIndex(cfg.jaccard)
        self.results: dict[int, Conversation | Drop] = {}
        self.next = 0  # the next index to consume

    @property
    def done(self) -> bool:
        return len(self.kept) >= self.target

    def rate(self) -> float:
        """Share of consumed examples kept so far (a prior of 0.9 before any)."""
        return (len(self.kept) + 9) / (self.next + 10)

    def consume(self) -> None:
        while not self.done and self.next in self.results:
            r = self.results.pop(self.next)
            self.next += 1
            if isinstance(r, Drop):
                self.drops.append(r)
                continue
            have = self.kinds.get(r.kind, 0)
            if r.kind in self.mix and have + 1 > self.mix[r.kind] * (len(self.kept) + 1) \
                    + self.slack:
                self.drops.append(Drop(r.plan.index, r.plan.id, "kind_quota",
                                       f"{r.kind}: {have} of {len(self.kept)} kept"))
                continue
            tokens = call_tokens([s.call() for s in r.steps] or r.intended)
            twin = self.dedup.find(tokens)
            if twin is not None:
                self.drops.append(Drop(r.plan.index, r.plan.id, "near_duplicate", f"of {twin}"))
                continue
            self.dedup.add(tokens, r.plan.id)
            self.kept.append(r)
            self.kinds[r.kind] = have + 1


async def _generate(eng: Engine, keeper: _Keeper, bar: tqdm) -> int:
    """Run examples 0, 1, 2, ... (at most `concurrency` at once) until the keeper has its
    target; returns how many indices were started. New work starts only while the work in
    flight is not already expected to fill the target."""
    cfg = eng.cfg
    wake = asyncio.Event()
    finished = 0

    async def job(i: int) -> None:
        nonlocal finished
        keeper.results[i] = await _one(i, eng)
        finished += 1
        bar.update(1)
        if FREEZE_EVERY and finished % FREEZE_EVERY == 0:
            _freeze()
        wake.set()

    started = 0
    limit = 20 * cfg.num_examples + 1000
    async with AioPool(size=cfg.concurrency) as pool:
        while True:
            keeper.consume()
            bar.set_postfix(kept=len(keeper.kept), refresh=False)
            if keeper.done:
                break
            in_flight = started - keeper.next
            expected = len(keeper.kept) + keeper.rate() * in_flight
            if expected < keeper.target + 2 and in_flight < 8 * cfg.concurrency:
                if started >= limit:
                    raise RuntimeError(f"only {len(keeper.kept)} of {keeper.target} examples "
                                       f"kept after {started} tries; see the drop reasons")
                await pool.spawn(job(started))
                started += 1
                if started > bar.total:
                    bar.total = started
                continue
            wake.clear()
            await wake.wait()
    return started


async def synthesize_with(manager: Any, cfg: SynthConfig, servers: Sequence[str],
                          write: bool = True) -> SynthResult:
    """Synthesize with an already started manager (its servers include `servers`)."""
    start = time.perf_counter()
    servers = list(servers)
    tools = {s: manager.tool_metadata(s) for s in servers}
    client = teacher_from(cfg)
    labeler = TeacherLabeler(client) if client and cfg.teacher_label_graph else None
    graph, hit = await load_or_build(tools, cfg.cache_dir, labeler,
                                     labeler.name if labeler else "")
    verbalizer = TeacherVerbalizer(client) if client else TemplateVerbalizer()
    eng = Engine(cfg, manager, graph, servers, verbalizer)
    keeper = _Keeper(cfg)
    bar = tqdm(total=math.ceil(cfg.num_examples * cfg.overgenerate), unit="ex",
               desc="synthesize", disable=not cfg.progress, dynamic_ncols=True)
    gc_was_on = gc.isenabled()
    gc.disable()
    try:
        started = await _generate(eng, keeper, bar)
    finally:
        bar.close()
        gc.unfreeze()  # back to normal collection for whatever the caller does next
        if gc_was_on:
            gc.enable()
        if client is not None:
            await client.aclose()
    kept, drops = keeper.kept, keeper.drops
    last = kept[-1].plan.index if kept else -1
    generated = last + 1 if kept else started
    drops = [d for d in drops if d.index <= last]
    seconds = time.perf_counter() - start
    stats = stats_of(kept, drops, dict(cfg.kind_mix), servers,
                     {"key": graph.key, "nodes": len(graph.nodes), "edges": len(graph.edges),
                      "cache_hit": hit})
    stats["throughput"] = {"seconds": round(seconds, 2), "generated": generated,
                           "examples_per_s": round(len(kept) / seconds, 2) if seconds else 0,
                           "contexts_built": eng.contexts.built,
                           "verbalizer": verbalizer.name,
                           "teacher_fallbacks": getattr(verbalizer, "fallbacks", 0)}
    paths = write_dataset(cfg.out_dir, kept, drops, generated, stats) if write else {}
    return SynthResult(kept, drops, generated, seconds, stats, paths, hit)


async def synthesize(cfg: SynthConfig) -> SynthResult:
    """Start the servers (cfg.transport), synthesize, write the dataset, stop the servers."""
    servers = resolve_servers(cfg)
    if not servers:
        raise ValueError("no servers to synthesize from")
    specs = [ServerSpec(s, cfg.transport, cfg.urls.get(s)) for s in servers]
    async with MCPManager(specs, max_in_flight=max(256, cfg.concurrency * 2)) as manager:
        return await synthesize_with(manager, cfg, servers)


def run(cfg: SynthConfig) -> SynthResult:
    return asyncio.run(synthesize(cfg))
