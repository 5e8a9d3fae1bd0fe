"""How much two seeds' worlds have in common, per server: the figures behind #20's acceptance.

For each server, at seeds A and B (default 11 and 12): the id values (`id` / `*_id` fields) that
the tools needing no argument return, and how many of A's the world of B shows too (the
baseline is the same seed twice: 100%); each table's row count at both seeds; and the time to
build and seal a never-seen world. `make node-check` measures the id overlap through the Node
SDK client instead; `tests/servers/test_core_ids.py` and each server's
`test_world_varies_by_seed` assert the limits.

    PYTHONPATH=. .venv/bin/python benchmarks/world_variety.py [--seeds 11 12]
"""

from __future__ import annotations

import argparse
import time

from servers.core import ids
from servers.core.runtime import Runtime
from servers.core.world import WORLD_ID_PREFIXES, make_world, rng_for
from servers.registry import available, load_domain


def shown_ids(name: str, seed: int) -> set[str]:
    domain = load_domain(name)
    runtime = Runtime(domain, default_seed=seed)
    found: list[str] = []
    for tool, spec in domain.tools.items():
        if not spec.input_schema.get("required"):
            ids.id_values(runtime.call(tool, {}).payload, found)
    return set(found)


def counts(name: str, seed: int) -> dict[str, int]:
    state = Runtime(load_domain(name), default_seed=seed).session(None).state
    return {table: len(rows) for table, rows in state.tables.items()}


def build_ms(name: str, seeds: range) -> tuple[float, float]:
    """(build, seal) milliseconds per never-seen world, averaged over `seeds`."""
    domain, seal = load_domain(name), ids.seal
    built = sealed = 0.0
    for seed in seeds:
        world = make_world(seed)
        ids.seal = lambda *a, **k: None  # time the builder alone
        try:
            start = time.perf_counter()
            state = domain.new_state(world, rng_for(seed, name))
            mid = time.perf_counter()
        finally:
            ids.seal = seal
        seal(state, seed, WORLD_ID_PREFIXES)
        built, sealed = built + mid - start, sealed + time.perf_counter() - mid
    return built / len(seeds) * 1e3, sealed / len(seeds) * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, nargs=2, default=(11, 12))
    a, b = parser.parse_args().seeds
    total = shared = 0
    print(f"| server | ids | shared with seed {b} | tables with equal counts | build + seal ms |")
    print("|---|---|---|---|---|")
    for name in available():
        mine, theirs = shown_ids(name, a), shown_ids(name, b)
        ca, cb = counts(name, a), counts(name, b)
        equal = [t for t in ca if ca[t] == cb.get(t)]
        built, sealed = build_ms(name, range(1000, 1010))
        total, shared = total + len(mine), shared + len(mine & theirs)
        print(f"| {name} | {len(mine)} | {len(mine & theirs)} "
              f"({len(mine & theirs) / max(1, len(mine)):.0%}) | {len(equal)}/{len(ca)} | "
              f"{built:.1f} + {sealed:.1f} |")
    print(f"world variety: ids shared between seeds {a} and {b} = {shared}/{total} "
          f"({shared / max(1, total):.2%}; the same seed twice: 100%)")


if __name__ == "__main__":
    main()
