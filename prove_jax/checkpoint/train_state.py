"""Orbax checkpoints of a training run: parameters, optimizer state and a JSON record (step,
data iterator state, RNG seed, anything else a resumed run needs to continue exactly).

Saves are asynchronous (the device-to-host copy happens in `save`, the write in the
background), at multiples of `every` (and the first save into an empty directory: Orbax's
initial save), keeping the newest `keep`. Orbax writes each step into a
temporary directory and renames it only once complete, and `latest_step` lists only finished
ones, so a run killed mid-save resumes from the previous checkpoint, never a half-written one.
Restores go straight into the target shardings (abstract arrays carry them).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import jax
import orbax.checkpoint as ocp

__all__ = ["TrainCheckpointer", "abstract_like"]


def abstract_like(tree: Any) -> Any:
    """ShapeDtypeStructs (with shardings) of a pytree of arrays: a restore target."""
    return jax.tree.map(lambda x: jax.ShapeDtypeStruct(x.shape, x.dtype,
                                                       sharding=getattr(x, "sharding", None)),
                        tree)


class TrainCheckpointer:
    def __init__(self, directory: str | os.PathLike, *, every: int = 1, keep: int = 3,
                 async_save: bool = True):
        if every < 1 or keep < 1:
            raise ValueError(f"checkpoint every/keep must be >= 1, got {every}/{keep}")
        self.directory = Path(directory).absolute()
        options = ocp.CheckpointManagerOptions(
            save_interval_steps=every, max_to_keep=keep,
            enable_async_checkpointing=async_save, create=True)
        self._manager = ocp.CheckpointManager(self.directory, options=options)

    def latest_step(self) -> int | None:
        return self._manager.latest_step()

    def all_steps(self) -> list[int]:
        return list(self._manager.all_steps())

    def save(self, step: int, params: Any, opt_state: Any, record: dict[str, Any],
             *, force: bool = False) -> bool:
        """Save if `step` is due (or `force`); True when a save started."""
        args = ocp.args.Composite(params=ocp.args.StandardSave(params),
                                  opt_state=ocp.args.StandardSave(opt_state),
                                  record=ocp.args.JsonSave(record))
        return self._manager.save(step, args=args, force=force)

    def restore(self, params_like: Any, opt_like: Any | None = None, step: int | None = None
                ) -> tuple[int, Any, Any, dict[str, Any]]:
        """(step, params, opt_state or None, record) of `step` (default: the latest).
        `params_like`/`opt_like` give shapes, dtypes and target shardings (arrays or
        ShapeDtypeStructs); without `opt_like` the optimizer state is not read."""
        step = self.latest_step() if step is None else step
        if step is None:
            raise FileNotFoundError(f"no finished checkpoint in {self.directory}")
        if step not in self.all_steps():
            raise FileNotFoundError(f"no checkpoint for step {step} in {self.directory}; "
                                    f"have {self.all_steps()}")
        parts = {"params": ocp.args.StandardRestore(abstract_like(params_like)),
                 "record": ocp.args.JsonRestore()}
        if opt_like is not None:
            parts["opt_state"] = ocp.args.StandardRestore(abstract_like(opt_like))
        out = self._manager.restore(step, args=ocp.args.Composite(**parts))
        opt_state = out["opt_state"] if opt_like is not None else None
        return step, out["params"], opt_state, dict(out["record"])

    def wait(self) -> None:
        self._manager.wait_until_finished()

    def close(self) -> None:
        self._manager.wait_until_finished()
        self._manager.close()
