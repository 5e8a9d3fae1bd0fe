"""TrainCheckpointer: a process killed inside a save resumes from the last complete step, and
restore(step=) reads the step asked for (a missing one is a clear error).

The kill is injected at a fixed point of Orbax's commit (tests/checkpoint/save_worker.py), in
a subprocess that leaves with os._exit: no cleanup runs, as after a real kill."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import jax
import numpy as np
import pytest

from prove_jax.checkpoint.train_state import TrainCheckpointer
from tests.checkpoint.save_worker import EXIT_CODE, POINTS, state

ROOT = Path(__file__).resolve().parents[2]


def _assert_state(got: tuple, step: int, *, with_opt: bool = True) -> None:
    """got = restore()'s (step, params, opt_state, record) holds exactly what step saved."""
    params, opt_state, record = state(step)
    assert got[0] == step
    for want, have in ((params, got[1]), *(((opt_state, got[2]),) if with_opt else ())):
        assert jax.tree.structure(have) == jax.tree.structure(want)
        for w, h in zip(jax.tree.leaves(want), jax.tree.leaves(have), strict=True):
            h = np.asarray(h)
            assert h.dtype == w.dtype and h.shape == np.shape(w)
            np.testing.assert_array_equal(h, w)
    if not with_opt:
        assert got[2] is None
    assert got[3] == record


def _like(step: int = 0) -> tuple[dict, dict]:
    params, opt_state, _ = state(step)
    return params, opt_state


@pytest.mark.parametrize("point", POINTS)
def test_a_save_killed_before_its_commit_resumes_from_the_last_complete_step(tmp_path, point):
    ckpt_dir, n = tmp_path / "checkpoints", 3
    env = {**os.environ, "JAX_PLATFORMS": "cpu", "XLA_FLAGS": ""}
    proc = subprocess.run([sys.executable, "-m", "tests.checkpoint.save_worker", str(ckpt_dir),
                           str(n), point], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == EXIT_CODE, proc.stdout + proc.stderr
    # the kill came mid-save: step n's items are on disk, in the uncommitted directory only
    tmp = ckpt_dir / f"{n}.orbax-checkpoint-tmp"
    assert (tmp / "params" / "manifest.ocdbt").exists()
    assert (tmp / "opt_state" / "manifest.ocdbt").exists()
    assert (tmp / "commit_success.txt").exists() == (point == "before_rename")
    assert not (ckpt_dir / str(n)).exists()

    resumed = TrainCheckpointer(ckpt_dir, every=1, keep=3)
    assert resumed.latest_step() == n - 1 and resumed.all_steps() == [1, 2]
    _assert_state(resumed.restore(*_like()), n - 1)
    # the resumed run saves step n again, over the half-written one
    assert resumed.save(n, *state(n))
    resumed.wait()
    assert resumed.all_steps() == [1, 2, 3] and not tmp.exists()
    _assert_state(resumed.restore(*_like()), n)
    resumed.close()
    _assert_state(TrainCheckpointer(ckpt_dir).restore(*_like()), n)  # and a third process


def test_restore_reads_the_step_asked_for(tmp_path):
    ckpt = TrainCheckpointer(tmp_path, every=1, keep=3)
    with pytest.raises(FileNotFoundError, match="no finished checkpoint"):
        ckpt.restore(*_like())
    for step in (1, 2, 3, 4):  # keep 3: step 1 is deleted
        ckpt.save(step, *state(step))
    ckpt.wait()
    assert ckpt.all_steps() == [2, 3, 4] and ckpt.latest_step() == 4
    _assert_state(ckpt.restore(*_like(), step=2), 2)
    _assert_state(ckpt.restore(*_like(), step=3), 3)
    _assert_state(ckpt.restore(_like()[0], step=2), 2, with_opt=False)
    _assert_state(ckpt.restore(*_like()), 4)
    for missing in (1, 5):
        with pytest.raises(FileNotFoundError, match=rf"no checkpoint for step {missing} in "
                                                    rf".*have \[2, 3, 4\]"):
            ckpt.restore(*_like(), step=missing)
    ckpt.close()


def test_only_due_steps_are_saved_unless_forced(tmp_path):
    ckpt = TrainCheckpointer(tmp_path, every=3, keep=5)
    # multiples of `every`, and the first save into an empty directory (Orbax's initial save)
    started = [ckpt.save(step, *state(step)) for step in (1, 2, 3, 4, 5, 6)]
    assert ckpt.save(7, *state(7), force=True)
    ckpt.close()
    assert started == [True, False, True, False, False, True]
    assert TrainCheckpointer(tmp_path).all_steps() == [1, 3, 6, 7]
