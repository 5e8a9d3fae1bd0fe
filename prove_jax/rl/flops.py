"""Model FLOPs of a train step, per-device peak FLOP/s and MFU.

Counted on the shapes the step runs (`prove_jax.rl.objectives`): the decoder over
tokens[:, :-1] of every padded [B, T] row (filler rows and padding included: they are
computed), then the LM head on the R `target_index` positions per row only (compact batch).
A step whose micro-batches are cut to their length bucket (`prove_jax.rl.length_buckets`) is
counted at the widths they ran at (`widths`), not at T: counted at T, the SmolLM2 recipe's
GRPO steps (suffixes of ~300 tokens in batches 768-1,536 wide) read as up to 167% MFU.

Convention (the usual MFU one): 2 FLOPs per multiply-add, matmuls only (elementwise ops,
norms, rope, softmax, biases and the embedding gather are left out), backward = 2x forward for
every matmul, and no rematerialisation: neither remat policies, chunked attention's block
recompute nor an unfused head's logit recompute are model work. The fused head's three head
matmuls are exactly forward + 2x backward. A reference model's log-probs are computed outside
the step and are not counted.

The shared-prefix layout (`prove_jax.rl.shared_prefix`) has its own count,
`shared_step_flops`: per group its P-token prefix once, L * layer_forward_flops(P, P); per row
its suffix, L * layer_forward_flops(S-1, P + S-1) (every suffix query over the prefix's keys and
its own); the head as above.

Axes: D model, N query heads, K kv heads, H head dim, F mlp hidden, V vocab, L layers.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Sequence

import jax
import jax.numpy as jnp

from prove_jax.models.config import ModelConfig

__all__ = ["PEAK_FLOPS", "device_peak", "layer_forward_flops", "mfu", "shared_step_flops",
           "step_flops"]

# Per-device dense (no structured sparsity) bf16 peak FLOP/s, from the vendors' spec sheets:
# NVIDIA H100 / H200 datasheets (their tables quote bf16 "with sparsity", twice these figures),
# A100 datasheet, Google Cloud TPU system-architecture pages (v5e, v5p, v6e "Trillium").
# Kinds not listed (TPU v4 and its v4-lite inference chip, Blackwell, ...) get NaN, never a guess.
PEAK_FLOPS: dict[str, float] = {
    "H100 SXM": 989e12,
    "H100 PCIe": 756e12,
    "H100 NVL": 835e12,
    "H200": 989e12,  # SXM
    "GH200": 989e12,  # Grace Hopper's GPU: H100 SXM's tensor cores
    "H200 NVL": 835e12,
    "A100": 312e12,  # SXM and PCIe alike
    "TPU v5e": 197e12,
    "TPU v5p": 459e12,
    "TPU v6e": 918e12,
}

# (substrings that must all occur in the lowercased device_kind, table key); first match wins,
# so the specific variants come before their family's catch-all ("tpu v5" would match v5e).
_KINDS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("h100", "pcie"), "H100 PCIe"),
    (("h100", "nvl"), "H100 NVL"),
    (("h100",), "H100 SXM"),
    (("gh200",), "GH200"),  # before "h200", which it contains
    (("h200", "nvl"), "H200 NVL"),
    (("h200",), "H200"),
    (("a100",), "A100"),
    (("tpu v5 lite",), "TPU v5e"),
    (("tpu v5e",), "TPU v5e"),
    (("tpu v5p",), "TPU v5p"),
    (("tpu v5",), "TPU v5p"),
    (("tpu v6 lite",), "TPU v6e"),
    (("tpu v6e",), "TPU v6e"),
)


def layer_forward_flops(cfg: ModelConfig, queries: int, keys: int) -> float:
    """Forward FLOPs of one decoder layer for one row: `queries` positions attending to `keys`
    keys each (masked positions are computed: the causal triangle is not skipped)."""
    d, n, k, h, f = (cfg.hidden_size, cfg.num_heads, cfg.num_kv_heads, cfg.head_dim,
                     cfg.intermediate_size)
    projections = 2 * d * (n * h + 2 * k * h) + 2 * n * h * d  # q, k+v (K heads), o
    mlp = 3 * 2 * d * f  # gate, up, down
    attention = 2 * 2 * n * h * keys  # scores q.k and probs.v, every query head over all keys
    return float(queries * (projections + mlp + attention))


def _widths(seq_len: int, widths: Sequence[int] | None, rows: int, name: str) -> list[int]:
    """The micro-batch widths to count (one at `seq_len` when None), checked."""
    widths = [seq_len] if widths is None else [int(w) for w in widths]
    if not widths or rows % len(widths):
        raise ValueError(f"{rows} rows do not split into {len(widths)} micro-batch widths")
    for w in widths:
        if w < 2 or w > seq_len:
            raise ValueError(f"{name} widths must be in [2, {seq_len}], got {w}")
    return widths


def step_flops(cfg: ModelConfig, rows: int, seq_len: int, targets: int, *,
               iterations: int = 1, widths: Sequence[int] | None = None) -> float:
    """Model FLOPs (forward + backward) of a train step over `rows` rows padded to `seq_len`
    tokens with `targets` head positions per row (target_index width), run `iterations` times
    (each optimizer pass reruns the step). `widths`: the width each of the equal micro-batches
    ran at (`prove_jax.rl.length_buckets.compact_widths`); None: all at `seq_len`.

    forward per row = L * layer_forward_flops(W-1 queries over W-1 keys) + targets * 2DV,
    x3 for forward + backward. Tied or untied embeddings give the same head FLOPs."""
    if seq_len < 2:
        raise ValueError(f"seq_len must be at least 2 (the step runs tokens[:, :-1]), "
                         f"got {seq_len}")
    for name, value in (("rows", rows), ("targets", targets), ("iterations", iterations)):
        if value < 0:
            raise ValueError(f"{name} must be non-negative, got {value}")
    widths = _widths(seq_len, widths, rows, "micro-batch")
    head = targets * 2.0 * cfg.hidden_size * cfg.vocab_size
    per_row = sum(cfg.num_layers * layer_forward_flops(cfg, w - 1, w - 1) + head
                  for w in widths) / len(widths)
    return 3.0 * iterations * rows * per_row


def shared_step_flops(cfg: ModelConfig, groups: int, group_size: int, prefix_len: int,
                      suffix_len: int, targets: int, *, iterations: int = 1,
                      widths: Sequence[int] | None = None) -> float:
    """Model FLOPs (forward + backward) of a shared-prefix train step: `groups` prefixes of
    `prefix_len` tokens once each, `groups x group_size` suffix rows of `suffix_len` tokens
    (padded shapes) with `targets` head positions per row. `widths`: the width each of the
    equal suffix micro-batches ran at (`prove_jax.rl.length_buckets.packed_widths`); None: all
    at `suffix_len`."""
    if suffix_len < 2:
        raise ValueError(f"suffix_len must be at least 2, got {suffix_len}")
    widths = _widths(suffix_len, widths, groups * group_size, "suffix")
    prefix = cfg.num_layers * layer_forward_flops(cfg, prefix_len, prefix_len)
    head = targets * 2.0 * cfg.hidden_size * cfg.vocab_size
    row = sum(cfg.num_layers * layer_forward_flops(cfg, w - 1, prefix_len + w - 1) + head
              for w in widths) / len(widths)
    return 3.0 * iterations * groups * (prefix + group_size * row)


def mfu(flops: float, seconds: float, devices: int, peak: float) -> float:
    """flops / (seconds * devices * peak); NaN when the peak is unknown (NaN) or the time or
    device count is not positive, so a missing figure never reads as a real one."""
    if math.isnan(peak) or peak <= 0 or seconds <= 0 or devices <= 0:
        return math.nan
    return flops / (seconds * devices * peak)


def device_peak(device: jax.Device | None = None, *, measure_cpu: bool = True
                ) -> tuple[float, str]:
    """(peak FLOP/s of one device, label). Accelerators: the dense bf16 spec figure, NaN for a
    kind not in the table. CPU: a measured float32 matmul rate (NaN unless `measure_cpu`),
    the machine's rate divided among its local CPU devices (virtual devices share cores)."""
    if device is None:
        device = jax.local_devices()[0]
    kind = str(getattr(device, "device_kind", ""))
    if device.platform == "cpu":
        if not measure_cpu:
            return math.nan, "cpu: not measured"
        per_device = _cpu_machine_flops() / max(1, len(jax.local_devices(backend="cpu")))
        return per_device, f"cpu, measured {per_device / 1e9:.1f} GFLOP/s per device (float32)"
    lowered = kind.lower()
    for parts, key in _KINDS:
        if all(p in lowered for p in parts):
            return PEAK_FLOPS[key], f"{key} ({kind}), {PEAK_FLOPS[key] / 1e12:g} TFLOP/s bf16 spec"
    return math.nan, f"unknown device kind {kind!r}: no peak"


@functools.cache
def _cpu_machine_flops(n: int = 1024, budget_s: float = 0.5) -> float:
    """Best-of-a-few float32 [n, n] matmul rate on the first CPU device, measured once: all
    virtual CPU devices share one thread pool, so this is the whole machine's rate. n 1024,
    not 512: on the 2-core box a 512 product measured 108 GFLOP/s at one GRPO run's start and
    192 later, a 1024 one 211; a peak measured low reads as MFU over 100%."""
    cpu = jax.local_devices(backend="cpu")[0]
    x = jax.device_put(jnp.ones((n, n), jnp.float32), cpu)
    matmul = jax.jit(lambda a: a @ a)
    matmul(x).block_until_ready()  # compile and warm up
    best, start = math.inf, time.perf_counter()
    for _ in range(10):
        t0 = time.perf_counter()
        matmul(x).block_until_ready()
        best = min(best, time.perf_counter() - t0)
        if time.perf_counter() - start > budget_s:
            break
    return 2.0 * n**3 / best
