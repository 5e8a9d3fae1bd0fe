"""Rollouts of continuous batching (the default path) against the step-synchronous reference
that recomputes every context, in one run, on the same workload.

Workload: `--tasks` tasks (default 32) x G = `--group` (default 4) rollouts on live in-process
MCP sessions (payments + banking), each three tool-call turns and an answer (the script of
benchmarks/engine_split.py), prompts of about 1.5K tokens with real tool schemas (the first
tools of both servers, shown until the prompt reaches `--prompt-tokens`), and a random
~100M-parameter Qwen3-shaped model (benchmarks/sampler.py's) sampling. Each assistant turn
samples `--free` free tokens (32; cut before any special token, so that the chat parser sees
plain text), then the scripted tool call is appended as forced tokens: both modes compute
those on the next turn, as part of what they prefill, so both compute the same sequences.

Reported per mode: episodes/s, prefill tokens computed (bucket padding included) / unique
tokens (every token of every episode counted once, a group's shared prompt once), and decode
tok/s (free tokens sampled / wall). Targets (issue 21): episodes/s new/reference >= 3 and
prefill computed/unique <= 1.1. Each mode runs once untimed first (compilation).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import time
from typing import Any

os.environ.setdefault("JAX_PLATFORMS", "cpu")

from benchmarks.engine_split import SEED, TURNS, qwen3_tokenizer_dir
from prove_jax.models import init_model
from prove_jax.models.config import ModelConfig
from prove_jax.rollout.continuous import ContinuousPolicy
from prove_jax.rollout.engine import RolloutEngine
from prove_jax.rollout.jax_policy import SamplerPolicy
from prove_jax.rollout.policy import Generation, GenerationRequest
from prove_jax.rollout.task import RolloutConfig, Task
from prove_jax.sampling import Sampler, SamplingParams
from prove_jax.sampling.slots import SlotSampler
from prove_jax.tools.chat import ChatFormat
from prove_jax.tools.manager import MCPManager, ServerSpec

SERVERS = ("payments", "banking")
EPISODES_TARGET, PREFILL_TARGET = 3.0, 1.1


class ForcedScript:
    """`inner` samples the free tokens; the script's next turn is appended as forced tokens."""

    def __init__(self, inner: Any, chat: ChatFormat, free: int):
        self.inner, self.chat, self.free = inner, chat, free
        self.special = min(chat.tokenizer.all_special_ids)  # Qwen3: special ids come last
        self.sampled = 0
        if hasattr(inner, "generate_one"):
            self.generate_one = self._one
            self.end_episode, self.aclose = inner.end_episode, inner.aclose
        self.release_cache = inner.release_cache

    def _request(self, r: GenerationRequest) -> GenerationRequest:
        return GenerationRequest(r.tokens, self.free, r.seed, r.task_id, r.user_turn,
                                 r.assistant_turn, r.turn_step)

    def _forced(self, r: GenerationRequest, gen: Generation) -> Generation:
        free = gen.tokens
        cut = next((i for i, t in enumerate(free) if t >= self.special), len(free))
        self.sampled += len(free)
        turn = r.assistant_turn
        if turn < len(TURNS):
            text = "\n".join("<tool_call>\n" + json.dumps({"name": n, "arguments": a})
                             + "\n</tool_call>" for n, a in TURNS[turn])
        else:
            text = "All done."
        forced = self.chat.encode("\n" + text + self.chat.eot_text)
        return Generation(free[:cut] + forced, gen.logprobs[:cut] + [0.0] * len(forced), "stop")

    async def generate(self, requests: list[GenerationRequest]) -> list[Generation]:
        gens = await self.inner.generate([self._request(r) for r in requests])
        return [self._forced(r, g) for r, g in zip(requests, gens, strict=True)]

    async def _one(self, request: GenerationRequest) -> Generation:
        return self._forced(request, await self.inner.generate_one(self._request(request)))


def make_model() -> Any:
    cfg = ModelConfig(model_type="qwen3", vocab_size=151936, hidden_size=512,
                      intermediate_size=1536, num_layers=8, num_heads=8, num_kv_heads=4,
                      head_dim=64, tie_word_embeddings=True, qk_norm=True,
                      max_position_embeddings=8192)
    return init_model(cfg, seed=0)


async def offered_tools(chat: ChatFormat, prompt_tokens: int) -> tuple[str, ...]:
    """The script's tools, then more of the two servers' tools (by name) until the prompt
    reaches `prompt_tokens`."""
    async with MCPManager([ServerSpec(s, "inprocess") for s in SERVERS]) as mgr:
        session = await mgr.open_episode(SERVERS, SEED)
        schemas = list(session.schemas)
        await mgr.close_episode(session)
    names = [s["function"]["name"] for s in schemas]
    tools = [n for turn in TURNS for n, _ in turn]
    for name in sorted(set(names) - set(tools)):
        offered = [s for s in schemas if s["function"]["name"] in tools]
        if len(chat.prompt_tokens([{"role": "user", "content": "x"}], offered)) >= prompt_tokens:
            break
        tools.append(name)
    return tuple(tools)


async def play(policy: Any, chat: ChatFormat, tasks: list[Task], group: int) -> dict:
    config = RolloutConfig(max_new_tokens=1024, max_total_tokens=16_384,
                           max_concurrent_episodes=32)
    async with MCPManager([ServerSpec(s, "inprocess") for s in SERVERS]) as mgr:
        engine = RolloutEngine(policy, mgr, chat, config)
        start = time.perf_counter()
        groups = await engine.run_groups(tasks, group)
        wall = time.perf_counter() - start
    return {"wall": wall, "groups": groups}


def unique_tokens(groups: list[list[Any]]) -> int:
    return sum(g[0].prompt_len + sum(len(t.tokens) - t.prompt_len for t in g) for g in groups)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", type=int, default=32)
    parser.add_argument("--group", type=int, default=4)
    parser.add_argument("--free", type=int, default=32, help="free tokens sampled per turn")
    parser.add_argument("--prompt-tokens", type=int, default=1500)
    parser.add_argument("--slots", type=int, default=32)
    args = parser.parse_args()
    from transformers import AutoTokenizer

    chat = ChatFormat(AutoTokenizer.from_pretrained(qwen3_tokenizer_dir()), "qwen3",
                      {"enable_thinking": False})
    tools = asyncio.run(offered_tools(chat, args.prompt_tokens))
    payee = TURNS[1][0][1]["contact_id"]
    tasks = [Task(f"t{i}", SERVERS, (f"Check my money and pay {payee} ({i}).",),
                  {"steps": [[{"name": n, "arguments": a} for n, a in turn] for turn in TURNS]},
                  tools=tools, seed=SEED) for i in range(args.tasks)]
    model = make_model()
    params = SamplingParams(max_new_tokens=args.free, temperature=1.0)
    pad = chat.tokenizer.pad_token_id or 0
    # Rows at full length from the start, as after a first GRPO step: rows that grew during
    # the untimed run would key the timed run's programs to another length (recompiles)
    modes = {"new": lambda: SlotSampler(model, params, slots=args.slots, capacity=4096,
                                        initial_tokens=4096, pad_id=pad),
             "reference": lambda: Sampler(model, pad_id=pad)}
    results = {}
    for name, make in modes.items():
        sampler = make()
        for _timed in (False, True):  # the first run compiles every shape the second needs
            sampler.prefill_slots = sampler.reused_tokens = 0
            compiled = sampler.compilations
            inner = (ContinuousPolicy(sampler) if name == "new"
                     else SamplerPolicy(sampler, params, kv_reuse_bytes=0))
            policy = ForcedScript(inner, chat, args.free)
            r = asyncio.run(play(policy, chat, tasks, args.group))
        if sampler.compilations != compiled:
            print(f"note: {name} compiled {sampler.compilations - compiled} shapes while timed")
        trajs = [t for g in r["groups"] for t in g]
        failed = sum(bool(t.failed) for t in trajs)
        results[name] = {"eps": len(trajs) / r["wall"], "wall": r["wall"],
                         "computed": sampler.prefill_slots, "unique": unique_tokens(r["groups"]),
                         "decode": policy.sampled / r["wall"], "failed": failed,
                         "tokens": [t.tokens for t in trajs],
                         "calls": sum(len(t.calls) for t in trajs),
                         "prompt": trajs[0].prompt_len,
                         "split": (inner.admit_seconds, inner.decode_seconds,
                                   len(inner.batch_sizes))
                         if name == "new" else None}
    new, ref = results["new"], results["reference"]
    print(f"workload: {args.tasks} tasks x G={args.group}, prompt {new['prompt']} tokens "
          f"({len(tools)} tools), {args.free} free tokens per turn, {new['calls']} tool calls")
    print("| mode | wall s | episodes/s | prefill computed | unique tokens | computed/unique | "
          "decode tok/s | failed |\n|---|---|---|---|---|---|---|---|")
    for name, r in results.items():
        print(f"| {name} | {r['wall']:.1f} | {r['eps']:.3f} | {r['computed']:,} | {r['unique']:,} "
              f"| {r['computed'] / r['unique']:.2f} | {r['decode']:.1f} | {r['failed']} |")
    admit_s, decode_s, calls = new["split"]
    print(f"new mode: {admit_s:.1f} s admitting (batched extends), {decode_s:.1f} s in {calls} "
          f"decode calls, {new['wall'] - admit_s - decode_s:.1f} s other")
    same = sum(a == b for a, b in zip(new["tokens"], ref["tokens"], strict=True))
    print(f"identical episodes (token for token): {same} of {len(new['tokens'])}")
    ratio = new["eps"] / ref["eps"]
    p, q = new["computed"] / new["unique"], ref["computed"] / ref["unique"]
    ok = {True: "yes", False: "NO"}
    print(f"targets: episodes/s ratio >= {EPISODES_TARGET}: {ok[ratio >= EPISODES_TARGET]}; "
          f"prefill computed/unique <= {PREFILL_TARGET}: {ok[p <= PREFILL_TARGET]}")
    print(f"rollout: episodes/s new/reference = {ratio:.2f}x; prefill computed/unique = {p:.2f} "
          f"(reference {q:.2f})")


if __name__ == "__main__":
    main()
