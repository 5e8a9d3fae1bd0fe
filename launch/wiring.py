"""Config sections to the library's plain settings objects, and the rollout side of a run
(MCP servers, sampler policy, engine) as one async context. Read once, here, at the edge."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from ml_collections import ConfigDict

from prove_jax.rewards import RewardConfig
from prove_jax.rl.grpo import Collect, GRPOSettings
from prove_jax.rl.length_buckets import BUCKETS
from prove_jax.rl.losses import LossConfig
from prove_jax.rl.optim import OptimConfig
from prove_jax.rl.optim import optim_config as optim_settings
from prove_jax.rollout.task import RolloutConfig
from prove_jax.tools.chat import ChatFormat

__all__ = ["build_collect", "loss_config", "optim_config", "rollout_config", "settings_from",
           "task_servers"]


def optim_config(c: ConfigDict) -> OptimConfig:
    """The GRPO run's optimizer: its schedule counts `loss.iterations` updates per step."""
    return optim_settings(c.optim, train_steps=c.train.steps, iterations=c.loss.iterations)


def loss_config(c: ConfigDict) -> LossConfig:
    # Dr. GRPO's constant normaliser: the response budget (batches are compact, so the
    # default, the batch's own target width, would vary from step to step).
    return LossConfig(clip_low=c.loss.clip_low, clip_high=c.loss.clip_high,
                      kl_coef=c.loss.kl_coef, aggregation=c.loss.aggregation,
                      norm_length=c.rollout.max_response_tokens)


def settings_from(c: ConfigDict) -> GRPOSettings:
    return GRPOSettings(
        steps=c.train.steps, group_size=c.rollout.group_size,
        prompts_per_step=c.rollout.prompts_per_step, estimator=c.loss.estimator,
        iterations=c.loss.iterations, dynamic_sampling=c.loss.dynamic_sampling,
        max_refills=c.loss.max_refills, micro_batches=c.train.micro_batches,
        seq_multiple=c.train.seq_multiple, logprob_chunk=c.model.logprob_chunk,
        temperature=c.rollout.temperature, seed=c.seed,
        checkpoint_every=c.train.checkpoint_every,
        shared_prefix=c.train.get("shared_prefix", False),
        length_buckets=c.train.get("length_buckets", BUCKETS))


def rollout_config(c: ConfigDict) -> RolloutConfig:
    r = c.rollout
    return RolloutConfig(
        max_assistant_turns=r.max_assistant_turns, max_user_turns=r.max_user_turns,
        max_total_tokens=r.max_prompt_tokens + r.max_response_tokens,
        max_new_tokens=r.max_new_tokens, episode_timeout_s=r.episode_timeout_s,
        max_concurrent_episodes=r.max_concurrent_episodes,
        compact_schemas=r.get("compact_schemas", False),
        reward=RewardConfig.from_dict(dict(c.reward)))


def kv_reuse_bytes(c: ConfigDict) -> int:
    """rollout.kv_reuse_mib as bytes; a negative budget is a config error."""
    mib = c.rollout.get("kv_reuse_mib", 0)
    if not isinstance(mib, int) or mib < 0:
        raise ValueError(f"--config.rollout.kv_reuse_mib must be an integer >= 0 (0: recompute "
                         f"every turn's context), got {mib!r}")
    return mib << 20


BATCHING = ("continuous", "step")


def check_batching(c: ConfigDict) -> None:
    """rollout.batching and its sizes, and kv_reuse_mib; a bad value names itself."""
    kv_reuse_bytes(c)
    r = c.rollout
    batching = r.get("batching", "continuous")
    if batching not in BATCHING:
        raise ValueError(f"--config.rollout.batching must be one of {BATCHING} (continuous: "
                         f"decode slots, the default; step: the step-synchronous reference), "
                         f"got {batching!r}")
    for name, low in (("slots", 0), ("slot_tokens", 0), ("steps_per_call", 1)):
        value = r.get(name, low)
        if not isinstance(value, int) or value < low:
            raise ValueError(f"--config.rollout.{name} must be an integer >= {low}, got "
                             f"{value!r}")


def auto_slots(cfg: Any, capacity: int, budget_bytes: int, episodes: int) -> int:
    """Decode rows whose KV (capacity tokens each) fits the budget, at most one per live
    episode and at least one."""
    import jax.numpy as jnp

    per_token = 2 * cfg.num_layers * cfg.num_kv_heads * cfg.head_dim * jnp.dtype(cfg.dtype).itemsize
    return max(1, min(episodes, budget_bytes // (per_token * capacity)))


def make_policy(c: ConfigDict, model: Any, mesh: Any, params: Any, pad_id: int,
                max_total_tokens: int, episodes: int) -> Any:
    """The rollout policy config asks for: continuous batching over `rollout.slots` decode
    rows (0: as many as kv_reuse_mib holds, at most one per live episode, of which there are
    at most `episodes`: decode runs every row, idle or not) of
    `rollout.slot_tokens` (0: max_total_tokens) each, or the step-synchronous reference
    (`rollout.batching=step`, which also serves runs of several processes)."""
    import jax

    from prove_jax.rollout.jax_policy import SamplerPolicy
    from prove_jax.sampling import Sampler

    check_batching(c)
    r = c.rollout
    if r.get("batching", "continuous") == "step" or jax.process_count() > 1:
        return SamplerPolicy(Sampler(model, mesh, pad_id=pad_id), params, kv_reuse_bytes(c))
    from prove_jax.rollout.continuous import ContinuousPolicy
    from prove_jax.sampling.slots import SlotSampler

    ways = 1 if mesh is None else mesh.shape["data"] * mesh.shape["fsdp"]
    capacity = r.get("slot_tokens", 0) or max_total_tokens
    slots = r.get("slots", 0) or auto_slots(model.cfg, capacity, kv_reuse_bytes(c), episodes)
    slots = -(-slots // ways) * ways
    return ContinuousPolicy(SlotSampler(model, params, slots=slots, capacity=capacity,
                                        mesh=mesh, pad_id=pad_id,
                                        steps_per_call=r.get("steps_per_call", 8)))


def task_servers(path: str | Path) -> list[str]:
    """Every server some task of the split needs (one pass over the file)."""
    names: set[str] = set()
    with open(path) as f:
        for line in f:
            if line.strip():
                names.update(json.loads(line)["servers"])
    return sorted(names)


def server_specs(c: ConfigDict, tasks_file: str | Path) -> list:
    """One ServerSpec per server the task file needs, over `config.servers`' transport."""
    from prove_jax.tools.manager import ServerSpec

    transport = c.servers.transport
    urls = {name: url for name, url in dict(c.servers.urls).items() if url}  # "": unset
    if urls and transport != "http":
        raise ValueError(f"servers.urls is set for {sorted(urls)} but servers.transport is "
                         f"{transport!r}; add --config.servers.transport=http")
    specs = [ServerSpec(name, transport, urls.get(name)) for name in task_servers(tasks_file)]
    missing = [s.name for s in specs if transport == "http" and not s.url]
    if missing:
        flags = " ".join(f"--config.servers.urls.{n}=http://HOST:PORT/mcp" for n in missing)
        raise ValueError(f"servers.transport=http needs a URL per server; missing {missing} "
                         f"({flags})")
    return specs


@contextlib.asynccontextmanager
async def build_collect(c: ConfigDict, model: Any, mesh: Any, chat: ChatFormat,
                        tasks_file: str | Path) -> AsyncIterator[Collect]:
    """Servers started, a sampler over `model` on `mesh` (the trainer's own parameters, not a
    copy; with several processes, this process's local copy on its local mesh), and
    `collect(tasks, seed, first_index)` playing each task `group_size` times."""
    from prove_jax.rollout.engine import RolloutEngine
    from prove_jax.sampling import SamplingParams
    from prove_jax.tools.manager import MCPManager

    specs = server_specs(c, tasks_file)
    pad = chat.tokenizer.pad_token_id
    params = SamplingParams(max_new_tokens=c.rollout.max_new_tokens,
                            temperature=c.rollout.temperature, top_p=c.rollout.top_p,
                            top_k=c.rollout.top_k, stop_token_ids=(chat.eot_id,))
    async with MCPManager(specs) as manager:
        config = rollout_config(c)
        # a step plays prompts_per_step x group_size episodes (this process: its share)
        live = min(config.max_concurrent_episodes,
                   c.rollout.prompts_per_step * c.rollout.group_size)
        policy = make_policy(c, model, mesh, params, pad if pad is not None else 0,
                             config.max_total_tokens, live)
        engine = RolloutEngine(policy, manager, chat, config)

        async def collect(tasks: list, seed: int, first_index: int) -> list:
            return await engine.run_groups(tasks, c.rollout.group_size, seed=seed,
                                           first_index=first_index)

        async def truth_hashes(task: Any) -> dict[str, str]:
            """The servers' state hashes after the task's truth alone, on fresh sessions."""
            from prove_jax.synthesis.revalidate import replay_row

            return (await replay_row(manager, task.to_dict()))[2]

        collect.truth_hashes = truth_hashes  # for the episode log
        if hasattr(policy, "stats"):  # where a rollout's time goes (GRPO's rollout/* metrics)
            collect.sampler_stats = policy.stats
        yield collect
