"""Tokens/s and peak memory of our GRPO train step beside a PyTorch step of the same model.

Model: the random ~100M-parameter Qwen3-shaped float32 model of benchmarks/sampler.py (vocab
151936, hidden 512, 8 layers, 8 heads / 4 kv heads, head_dim 64, intermediate 1536, tied
embeddings), built once with transformers and saved as safetensors to a temp dir; both sides
load that dir, so they start from identical weights.

Batch (seeded, identical on both sides): B x T random tokens (default 8 x 512), attention mask
all ones, loss mask on the second half of every row, advantages ~ N(0, 1) [B], and old_logp =
each side's own log-probs of the tokens before the first step (so the first ratio is 1; each
side's grad norm at step 1 is printed as a check that the two compute the same gradient).

Sides, each in its own subprocess of this script (`--side`), run one after another so their
memory does not mix:
  ours:  `make_train_step(graphdef, make_optimizer(OptimConfig(lr=1e-5)), LossConfig(kl_coef=0),
         micro_batches=1, chunk_size=--chunk, fused_head=--fused)` under
         `jax.jit(..., donate_argnums=(0, 1))` on one CPU device, the model config's remat set
         by --remat (default full). Position t predicts token t + 1, so the model runs
         over tokens[:, :-1] (the LM head one --chunk of time steps at a time).
  torch: benchmarks/train_step_torch.py: transformers `AutoModelForCausalLM` forward over the
         same tokens[:, :-1], logits -> log_softmax -> gather, the same clipped GRPO token loss
         (clip 0.2 / 0.28, token mean over the mask), backward, grad-norm clip 1.0 (as ours),
         `torch.optim.AdamW(lr=1e-5, weight_decay=0)` step; `torch.set_num_threads(cpu_count)`.

Timing: --warmup untimed steps (ours compiles in the first), then --steps timed steps; best and
median step time; tokens/s = B x T / step seconds; CPU seconds per step (all threads) beside
them (≈ 2x wall on an idle 2-core box: a lower ratio means others took the cores). The sides
run at different times, so on a shared machine the wall ratio follows the others' load (0.73x
to 1.74x in runs here); --rounds N alternates the sides N times and keeps each one's best run.
Per-step load averages are printed: trust a run whose load stayed near the thread count.
Memory: the child's RSS after imports (baseline), after loading the weights, and its peak
(VmHWM, ru_maxrss) at the end. Targets (issue #8): ours >= 1.3x torch tokens/s at lower peak
memory (the issue's guide figure here: transformers 82 tok/s at 16.9 GB peak).

Run: `PYTHONPATH=. .venv/bin/python benchmarks/train_step.py` (add `--steps 2` on a busy box).
`--shared-prefix` times the shared-prefix layout against the unpacked one instead
(benchmarks/shared_prefix.py).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

SPEED_TARGET = 1.3
RESULT_TAG = "RESULT "
GB = 1e9


# ---------------------------------------------------------------- helpers shared by both sides
def rss_bytes(field: str = "VmRSS") -> int:
    """This process's resident set (VmRSS) or its high-water mark (VmHWM), from /proc."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"{field} not in /proc/self/status")


def make_batch(batch: int, seq: int, vocab: int, seed: int = 0) -> dict[str, np.ndarray]:
    """The benchmark batch without old_logp (each side adds its own): tokens [B, T], masks
    [B, T], advantages [B]."""
    rng = np.random.default_rng(seed)
    loss_mask = np.zeros((batch, seq), np.int32)
    loss_mask[:, seq // 2:] = 1  # the "answer" is the second half of each row
    return {"tokens": rng.integers(1, vocab, size=(batch, seq)).astype(np.int32),
            "attention_mask": np.ones((batch, seq), np.int32),
            "loss_mask": loss_mask,
            "advantages": rng.normal(size=batch).astype(np.float32)}


def time_train_step(step: Callable, params: Any, opt: Any, batch: dict, warmup: int,
                    steps: int) -> dict:
    """`time_steps` over a jitted train step that donates its parameters and optimizer state:
    each call's outputs are the next call's inputs (the caller's `params` are consumed)."""
    import jax  # in the side process only, like the rest of the JAX side

    # Committed to the device like the step's outputs: opt.init's uncommitted scalars would
    # otherwise make the second call compile again (a different argument sharding).
    state = {"params": params, "opt": jax.device_put(opt.init(params), jax.devices()[0])}
    del params

    def one_step() -> float:
        state["params"], state["opt"], metrics = step(state["params"], state["opt"], batch)
        jax.block_until_ready((state["params"], state["opt"], metrics))
        return float(metrics["grad_norm"])

    return time_steps(one_step, warmup, steps)


def time_steps(run_step: Callable[[], float], warmup: int, steps: int) -> dict:
    """Runs warmup + steps calls of `run_step` (which returns the step's grad norm, after
    waiting for the step to finish); the first call's time is reported apart (compile).
    CPU seconds (all threads) are kept too: on a shared machine they vary less than wall time."""
    times, cpus, norms = [], [], []
    for i in range(warmup + steps):
        start, cpu = time.perf_counter(), time.process_time()
        norms.append(run_step())
        times.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
        print(f"    step {i + 1}/{warmup + steps}: {times[-1]:.2f} s, {cpus[-1]:.1f} CPU s "
              f"({'warm-up' if i < warmup else 'timed'}, load {os.getloadavg()[0]:.2f})",
              file=sys.stderr, flush=True)
    timed = times[warmup:]
    return {"first_s": times[0], "best_s": min(timed), "median_s": statistics.median(timed),
            "cpu_s": statistics.median(cpus[warmup:]), "grad_norm_1": norms[0]}


def finish(result: dict, baseline: int, loaded: int) -> None:
    """Prints the child's result line: timings plus baseline/loaded/peak RSS."""
    import resource

    result.update(baseline_gb=baseline / GB, loaded_gb=loaded / GB,
                  peak_gb=rss_bytes("VmHWM") / GB,
                  maxrss_gb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / GB)
    print(RESULT_TAG + json.dumps(result), flush=True)


# ------------------------------------------------------------------------------------- ours
def run_ours(args: argparse.Namespace) -> None:
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    import jax
    import jax.numpy as jnp
    from flax import nnx

    from prove_jax.checkpoint.hf import load_hf
    from prove_jax.rl.losses import LossConfig
    from prove_jax.rl.objectives import sequence_logprobs
    from prove_jax.rl.optim import OptimConfig, make_optimizer
    from prove_jax.rl.train_step import make_train_step

    baseline = rss_bytes()
    model, cfg = load_hf(args.ckpt, dtype="float32", compute_dtype="float32", remat=args.remat,
                         attn_chunk=args.attn_chunk)
    graphdef, params = nnx.split(model, nnx.Param)
    del model  # the params tree holds the same arrays; donation below must own them alone
    loaded = rss_bytes()
    batch = {k: jnp.asarray(v) for k, v in make_batch(args.batch, args.seq,
                                                      cfg.vocab_size).items()}

    if args.compact:  # the trainer's batch form: the LM head runs on the masked tokens only
        where = np.flatnonzero(np.asarray(batch["loss_mask"][0])[1:]) + 1
        batch["target_index"] = jnp.asarray(np.tile(where - 1, (args.batch, 1)), jnp.int32)
        batch["loss_mask"] = jnp.ones((args.batch, len(where)), jnp.int32)

    @jax.jit
    def current_logp(p: nnx.State) -> jax.Array:
        lp = sequence_logprobs(nnx.merge(graphdef, p), batch["tokens"],
                               batch["attention_mask"], args.chunk,
                               target_index=batch.get("target_index"))
        if args.compact:
            return lp  # [B, R], aligned with target_index
        return jnp.pad(lp, ((0, 0), (1, 0)))  # token-aligned [B, T], column 0 unused

    batch["old_logp"] = jax.block_until_ready(current_logp(params))
    opt = make_optimizer(OptimConfig(lr=1e-5))
    step = jax.jit(make_train_step(graphdef, opt, LossConfig(kl_coef=0.0), micro_batches=1,
                                   chunk_size=args.chunk, fused_head=args.fused),
                   donate_argnums=(0, 1))
    result = time_train_step(step, params, opt, batch, args.warmup, args.steps)
    result["desc"] = (f"jax {jax.__version__}, remat={args.remat}, chunk={args.chunk}, "
                      f"attn_chunk={args.attn_chunk}, "
                      f"{'compact' if args.compact else 'token-aligned'} batch, "
                      f"{'fused' if args.fused else 'unfused'} LM head")
    finish(result, baseline, loaded)


# ----------------------------------------------------------------------------------- parent
def run_side(side: str, args: argparse.Namespace, ckpt: Path) -> dict:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--side", side, "--ckpt", str(ckpt),
           "--batch", str(args.batch), "--seq", str(args.seq), "--steps", str(args.steps),
           "--warmup", str(args.warmup), "--chunk", str(args.chunk), "--remat", args.remat,
           "--attn-chunk", str(args.attn_chunk), "--compact" if args.compact else "--no-compact",
           "--fused" if args.fused else "--no-fused"]
    avail = next(int(ln.split()[1]) * 1024 for ln in Path("/proc/meminfo").read_text()
                 .splitlines() if ln.startswith("MemAvailable:"))
    print(f"  {side}: running in a subprocess ({avail / GB:.1f} GB available) ...",
          file=sys.stderr, flush=True)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (str(Path(__file__).resolve().parents[1]), os.environ.get("PYTHONPATH"))
        if p)}
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, env=env, check=False)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith(RESULT_TAG)]
    if proc.returncode or not lines:
        raise SystemExit(f"{side} side failed (exit {proc.returncode}):\n{proc.stdout}")
    print(f"  {side}: {lines[-1][len(RESULT_TAG):]}", file=sys.stderr, flush=True)
    return json.loads(lines[-1][len(RESULT_TAG):])


def best_of(old: dict | None, new: dict) -> dict:
    """Merges two runs of a side: the faster run's timings, the larger peak memory."""
    if old is None:
        return new
    best = dict(min(old, new, key=lambda r: r["best_s"]))
    best["cpu_s"] = min(old["cpu_s"], new["cpu_s"])
    for key in ("peak_gb", "maxrss_gb"):
        best[key] = max(old[key], new[key])
    return best


def report(results: dict[str, dict], args: argparse.Namespace) -> None:
    tokens = args.batch * args.seq
    print(f"\nbatch {args.batch} x {args.seq} tokens, {args.warmup} warm-up + {args.steps} timed "
          "steps; tokens/s = B x T / step s; RSS in GB (1e9 bytes), per side in its own process")
    print("| side | step s best | step s median | tokens/s best | tokens/s median | CPU s median "
          "| first step s | baseline RSS GB | loaded RSS GB | peak RSS GB | grad norm @1 |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for side, r in results.items():
        print(f"| {side} | {r['best_s']:.2f} | {r['median_s']:.2f} | {tokens / r['best_s']:.1f} "
              f"| {tokens / r['median_s']:.1f} | {r['cpu_s']:.1f} | {r['first_s']:.1f} "
              f"| {r['baseline_gb']:.2f} "
              f"| {r['loaded_gb']:.2f} | {r['peak_gb']:.2f} | {r['grad_norm_1']:.5f} |")
    for side, r in results.items():
        print(f"  {side}: {r['desc']}")
    if {"ours", "torch"} <= results.keys():
        ours, torch_ = results["ours"], results["torch"]
        speed = torch_["best_s"] / ours["best_s"]
        speed_med = torch_["median_s"] / ours["median_s"]
        mem = ours["peak_gb"] / torch_["peak_gb"]
        mem_net = ((ours["peak_gb"] - ours["baseline_gb"])
                   / (torch_["peak_gb"] - torch_["baseline_gb"]))
        speed_cpu = torch_["cpu_s"] / ours["cpu_s"]
        print(f"\nours/torch tokens/s: {speed:.2f}x best, {speed_med:.2f}x median, "
              f"{speed_cpu:.2f}x per CPU second (target >= {SPEED_TARGET}x on best: "
              f"{'yes' if speed >= SPEED_TARGET else 'NO'})")
        print(f"ours/torch peak RSS: {mem:.2f}x ({mem_net:.2f}x above each side's baseline; "
              f"target < 1: {'yes' if mem < 1 else 'NO'})")
        rel = abs(ours["grad_norm_1"] - torch_["grad_norm_1"]) / torch_["grad_norm_1"]
        print(f"step-1 grad norm relative difference: {rel:.2e}")


def main() -> None:
    from benchmarks import shared_prefix

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--seq", type=int, default=512)
    parser.add_argument("--steps", type=int, default=3, help="timed steps per side")
    parser.add_argument("--warmup", type=int, default=1, help="untimed steps (compile) first")
    parser.add_argument("--chunk", type=int, default=64, help="our LM-head time chunk")
    parser.add_argument("--attn-chunk", type=int, default=1024,
                        help="our attention block (rows = keys) above this length")
    parser.add_argument("--remat", default="full",
                        help="our remat: none|full|dots|dots_no_batch (full: as fast as none "
                        "within the noise here, 4.3 vs 7.3 GB peak)")
    parser.add_argument("--compact", action=argparse.BooleanOptionalAction, default=True,
                        help="ours: the trainer's compact batch (LM head on the loss-mask "
                        "tokens only); --no-compact: token-aligned, head on every position")
    parser.add_argument("--fused", action=argparse.BooleanOptionalAction, default=True,
                        help="ours: LM head fused with the loss (its gradient formed in the "
                        "forward, 3 head matmuls); --no-fused: autodiff through the chunked "
                        "log-probs (4)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="run the sides alternately this many times; keep each one's best")
    parser.add_argument("--sides", default="ours,torch", help="comma-separated: ours,torch")
    parser.add_argument("--side", choices=("ours", "torch"), help=argparse.SUPPRESS)
    shared_prefix.add_arguments(parser)
    parser.add_argument("--ckpt", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.warmup < 1 or args.steps < 1 or args.seq < 4 or args.rounds < 1:
        parser.error("need --warmup >= 1, --steps >= 1, --seq >= 4 and --rounds >= 1")
    if args.shared_prefix:  # the layouts' comparison (benchmarks/shared_prefix.py)
        return (shared_prefix.run_layout(args) if args.layout else shared_prefix.main(args))
    if args.side == "ours":
        return run_ours(args)
    if args.side == "torch":
        from benchmarks.train_step_torch import run_torch
        return run_torch(args)

    import torch
    import transformers

    from benchmarks.sampler import make_config

    print(f"torch {torch.__version__}, transformers {transformers.__version__}, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory(prefix="train_step_bench_") as tmp:
        transformers.utils.logging.disable_progress_bar()
        torch.manual_seed(0)
        hf = transformers.AutoModelForCausalLM.from_config(make_config(), dtype=torch.float32)
        n_params = sum(p.numel() for p in hf.parameters())
        print(f"model: Qwen3-shaped, {n_params:,} parameters (tied), float32")
        hf.save_pretrained(tmp)
        del hf
        results: dict[str, dict] = {}
        for _ in range(args.rounds):
            for side in args.sides.split(","):
                results[side] = best_of(results.get(side), run_side(side, args, Path(tmp)))
    report(results, args)
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
