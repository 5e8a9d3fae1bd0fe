"""The query state's decisions for one example, drawn from its own rng before anything runs:
block and world seed, variant (normal chain / unsatisfiable / missing function), information
level, user turns, the tool chain (a goal's workflow pattern, else a walk on the dependency
graph), distractors, enum
stripping. Every draw happens in a fixed order, so an index always gets the same plan."""

from __future__ import annotations

import random
from collections.abc import Sequence

from prove_jax.synthesis.graph import ToolGraph, coherent
from prove_jax.synthesis.records import Plan
from prove_jax.synthesis.seeds import derive_seed, rng_for, unit
from prove_jax.synthesis.settings import SynthConfig
from prove_jax.synthesis.workflows import WORKFLOWS, draw_workflow

__all__ = ["block_of", "coherent", "partner_of", "sample_chain", "sample_plan", "sample_turns"]


def block_of(index: int, cfg: SynthConfig, servers: Sequence[str]
             ) -> tuple[int, str, int, str]:
    """(block, primary server, world seed, split) of an example index. Blocks of k examples
    share one server and one world; a held-out block's world is never seen in training."""
    block = index // cfg.context_refresh_k
    server = servers[block % len(servers)]
    world_seed = derive_seed(cfg.seed, "world", block)
    test = unit(cfg.seed, "split", block) < cfg.test_frac or block == _sure_test_block(cfg)
    return block, server, world_seed, "test" if test else "train"


def _sure_test_block(cfg: SynthConfig) -> int:
    """One block the run holds out whatever the draws, among the blocks the kept examples
    alone fill: each block is held out with probability test_frac, which a small run (a
    400-row run has 10 blocks: none held out at 60% of seeds, at 0.05) can miss entirely.
    -1 (none) for a one-block run (a 40-row run: it would all be test). Every run of two
    blocks or more holds one out (a 150-row run held out none while this asked for half a
    block's worth of test_frac)."""
    blocks = -(-cfg.num_examples // cfg.context_refresh_k)
    if cfg.test_frac <= 0 or blocks < 2:
        return -1
    return derive_seed(cfg.seed, "sure-test-block") % blocks


def sample_turns(rng: random.Random, lo: int, hi: int, decay: float) -> int:
    """Number of user turns in [lo, hi], P(n) ∝ decay ** (n - lo)."""
    weights = [decay ** (n - lo) for n in range(lo, hi + 1)]
    return rng.choices(range(lo, hi + 1), weights=weights)[0]


def partner_of(graph: ToolGraph, server: str, rng: random.Random) -> str | None:
    """The one other server a block's cross-server chains may reach (one extra sampling
    context per block, not one per chain): one that shares people, places or companies.
    A partner some goal pattern of `server` reaches is 3x as likely: a walk that crosses
    rarely realizes a flow, a pattern that crosses always names one (issue 23: cross-server
    flows in 10% of rows)."""
    options = sorted({graph.nodes[e.dst].server for n in graph.tools_of(server)
                      for e in graph.succ[n.key] if coherent(graph, e)})
    if not options:
        return None
    goals = {t.split(".", 1)[0] for tools in WORKFLOWS.values()
             if tools[0].startswith(server + ".") for t in tools[1:]}
    return rng.choices(options, weights=[3.0 if s in goals else 1.0 for s in options])[0]


def sample_chain(graph: ToolGraph, server: str, length: int, rng: random.Random,
                 cross: str | None) -> list[str]:
    """A walk of up to `length` distinct tools along graph edges, starting on `server`.

    The next tool follows an edge from any tool already chosen (the last one weighted up);
    write tools and explicit (data) edges are preferred, so chains tend to look things up and
    then act on them. With `cross` (a server), the walk may continue on that server."""
    starts = [n.key for n in sorted(graph.tools_of(server), key=lambda n: n.key)
              if any(not e.cross for e in graph.succ[n.key])]
    if not starts:
        return []
    weights = [1.5 if graph.nodes[k].read_only else 1.0 for k in starts]
    best: list[str] = []
    for _ in range(6):
        chain = [rng.choices(starts, weights=weights)[0]]
        servers = {server}
        while len(chain) < length:
            options: dict[str, float] = {}
            for pos, key in enumerate(chain):
                for e in graph.succ[key]:
                    dst = graph.nodes[e.dst]
                    if e.dst in chain or (dst.server not in servers and dst.server != cross):
                        continue
                    if e.cross and not coherent(graph, e):
                        continue
                    w = (3.0 if pos == len(chain) - 1 else 1.0) \
                        * (2.0 if not dst.read_only else 1.0) \
                        * (1.5 if e.kind == "explicit" else 1.0) \
                        * (6.0 if e.cross and len(servers) == 1 else 1.0)
                    options[e.dst] = max(options.get(e.dst, 0.0), w)
            if not options:
                break
            keys = sorted(options)
            nxt = rng.choices(keys, weights=[options[k] for k in keys])[0]
            chain.append(nxt)
            servers.add(graph.nodes[nxt].server)
        if (_crosses(graph, chain), len(chain)) > (_crosses(graph, best), len(best)):
            best = chain  # with a partner, a chain that reaches it wins over a longer one
        if len(best) >= min(length, 2) and (cross is None or _crosses(graph, best)):
            break
    return best


def _crosses(graph: ToolGraph, chain: list[str]) -> bool:
    return len({graph.nodes[k].server for k in chain}) > 1


def sample_plan(index: int, cfg: SynthConfig, graph: ToolGraph, servers: Sequence[str],
                rng: random.Random, n_personas: int) -> Plan:
    block, server, world_seed, split = block_of(index, cfg, servers)
    r = rng.random()
    variant = ("unsatisfiable" if r < cfg.p_unsatisfiable else "missing_function"
               if r < cfg.p_unsatisfiable + cfg.p_missing_function else "chain")
    info = rng.choices(["complete", "missing", "minimal"],
                       weights=[cfg.p_complete, cfg.p_missing, cfg.p_minimal])[0]
    if variant != "chain" and info == "missing":
        info = "complete"  # a gap to ask about is its own variant; keep the others clean
    n_turns = sample_turns(rng, cfg.min_turns, cfg.max_turns, cfg.turn_decay)
    missing_first = rng.random() < cfg.missing_first_turn
    length = rng.randint(cfg.min_chain, cfg.max_chain)
    cross = rng.random() < cfg.p_cross_server
    partner = partner_of(graph, server, rng_for(cfg.seed, "partner", block)) if cross else None
    chain = sample_chain(graph, server, length, rng, partner)
    goal = ""
    # its own stream, so walks stay put; only plain chains: a missing-function or
    # unsatisfiable row keeps the walk, whose first action it hides (the kind mix)
    if variant == "chain" and unit(cfg.seed, "workflow", index) < cfg.p_workflow:
        drawn = draw_workflow(graph, server, partner, max(length, 2),
                              rng_for(cfg.seed, "workflow-goal", index))
        if drawn is not None:
            goal, chain = drawn
    hide_pos = rng.randrange(max(len(chain), 1))
    chain_servers = list(dict.fromkeys(graph.nodes[k].server for k in chain)) or [server]
    distractors: list[str] = []
    if rng.random() < cfg.p_distractors:
        # Foreign tools only: other servers, and no name a chain tool has (hiding a chain tool
        # must not leave its namesake from another service on offer).
        names = {graph.nodes[k].name for k in chain}
        pool = sorted(k for k, n in graph.nodes.items()
                      if n.server not in chain_servers and n.name not in names)
        n = rng.randint(cfg.min_distractors, cfg.max_distractors)
        distractors = rng.sample(pool, min(n, len(pool)))
    enum_strip = rng.random() < cfg.p_enum_strip
    extra = list(dict.fromkeys(graph.nodes[k].server for k in distractors))
    foreign: list[str] = []
    if variant == "unsatisfiable":
        row = set(chain_servers) | set(extra)
        offered = {n.name for n in graph.nodes.values() if n.server in row}
        # Something none of the offered tools can do: a write tool of a server the task does
        # not have, whose name no offered tool shares.
        pool = sorted(k for k, n in graph.nodes.items()
                      if n.server not in row and not n.read_only and n.name not in offered)
        foreign = rng.sample(pool, min(2, len(pool)))
    return Plan(index=index, id=f"synth-{index:06d}", block=block, world_seed=world_seed,
                split=split, server=server, variant=variant, info=info, n_turns=n_turns,
                chain=chain, servers=chain_servers + extra, distractors=distractors,
                enum_strip=enum_strip, missing_first=missing_first, hide_pos=hide_pos,
                foreign=foreign, persona=rng.randrange(n_personas), goal=goal)
