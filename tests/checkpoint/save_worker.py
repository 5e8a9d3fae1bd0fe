"""A training process that dies inside a checkpoint save: it saves steps 1..N-1, then exits
(os._exit, like a kill: no cleanup, no Python unwinding) at a fixed point of step N's save.

    python -m tests.checkpoint.save_worker DIR N POINT

POINT names where, in Orbax's commit of the step directory (AtomicRenameTemporaryPath.finalize,
orbax/checkpoint/_src/path/atomicity.py: every item is written under
`<step>.orbax-checkpoint-tmp-<ts>/`, then `commit_success.txt` is written there, then the
directory is renamed to `<step>`; only names without the tmp suffix count as finished):
  before_commit_file  every item written, commit_success.txt not yet written
  before_rename       commit_success.txt written, the rename to `<step>` not yet done
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np

EXIT_CODE = 17  # the worker died at the injection point (not of some other error)
POINTS = ("before_commit_file", "before_rename")


def state(step: int) -> tuple[dict, dict, dict]:
    """(params, opt_state, record) saved at `step`: every value a function of the step, so a
    restore shows which step it read. opt_state has optax's AdamW shape (count, mu, nu)."""
    params = {"w": np.full((4, 3), step, np.float32), "b": np.arange(3, dtype=np.float32) + step}
    mu = {k: v / 10 for k, v in params.items()}
    nu = {k: v / 100 for k, v in params.items()}
    opt_state = {"count": np.int32(step), "mu": mu, "nu": nu}
    record = {"step": step, "loader": {"position": 7 * step}, "seed": 3}
    return params, opt_state, record


def _is_step_tmp(path: Path, root: Path, step: int) -> bool:
    return path.parent == root and path.name.startswith(f"{step}.orbax-checkpoint-tmp")


def _inject(root: Path, step: int, point: str) -> None:
    """Patch the one file-system call of Orbax's step commit that marks `point`."""
    from orbax.checkpoint._src.path import async_path

    write_text, rename = async_path.write_text, async_path.rename

    def die(tmp: Path) -> None:
        written = sorted(str(p.relative_to(tmp)) for p in tmp.rglob("*") if p.is_file())
        print(f"dying at {point}; files written under {tmp.name}: {written}", flush=True)
        os._exit(EXIT_CODE)

    async def write_text_or_die(path, text):
        path = Path(path)
        if point == "before_commit_file" and path.name == "commit_success.txt" \
                and _is_step_tmp(path.parent, root, step):
            die(path.parent)
        return await write_text(path, text)

    async def rename_or_die(src, dst):
        if point == "before_rename" and Path(dst) == root / str(step):
            die(Path(src))
        return await rename(src, dst)

    async_path.write_text, async_path.rename = write_text_or_die, rename_or_die


def main(directory: str, n: int, point: str) -> None:
    from prove_jax.checkpoint.train_state import TrainCheckpointer

    root = Path(directory).absolute()
    ckpt = TrainCheckpointer(root, every=1, keep=3)
    for step in range(1, n):
        ckpt.save(step, *state(step))
    ckpt.wait()
    _inject(root, n, point)
    ckpt.save(n, *state(n))
    ckpt.wait()
    print("the save finished: the injection point was never reached", flush=True)
    sys.exit(1)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3])
