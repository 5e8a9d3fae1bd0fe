"""GRPO training against live MCP servers.

    python -m launch.train --config=configs/qwen3_4b.py --config.model.model_dir=/models/q4b \
        --config.workdir=runs/q4b [--config.optim.lr=3e-7 ...]
    python -m launch.train --config=configs/qwen3_4b.py --config.dry_run=True   # memory plan

Several hosts (TPU pod slice, SLURM, or local CPU processes): the same command on every host
with `--config.distributed.enabled=True` (BUILD.md, "Multi-host training").

Leaves in the workdir: metrics.jsonl (one line per step), tb/ (TensorBoard), reward.png,
checkpoints/ (Orbax; rerunning the same command resumes from the newest), hf/ (the exported
Hugging Face checkpoint, written at the end) and run.json (what `launch.export` needs).
"""

from __future__ import annotations

from launch.common import fake_cpu_devices, quiet_logs

fake_cpu_devices(8)  # a CPU host gets 8 devices for the mesh; no effect on accelerators

import asyncio  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

from absl import app  # noqa: E402
from ml_collections import ConfigDict, config_flags  # noqa: E402

from launch.cli import check_config_flags, parse_flags, usage_error  # noqa: E402

_CONFIG = config_flags.DEFINE_config_file("config", None, "experiment config (configs/*.py)")


def main(argv: list[str]) -> None:
    quiet_logs()
    del argv
    c = _CONFIG.value
    if c is None:
        usage_error("pass --config=configs/NAME.py")
    from launch.runner import check, train_path

    if c.dry_run:
        from prove_jax.rl.memory_plan import print_memory_plan

        print_memory_plan(c)
        return
    try:
        from prove_jax.distributed import DistributedConfig, initialize

        initialize(DistributedConfig.from_dict(c.distributed))  # before any JAX computation
        check(c)
    except ValueError as err:
        usage_error(str(err))
    tasks_file = train_path(c)  # synthesis runs its own event loop: before ours
    asyncio.run(train(c, tasks_file))


async def train(c: ConfigDict, tasks_file: Path) -> None:
    import jax
    from flax import nnx

    from launch.common import chat_format, model_from_config, tokenizer_dir
    from launch.runner import finish, model_type
    from launch.wiring import build_collect, loss_config, optim_config, settings_from
    from prove_jax import distributed
    from prove_jax.checkpoint.train_state import TrainCheckpointer
    from prove_jax.data.loader import task_batches
    from prove_jax.rl.episode_log import EpisodeLog
    from prove_jax.rl.grpo import GRPOTrainer
    from prove_jax.rl.optim import make_optimizer
    from prove_jax.sharding import make_mesh

    workdir = Path(c.workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    mesh = make_mesh(dict(c.mesh))
    chat = chat_format(c.model, model_type(c))
    # a random model covers the tokenizer, rounded up so the embedding shards over tensor
    vocab = -(-len(chat.tokenizer) // 128) * 128 if c.model.vocab_from_tokenizer else None
    model, model_cfg = model_from_config(c.model, mesh, vocab_size=vocab)
    n_params = sum(x.size for x in jax.tree.leaves(nnx.state(model, nnx.Param)))
    print(f"model: {model_cfg.model_type}, {n_params:,} parameters; mesh {dict(mesh.shape)} "
          f"over {jax.device_count()} {jax.devices()[0].platform} devices"
          + (f" in {jax.process_count()} processes (this is process {jax.process_index()})"
             if jax.process_count() > 1 else ""))
    if distributed.is_primary():
        (workdir / "run.json").write_text(json.dumps({
            "model_config": model_cfg.to_hf(), "tokenizer_dir": tokenizer_dir(c.model),
            "param_dtype": c.model.param_dtype}, indent=1))
    # the trained model itself, or with several processes a copy on this process's devices
    sampler_model, sampler_mesh, publish = distributed.sampler_view(model, mesh)

    settings = settings_from(c)
    loader = task_batches(tasks_file, settings.prompts_per_step, seed=c.seed,  # global batch
                          shuffle=c.data.shuffle, process_index=jax.process_index(),
                          process_count=jax.process_count(), max_tools=c.data.max_tools,
                          kind_repeats=dict(c.data.get("kind_repeats", {})))
    checkpointer = TrainCheckpointer(workdir / "checkpoints", every=c.train.checkpoint_every,
                                     keep=c.train.keep_checkpoints)
    async with build_collect(c, sampler_model, sampler_mesh, chat, tasks_file) as collect:
        episode_log = EpisodeLog(workdir / "episodes", c.log.episodes_every,
                                 int(c.log.episodes_max_mib * 2**20), seed=c.seed,
                                 truth_hashes=collect.truth_hashes,
                                 reward_config=dict(c.reward))
        trainer = GRPOTrainer(settings, model=model, mesh=mesh,
                              optimizer=make_optimizer(optim_config(c)), loss=loss_config(c),
                              loader=loader, collect=collect, checkpointer=checkpointer,
                              publish=publish, episode_log=episode_log)
        await finish(c, trainer, model, model_cfg, checkpointer, desc="grpo", plot=True,
                     export_model=sampler_model)


if __name__ == "__main__":
    check_config_flags(sys.argv)
    app.run(main, flags_parser=parse_flags)
