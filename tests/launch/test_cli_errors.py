"""A newcomer's config mistakes end in one line naming the cause and the valid choices."""

from __future__ import annotations

import subprocess
import sys

import pytest

from launch.cli import config_flag_problem

TINY = "--config=configs/tiny.py"


def test_a_misspelt_key_names_the_nearest_valid_ones():
    problem = config_flag_problem(["prog", TINY, "--config.optim.lrr=1e-5"])
    assert problem == ("--config.optim.lrr: configs/tiny.py has no key config.optim.lrr; "
                       "did you mean config.optim.lr or config.optim or config.optim.b2")


def test_an_unknown_key_with_no_near_spelling_lists_its_group():
    problem = config_flag_problem(["prog", TINY, "--config.nosuch=1"])
    assert problem.startswith("--config.nosuch: configs/tiny.py has no key config.nosuch; "
                              "the config holds: ")
    assert "optim" in problem and "model" in problem


def test_a_key_below_a_value_is_refused():
    problem = config_flag_problem(["prog", TINY, "--config.optim.lr.x=1"])
    assert "config.optim.lr in configs/tiny.py is a value (float)" in problem


def test_a_missing_config_file_lists_the_configs():
    problem = config_flag_problem(["prog", "--config", "configs/nope.py"])
    assert problem.startswith("--config=configs/nope.py: no such config file")
    assert "tiny.py" in problem and "qwen3_4b.py" in problem


def test_valid_flags_pass_and_the_default_config_is_checked():
    assert config_flag_problem(["prog", TINY, "--config.optim.lr=1e-5",
                                "--config.model.remat=dots", "--noconfig.dry_run"]) is None
    assert config_flag_problem(["prog"]) is None  # the entry point asks for --config itself
    assert "has no key config.nope" in config_flag_problem(
        ["prog", "--config.nope=1"], default="configs/synth.py")


@pytest.mark.parametrize("module,flags", [
    ("launch.train", [TINY, "--config.nosuch=1"]),
    ("launch.sft", [TINY, "--config.sft.stepz=3"]),
    ("launch.evaluate", ["--config=configs/nope.py"]),
    ("launch.synthesize", ["--config.num_exampels=5"]),
])
def test_entry_points_end_in_one_line_without_a_traceback(module, flags):
    proc = subprocess.run([sys.executable, "-m", module, *flags], capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode != 0
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --config"), proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
