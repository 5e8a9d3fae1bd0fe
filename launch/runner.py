"""What the training entry points (launch.train, launch.sft) share: config checks before
anything heavy starts, the task file (synthesized on demand), the model family, and the run's
tail (resume, progress bar, metrics, plot, export)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

from ml_collections import ConfigDict

from launch.cli import usage_error


def config_or_exit(c: ConfigDict | None, *checks: Callable[[ConfigDict], None]) -> ConfigDict:
    """The --config value after `checks`; a missing config or a ValueError from a check ends
    the process with `error: <message>` and status 2 (no traceback: the message names the
    flag to set)."""
    if c is None:
        usage_error("pass --config=configs/NAME.py")
    try:
        for run_check in checks:
            run_check(c)
    except ValueError as err:
        usage_error(str(err))
    return c


def check(c: ConfigDict) -> None:
    """Errors a user can cause, before anything heavy starts."""
    if c.model.init not in ("hf", "random"):
        raise ValueError(f"config.model.init must be 'hf' or 'random', got {c.model.init!r}")
    if c.model.init == "hf" and not c.model.model_dir:
        raise ValueError("no model: set --config.model.model_dir=/path/to/hf_checkpoint (a "
                         "local Hugging Face checkpoint dir; nothing is downloaded)")
    if c.model.model_dir and not Path(c.model.model_dir).is_dir():
        raise ValueError(f"--config.model.model_dir={c.model.model_dir}: no such directory")
    if not c.workdir:
        raise ValueError("set --config.workdir=DIR (metrics, checkpoints and the export go "
                         "there)")
    if not c.data.train_path and c.data.synthesize <= 0:
        raise ValueError("no tasks: set --config.data.train_path=FILE.jsonl (from "
                         "python -m launch.synthesize) or --config.data.synthesize=N")
    import jax

    check_mesh(c, jax.device_count(), jax.process_count())
    if jax.process_count() > 1:
        check_process_layout(c)
    check_settings(c)
    if c.data.train_path and c.data.synthesize <= 0 and not Path(c.data.train_path).is_file():
        raise ValueError(f"--config.data.train_path={c.data.train_path}: no such file (run "
                         "python -m launch.synthesize --config=configs/synth.py first)")
    if c.data.synthesize <= 0:
        from launch.wiring import server_specs

        server_specs(c, c.data.train_path)  # a missing server URL names its flag, up front


def check_mesh(c: ConfigDict, n_devices: int, n_processes: int) -> dict[str, int]:
    """The resolved mesh shape, or ValueError for a mesh the run cannot use. Any (data, fsdp,
    tensor) that fits the devices works in one process: the sampler pads its batch to a multiple
    of data x fsdp and the trainer its rows. With several processes each owns a block of the
    batch rows and of the step's prompts, so both must split over the processes."""
    from prove_jax.sharding import mesh_shape

    shape = mesh_shape(dict(c.mesh), n_devices)  # MeshError names the devices it needs
    if n_processes == 1:
        return shape
    ways = shape["data"] * shape["fsdp"]
    if ways % n_processes:
        raise ValueError(
            f"--config.mesh.data={shape['data']} x --config.mesh.fsdp={shape['fsdp']} = {ways} "
            f"batch shards do not split over {n_processes} processes (each process owns a "
            f"block of the batch rows): make data x fsdp a multiple of {n_processes}")
    if c.rollout.prompts_per_step % n_processes:
        raise ValueError(
            f"--config.rollout.prompts_per_step={c.rollout.prompts_per_step} does not split "
            f"over {n_processes} processes (each plays its share): make it a multiple of "
            f"{n_processes}")
    return shape


def check_settings(c: ConfigDict) -> None:
    """The optimizer, loss, step, rollout and reward settings, built as the run builds them: a
    bad value (an unknown schedule, a negative KL coefficient, zero steps, an unknown reward
    outcome) names itself before the tasks are synthesized or any weights load."""
    from launch.wiring import (
        check_batching,
        loss_config,
        optim_config,
        rollout_config,
        settings_from,
    )

    check_batching(c)
    from prove_jax.data.sft import check_kind_repeats

    for section in ("sft", "data"):
        if "kind_repeats" in c.get(section, {}):
            check_kind_repeats(dict(c[section].kind_repeats), f"{section}.kind_repeats")
    for section, build in (("train/rollout", settings_from), ("optim", optim_config),
                           ("loss", loss_config), ("rollout/reward", rollout_config)):
        try:
            build(c)
        except ValueError as err:
            raise ValueError(f"config.{section}: {err}") from None


def check_process_layout(c: ConfigDict) -> None:
    """With several processes, the devices each holds must hold its block of rows (the
    trainer's `distributed.check_batch_layout`, here before any weights load): depends on how
    the global device list orders processes, which `check_mesh` cannot see."""
    from prove_jax.distributed import check_batch_layout
    from prove_jax.sharding import batch_sharding, make_mesh

    mesh = make_mesh(dict(c.mesh))
    try:
        check_batch_layout(batch_sharding(mesh, 2), mesh.shape["data"] * mesh.shape["fsdp"])
    except ValueError as err:
        raise ValueError(f"--config.mesh.data/fsdp/tensor: {err}") from None


def single_process(c: ConfigDict) -> None:
    """For entry points that run in one process (all but launch.train)."""
    if c.get("distributed") is not None and c.distributed.enabled:
        raise ValueError("this entry point runs in one process; "
                         "--config.distributed.enabled=True is for launch.train")


def train_path(c: ConfigDict) -> Path:
    """The task file; with data.synthesize > 0, a set synthesized once into <workdir>/data
    (by process 0 when there are several; the others wait for it: the workdir must be on a
    file system every host sees, as the checkpoints must)."""
    if c.data.synthesize <= 0:
        return Path(c.data.train_path)
    import jax

    out = Path(c.workdir) / "data"
    if jax.process_count() > 1:
        from jax.experimental import multihost_utils

        from prove_jax.distributed import is_primary

        if is_primary():
            _synthesize(c, out)
        multihost_utils.sync_global_devices("prove_jax: tasks synthesized")
        if not (out / "train.jsonl").is_file():
            raise FileNotFoundError(f"{out / 'train.jsonl'}: process 0 synthesized it, but "
                                    "this host does not see it (use a shared workdir)")
        return out / "train.jsonl"
    _synthesize(c, out)
    return out / "train.jsonl"


def _synthesize(c: ConfigDict, out: Path) -> None:
    if not (out / "train.jsonl").is_file():
        from configs.synth import get_config as synth_config
        from prove_jax.synthesis.run import run
        from prove_jax.synthesis.settings import SynthConfig

        s = synth_config()
        s.update(num_examples=c.data.synthesize, seed=c.seed, out_dir=str(out),
                 servers=c.data.synth_servers, progress=False, test_frac=0.0)
        t0 = time.perf_counter()
        result = run(SynthConfig.from_config(s))
        print(f"synthesized {len(result.kept)} tasks into {out} "
              f"({time.perf_counter() - t0:.0f}s)")


async def finish(c: ConfigDict, trainer: object, model: object, model_cfg: object,
                 checkpointer: object, *, desc: str, plot: bool,
                 export_model: object | None = None) -> None:
    """Resume, train with a progress bar and metrics, then plot and export (GRPO and SFT).
    With several processes all of them train and save; process 0 alone writes metrics, the
    plot and the export (of `export_model`, its local copy of the final parameters)."""
    from tqdm import tqdm

    from launch.common import tokenizer_dir
    from prove_jax.checkpoint.hf import export_hf
    from prove_jax.distributed import is_primary
    from prove_jax.rl.metrics import MetricsWriter, plot_rewards

    workdir = Path(c.workdir)
    primary = is_primary()
    start = trainer.restore()
    if start and primary:
        print(f"resumed from {checkpointer.directory} at step {start}")
    trainer.writer = MetricsWriter(workdir, resume_step=start) if primary else None
    if primary:
        print(f"MFU against {trainer.peak_label}")
    bar = tqdm(total=trainer.steps, initial=start, desc=desc, unit="step",
               disable=not (c.train.progress and primary), dynamic_ncols=True)
    history: list[dict] = []

    def on_step(step: int, m: dict) -> None:
        bar.update(1)
        history.append(m)
        shown = {k: f"{m[k]:.4g}" for k in ("reward/total", "loss", "rollout_s", "step_s")
                 if k in m}
        if "mfu" in m:
            shown["tok/s/dev"] = f"{m['train_tokens_per_s_per_device']:.4g}"
            shown["mfu"] = f"{m['mfu']:.2%}"
        bar.set_postfix(shown)
        if not c.train.progress:  # a plain log: every process's, the loss in full
            exact = {**shown, **({"loss": repr(m["loss"])} if "loss" in m else {})}
            print(f"step {step}: " + " ".join(f"{k} {v}" for k, v in exact.items()), flush=True)

    trainer.on_step = on_step
    await trainer.run()
    bar.close()
    checkpointer.close()
    if trainer.writer is not None:
        trainer.writer.close()
    if export_model is not None and export_model is not model:
        trainer.publish(trainer.params)  # a collective: every process takes part
    if not primary:
        return
    print(run_summary(history, start))
    print(f"metrics: {workdir / 'metrics.jsonl'}; checkpoints: {checkpointer.directory} "
          f"(steps {checkpointer.all_steps()})")
    if plot:
        print(f"reward curve: {plot_rewards(workdir / 'metrics.jsonl', workdir / 'reward.png')}")
    if c.train.export_at_end:
        out = export_hf(export_model or model, model_cfg, c.export.out_dir or workdir / "hf",
                        tokenizer_dir=tokenizer_dir(c.model), dtype=c.export.dtype,
                        max_shard_size=c.export.max_shard_size)
        print(f"exported Hugging Face checkpoint: {out}")


def run_summary(history: list[dict], start: int) -> str:
    """One line on the steps this run trained: the reward's first and last step means, and the
    train step's median speed (the first step, which compiles, is left out when there are
    others)."""
    import numpy as np

    if not history:
        return f"nothing to train: already at step {start}"
    parts = [f"trained steps {start + 1}-{start + len(history)}"]
    rewards = [m["reward/total"] for m in history if "reward/total" in m]
    if rewards:
        parts.append(f"reward/total {rewards[0]:.3f} -> {rewards[-1]:.3f}")
    timed = [m for m in history if "mfu" in m]
    timed = timed[1:] if len(timed) > 1 else timed
    if timed:
        tokens = float(np.median([m["train_tokens_per_s_per_device"] for m in timed]))
        used = float(np.median([m["mfu"] for m in timed]))
        parts.append(f"median train step {tokens:.4g} tokens/s per device, MFU {used:.2%}")
    return "; ".join(parts)


def model_type(c: ConfigDict) -> str:
    """The HF model_type: the checkpoint's config.json, or the random model's preset."""
    if c.model.init == "random":
        from prove_jax.models.presets import PRESETS

        return PRESETS[c.model.preset]["model_type"]
    return json.loads((Path(c.model.model_dir) / "config.json").read_text())["model_type"]
