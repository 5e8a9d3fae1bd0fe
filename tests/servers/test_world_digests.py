"""Each server's seeded world is pinned (pin_worlds.py): a change to what a seed builder draws
fails here until it is re-pinned on purpose with `make pin-worlds`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from servers.registry import available
from tests.servers.pin_worlds import PIN_FILE, SEEDS, UPDATE, world_digest, world_digests

PINS = json.loads(PIN_FILE.read_text())


@pytest.mark.parametrize("name", available())
def test_seeded_world_matches_its_pin(name):
    for seed in SEEDS:
        pinned = PINS.get(name, {}).get(str(seed))
        assert pinned is not None, f"{name} has no pinned digest at seed {seed}; {UPDATE}"
        assert world_digest(name, seed) == pinned, (
            f"the seeded state of {name} at seed {seed} changed (digest "
            f"{world_digest(name, seed)[:12]}, pinned {pinned[:12]}); {UPDATE}")


def test_digests_do_not_depend_on_the_process_or_its_hash_seed():
    here = os.environ.get("PYTHONHASHSEED", "random")
    other = "1" if here != "1" else "2"
    code = "import json; from tests.servers.pin_worlds import world_digests; " \
           "print(json.dumps(world_digests()))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={**os.environ, "PYTHONHASHSEED": other},
                         cwd=Path(__file__).parents[2]).stdout
    assert json.loads(out) == world_digests()
