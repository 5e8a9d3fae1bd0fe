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


CONFIG_ENTRY_POINTS = ("launch.train", "launch.sft", "launch.evaluate", "launch.synthesize")
CONFIG = {"launch.synthesize": "--config=configs/synth.py"}


def _run(module: str, *flags: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", module, *flags], capture_output=True,
                          text=True, timeout=300)


def _one_usage_line(proc: subprocess.CompletedProcess, needle: str) -> None:
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2, (proc.returncode, proc.stderr[-2000:])
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr[-2000:]
    assert needle in lines[0] and "Traceback" not in proc.stderr


@pytest.mark.parametrize("module", CONFIG_ENTRY_POINTS)
@pytest.mark.parametrize("flags,needle", [
    (["--config.nosuch=1"], "has no key config.nosuch"),
    (["--config=configs/nope.py"], "no such config file"),
    (["--config.seed=abc"], "abc"),
])
def test_config_entry_points_end_in_one_line_with_status_2(module, flags, needle):
    config = [] if flags[0].startswith("--config=") else [CONFIG.get(module, TINY)]
    _one_usage_line(_run(module, *config, *flags), needle)


@pytest.mark.parametrize("module,flags,needle", [
    ("launch.generate", ["--model_dir=/no/such/dir", "--prompt=hi"], "does not exist"),
    ("launch.generate", ["--nosuch=1"], "nosuch"),
    ("launch.export", [], "pass --workdir=RUN_DIR and --out=DIR"),
    ("launch.export", ["--workdir=/no/such/run", "--out=/tmp/x", "--step=abc"], "abc"),
    ("launch.import_gguf", ["--gguf=/no/such.gguf", "--out=/tmp/x"], "does not exist"),
    ("launch.view", [], "pass --run=DIR"),
    ("launch.reproduce", ["--seeds=a"], "--seeds must be integers"),
    ("launch.sft", [TINY, "--config.workdir=/tmp/x", "--config.sft.kind_repeats.abstention=0"],
     "sft.kind_repeats.abstention must be an integer >= 1, got 0"),
    ("launch.train", [TINY, "--config.workdir=/tmp/x", "--config.data.kind_repeats.refusal=2"],
     "refusal"),
    ("launch.train", [TINY, "--config.workdir=/tmp/x", "--config.data.kind_repeats.normal=-1"],
     "data.kind_repeats.normal must be an integer >= 1, got -1"),
])
def test_other_entry_points_end_in_one_line_with_status_2(module, flags, needle):
    _one_usage_line(_run(module, *flags), needle)
