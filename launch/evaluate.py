"""Evaluate a policy on BFCL multi-turn, τ²-bench or the held-out synthesized split.

    python -m launch.evaluate --config=configs/qwen3_4b.py \\
        --config.model.model_dir=runs/q4b/hf --config.eval.benchmark=bfcl_multi_turn
    python -m launch.evaluate --config=configs/tiny.py --config.eval.benchmark=tau2 \\
        --config.eval.policy=oracle --config.eval.categories=airline,retail

The policy is our own: the model of `config.model` sampled by our JAX sampler (greedy by
default), through our chat formatting, call parser and dialogue loop, the way it is trained;
or `oracle` / `oracle_drop_last`, which replay each benchmark's ground truth through the same
path (a harness check: the oracle must score 100%). Writes results.json, results.md and
episodes.jsonl to `config.eval.out_dir` (default <workdir>/eval/<benchmark>-<policy>) and
prints the table.
"""

from __future__ import annotations

from launch.common import fake_cpu_devices, quiet_logs

fake_cpu_devices(8)  # a CPU host gets 8 devices for the mesh; no effect on accelerators

import asyncio  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

from absl import app  # noqa: E402
from ml_collections import ConfigDict, config_flags  # noqa: E402

from launch.cli import check_config_flags, parse_flags, usage_error  # noqa: E402

_CONFIG = config_flags.DEFINE_config_file("config", None, "experiment config (configs/*.py)")

BENCHMARKS = ("bfcl_multi_turn", "tau2", "heldout")
POLICIES = ("model", "oracle", "oracle_drop_last")
TAU2_DOMAINS = ("airline", "retail", "telecom")


def check(c: ConfigDict) -> None:
    """Errors a user can cause, before anything heavy starts."""
    e = c.eval
    if e.benchmark not in BENCHMARKS:
        raise ValueError(f"config.eval.benchmark must be one of {BENCHMARKS}, got "
                         f"{e.benchmark!r}")
    if e.policy not in POLICIES:
        raise ValueError(f"config.eval.policy must be one of {POLICIES}, got {e.policy!r}")
    if e.policy == "model":
        from launch.wiring import check_batching

        check_batching(c)
        if c.model.init == "hf" and not c.model.model_dir:
            raise ValueError("policy model: set --config.model.model_dir=DIR (a Hugging Face "
                             "checkpoint, e.g. <workdir>/hf from a training run)")
        if c.model.model_dir and not Path(c.model.model_dir).is_dir():
            raise ValueError(f"--config.model.model_dir={c.model.model_dir}: no such "
                             "directory")
        if e.benchmark == "tau2" and not e.user_base_url:
            raise ValueError("tau2 with policy model needs a user simulator: set "
                             "--config.eval.user_base_url=http://HOST:PORT/v1 (an "
                             "OpenAI-compatible endpoint) and --config.eval.user_model=NAME")
    if e.benchmark == "heldout" and not Path(heldout_path(c)).is_file():
        raise ValueError(f"heldout: no test split at {heldout_path(c)!r}: set "
                         "--config.eval.test_path=FILE.jsonl (python -m launch.synthesize "
                         "writes test.jsonl)")
    if e.limit < 0 or e.trials < 1:
        raise ValueError("config.eval.limit must be >= 0 and config.eval.trials >= 1")


def validate_categories(c: ConfigDict) -> None:
    names = categories(c) or []
    known = {"bfcl_multi_turn": list(BFCL_SHORT), "tau2": list(TAU2_DOMAINS),
             "heldout": []}[c.eval.benchmark]
    bad = [n for n in names if n not in known and f"multi_turn_{n}" not in known
           and n.removeprefix("multi_turn_") not in known]
    if bad:
        raise ValueError(f"config.eval.categories: {bad} not known for {c.eval.benchmark}"
                         f" (known: {known or 'none: heldout reports task kinds'})")


def heldout_path(c: ConfigDict) -> str:
    return c.eval.test_path or c.data.test_path


def categories(c: ConfigDict) -> list[str] | None:
    names = [s.strip() for s in c.eval.categories.split(",") if s.strip()]
    return names or None


def dialogue_config(c: ConfigDict) -> Any:
    from prove_jax.eval.dialogue import DialogueConfig

    e = c.eval
    return DialogueConfig(max_steps_per_turn=e.max_steps_per_turn,
                          max_total_tokens=e.max_total_tokens, max_new_tokens=e.max_new_tokens,
                          episode_timeout_s=e.episode_timeout_s,
                          max_concurrent_episodes=e.max_concurrent_episodes)


def model_policy(c: ConfigDict, chat: Any) -> Any:
    """Our sampler over config.model, as a rollout Policy."""
    import jax

    from launch.common import model_from_config
    from launch.wiring import make_policy
    from prove_jax.sampling import SamplingParams
    from prove_jax.sharding import make_mesh

    mesh = make_mesh(dict(c.mesh))
    vocab = -(-len(chat.tokenizer) // 128) * 128 if c.model.vocab_from_tokenizer else None
    model, cfg = model_from_config(c.model, mesh, vocab_size=vocab)
    print(f"model: {cfg.model_type} on {jax.device_count()} {jax.devices()[0].platform} "
          f"devices (mesh {dict(mesh.shape)})")
    pad = chat.tokenizer.pad_token_id
    params = SamplingParams(max_new_tokens=c.eval.max_new_tokens,
                            temperature=c.eval.temperature, top_p=c.eval.top_p,
                            stop_token_ids=(chat.eot_id,))
    return make_policy(c, model, mesh, params, pad if pad is not None else 0,
                       c.eval.max_total_tokens, c.eval.max_concurrent_episodes)


async def run_heldout(c: ConfigDict, chat: Any, policy: Callable[[Any], Any]) -> dict:
    from launch.wiring import rollout_config, server_specs
    from prove_jax.data.loader import cap_tools
    from prove_jax.data.tasks import load_tasks
    from prove_jax.eval.heldout import run_heldout as play
    from prove_jax.rollout.oracle import OraclePolicy, load_meta
    from prove_jax.tools.manager import MCPManager

    path = Path(heldout_path(c))
    # the tools a task offers are capped as in training (data.max_tools; 0 keeps them all)
    tasks = [cap_tools(t, c.data.max_tools) for t in load_tasks(path)[:c.eval.limit or None]]
    if not tasks:
        raise ValueError(f"heldout: {path} holds no tasks")
    if c.eval.policy == "model":
        chosen = policy(None)
    else:
        meta = load_meta(path.parent) if (path.parent / "meta.jsonl").is_file() else None
        chosen = OraclePolicy(chat, {t.id: t for t in tasks}, meta=meta,
                              drop_last_call=c.eval.policy == "oracle_drop_last")
    e = c.eval
    config = rollout_config(c)
    # The training episode's turn caps (config.rollout), the eval section's token caps.
    config = type(config)(**{**vars(config), "max_new_tokens": e.max_new_tokens,
                             "max_total_tokens": e.max_total_tokens,
                             "max_concurrent_episodes": e.max_concurrent_episodes,
                             "episode_timeout_s": e.episode_timeout_s})
    async with MCPManager(server_specs(c, path)) as manager:
        return await play(chosen, chat, manager, tasks, config, seed=c.seed)


BFCL_SHORT = {"base": "multi_turn_base", "miss_param": "multi_turn_miss_param",
              "miss_func": "multi_turn_miss_func", "long_context": "multi_turn_long_context"}


async def run_bfcl(c: ConfigDict, chat: Any, policy: Callable[[Any], Any]) -> dict:
    from prove_jax.eval.bfcl import BfclOracle
    from prove_jax.eval.bfcl import run_bfcl as play
    from prove_jax.eval.bfcl_data import CATEGORIES, load_entries

    names = [BFCL_SHORT.get(n, n) for n in categories(c) or CATEGORIES]
    limit = c.eval.limit or None
    if c.eval.policy == "model":
        agent = policy(None)
    else:
        agent = BfclOracle(chat, [e for n in names for e in load_entries(n, limit)],
                           drop_last_call=c.eval.policy == "oracle_drop_last")
    return await play(agent, chat, names, limit, dialogue_config(c), c.seed)


async def run_tau2(c: ConfigDict, chat: Any, policy: Callable[[Any], Any]) -> dict:
    from prove_jax.eval.tau2 import Tau2Oracle, user_factory_from_config
    from prove_jax.eval.tau2 import run_tau2 as play

    domains = categories(c) or list(TAU2_DOMAINS)
    limit = c.eval.limit or None
    users = user_factory_from_config(c.eval, c.eval.policy)
    if c.eval.policy == "model":
        agent = policy(None)
    else:
        agent = Tau2Oracle.for_domains(chat, domains, limit,
                                       drop_last_call=c.eval.policy == "oracle_drop_last")
    return await play(agent, chat, domains, user_factory=users, limit=limit,
                      trials=c.eval.trials, config=dialogue_config(c), seed=c.seed)


def main(argv: list[str]) -> None:
    quiet_logs()
    del argv
    from launch.runner import config_or_exit, single_process

    c = config_or_exit(_CONFIG.value, single_process, check, validate_categories)
    from launch.common import chat_format
    from launch.runner import model_type
    from prove_jax.eval.report import markdown_table, write_results

    chat = chat_format(c.model, model_type(c))
    start = time.perf_counter()
    runner = {"heldout": run_heldout, "bfcl_multi_turn": run_bfcl, "tau2": run_tau2}
    policies: list = []

    def policy(_: object) -> object:
        policies.append(model_policy(c, chat))
        return policies[-1]

    try:
        results = asyncio.run(runner[c.eval.benchmark](c, chat, policy))
    except ValueError as err:  # bad data or settings found once loading starts
        usage_error(str(err))
    seconds = time.perf_counter() - start
    out = Path(c.eval.out_dir or Path(c.workdir or ".") / "eval" /
               f"{c.eval.benchmark}-{c.eval.policy}")
    info = {"benchmark": c.eval.benchmark, "policy": c.eval.policy,
            "model": c.model.model_dir or f"random:{c.model.preset}", "seed": c.seed,
            "limit": c.eval.limit, "seconds": round(seconds, 1)}
    stats = [p.stats() for p in policies if hasattr(p, "stats")]
    if stats:  # the continuous sampler's share of `seconds` (see GRPO's rollout/* metrics)
        from prove_jax.rollout.continuous import rollout_split

        zero = dict.fromkeys(stats[0], 0.0)
        total = {k: sum(st[k] for st in stats) for k in zero}
        info["sampler"] = {k.removeprefix("rollout/"): round(v, 2)
                           for k, v in rollout_split(zero, total).items()}
    paths = write_results(out, results, info)
    print(markdown_table(results, f"{c.eval.benchmark} ({c.eval.policy})"))
    print(f"results: {paths['json']} {paths['md']} {paths['episodes']} ({seconds:.0f}s)")


if __name__ == "__main__":
    check_config_flags(sys.argv)
    app.run(main, flags_parser=parse_flags)
