"""Pinned digests of every server's freshly seeded state, at two seeds (world_digests.json).

Reordering one random draw in a seed builder silently changes every task's world; the pins make
such a change deliberate. After an intended change, re-pin and commit the diff:

    make pin-worlds        # = .venv/bin/python -m tests.servers.pin_worlds

The test (test_world_digests.py) and this command compute digests with the same function.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from servers.core.runtime import Runtime
from servers.registry import available, load_domain

PIN_FILE = Path(__file__).with_name("world_digests.json")
SEEDS = (0, 7)
UPDATE = "if the change is intended, run `make pin-worlds` and commit world_digests.json"


def world_digest(name: str, seed: int) -> str:
    """sha256 of the canonical state of a fresh default session of server `name`."""
    return Runtime(load_domain(name), default_seed=seed).session(None).state.digest()


def world_digests() -> dict[str, dict[str, str]]:
    """{server: {seed: digest}} for every available server (JSON keys: seeds as strings)."""
    return {name: {str(seed): world_digest(name, seed) for seed in SEEDS}
            for name in available()}


def main() -> int:
    old = json.loads(PIN_FILE.read_text()) if PIN_FILE.exists() else {}
    new = world_digests()
    PIN_FILE.write_text(json.dumps(new, indent=1, sort_keys=True) + "\n")
    changed = sorted(n for n in new if old.get(n) != new[n])
    print(f"pinned {len(new)} servers at seeds {list(SEEDS)} in {PIN_FILE}; "
          f"changed: {', '.join(changed) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
