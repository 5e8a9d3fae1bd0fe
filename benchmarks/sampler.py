"""Decode throughput of our `Sampler` vs transformers `generate`, same checkpoint, same run.

Builds a random ~100M-parameter Qwen3-shaped float32 model with transformers (vocab 151936,
hidden 512, 8 layers, 8 heads / 4 kv heads, head_dim 64, intermediate 1536, tied embeddings),
saves it as safetensors to a temp dir and loads it into ours with `load_hf(dir, dtype="float32")`.
Prompts are fixed-length random tokens (64 by default), greedy, on the CPU, batch 1, 8 and 32.

Baselines, measured in the same run:
  transformers: `model.generate(ids, do_sample=False, max_new_tokens=N, min_new_tokens=N)`
                (torch float32, `torch.set_num_threads(os.cpu_count())`, inference mode);
  bandwidth bound (batch 1): float32 weight bytes read per decode step (every parameter once,
                the tied embedding counted once, as the head) / memory bandwidth measured here by
                a 1 GiB `np.copyto` (best of 5; GB/s = bytes read + written / time).
Ours: `Sampler(model).generate(prompts, SamplingParams(N, temperature=0, stop_token_ids=()))`,
compilation excluded by one untimed warm-up per shape. Both decode exactly N tokens.
Where `google-tunix` is installed (`pip install --no-deps -r benchmarks/requirements.txt`, not a
project requirement), a second peer: Tunix's vanilla `Sampler` over its own Qwen3 loaded from the
same safetensors (benchmarks/tunix_peer.py), greedy, KV cache sized for prompt + N, timed the same
way (its T(1) is prefill plus one unused decode forward, so its prefill time is slightly
overstated); target at batch 32 below. Elsewhere one line says it was skipped.

Then the rollout engine's time split over 64 episodes (benchmarks/engine_split.py), sampled by a
tiny random model with the same vocabulary (see there).

Prefill is timed apart for both: T(1) generates one token (transformers and ours: the prefill
and one draw; a one-token call of ours runs no decode forward and copies no layer weights), so
T(N) - T(1) spans N - 1 decode forwards (ours: and the per-call copy of the layer weights),
and decode tok/s = batch x (N - 1) / (T(N) - T(1)); "e2e" is batch x N / T(N), prefill
included. Ours and the peers alternate repeat by repeat (best of 3 kept), so a busy shared
machine hurts all alike.

Roofline: a decode step reads every weight once (bandwidth) and does 2 x parameters x batch
FLOPs plus attention over the context (compute); the step's floor is the larger of bytes /
bandwidth and FLOPs / peak, where the peak is a float32 [2048, 2048] matmul measured here by
XLA (best of 5). Each batch prints its decode rate as a fraction of that floor.

Targets (issue 21): at batch 32, decode ours/transformers >= 2x and ours/Tunix >= 1.3x; at
batch 1, >= 85% of the bandwidth bound; with --prompt-len 1536 (a prompt with tool schemas),
prefill time ours/transformers <= 0.8 at batch 1 and 8 (printed for every batch).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax
import jax.numpy as jnp
import numpy as np
import torch
import transformers

from benchmarks.engine_split import engine_split
from benchmarks.tunix_peer import tunix_available, tunix_decoder
from prove_jax.checkpoint.hf import load_hf
from prove_jax.models import init_model
from prove_jax.models.presets import preset
from prove_jax.sampling.sampler import Sampler, SamplingParams

VOCAB = 151936
PROMPT_LEN = 64
SPEEDUP_TARGET = 2.0  # decode ours/transformers at TARGET_BATCH
TUNIX_TARGET = 1.3  # decode ours/Tunix at TARGET_BATCH
TARGET_BATCH = 32
BOUND_TARGET = 0.85  # batch-1 decode against the bandwidth bound
PREFILL_TARGET = 0.8  # prefill time ours/transformers, at --prompt-len 1536 (tool schemas)


def make_config() -> transformers.Qwen3Config:
    return transformers.Qwen3Config(
        vocab_size=VOCAB, hidden_size=512, intermediate_size=1536, num_hidden_layers=8,
        num_attention_heads=8, num_key_value_heads=4, head_dim=64, tie_word_embeddings=True,
        max_position_embeddings=4096, bos_token_id=None, eos_token_id=None, pad_token_id=0)


def bandwidth_gbs(nbytes: int = 1 << 30, repeats: int = 5) -> float:
    """Best-of-`repeats` copy bandwidth: (bytes read + bytes written) / seconds, in GB/s."""
    src = np.ones(nbytes // 4, np.float32)
    dst = np.zeros_like(src)  # zeros_like touches the pages: no first-touch faults timed
    np.copyto(dst, src)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        np.copyto(dst, src)
        best = min(best, time.perf_counter() - start)
    return 2 * nbytes / best / 1e9


def matmul_peak_gflops(n: int = 2048, repeats: int = 5) -> float:
    """Best-of-`repeats` float32 [n, n] @ [n, n] rate under XLA on this machine, in GFLOP/s."""
    x = jnp.ones((n, n), jnp.float32)
    matmul = jax.jit(lambda a: a @ a)
    matmul(x).block_until_ready()
    best = min(wall_time(lambda: matmul(x).block_until_ready()) for _ in range(repeats))
    return 2 * n**3 / best / 1e9


def decode_step_gflop(config: transformers.Qwen3Config, n_params: int, batch: int,
                      context: int) -> float:
    """One decode step's FLOPs: every weight once per row (the tied head included) plus the
    scores and weighted sum over `context` keys in every layer and head."""
    attention = 4 * config.num_hidden_layers * config.num_attention_heads * config.head_dim
    return batch * (2 * n_params + attention * context) / 1e9


def prefill_gflop(config: transformers.Qwen3Config, n_params: int, batch: int,
                  prompt: int) -> float:
    """A prefill's FLOPs: every weight but the embedding once per prompt token, the causal
    scores and weighted sums (token t reads t + 1 keys), and the head on the last token."""
    embedding = config.vocab_size * config.hidden_size
    attention = 4 * config.num_hidden_layers * config.num_attention_heads * config.head_dim
    per_row = (2 * (n_params - embedding) * prompt + attention * prompt * (prompt + 1) / 2
               + 2 * embedding)
    return batch * per_row / 1e9


def roofline_tok_s(weight_bytes: int, gbs: float, gflop: float, peak: float, batch: int
                   ) -> float:
    """Decode tok/s at the floor: a step can be no faster than reading the weights once nor
    than its FLOPs at the measured matmul peak."""
    return batch / max(weight_bytes / (gbs * 1e9), gflop / peak)


def wall_time(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def bench_batch(sampler: Sampler, hf: torch.nn.Module, batch: int, n: int, repeats: int,
                rng: np.random.Generator,
                tunix: Callable[[np.ndarray, int], np.ndarray] | None = None,
                prompt_len: int = PROMPT_LEN) -> dict:
    prompts = rng.integers(1, VOCAB, size=(batch, prompt_len)).tolist()
    ids = torch.tensor(prompts, dtype=torch.long)
    seeds = list(range(batch))

    def ours(k: int) -> list:
        params = SamplingParams(max_new_tokens=k, temperature=0.0, stop_token_ids=())
        out = sampler.generate(prompts, params, seeds)
        assert all(len(o.tokens) == k for o in out), "ours stopped early"
        return out

    def theirs(k: int) -> torch.Tensor:
        with torch.inference_mode():
            out = hf.generate(ids, attention_mask=torch.ones_like(ids), do_sample=False,
                              max_new_tokens=k, min_new_tokens=k, pad_token_id=0)
        assert out.shape == (batch, prompt_len + k), f"transformers gave {tuple(out.shape)}"
        return out

    def agreement(tokens: list[int], ref: list[int]) -> int:
        return next((i for i, (a, b) in enumerate(zip(tokens, ref, strict=True)) if a != b), n)

    peers: list[tuple[str, Callable[[int], object]]] = [("ours", ours), ("hf", theirs)]
    # Untimed warm-up of every shape (ours and Tunix compile here), and a greedy agreement check.
    ours(1)
    mine = ours(n)[0].tokens
    theirs(1)
    ref = theirs(n)[0, prompt_len:].tolist()
    row = {"batch": batch, "agree": agreement(mine, ref)}
    if tunix is not None:
        prompt_array = np.asarray(prompts)
        peers.append(("tunix", lambda k: tunix(prompt_array, k)))
        tunix(prompt_array, 1)
        row["tunix_agree"] = agreement(tunix(prompt_array, n)[0].tolist(), ref)
    t: dict[str, float] = {}
    for _ in range(repeats):
        for name, fn in peers:
            for k in (1, n):
                key = f"{name}{k}"
                t[key] = min(t.get(key, float("inf")), wall_time(lambda fn=fn, k=k: fn(k)))
    for name, _ in peers:
        t1, tn = t[f"{name}1"], t[f"{name}{n}"]
        row[name] = (t1, batch * (n - 1) / max(tn - t1, 1e-9), batch * n / tn)
    tunix_note = f", tunix {row['tunix'][1]:7.1f} tok/s" if tunix is not None else ""
    print(f"  batch {batch:2d}: ours decode {row['ours'][1]:7.1f} tok/s, transformers "
          f"{row['hf'][1]:7.1f} tok/s{tunix_note} (load average {os.getloadavg()[0]:.2f})",
          flush=True)
    return row


def run(args: argparse.Namespace, root: Path) -> None:
    transformers.utils.logging.disable_progress_bar()
    torch.manual_seed(0)
    hf = transformers.AutoModelForCausalLM.from_config(make_config(), dtype=torch.float32).eval()
    hf.generation_config.eos_token_id = None
    n_params = sum(p.numel() for p in hf.parameters())  # tied: the embedding counted once
    weight_bytes = n_params * 4
    print(f"model: Qwen3 vocab={VOCAB} hidden=512 layers=8 heads=8/4 head_dim=64 inter=1536, "
          f"tied: {n_params:,} parameters = {weight_bytes / 1e6:.1f} MB float32")
    hf.save_pretrained(root)
    model, _ = load_hf(root, dtype="float32")
    sampler = Sampler(model)
    tunix = None
    if tunix_available():
        tunix = tunix_decoder(root, hf.config, args.prompt_len, args.new_tokens)
        print("tunix peer: its vanilla Sampler over its Qwen3, loaded from the same safetensors")
    else:
        print("tunix not installed (pip install --no-deps -r benchmarks/requirements.txt): "
              "Tunix peer skipped")
    gbs, peak = bandwidth_gbs(), matmul_peak_gflops()
    bound = gbs * 1e9 / weight_bytes
    print(f"memory bandwidth (1 GiB np.copyto, best of 5, read+write): {gbs:.1f} GB/s -> batch-1 "
          f"bound {bound:.1f} tok/s ({weight_bytes / 1e6:.0f} MB of weights per step); "
          f"matmul peak (float32 2048^3 under XLA, best of 5): {peak:.1f} GFLOP/s")
    rng = np.random.default_rng(0)
    rows = [bench_batch(sampler, hf, b, args.new_tokens, args.repeats, rng, tunix,
                        args.prompt_len) for b in args.batches]
    context = args.prompt_len + args.new_tokens // 2  # the mean context a decode step reads
    for r in rows:
        gflop = decode_step_gflop(hf.config, n_params, r["batch"], context)
        r["roofline"] = roofline_tok_s(weight_bytes, gbs, gflop, peak, r["batch"])
        r["prefill_floor"] = prefill_gflop(hf.config, n_params, r["batch"], args.prompt_len) / peak
    report(rows, args, bound, tunix is not None)
    if args.engine_episodes:
        # The split measures the engine, not the model: on 2 CPU cores the ~100M model's
        # re-prefill of ~1K-token contexts per turn would take most of an hour for 64 episodes,
        # so a tiny random model with the Qwen3 vocabulary does the (real) sampling here.
        tiny = init_model(preset("tiny", vocab_size=VOCAB, param_dtype="float32",
                                 dtype="float32", remat="none"))
        print("\nengine split policy: the tiny preset (2 layers, hidden 64) with vocab "
              f"{VOCAB}, random weights")
        engine_split(Sampler(tiny), n_tasks=args.engine_episodes // 4, group=4)


def report(rows: list[dict], args: argparse.Namespace, bound: float, with_tunix: bool) -> None:
    """The tables and the target lines of `run`."""
    n = args.new_tokens
    print(f"\nprompt {args.prompt_len} tokens, {n} new tokens, greedy, best of {args.repeats}; "
          "decode tok/s = batch x (N-1) / (T(N) - T(1)), prefill excluded; e2e = batch x N / "
          "T(N), prefill included; ratio = ours/transformers decode tok/s; roofline = ours "
          "decode / the floor of max(weight bytes / bandwidth, step FLOPs / matmul peak); "
          "agree = leading greedy tokens of row 0 identical in both\n")
    print("| batch | ours prefill ms | ours decode tok/s | ours e2e tok/s | hf prefill ms | "
          "hf decode tok/s | hf e2e tok/s | ratio | target | roofline | agree |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        (op, od, oe), (hp, hd, he) = r["ours"], r["hf"]
        ratio = od / hd
        target = ("n/a" if r["batch"] != TARGET_BATCH
                  else "yes" if ratio >= SPEEDUP_TARGET else "NO")
        print(f"| {r['batch']} | {op * 1e3:.0f} | {od:.1f} | {oe:.1f} | {hp * 1e3:.0f} | "
              f"{hd:.1f} | {he:.1f} | {ratio:.2f} | {target} | {od / r['roofline']:.0%} of "
              f"{r['roofline']:.0f} | {r['agree']}/{n} |")
    for r in rows:
        ratio = r["ours"][0] / r["hf"][0]
        judged = r["batch"] in (1, 8) and args.prompt_len >= 1536
        verdict = ("yes" if ratio <= PREFILL_TARGET else "NO") if judged else "n/a"
        floor = r["prefill_floor"]
        print(f"prefill, batch {r['batch']}: ours/transformers time = {ratio:.2f} (target <= "
              f"{PREFILL_TARGET} at batch 1 and 8 with --prompt-len 1536: {verdict}); its FLOPs "
              f"at the matmul peak take {floor * 1e3:.0f} ms (ours at {floor / r['ours'][0]:.0%} "
              f"of that peak, transformers at {floor / r['hf'][0]:.0%})")
    for r in rows:
        if r["batch"] == 1:
            od, hd = r["ours"][1], r["hf"][1]
            print(f"\nbatch 1 vs bandwidth bound {bound:.1f} tok/s: ours {od / bound:.0%} "
                  f"({'yes' if od / bound >= BOUND_TARGET else 'NO'}, target >= "
                  f"{BOUND_TARGET:.0%}), transformers {hd / bound:.0%}")
    if not with_tunix:
        return
    print(f"\nsecond peer, Tunix's vanilla Sampler (same prompts, same timing); ratio = "
          f"ours/Tunix decode tok/s, target >= {TUNIX_TARGET}x at batch {TARGET_BATCH}; agree = "
          "leading greedy tokens of row 0 identical to transformers'\n")
    print("| batch | tunix prefill ms | tunix decode tok/s | tunix e2e tok/s | ratio | "
          "target | agree |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        (tp, td, te), ratio = r["tunix"], r["ours"][1] / r["tunix"][1]
        target = ("n/a" if r["batch"] != TARGET_BATCH
                  else "yes" if ratio >= TUNIX_TARGET else "NO")
        print(f"| {r['batch']} | {tp * 1e3:.0f} | {td:.1f} | {te:.1f} | {ratio:.2f} | "
              f"{target} | {r['tunix_agree']}/{n} |")
    for r in rows:
        print(f"prefill, batch {r['batch']}: ours/Tunix time = "
              f"{r['ours'][0] / r['tunix'][0]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--new-tokens", type=int, help="tokens decoded (default 128; 16 quick)")
    parser.add_argument("--batches", default="1,8,32", help="comma-separated batch sizes")
    parser.add_argument("--prompt-len", type=int, default=PROMPT_LEN,
                        help=f"prompt tokens (default {PROMPT_LEN}; 1536 is a prompt with tool "
                             "schemas, where prefill dominates a rollout turn)")
    parser.add_argument("--repeats", type=int, help="timed runs per cell (default 3; 1 quick)")
    parser.add_argument("--quick", action="store_true", help="smoke run: fewer tokens")
    parser.add_argument("--engine-episodes", type=int, default=64,
                        help="episodes for the engine time split (0: skip)")
    args = parser.parse_args()
    args.new_tokens = args.new_tokens or (16 if args.quick else 128)
    args.repeats = args.repeats or (1 if args.quick else 3)
    args.batches = [int(b) for b in args.batches.split(",")]
    if args.new_tokens < 2:
        parser.error("--new-tokens must be >= 2 (decode time is T(N) - T(1))")
    torch.set_num_threads(os.cpu_count() or 1)
    print(f"jax {jax.__version__} ({jax.devices()[0].platform}), torch {torch.__version__} "
          f"({torch.get_num_threads()} threads), transformers {transformers.__version__}, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory(prefix="sampler_bench_") as tmp:
        run(args, Path(tmp))
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
