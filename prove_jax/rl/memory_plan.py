"""The dry-run memory plan: compile the real-size GRPO train step from abstract shapes and print
per-device memory for the accelerator slices the paper's runs would use.

Nothing is allocated: the model comes from `nnx.eval_shape`, the optimizer state from
`jax.eval_shape`, the batch from `jax.ShapeDtypeStruct`s carrying their shardings; the step is
`jax.jit(...).lower(...).compile()`d with `jit_train_step`'s layout: parameters by the rules
table, Adam's moments like their parameters, batch rows over (data, fsdp), params and
optimizer state donated.

Both batch layouts are compiled: the unpacked rows and, where groups exist (group_size > 1),
the group-packed one of `train.shared_prefix` (`prove_jax.rl.shared_prefix`: each group's
prompt once; whole groups per data shard, one group per shard at a time; micro-batches split
each group's rollouts, the prefix's K/V computed once and its gradient accumulated across
them).

The step is compiled on virtual CPU devices (`jax.devices("cpu")[:n]`), so every compiled figure
is XLA:CPU's buffer assignment for that sharding: an estimate of what the accelerator's compiler
would assign, not a measurement on it (GPU/TPU fusion, scheduling and bf16 handling differ).
Analytic lines (parameters, Adam state, the frozen reference copy, the rollout KV cache) are
exact byte counts of the sharded arrays. GB here is 10^9 bytes.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
from flax import nnx
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

from prove_jax.models import ModelConfig, abstract_model, preset
from prove_jax.rl.batch import TARGET_MULTIPLE, micro_batching, padded_length
from prove_jax.rl.comm import KINDS, compiled_collective_bytes
from prove_jax.rl.flops import PEAK_FLOPS, shared_step_flops, step_flops
from prove_jax.rl.losses import LossConfig
from prove_jax.rl.optim import make_optimizer, optim_config
from prove_jax.rl.train_step import make_train_step, opt_state_shardings
from prove_jax.sharding import BATCH_AXES, make_mesh, tree_shardings

GB = 1e9
NOTE = ("figures are XLA:CPU's buffer assignment for this sharding, compiled on virtual CPU "
        "devices: an estimate of the accelerator's, not a measurement")


@dataclasses.dataclass(frozen=True)
class Plan:
    name: str
    devices: int
    budget_gb: float
    peak: str  # the device's row of `prove_jax.rl.flops.PEAK_FLOPS`
    mesh: dict[str, int] | None = None  # None: config.mesh


# A v5p-8 slice has 4 chips, each one JAX device with 95 GB of HBM.
PLANS = (Plan("8x H100-80GB", 8, 80.0, "H100 SXM"),
         Plan("TPU v5p-8", 4, 95.0, "TPU v5p", {"data": 1, "fsdp": 2, "tensor": 2}))


@dataclasses.dataclass
class SharedPlan:
    """The shared-prefix layout's compiled step: `groups` x `group_size` rollouts, prefixes of
    `prefix_len` and suffixes of `suffix_len` tokens, suffixes in `micro_batches` parts."""
    groups: int
    group_size: int
    prefix_len: int
    suffix_len: int
    micro_batches: int
    memory: dict[str, int]
    flops: float


@dataclasses.dataclass
class PlanResult:
    plan: Plan
    mesh: dict[str, int]
    rows: int
    seq_len: int
    targets: int  # LM-head positions per row (the compact batch's target_index width)
    micro_batches: int
    compile_s: float
    memory: dict[str, int]  # per device, from compiled.memory_analysis()
    params: int  # analytic bytes per device
    adam: int
    reference: int
    kv_per_episode: int  # bytes per device for one full-length episode
    kv_episodes: int  # rollout.max_concurrent_episodes
    comm: dict[str, int]  # bytes per device per step by collective kind (`prove_jax.rl.comm`)
    flops: float  # model FLOPs of the whole step (`prove_jax.rl.flops`)
    shared: SharedPlan | None = None  # the group-packed layout, where groups exist

    @property
    def train_total(self) -> int:
        """The compiled step's peak estimate plus the resident reference copy."""
        return self.memory["total"] + self.reference

    @property
    def resident(self) -> int:
        return self.params + self.adam + self.reference

    @property
    def kv_total(self) -> int:
        shards = self.mesh["data"] * self.mesh["fsdp"]
        return -(-self.kv_episodes // shards) * self.kv_per_episode

    @property
    def episodes_that_fit(self) -> int:
        left = self.plan.budget_gb * GB - self.resident
        shards = self.mesh["data"] * self.mesh["fsdp"]
        return max(0, int(left // self.kv_per_episode)) * shards


def model_config(config: Any) -> ModelConfig:
    """The architecture from model_dir's config.json (weights untouched) or the preset, with the
    runtime knobs of config.model."""
    m = config.model
    runtime = dict(param_dtype=m.param_dtype, dtype=m.dtype, remat=m.remat,
                   attn_chunk=int(m.get("attn_chunk", ModelConfig.attn_chunk)))
    if m.get("model_dir"):
        return ModelConfig.from_hf(m.model_dir, **runtime)
    if not m.get("preset"):
        raise ValueError("dry run: set config.model.model_dir (its config.json is read) or "
                         "config.model.preset")
    return preset(m.preset, **runtime)


def batch_geometry(config: Any, mesh: dict[str, int]) -> tuple[int, int, int]:
    """(global rows, padded sequence length, micro-batches) of the largest train step: a
    full-length episode padded to its length bucket and rows padded as the trainer pads them
    (`prove_jax.rl.batch`), so every mesh training accepts can be planned."""
    r, t = config.rollout, config.train
    seq = padded_length(r.max_prompt_tokens + r.max_response_tokens, max(1, t.seq_multiple))
    micro, rows = micro_batching(r.prompts_per_step * r.group_size,
                                 mesh["data"] * mesh["fsdp"], t.micro_batches)
    return rows, seq, micro


def shared_geometry(config: Any, mesh: dict[str, int]) -> tuple[int, int, int, int, int]:
    """(groups, group size, prefix length, suffix length, suffix micro-batches) of the largest
    group-packed step (`prove_jax.rl.group_batch`): the longest prompt and the longest
    response, bucketed; groups padded to a multiple of the data shards, as the trainer pads."""
    r, t = config.rollout, config.train
    shards = mesh["data"] * mesh["fsdp"]
    groups = -(-r.prompts_per_step // shards) * shards
    multiple = max(1, t.seq_multiple)
    micro = t.micro_batches or r.group_size
    if r.group_size % micro:
        raise ValueError(f"train.micro_batches={t.micro_batches} must divide "
                         f"rollout.group_size={r.group_size} with train.shared_prefix")
    return (groups, r.group_size, padded_length(r.max_prompt_tokens, multiple),
            padded_length(r.max_response_tokens, multiple), micro)


def head_targets(config: Any) -> int:
    """LM-head positions per row of the largest compact batch: every response token sampled,
    bucketed as `rollout_batch` buckets them."""
    return padded_length(config.rollout.max_response_tokens, TARGET_MULTIPLE)



def sharded_bytes(tree: Any, shardings: Any, dtype: Any = None) -> int:
    """Bytes one device holds of `tree` under `shardings` (optionally cast to `dtype`)."""
    total = 0
    for leaf, sh in zip(jax.tree.leaves(tree), jax.tree.leaves(shardings), strict=True):
        item = jnp.dtype(dtype or leaf.dtype).itemsize
        total += math.prod(sh.shard_shape(tuple(leaf.shape))) * item
    return total


def _batch(rows: int, seq: int, targets: int, with_ref: bool, mesh: Any
           ) -> dict[str, jax.ShapeDtypeStruct]:
    """The trainer's compact GRPO batch (`rollout_batch`) as sharded shapes."""
    def arr(shape: tuple[int, ...], dtype: Any) -> jax.ShapeDtypeStruct:
        spec = P(BATCH_AXES, *([None] * (len(shape) - 1)))
        return jax.ShapeDtypeStruct(shape, dtype, sharding=NamedSharding(mesh, spec))

    batch = {"tokens": arr((rows, seq), jnp.int32), "attention_mask": arr((rows, seq), jnp.int32),
             "target_index": arr((rows, targets), jnp.int32),
             "loss_mask": arr((rows, targets), jnp.int32),
             "old_logp": arr((rows, targets), jnp.float32),
             "advantages": arr((rows,), jnp.float32)}
    if with_ref:
        batch["ref_logp"] = arr((rows, targets), jnp.float32)
    return batch


def _packed_batch(groups: int, size: int, prefix: int, suffix: int, targets: int,
                  with_ref: bool, mesh: Any) -> dict[str, jax.ShapeDtypeStruct]:
    """The group-packed GRPO batch (`grouped_batch`) as sharded shapes: groups over the
    batch axes."""
    def arr(shape: tuple[int, ...], dtype: Any) -> jax.ShapeDtypeStruct:
        spec = P(BATCH_AXES, *([None] * (len(shape) - 1)))
        return jax.ShapeDtypeStruct(shape, dtype, sharding=NamedSharding(mesh, spec))

    i32, f32 = jnp.int32, jnp.float32
    batch = {"prefix_tokens": arr((groups, prefix), i32), "prefix_mask": arr((groups, prefix), i32),
             **{k: arr((groups, size, suffix), i32)
                for k in ("tokens", "attention_mask", "positions")},
             "target_index": arr((groups, size, targets), i32),
             "loss_mask": arr((groups, size, targets), i32),
             "old_logp": arr((groups, size, targets), f32),
             "advantages": arr((groups, size), f32)}
    if with_ref:
        batch["ref_logp"] = arr((groups, size, targets), f32)
    return batch


def _compile(step: Callable, params: Any, opt_state: Any, batch: dict, mesh: Any,
             param_sh: Any, opt_sh: Any) -> tuple[Any, float, dict[str, int]]:
    """(compiled step, seconds, per-device memory from its analysis)."""
    rep = NamedSharding(mesh, P())
    jitted = jax.jit(step, in_shardings=(param_sh, opt_sh, {k: v.sharding for k, v in
                                                            batch.items()}),
                     out_shardings=(param_sh, opt_sh, rep), donate_argnums=(0, 1))
    start = time.perf_counter()
    with jax.set_mesh(mesh):  # the context mesh, for sharding constraints inside the model
        compiled = jitted.lower(params, opt_state, batch).compile()
    seconds = time.perf_counter() - start
    stats = compiled.memory_analysis()
    memory = {k: int(getattr(stats, f"{k}_size_in_bytes")) for k in
              ("argument", "output", "alias", "temp", "generated_code")}
    memory["total"] = (memory["argument"] + memory["output"] - memory["alias"] + memory["temp"]
                       + memory["generated_code"])
    return compiled, seconds, memory


def compile_plan(config: Any, plan: Plan) -> PlanResult:
    """Lower and compile the train step for `plan` on virtual CPU devices; allocates nothing."""
    cpus = jax.devices("cpu")
    if len(cpus) < plan.devices:
        raise RuntimeError(
            f"plan {plan.name!r} needs {plan.devices} CPU devices, have {len(cpus)}: set "
            f"XLA_FLAGS=--xla_force_host_platform_device_count={plan.devices} before importing "
            "jax (launch.common.fake_cpu_devices)")
    mesh = make_mesh(dict(plan.mesh or config.mesh), devices=cpus[:plan.devices])
    shape = dict(mesh.shape)
    rows, seq, micro = batch_geometry(config, shape)
    targets = min(head_targets(config), seq - 1)
    cfg = model_config(config)
    graphdef, params = nnx.split(abstract_model(cfg), nnx.Param)
    optimizer = make_optimizer(optim_config(config.optim, train_steps=config.train.steps,
                                            iterations=config.loss.iterations))
    opt_state = jax.eval_shape(optimizer.init, params)
    lc = config.loss
    loss_cfg = LossConfig(clip_low=lc.clip_low, clip_high=lc.clip_high, kl_coef=lc.kl_coef,
                          aggregation=lc.aggregation)
    step = make_train_step(graphdef, optimizer, loss_cfg, micro_batches=micro,
                           chunk_size=config.model.logprob_chunk,
                           temperature=config.rollout.temperature)
    param_sh = tree_shardings(params, mesh)
    opt_sh = opt_state_shardings(optimizer, opt_state, param_sh, mesh)
    batch = _batch(rows, seq, targets, lc.kl_coef > 0, mesh)
    compiled, seconds, memory = _compile(step, params, opt_state, batch, mesh, param_sh, opt_sh)
    shared = None
    if config.rollout.group_size > 1:
        groups, size, prefix, suffix, s_micro = shared_geometry(config, shape)
        s_targets = min(head_targets(config), suffix)
        s_step = make_train_step(graphdef, optimizer, loss_cfg, micro_batches=s_micro,
                                 chunk_size=config.model.logprob_chunk,
                                 temperature=config.rollout.temperature, shared_prefix=True,
                                 group_chunks=groups // (shape["data"] * shape["fsdp"]))
        s_batch = _packed_batch(groups, size, prefix, suffix, s_targets, lc.kl_coef > 0, mesh)
        s_memory = _compile(s_step, params, opt_state, s_batch, mesh, param_sh, opt_sh)[2]
        shared = SharedPlan(groups, size, prefix, suffix, s_micro, s_memory,
                            shared_step_flops(cfg, groups, size, prefix, suffix, s_targets))
    params_b = sharded_bytes(params, param_sh)
    adam = sharded_bytes(opt_state, opt_sh)
    reference = sharded_bytes(params, param_sh, cfg.dtype) if lc.kl_coef > 0 else 0
    tensor = shape["tensor"] if cfg.num_kv_heads % shape["tensor"] == 0 else 1
    kv_full = (2 * cfg.num_layers * cfg.num_kv_heads * cfg.head_dim * jnp.dtype(cfg.dtype).itemsize
               * (config.rollout.max_prompt_tokens + config.rollout.max_response_tokens))
    flops = step_flops(cfg, rows, seq, targets, iterations=1)
    return PlanResult(plan, shape, rows, seq, targets, micro, seconds, memory, params_b, adam,
                      reference, kv_full // tensor, config.rollout.max_concurrent_episodes,
                      compiled_collective_bytes(compiled), flops, shared)


def _gb(x: float) -> str:
    return f"{x / GB:8.2f} GB"


def _verdict(used: float, budget: float) -> str:
    if used <= budget:
        return f"fits (margin {(budget - used) / GB:.2f} GB)"
    return f"DOES NOT FIT (over by {(used - budget) / GB:.2f} GB)"


def _at_peak(res: PlanResult) -> str:
    peak = PEAK_FLOPS[res.plan.peak]
    seconds = res.flops / (res.plan.devices * peak)
    return f"{seconds:.1f} s at {res.plan.peak}'s {peak / 1e12:g} TFLOP/s bf16 peak"


def _row(label: str, value: float, note: str = "") -> str:
    return f"     {label:<38}{_gb(value)}{'  ' + note if note else ''}"


def format_plan(res: PlanResult, cfg: ModelConfig) -> str:
    p, m, budget = res.plan, res.memory, res.plan.budget_gb * GB
    mesh = " x ".join(f"{k} {v}" for k, v in res.mesh.items())
    rollout = res.resident + res.kv_total
    lines = [
        f"== {p.name}: {p.devices} devices, mesh {mesh}, budget {p.budget_gb:.0f} GB per device",
        f"   batch {res.rows} rows x {res.seq_len} tokens (LM head on {res.targets} sampled "
        f"positions per row), {res.micro_batches} micro-batches of "
        f"{res.rows // res.micro_batches} rows; lowered + compiled in {res.compile_s:.1f} s",
        "   train step per device (compiled; XLA:CPU's estimate):",
        _row("arguments", m["argument"]),
        _row("outputs", m["output"]),
        _row("temporaries", m["temp"]),
        _row("aliased (donated params, opt state)", -m["alias"]),
        _row("generated code", m["generated_code"]),
        _row("total", m["total"]),
        "   analytic per device:",
        _row(f"parameters ({cfg.param_dtype})", res.params),
        _row("Adam state (mu + nu)", res.adam),
        _row(f"reference model ({cfg.dtype}, frozen)", res.reference),
        _row(f"rollout KV cache, {res.kv_episodes} full-length episodes", res.kv_total,
             f"({res.kv_per_episode / GB:.2f} GB per episode)"),
        f"   train: step total + reference = {res.train_total / GB:.2f} GB -> "
        f"{_verdict(res.train_total, budget)}",
        f"   rollout: params + Adam + reference + KV = {rollout / GB:.2f} GB -> "
        f"{_verdict(rollout, budget)}; {res.episodes_that_fit} full-length episodes fit "
        "beside the resident state",
        f"   continuous batching: --config.rollout.slots={max(res.episodes_that_fit, 1)} "
        f"(rows of full length; more only with a smaller --config.rollout.slot_tokens)",
        "   communication per device per step (compiled; XLA:CPU's estimate, loop trips "
        "counted):",
        *[_row(kind, res.comm[kind]) for kind in KINDS if res.comm[kind]],
        _row("total", res.comm["total"]),
        f"   model FLOPs per step {res.flops / 1e15:.1f} PFLOP (forward + backward, no "
        f"recompute): {_at_peak(res)} per device",
    ]
    if res.shared is not None:
        sp = res.shared
        total = sp.memory["total"] + res.reference
        lines += [
            f"   shared-prefix layout (train.shared_prefix): {sp.groups} groups x "
            f"{sp.group_size}, prefix {sp.prefix_len} + suffixes {sp.suffix_len} tokens, "
            f"one group per data shard at a time, its prefix once, {sp.micro_batches} "
            f"micro-batches of {sp.group_size // sp.micro_batches} suffixes",
            _row("temporaries", sp.memory["temp"]),
            _row("step total", sp.memory["total"]),
            f"   shared-prefix train: step total + reference = {total / GB:.2f} GB -> "
            f"{_verdict(total, budget)}; model FLOPs {sp.flops / 1e15:.1f} PFLOP "
            f"({res.flops / sp.flops:.2f}x fewer)"]
    if res.comm.get("unknown_trip_loops"):
        lines.append(f"   note: {res.comm['unknown_trip_loops']} loop(s) without a known trip "
                     "count were counted once")
    if res.train_total > budget and cfg.remat != "full":
        lines.append("   hint: --config.model.remat=full keeps one activation per layer and "
                     "recomputes the rest")
    return "\n".join(lines)


def print_memory_plan(config: Any, plans: Sequence[Plan] = PLANS,
                      out: Callable[[str], None] = print) -> list[PlanResult]:
    """Compile the train step for each plan from abstract shapes and print its memory."""
    cfg = model_config(config)
    name = config.model.get("model_dir") or config.model.preset
    out(f"Memory plan for {name}: param {cfg.param_dtype}, compute {cfg.dtype}, remat "
        f"{cfg.remat}, attn_chunk {cfg.attn_chunk}, logprob_chunk {config.model.logprob_chunk}, "
        f"kl_coef {config.loss.kl_coef}")
    out(f"Note: {NOTE}. GB = 10^9 bytes.")
    results = []
    shared = bool(config.train.get("shared_prefix", False))
    for plan in plans:
        res = compile_plan(config, plan)
        out(format_plan(res, cfg))
        hint = layout_hint(res, shared)
        if hint:
            out(hint)
        results.append(res)
    return results


def layout_hint(res: PlanResult, shared: bool) -> str:
    """Which layout the config trains with, and the switch when only the other one fits."""
    if res.shared is None:
        return ""
    budget = res.plan.budget_gb * GB
    totals = {True: res.shared.memory["total"] + res.reference, False: res.train_total}
    name = {True: "shared-prefix", False: "unpacked"}
    line = f"   this config trains the {name[shared]} layout (train.shared_prefix={shared})"
    if totals[shared] > budget >= totals[not shared]:
        line += (f"; it does not fit here, the {name[not shared]} one does: "
                 f"--config.train.shared_prefix={not shared}")
    return line
