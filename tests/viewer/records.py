"""Episode records written by hand, in the episode-file schema (`prove_jax.rollout.record`),
and the run dirs the viewer tests read."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

# The scripted episode the content test checks, call by call.
TRUTH = {"steps": [[{"name": "find_payee", "arguments": {"name": "Ana"}}],
                   [{"name": "pay_payee", "arguments": {"payee": "p1", "amount": 20}},
                    {"name": "get_balance", "arguments": {}}]],
         "edges": [[0, 1]]}
REWARDS = {"total": 0.4125, "val": 0.75, "cov": 0.3333, "eff": 0.5, "name": 1.0, "arg": -0.25}
SCRIPT_TEXT = "<script>alert('pwned')</script><img src=x onerror=alert(1)>"


def call(turn: int, name: str, outcome: str = "ok", kind: str | None = None,
         result: str = "{}", error: str | None = None,
         args: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"turn": turn, "name": name, "arguments": args or {}, "outcome": outcome,
            "kind": kind or outcome, "server": "banking", "error": error, "result": result}


def episode(task_id: str = "t0", sample: int = 0, *, step: int | None = 0,
            group: int | None = 0, advantage: float | None = 0.0,
            rewards: dict[str, float] | None = None, calls: list[dict] | None = None,
            turns: list[dict] | None = None, alignment: list[dict] | None = None,
            truth: dict | None = None, finish_reason: str = "answered",
            failed: str | None = None, final: dict | None = None,
            expected: dict | None = None) -> dict[str, Any]:
    """A complete record; without `turns`, one assistant turn makes every call and each call's
    result follows as a tool turn."""
    calls = calls if calls is not None else [call(1, "get_balance", result='{"balance": 5}')]
    if turns is None:
        turns = [{"role": "system", "text": "You are a banking agent."},
                 {"role": "user", "text": "Pay Ana 20 euros."},
                 {"role": "assistant", "text": "On it.", "calls": list(range(len(calls))),
                  "complete": True},
                 *({"role": "tool", "call": i} for i in range(len(calls))),
                 {"role": "assistant", "text": "Done.", "calls": [], "complete": True}]
    final = final if final is not None else {"banking": "aaaa"}
    return {"schema": 1, "step": step, "task_id": task_id, "task_kind": "normal",
            "group": group, "sample": sample, "seed": 100 + sample, "world_seed": 7,
            "servers": ["banking"], "turns": turns, "calls": calls,
            "rewards": rewards if rewards is not None else {"total": 0.5, "val": 0.5},
            "advantage": advantage, "finish_reason": finish_reason, "failed": failed,
            "assistant_turns": sum(t["role"] == "assistant" for t in turns), "user_turns": 1,
            "truth": truth, "alignment": alignment, "final_hashes": final,
            "expected_hashes": expected,
            "state_match": None if expected is None else failed is None and final == expected}


def scripted_group(step: int = 3) -> list[dict[str, Any]]:
    """One GRPO group of 2 samples. Sample 0: call 0 ok, call 1 covers truth call 0, call 2
    schema_error, call 3 malformed; truth call 1 missed, truth call 2 covered out of order by
    call 0. Sample 1: a failed episode whose assistant text tries to inject markup."""
    calls = [call(1, "get_balance", result='{"balance": 120}'),
             call(1, "find_payee", result='{"id": "p1"}', args={"name": "Ana"}),
             call(1, "pay_payee", "schema_error", error="amount: expected number",
                  result="schema error: amount", args={"payee": "p1", "amount": "twenty"}),
             call(3, "", "unknown_tool", "malformed_call", error="no JSON object in the call",
                  result="could not parse a tool call")]
    turns = [{"role": "system", "text": "You are a banking agent."},
             {"role": "user", "text": "Pay Ana 20 euros."},
             {"role": "assistant", "text": "Let me look.", "calls": [0, 1, 2], "complete": True},
             {"role": "tool", "call": 0}, {"role": "tool", "call": 1}, {"role": "tool", "call": 2},
             {"role": "assistant", "text": "<tool_call>{oops", "calls": [3], "complete": True},
             {"role": "tool", "call": 3},
             {"role": "assistant", "text": "I could not pay.", "calls": [], "complete": True}]
    alignment = [{"step": 0, "name": "find_payee", "call": 1, "hits": 1, "keys": 1,
                  "in_order": True},
                 {"step": 1, "name": "pay_payee", "call": None, "hits": 0, "keys": 2,
                  "in_order": False},
                 {"step": 1, "name": "get_balance", "call": 0, "hits": 0, "keys": 0,
                  "in_order": False}]
    first = episode("t-alpha", 0, step=step, group=0, advantage=0.7, rewards=REWARDS,
                    calls=calls, turns=turns, alignment=alignment, truth=TRUTH,
                    final={"banking": "f00d"}, expected={"banking": "beef"})
    second = episode("t-alpha", 1, step=step, group=0, advantage=-0.7,
                     rewards={"total": 0.0, "val": 0.0}, truth=TRUTH,
                     turns=[{"role": "user", "text": SCRIPT_TEXT},
                            {"role": "assistant", "text": SCRIPT_TEXT, "calls": [],
                             "complete": False}],
                     calls=[], alignment=[{"step": 0, "name": "find_payee", "call": None,
                                           "hits": 0, "keys": 1, "in_order": False}],
                     finish_reason="failed", failed="server timeout")
    return [first, second]


def write_jsonl(path: Path, records: Iterable[dict[str, Any]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def train_run(root: Path, steps: dict[int, list[dict[str, Any]]],
              metrics: bool = True) -> Path:
    """A training workdir: episodes/step_NNNNNN.jsonl per step, and metrics.jsonl."""
    for step, records in steps.items():
        write_jsonl(root / "episodes" / f"step_{step:06d}.jsonl", records)
    if metrics:
        write_jsonl(root / "metrics.jsonl", ({"step": s, "reward/total": 0.1 * s,
                                              "reward/val": 0.05 * s, "loss": 1.0}
                                             for s in sorted(steps)))
    return root


def eval_dir(root: Path, records: list[dict[str, Any]]) -> Path:
    """An evaluation output dir: episodes.jsonl and results.json (BFCL-like: no rewards)."""
    write_jsonl(root / "episodes.jsonl", records)
    (root / "results.json").write_text(json.dumps({"overall": {"accuracy": 0.5}}))
    return root


def benchmark_episode(task_id: str, sample: int = 0) -> dict[str, Any]:
    """An evaluation episode of a benchmark without PROVE truth: no rewards, hashes, truth."""
    r = episode(task_id, sample, step=None, group=None, advantage=None)
    for key in ("rewards", "truth", "alignment", "final_hashes", "expected_hashes",
                "state_match"):
        r[key] = None
    del r["advantage"]
    return r
