"""Same config and seed: byte-identical files, whatever order the conversations finish in.
Another seed: another dataset."""

from __future__ import annotations

import json

from tests.synthesis.common import config, run

FILES = ("train.jsonl", "test.jsonl", "meta.jsonl", "drop_report.json")


def _stats(path):
    stats = json.loads(path.read_text())
    stats.pop("throughput")  # seconds and examples/s are the only things allowed to differ
    stats["graph"].pop("cache_hit")
    return stats


def test_same_seed_same_bytes_other_seed_other_data(tmp_path, graph_cache):
    a = run(config(tmp_path / "a", graph_cache, num_examples=50, test_frac=0.3))
    # other concurrency: completion order differs, output must not
    b = run(config(tmp_path / "b", graph_cache, num_examples=50, test_frac=0.3,
                   concurrency=3))
    for name in FILES:
        assert a.paths[name].read_bytes() == b.paths[name].read_bytes(), name
    # the alternatives probed on the live state are part of what stays identical
    assert b'"alternatives":' in a.paths["train.jsonl"].read_bytes()
    assert _stats(a.paths["stats.json"]) == _stats(b.paths["stats.json"])
    c = run(config(tmp_path / "c", graph_cache, num_examples=50, test_frac=0.3, seed=1))
    assert a.paths["train.jsonl"].read_bytes() != c.paths["train.jsonl"].read_bytes()
    seeds_a = {json.loads(x)["seed"] for x in a.paths["train.jsonl"].read_text().splitlines()}
    seeds_c = {json.loads(x)["seed"] for x in c.paths["train.jsonl"].read_text().splitlines()}
    assert not seeds_a & seeds_c  # other worlds too
