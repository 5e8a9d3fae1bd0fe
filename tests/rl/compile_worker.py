"""Compile the GRPO train step (and the reference log-probs) on one mesh, in a process of its
own, so that XLA's log of this compile is the only one on stderr.

    python -m tests.rl.compile_worker --mesh 2,2,2 --shape tiny [--kl] [--sft] [--shared]

Compiles what a training step runs: the reference log-probs (--kl), the GRPO step on a compact
batch (fused head over the sampled positions, attention in query blocks, layers scanned),
with --sft the SFT step, and with --shared the shared-prefix step (and its reference pass) on
a group-packed batch of the same tokens: one group of 4 per data shard, the first 3/4 of the
sequence its prompt. Prints one line `compiled <what>` per executable. The caller reads
stderr for XLA's SPMD warnings (`Involuntary full rematerialization`), which name a sharding
XLA could not reach and so replicated an activation instead.
"""

from __future__ import annotations

import argparse
import os

SHAPES = {
    # (preset overrides, rows, sequence, sampled targets per row)
    "tiny": (dict(), 8, 1024, 128),
    "mid": (dict(vocab_size=4096, hidden_size=256, intermediate_size=512, num_layers=2,
                 num_heads=8, num_kv_heads=4, head_dim=32), 8, 512, 64),
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mesh", required=True, help="data,fsdp,tensor")
    parser.add_argument("--shape", choices=sorted(SHAPES), default="tiny")
    parser.add_argument("--kl", action="store_true", help="with the reference model's KL")
    parser.add_argument("--sft", action="store_true", help="also the SFT step")
    parser.add_argument("--micro", type=int, default=0, help="micro-batches (0: the trainer's)")
    parser.add_argument("--shared", action="store_true", help="also the shared-prefix step")
    parser.add_argument("--remat", default="none", help="model remat policy")
    parser.add_argument("--attn-chunk", type=int, default=256, help="attention query block")
    args = parser.parse_args()
    data, fsdp, tensor = (int(x) for x in args.mesh.split(","))
    devices = data * fsdp * tensor
    os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "")
                               + f" --xla_force_host_platform_device_count={devices}")

    import jax
    import jax.numpy as jnp
    import numpy as np
    from flax import nnx

    from prove_jax.models import init_model
    from prove_jax.models.presets import preset
    from prove_jax.rl.batch import micro_batching
    from prove_jax.rl.losses import LossConfig
    from prove_jax.rl.optim import OptimConfig, make_optimizer
    from prove_jax.rl.reference import ReferenceLogprobs
    from prove_jax.rl.train_step import jit_train_step, make_train_step
    from prove_jax.sharding import make_mesh

    overrides, rows, seq, targets = SHAPES[args.shape]
    cfg = preset("tiny", param_dtype="float32", dtype="float32", remat=args.remat,
                 attn_chunk=args.attn_chunk, **overrides)
    mesh = make_mesh({"data": data, "fsdp": fsdp, "tensor": tensor})
    micro, rows = micro_batching(rows, data * fsdp, args.micro)
    model = init_model(cfg, seed=0)
    graphdef, params = nnx.split(model, nnx.Param)
    opt = make_optimizer(OptimConfig(lr=1e-4))
    loss = LossConfig(kl_coef=0.01 if args.kl else 0.0)
    step = make_train_step(graphdef, opt, loss, micro_batches=micro, chunk_size=64)
    opt_state = opt.init(params)
    run = jit_train_step(step, params, opt_state, mesh, opt)
    rng = np.random.default_rng(0)
    batch = {"tokens": rng.integers(3, cfg.vocab_size, (rows, seq)).astype(np.int32),
             "attention_mask": np.ones((rows, seq), np.int32),
             "target_index": np.sort(rng.integers(0, seq - 1, (rows, targets)), axis=1
                                     ).astype(np.int32),
             "loss_mask": np.ones((rows, targets), np.int32),
             "old_logp": np.full((rows, targets), -3.0, np.float32),
             "advantages": rng.normal(size=rows).astype(np.float32)}
    if args.kl:
        ref = ReferenceLogprobs(graphdef, params, mesh, 64, micro)
        batch["ref_logp"] = ref(batch["tokens"], batch["attention_mask"],
                                batch["target_index"])
        jax.block_until_ready(batch["ref_logp"])
        print("compiled reference", flush=True)
    params = jax.device_put(params, run.param_shardings)
    opt_state = jax.device_put(opt_state, run.opt_shardings)
    arrays = {k: jnp.asarray(v) for k, v in batch.items()}
    params, opt_state, metrics = run(params, opt_state, arrays)
    print(f"compiled train_step loss={float(metrics['loss']):.4f}", flush=True)
    if args.sft:
        sft = make_train_step(graphdef, opt, loss, micro_batches=micro, chunk_size=64,
                              objective="sft")
        run_sft = jit_train_step(sft, params, opt_state, mesh, opt)
        keys = ("tokens", "attention_mask", "target_index", "loss_mask")
        _, _, metrics = run_sft(params, opt_state, {k: jnp.asarray(batch[k]) for k in keys})
        print(f"compiled sft_step loss={float(metrics['loss']):.4f}", flush=True)
    if args.shared:
        _shared(args, graphdef, opt, loss, mesh, params, opt_state, seq, targets, cfg.vocab_size)


def _shared(args, graphdef, opt, loss, mesh, params, opt_state, seq, targets, vocab) -> None:
    """The shared-prefix step (and reference pass) on a packed batch: one group per shard."""
    import jax.numpy as jnp
    import numpy as np

    from prove_jax.rl.reference import ReferenceLogprobs
    from prove_jax.rl.train_step import jit_train_step, make_train_step

    data, fsdp, _ = (int(x) for x in args.mesh.split(","))
    groups, size, prefix = data * fsdp, 4, seq * 3 // 4
    suffix = seq - prefix
    rng = np.random.default_rng(1)
    batch = {"prefix_tokens": rng.integers(3, vocab, (groups, prefix)).astype(np.int32),
             "prefix_mask": np.ones((groups, prefix), np.int32),
             "tokens": rng.integers(3, vocab, (groups, size, suffix)).astype(np.int32),
             "attention_mask": np.ones((groups, size, suffix), np.int32),
             "positions": np.broadcast_to(prefix + np.arange(suffix), (groups, size, suffix)
                                          ).astype(np.int32),
             "target_index": np.sort(rng.integers(0, suffix, (groups, size, targets)),
                                     axis=-1).astype(np.int32),
             "loss_mask": np.ones((groups, size, targets), np.int32),
             "old_logp": np.full((groups, size, targets), -3.0, np.float32),
             "advantages": rng.normal(size=(groups, size)).astype(np.float32)}
    micro = 2
    if args.kl:
        ref = ReferenceLogprobs(graphdef, params, mesh, 64, micro)
        batch["ref_logp"] = np.asarray(ref.packed(batch))
        print("compiled shared_reference", flush=True)
    step = make_train_step(graphdef, opt, loss, micro_batches=micro, chunk_size=64,
                           shared_prefix=True)
    run = jit_train_step(step, params, opt_state, mesh, opt)
    _, _, metrics = run(params, opt_state, {k: jnp.asarray(v) for k, v in batch.items()})
    print(f"compiled shared_step loss={float(metrics['loss']):.4f}", flush=True)


if __name__ == "__main__":
    main()
