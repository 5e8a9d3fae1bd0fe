"""The train step compiles without XLA's last-resort resharding on the meshes we train on.

"Involuntary full rematerialization" is XLA saying it could not move an activation from one
sharding to another efficiently, so it replicated it on every device and split it again: memory
the dry-run plan does not show and an all-gather per micro-batch the step does not need. Each
mesh compiles in a fresh process (`tests.rl.compile_worker`), so the warnings on its stderr are
its own; the four real-size plans are checked by `make plans`.
"""

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FALLBACK = "Involuntary full rematerialization"

# (shape, mesh data,fsdp,tensor, extra worker flags): the demo's mesh with the reference pass
# and the SFT step; fsdp 4 x tensor 2, with the shared-prefix step and its reference pass too;
# data 4 x fsdp 2 at the mid shape with full remat, as the real configs train.
CASES = [("tiny", "2,2,2", ["--kl", "--sft"]),
         ("tiny", "1,4,2", ["--kl", "--shared"]),
         ("mid", "4,2,1", ["--kl", "--remat", "full"])]


def _compile(case: tuple[str, str, list[str]]) -> subprocess.CompletedProcess:
    shape, mesh, flags = case
    env = {k: v for k, v in os.environ.items() if k != "XLA_FLAGS"}  # the worker sets its own
    return subprocess.run(
        [sys.executable, "-m", "tests.rl.compile_worker", "--mesh", mesh, "--shape", shape,
         *flags], cwd=ROOT, env=env, capture_output=True, text=True, timeout=400)


@pytest.fixture(scope="module")
def compiled():
    with ThreadPoolExecutor(2) as pool:  # two processes: this machine has two cores
        return dict(zip([c[:2] for c in CASES], pool.map(_compile, CASES), strict=True))


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[f"{s}-{m}" for s, m, _ in CASES])
def test_no_fallback_resharding(compiled, case):
    proc = compiled[case[:2]]
    assert proc.returncode == 0, proc.stderr[-3000:]
    # every executable was compiled (a worker that stopped early would warn about nothing)
    expected = ({"train_step"} | ({"reference"} if "--kl" in case[2] else set())
                | ({"sft_step"} if "--sft" in case[2] else set())
                | ({"shared_step", "shared_reference"} if "--shared" in case[2] else set()))
    done = {line.split()[1] for line in proc.stdout.splitlines() if line.startswith("compiled")}
    assert done == expected
    warnings = [line for line in proc.stderr.splitlines() if FALLBACK in line]
    assert not warnings, "\n".join(w[:600] for w in warnings)
