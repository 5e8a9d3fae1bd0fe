"""One process of a GRPO run on the toy task of test_grpo_loop, for tests/rl/test_distributed.py.

    python -m tests.rl.grpo_worker --out=DIR [--processes=2 --process_id=I --port=P]
        [--shared_prefix]

Global batch: 4 prompts x 8 rollouts on a data 2 x fsdp 2 mesh; each process plays its block
of every batch with its own sampler copy (`distributed.sampler_view`, on its 2 devices). A
single process samples on 2 of its 4 devices, one block at a time, so that both build the
same batch to the last bit (XLA's CPU kernels round differently for other batch shapes). Writes
DIR/history.<process>.json (every step's metrics) and, from process 0, DIR/params.npz (the
final parameters, gathered); checkpoints go to DIR/checkpoints (every step).
Set XLA_FLAGS=--xla_force_host_platform_device_count=N in the environment (N devices per
process; 4 in all).
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path

from prove_jax import distributed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--process_id", type=int, default=0)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--shared_prefix", action="store_true")
    args = parser.parse_args()
    distributed.initialize(distributed.DistributedConfig(
        enabled=args.processes > 1, coordinator_address=f"127.0.0.1:{args.port}",
        num_processes=args.processes, process_id=args.process_id,
        initialization_timeout_s=120))

    import jax
    import numpy as np
    from flax import nnx
    from jax.experimental import multihost_utils

    from prove_jax.checkpoint.train_state import TrainCheckpointer
    from prove_jax.models import init_model
    from prove_jax.rl.grpo import GRPOSettings, GRPOTrainer
    from prove_jax.rl.losses import LossConfig
    from prove_jax.rl.optim import OptimConfig, make_optimizer
    from prove_jax.sampling import Sampler
    from prove_jax.sharding import make_mesh, shard_model, tree_shardings
    from tests.rl.test_grpo_loop import CFG, Loader, _toy_collect

    out = Path(args.out)
    mesh = make_mesh({"data": 2, "fsdp": 2, "tensor": 1})
    model = shard_model(init_model(CFG, seed=0), mesh)
    view, view_mesh, publish = distributed.sampler_view(model, mesh)
    if jax.process_count() == 1:  # sample as each of two processes would: on 2 devices, so
        # that the batch (its sampler log-probs too) is the pair's to the last bit
        view_mesh = make_mesh({"data": 1, "fsdp": 2, "tensor": 1}, jax.devices()[:2])
        graphdef, state = nnx.split(model)
        view = nnx.merge(graphdef, jax.device_put(state, tree_shardings(state, view_mesh)))
        param_sh = tree_shardings(nnx.state(model, nnx.Param), view_mesh)

        def publish(params: object) -> None:
            nnx.update(view, jax.device_put(params, param_sh))
    settings = GRPOSettings(steps=args.steps, group_size=8, prompts_per_step=4,
                            seq_multiple=16, logprob_chunk=16, seed=0, checkpoint_every=1,
                            shared_prefix=args.shared_prefix)

    class Block(Loader):  # this process's block of the toy loader's global batches
        def __next__(self) -> list:
            start, stop = distributed.process_rows(settings.prompts_per_step)
            return super().__next__()[start:stop]

    collect = _toy_collect(Sampler(view, view_mesh), settings.group_size)
    if jax.process_count() == 1:  # and in two calls of 16 rows, as the pair's processes do
        toy = collect

        async def collect(tasks: list, seed: int, first: int) -> list:
            half = len(tasks) // 2
            return (await toy(tasks[:half], seed, first)
                    + await toy(tasks[half:], seed, first + half))

    trainer = GRPOTrainer(
        settings, model=model, mesh=mesh,
        optimizer=make_optimizer(OptimConfig(lr=1e-3, total_updates=args.steps)),
        loss=LossConfig(kl_coef=0.01), loader=Block(settings.prompts_per_step),
        collect=collect,
        checkpointer=TrainCheckpointer(out / "checkpoints", every=1, keep=5), publish=publish)
    history = asyncio.run(trainer.run())
    trainer.checkpointer.close()
    (out / f"history.{jax.process_index()}.json").write_text(json.dumps(history))
    params = multihost_utils.process_allgather(trainer.params, tiled=True)  # a collective
    if distributed.is_primary():
        flat = jax.tree_util.tree_flatten_with_path(params)[0]
        np.savez(out / "params.npz", **{jax.tree_util.keystr(k): np.asarray(v)
                                        for k, v in flat})


if __name__ == "__main__":
    main()
