"""Checkpoint load/export throughput: `prove_jax.checkpoint.hf` vs transformers, same files.

Builds a random float32 Qwen3 model (~500 MB of parameters; ~50 MB with --quick) with
transformers, saves it as safetensors in 200MB shards (15MB with --quick), then times, each
`--repeats` times (best time reported, median alongside):
  load:   ours `load_hf(dir, dtype="float32")` + block_until_ready on every parameter
          vs transformers `AutoModelForCausalLM.from_pretrained(dir, dtype=torch.float32)`,
          as returned (transformers 5 hands back lazy memory-map views, no bytes read) and
          followed by one read of every parameter (ours has copied every byte already);
  export: ours `export_hf(model, cfg, out, max_shard_size="200MB")`
          vs transformers `model.save_pretrained(out, max_shard_size="200MB")`.
Throughput is parameter bytes / seconds. The source files are read once, untimed, first, so
both loaders read from the page cache; exports land in the page cache too (no fsync).
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax
import torch
import transformers
from flax import nnx
from safetensors import safe_open

from prove_jax.checkpoint.hf import export_hf, load_hf

VOCAB = 32000
LAYERS = 8


def make_config(size_mb: float) -> transformers.Qwen3Config:
    """A Qwen3 config whose float32 parameters come closest to size_mb (MB = 1e6 bytes)."""
    def params(h: int) -> int:  # embed + lm_head + per layer (q,o: h², k,v: h²/2, mlp: 9h²)
        return 2 * VOCAB * h + LAYERS * 12 * h * h
    hidden = min(range(128, 8193, 128), key=lambda h: abs(params(h) * 4 - size_mb * 1e6))
    heads = hidden // 64
    return transformers.Qwen3Config(
        vocab_size=VOCAB, hidden_size=hidden, intermediate_size=3 * hidden,
        num_hidden_layers=LAYERS, num_attention_heads=heads, num_key_value_heads=heads // 2,
        head_dim=64, tie_word_embeddings=False, max_position_embeddings=4096)


def warm_read(model_dir: Path) -> None:
    """Read every file once so the timed loads both start from the page cache."""
    for f in model_dir.iterdir():
        with open(f, "rb") as fh:
            while fh.read(64 << 20):
                pass


def timed(fn: Callable[[], object], repeats: int) -> tuple[list[float], object]:
    """Wall times of `repeats` calls, and the last call's result."""
    times, result = [], None
    for _ in range(repeats):
        result = None  # drop the previous result before the next run
        gc.collect()
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return times, result


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB


def run(size_mb: float, repeats: int, root: Path, shard: str) -> None:
    """Build the source checkpoint under root, time all four operations, print the table."""
    transformers.utils.logging.disable_progress_bar()
    torch.manual_seed(0)
    src, ours_out, hf_out = root / "source", root / "export_ours", root / "export_hf"
    config = make_config(size_mb)
    source = transformers.AutoModelForCausalLM.from_config(config, dtype=torch.float32)
    nbytes = sum(p.numel() * p.element_size() for p in source.state_dict().values())
    mb = nbytes / 1e6
    print(f"model: Qwen3 hidden={config.hidden_size} layers={LAYERS} vocab={VOCAB}: "
          f"{mb:.1f} MB float32 ({nbytes // 4:,} params); shards of {shard}")
    source.save_pretrained(src, max_shard_size=shard)
    del source
    warm_read(src)
    print(f"source: {len(list(src.glob('*.safetensors')))} safetensors files, page cache warmed "
          "by one untimed read of every file before timing")
    rss: dict[str, float] = {"start": peak_rss_mb()}

    def ours_load() -> tuple:
        model, cfg = load_hf(src, dtype="float32")
        jax.block_until_ready(jax.tree.leaves(nnx.state(model)))
        return model, cfg

    def hf_load(touch: bool = False) -> torch.nn.Module:
        hf = transformers.AutoModelForCausalLM.from_pretrained(src, dtype=torch.float32)
        with torch.no_grad():  # transformers 5 returns lazy mmap views: read every byte once
            _ = [p.sum() for p in hf.state_dict().values()] if touch else None
        return hf

    t_ours_load, (model, cfg) = timed(ours_load, repeats)
    rss["ours load"] = peak_rss_mb()
    t_hf_touch, _ = timed(lambda: hf_load(touch=True), repeats)
    t_hf_load, hf_model = timed(hf_load, repeats)
    rss["hf load"] = peak_rss_mb()
    t_ours_exp, _ = timed(lambda: export_hf(model, cfg, ours_out, max_shard_size=shard), repeats)
    rss["ours export"] = peak_rss_mb()
    t_hf_exp, _ = timed(lambda: hf_model.save_pretrained(hf_out, max_shard_size=shard), repeats)
    rss["hf export"] = peak_rss_mb()

    ref, ours_names = hf_model.state_dict(), set()
    for f in ours_out.glob("*.safetensors"):  # names, and values bit for bit
        with safe_open(f, framework="pt") as st:
            for name in st.keys():  # noqa: SIM118 (safe_open is not a mapping)
                ours_names.add(name)
                assert torch.equal(st.get_tensor(name), ref[name]), f"{name} differs"
    hf_files = [safe_open(f, framework="np") for f in hf_out.glob("*.safetensors")]
    hf_names = {name for st in hf_files for name in st.keys()}  # noqa: SIM118
    assert ours_names == hf_names, f"tensor names differ: {ours_names ^ hf_names}"
    assert "lm_head.weight" in ours_names
    print(f"verified: ours exported {len(ours_names)} tensors, same names as transformers' "
          "save_pretrained, values bit-identical to the loaded model")

    print(f"\nbest of {repeats} (median in brackets); ratio > 1 means ours is faster\n")
    print("| operation | ours MB/s | transformers MB/s | ours/transformers |")
    print("|---|---|---|---|")
    rows = (("load (as returned)", t_ours_load, t_hf_load),
            ("load + read every param", t_ours_load, t_hf_touch), ("export", t_ours_exp, t_hf_exp))
    for op, ours, base in rows:
        print(f"| {op} | {mb / min(ours):.0f} ({mb / statistics.median(ours):.0f}) | "
              f"{mb / min(base):.0f} ({mb / statistics.median(base):.0f}) | "
              f"{min(base) / min(ours):.2f} |")
    print("\nprocess peak RSS (ru_maxrss, MB) after each phase: "
          + ", ".join(f"{k} {v:.0f}" for k, v in rss.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=float, default=500.0, help="target parameter MB")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per operation")
    parser.add_argument("--out", type=Path, help="keep the files here (default: a temp dir)")
    parser.add_argument("--quick", action="store_true", help="~50 MB smoke run")
    args = parser.parse_args()
    size = 50.0 if args.quick else args.size_mb
    shard = "15MB" if args.quick else "200MB"  # quick: still a sharded source, index path
    print(f"jax {jax.__version__} ({jax.devices()[0].platform}), torch {torch.__version__}, "
          f"transformers {transformers.__version__}, {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory(prefix="load_export_") as tmp:
        run(size, args.repeats, args.out or Path(tmp), shard)


if __name__ == "__main__":
    main()
