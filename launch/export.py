"""A training run's checkpoint as a Hugging Face checkpoint (safetensors + config + tokenizer),
loadable by transformers and vLLM.

    python -m launch.export --workdir=runs/tiny --out=/tmp/tiny-hf [--step=N] [--dtype=bfloat16]

Reads <workdir>/run.json (the model's config.json and tokenizer dir, written by launch.train or
launch.sft) and restores only the parameters of the chosen Orbax step (default: the newest).
"""

from __future__ import annotations

import json
from pathlib import Path

from absl import app, flags

from launch.cli import parse_flags, usage_error

_WORKDIR = flags.DEFINE_string("workdir", None, "a training run's workdir")
_OUT = flags.DEFINE_string("out", None, "where to write the Hugging Face checkpoint")
_STEP = flags.DEFINE_integer("step", None, "checkpoint step (default: the newest)")
_DTYPE = flags.DEFINE_string("dtype", "bfloat16", "dtype of the exported weights")
_SHARD = flags.DEFINE_string("max_shard_size", "5GB", "safetensors shard size")


def export_run(workdir: str | Path, out: str | Path, step: int | None = None,
               dtype: str = "bfloat16", max_shard_size: str = "5GB") -> tuple[Path, int]:
    """Export `step` (default the newest) of a run; returns (out dir, step)."""
    import jax
    from flax import nnx

    from prove_jax.checkpoint.hf import export_hf
    from prove_jax.checkpoint.train_state import TrainCheckpointer
    from prove_jax.models import ModelConfig, init_model

    workdir = Path(workdir)
    run_file = workdir / "run.json"
    if not run_file.is_file():
        raise FileNotFoundError(f"{run_file} not found: is {workdir} a launch.train workdir?")
    run = json.loads(run_file.read_text())
    cfg = ModelConfig.from_hf(run["model_config"], param_dtype=run["param_dtype"],
                              dtype=run["param_dtype"])
    abstract = nnx.eval_shape(lambda: init_model(cfg))
    graphdef, params_like = nnx.split(abstract, nnx.Param)
    ckpt = TrainCheckpointer(workdir / "checkpoints")
    # Restored whole onto this host's CPU: the checkpoint may come from another topology
    # (several processes, other devices), and the export reads every tensor on the host anyway.
    host = jax.sharding.SingleDeviceSharding(jax.local_devices(backend="cpu")[0])
    params_like = jax.tree.map(lambda x: jax.ShapeDtypeStruct(x.shape, x.dtype, sharding=host),
                               params_like)
    step, params, _, _ = ckpt.restore(params_like, None, step)
    ckpt.close()
    model = nnx.merge(graphdef, params)
    return export_hf(model, cfg, out, tokenizer_dir=run.get("tokenizer_dir"), dtype=dtype,
                     max_shard_size=max_shard_size), step


def main(argv: list[str]) -> None:
    del argv
    if not _WORKDIR.value or not _OUT.value:
        usage_error("pass --workdir=RUN_DIR and --out=DIR")
    try:
        out, step = export_run(_WORKDIR.value, _OUT.value, _STEP.value, _DTYPE.value,
                               _SHARD.value)
    except (FileNotFoundError, ValueError) as err:
        usage_error(str(err))
    print(f"exported step {step} of {_WORKDIR.value} to {out}")


if __name__ == "__main__":
    app.run(main, flags_parser=parse_flags)
