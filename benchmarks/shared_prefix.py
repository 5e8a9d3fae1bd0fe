"""`benchmarks/train_step.py --shared-prefix`: the GRPO step on a group-packed batch (each
group's prompt once, `prove_jax.rl.shared_prefix`) beside the unpacked step, same model, same
trajectories.

Model: the ~100M Qwen3 shape of benchmarks/sampler.py (vocab 151936, hidden 512, 8 layers,
8 / 4 heads, head_dim 64, intermediate 1536, tied), random float32 weights from seed 0 (each
side builds the same ones; no PyTorch involved).
Batch: --groups groups x --group-size rollouts; each rollout is a --prefix-token prompt that
its group shares and a --suffix-token suffix whose first half is sampled and second half a
tool result, so unpacked rows are prefix + suffix tokens long (no padding at the defaults). KL off
(no reference pass), old log-probs each layout's own (ratio 1), micro_batches 1, remat full.
Each layout runs in its own subprocess (peak RSS per layout), timed like the main benchmark;
after timing each saves its step-1 gradient, and the parent compares them per tensor.
FLOP ratio F: `step_flops` / `shared_step_flops` of the two batches' shapes.
Last line: `shared prefix: step time standard/shared = R.RRx (FLOP ratio F.FFx); max relative
grad diff = D`.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.train_step import GB, RESULT_TAG, finish, rss_bytes, time_train_step

LAYOUTS = ("standard", "shared")


def model_config(remat: str, attn_chunk: int):
    from prove_jax.models.config import ModelConfig

    return ModelConfig(model_type="qwen3", vocab_size=151936, hidden_size=512,
                       intermediate_size=1536, num_layers=8, num_heads=8, num_kv_heads=4,
                       head_dim=64, qk_norm=True, tie_word_embeddings=True,
                       max_position_embeddings=4096, remat=remat, attn_chunk=attn_chunk)


def trajectories(args: argparse.Namespace, vocab: int) -> tuple[list, np.ndarray]:
    """Groups of Trajectory (shared prompt, sampled half, tool-result half) and advantages."""
    from prove_jax.rollout.trajectory import Trajectory

    rng = np.random.default_rng(0)
    half = args.suffix // 2
    groups = []
    for n in range(args.groups):
        prompt = rng.integers(1, vocab, size=args.prefix).tolist()
        group = []
        for g in range(args.group_size):
            t = Trajectory(f"bench-{n}", g, 0)
            t.append(prompt)
            t.append(rng.integers(1, vocab, size=half).tolist(), sampled=True,
                     logprobs=[-1.0] * half)
            t.append(rng.integers(1, vocab, size=args.suffix - half).tolist())
            group.append(t)
        groups.append(group)
    adv = rng.normal(size=(args.groups, args.group_size)).astype(np.float32)
    return groups, adv


def batches(args: argparse.Namespace, vocab: int) -> dict[str, dict]:
    from prove_jax.rl.batch import rollout_batch
    from prove_jax.rl.group_batch import grouped_batch

    groups, adv = trajectories(args, vocab)
    flat = [t for g in groups for t in g]
    return {"standard": rollout_batch(flat, list(adv.reshape(-1)), seq_multiple=256),
            "shared": grouped_batch(groups, adv, seq_multiple=256)}


def run_layout(args: argparse.Namespace) -> None:
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    import jax
    import jax.numpy as jnp
    from flax import nnx

    from prove_jax.models import init_model
    from prove_jax.rl.losses import LossConfig
    from prove_jax.rl.objectives import sequence_logprobs
    from prove_jax.rl.optim import OptimConfig, make_optimizer
    from prove_jax.rl.shared_prefix import packed_logprobs
    from prove_jax.rl.train_step import accumulate, make_train_step

    shared = args.layout == "shared"
    baseline = rss_bytes()
    cfg = model_config(args.remat, args.attn_chunk)
    graphdef, params = nnx.split(init_model(cfg, seed=0), nnx.Param)
    loaded = rss_bytes()
    batch = {k: jnp.asarray(v) for k, v in batches(args, cfg.vocab_size)[args.layout].items()}

    @jax.jit
    def current_logp(p: nnx.State) -> jax.Array:
        if shared:
            return packed_logprobs(graphdef, p, batch, args.chunk)
        return sequence_logprobs(nnx.merge(graphdef, p), batch["tokens"],
                                 batch["attention_mask"], args.chunk,
                                 target_index=batch["target_index"])

    batch["old_logp"] = jax.block_until_ready(current_logp(params)) * batch["loss_mask"]
    opt = make_optimizer(OptimConfig(lr=1e-5))
    step = jax.jit(make_train_step(graphdef, opt, LossConfig(kl_coef=0.0), micro_batches=1,
                                   chunk_size=args.chunk, shared_prefix=shared),
                   donate_argnums=(0, 1))
    # the step-1 gradient, for the comparison: params are kept (a copy) before donation
    first = jax.tree.map(jnp.copy, params)
    # the trained copies are freed when it returns, before the gradient pass
    result = time_train_step(step, params, opt, batch, args.warmup, args.steps)
    del params
    result["peak_step_gb"] = rss_bytes("VmHWM") / GB
    grads = _gradient(graphdef, first, batch, args.chunk, shared, accumulate)
    np.savez(Path(args.out) / f"{args.layout}.npz",
             **{str(i): np.asarray(g) for i, g in enumerate(jax.tree.leaves(grads))})
    result["desc"] = f"{args.layout} layout, shapes " + ", ".join(
        f"{k} {tuple(v.shape)}" for k, v in batch.items() if k in ("prefix_tokens", "tokens"))
    finish(result, baseline, loaded)


def _gradient(graphdef: Any, params: Any, batch: dict, chunk: int, shared: bool,
              accumulate: Callable) -> Any:
    """The step's summed gradient at `params` (before clipping), either layout."""
    import jax

    from prove_jax.rl.losses import LossConfig
    from prove_jax.rl.objectives import grpo_objective
    from prove_jax.rl.shared_prefix import accumulate_shared, shared_grpo_objective
    from prove_jax.rl.train_step import loss_weights

    loss_cfg = LossConfig(kl_coef=0.0)
    weights = loss_weights(batch["loss_mask"], loss_cfg)
    kw = dict(chunk_size=chunk, temperature=1.0)

    def grads(p: Any) -> Any:
        if shared:
            return accumulate_shared(shared_grpo_objective(graphdef, loss_cfg, **kw), graphdef,
                                     p, batch, weights, 1)[0]
        return accumulate(grpo_objective(graphdef, loss_cfg, **kw), p, batch, weights, 1)[0]

    return jax.jit(grads)(params)


def _child(layout: str, args: argparse.Namespace, out: str) -> dict:
    cmd = [sys.executable, str(Path(__file__).resolve().parent / "train_step.py"),
           "--shared-prefix", "--layout", layout, "--out", out,
           "--groups", str(args.groups), "--group-size", str(args.group_size),
           "--prefix", str(args.prefix), "--suffix", str(args.suffix),
           "--steps", str(args.steps), "--warmup", str(args.warmup), "--chunk", str(args.chunk),
           "--remat", args.remat, "--attn-chunk", str(args.attn_chunk)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (str(Path(__file__).resolve().parents[1]), os.environ.get("PYTHONPATH"))
        if p)}
    print(f"  {layout}: running in a subprocess ...", file=sys.stderr, flush=True)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, env=env, check=False)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith(RESULT_TAG)]
    if proc.returncode or not lines:
        raise SystemExit(f"{layout} layout failed (exit {proc.returncode}):\n{proc.stdout}")
    print(f"  {layout}: {lines[-1][len(RESULT_TAG):]}", file=sys.stderr, flush=True)
    return json.loads(lines[-1][len(RESULT_TAG):])


def max_relative_diff(a_path: Path, b_path: Path) -> float:
    """max over tensors of ||a - b|| / ||b|| (b the standard layout's)."""
    a, b = np.load(a_path), np.load(b_path)
    worst = 0.0
    for key in b.files:
        x, y = a[key].astype(np.float64), b[key].astype(np.float64)
        worst = max(worst, float(np.linalg.norm(x - y) / max(np.linalg.norm(y), 1e-30)))
    return worst


def main(args: argparse.Namespace) -> None:
    from prove_jax.rl.flops import shared_step_flops, step_flops

    cfg = model_config(args.remat, args.attn_chunk)
    shapes = {k: {n: v.shape for n, v in b.items()} for k, b in batches(args, cfg.vocab_size)
              .items()}
    rows, seq = shapes["standard"]["tokens"]
    groups, size, suffix = shapes["shared"]["tokens"]
    flops = {"standard": step_flops(cfg, rows, seq, shapes["standard"]["target_index"][1]),
             "shared": shared_step_flops(cfg, groups, size, shapes["shared"]["prefix_tokens"][1],
                                         suffix, shapes["shared"]["target_index"][2])}
    print(f"{args.groups} groups x G={args.group_size}, prefix {args.prefix} + suffix "
          f"{args.suffix} tokens (half sampled); standard rows {rows} x {seq}, shared "
          f"prefixes {shapes['shared']['prefix_tokens']} + suffixes {groups} x {size} x "
          f"{suffix}; {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory(prefix="shared_prefix_bench_") as out:
        results = {layout: _child(layout, args, out) for layout in LAYOUTS}
        diff = max_relative_diff(Path(out) / "shared.npz", Path(out) / "standard.npz")
    print("| layout | step s best | step s median | first step s | peak RSS GB (step) "
          "| peak RSS GB (end) | model TFLOP/step | grad norm @1 |")
    print("|---|---|---|---|---|---|---|---|")
    for layout, r in results.items():
        print(f"| {layout} | {r['best_s']:.2f} | {r['median_s']:.2f} | {r['first_s']:.1f} "
              f"| {r['peak_step_gb']:.2f} | {r['peak_gb']:.2f} | {flops[layout] / 1e12:.2f} "
              f"| {r['grad_norm_1']:.6f} |")
    ratio = results["standard"]["best_s"] / results["shared"]["best_s"]
    f_ratio = flops["standard"] / flops["shared"]
    print(f"targets: R >= 0.8 F ({'yes' if ratio >= 0.8 * f_ratio else 'NO'}), R >= 1.6 "
          f"({'yes' if ratio >= 1.6 else 'NO'}), D <= 1e-4 ({'yes' if diff <= 1e-4 else 'NO'})")
    print(f"shared prefix: step time standard/shared = {ratio:.2f}x (FLOP ratio {f_ratio:.2f}x); "
          f"max relative grad diff = {diff:.2e}")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--shared-prefix", action="store_true",
                        help="time the shared-prefix layout against the unpacked one "
                        "(benchmarks/shared_prefix.py)")
    parser.add_argument("--groups", type=int, default=2)
    parser.add_argument("--group-size", type=int, default=8)
    parser.add_argument("--prefix", type=int, default=1536)
    parser.add_argument("--suffix", type=int, default=512)
    parser.add_argument("--layout", choices=LAYOUTS, help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
