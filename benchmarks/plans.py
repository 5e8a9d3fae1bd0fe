"""The dry-run plans of the four real models (`make plans`): memory, communication and model
FLOPs per step for each, and a check that none of their train steps makes XLA fall back to
replicating an activation ("Involuntary full rematerialization").

    python -m benchmarks.plans [qwen3_4b qwen3_8b ...]

Each config runs `python -m launch.train --config=configs/NAME.py --config.dry_run=True` in a
process of its own (so the warnings on its stderr are that plan's alone), prints the plan, and
the script exits 1 if any plan failed or fell back. Needs no weights (abstract shapes); takes
minutes per model on a 2-core CPU.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODELS = ("qwen3_4b", "qwen3_8b", "qwen2_5_7b", "granite_4_1_8b")
FALLBACK = "Involuntary full rematerialization"


def run_plan(name: str) -> tuple[bool, str]:
    """(clean, report) of one model's dry-run plan."""
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "launch.train", f"--config=configs/{name}.py",
         "--config.dry_run=True"], cwd=ROOT, capture_output=True, text=True)
    fallbacks = [line for line in proc.stderr.splitlines() if FALLBACK in line]
    lines = [proc.stdout.rstrip(),
             f"-- {name}: exit {proc.returncode}, {len(fallbacks)} fallback reshardings, "
             f"{time.perf_counter() - start:.0f} s"]
    if proc.returncode:
        lines.append(proc.stderr[-3000:])
    lines += [f"   {w[:400]}" for w in fallbacks]
    return proc.returncode == 0 and not fallbacks, "\n".join(lines)


def main(names: list[str]) -> int:
    unknown = sorted(set(names) - set(MODELS))
    if unknown:
        print(f"unknown models {unknown}; known: {list(MODELS)}")
        return 2
    clean = True
    for name in names or MODELS:
        ok, report = run_plan(name)
        print(report, flush=True)
        clean &= ok
    print("all plans compiled without fallback resharding" if clean else "SOME PLANS FAILED")
    return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
