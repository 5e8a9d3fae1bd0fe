"""Synthesize the training data (issue 6): live-state grounded, replay-verified conversations.

    python -m launch.synthesize --config=configs/synth.py [--config.num_examples=N]
        [--config.seed=S] [--config.out_dir=DIR] [--config.servers=banking,payments]

Writes DIR/train.jsonl, DIR/test.jsonl (one task per line, read with
prove_jax.data.TaskSource), meta.jsonl, stats.json, drop_report.json and the graph cache.
"""

from __future__ import annotations

import sys

from absl import app
from ml_collections import config_flags

from launch.cli import check_config_flags, parse_flags, usage_error
from launch.common import quiet_logs

if __name__ == "__main__":  # a flag with a default parses the overrides as it is defined
    check_config_flags(sys.argv, default="configs/synth.py")
_CONFIG = config_flags.DEFINE_config_file("config", "configs/synth.py", "synthesis config")


def main(argv: list[str]) -> None:
    quiet_logs()
    del argv
    from prove_jax.synthesis.run import run
    from prove_jax.synthesis.settings import SynthConfig

    try:
        cfg = SynthConfig.from_config(_CONFIG.value)
    except (ValueError, KeyError, AttributeError) as err:
        usage_error(f"bad synthesis config: {err}")
    result = run(cfg)
    s = result.stats
    mix = ", ".join(f"{k} {v:.1%}" for k, v in s["kind_mix"].items())
    reasons = ", ".join(f"{k} {v['count']}" for k, v in
                        _drops(result.paths.get("drop_report.json")).items())
    print(f"kept {len(result.kept)} of {result.generated} generated ({mix}); "
          f"dropped: {reasons or 'none'}")
    print(f"train {s['counts']['split'].get('train', 0)}, test "
          f"{s['counts']['split'].get('test', 0)} -> {cfg.out_dir}")
    print(f"throughput: {result.examples_per_s:.1f} examples/s "
          f"({result.seconds:.0f} s, graph cache {'hit' if result.graph_cache_hit else 'miss'})")


def _drops(path: object) -> dict:
    import json
    from pathlib import Path

    return json.loads(Path(path).read_text())["by_reason"] if path else {}


if __name__ == "__main__":
    app.run(main, flags_parser=parse_flags)
