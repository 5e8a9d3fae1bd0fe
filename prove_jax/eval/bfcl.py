"""BFCL multi-turn: scoring with BFCL's own checker, the ground-truth oracle, and the run.

Scoring (`score_entry`) follows BFCL's eval runner (`_evaluate_single_multi_turn_entry`):
an episode that broke is an inference error; one that ended before its last user turn (a step,
token or time cap) is "force_terminated" (BFCL: fewer result turns than ground-truth turns);
otherwise the record's calls are decoded to BFCL's form — per turn, per step, `"f(a=1,b='x')"`
strings as its function-calling handlers write them (`convert_to_function_call`), steps without
calls left out as BFCL's `is_empty_execute_response` skip does — and `multi_turn_checker` decides.
In the installed BFCL the runner imports `multi_turn_irrelevance_checker` but does not apply it,
so it does not decide `valid` here either; its verdict is reported as `irrelevance_valid`.

Only calls that ran in the env (kind ok / execution_error) are decoded. The others were refused
before running (unparseable, unknown or withheld function, arguments that do not bind or are
mistyped): BFCL would have evaluated them to an error string that changes no state, so leaving
them out does not change the checker's state comparison, and it keeps unvetted names and keys
out of the strings the checker `eval`s. A refused call still counts as a step the model took.

The checker keeps its class instances in `multi_turn_utils` module globals keyed by model
name + entry id. Each scoring uses a fresh model name and removes the globals it created, under
a lock: scoring runs in one thread at a time, and scorings cannot see each other's state.
"""

from __future__ import annotations

import keyword
import statistics
import threading
import uuid
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from prove_jax.eval.bfcl_data import CATEGORIES, BfclEntry, load_entries, parse_truth_call
from prove_jax.eval.bfcl_env import BfclEnv
from prove_jax.eval.dialogue import DialogueConfig, DialogueRecord, run_dialogues
from prove_jax.rollout.oracle import OraclePolicy, Reply, default_answer
from prove_jax.rollout.policy import Generation, GenerationRequest, Policy
from prove_jax.tools.chat import ChatFormat

__all__ = ["BfclOracle", "decode_turns", "run_bfcl", "score_category", "score_entry"]

_EXECUTED = ("ok", "execution_error")
_SCORING_LOCK = threading.Lock()


def _call_string(call: Mapping[str, Any]) -> str | None:
    """BFCL's decoded form of one call, or None when it must not reach the checker's eval."""
    name, args = call.get("name"), call.get("arguments")
    if (call.get("kind") not in _EXECUTED or not isinstance(name, str) or not name.isidentifier()
            or keyword.iskeyword(name) or not isinstance(args, dict)):
        return None
    if any(not isinstance(k, str) or not k.isidentifier() or keyword.iskeyword(k)
           for k in args):
        return None
    return f"{name}({','.join(f'{k}={v!r}' for k, v in args.items())})"


def decode_turns(record: DialogueRecord) -> list[list[list[str]]]:
    """A record's calls in BFCL's decoded form (per turn, per non-empty step)."""
    decoded = []
    for turn in record.turns:
        steps = [[s for s in map(_call_string, step) if s is not None] for step in turn]
        decoded.append([s for s in steps if s])
    return decoded


def _checker_globals() -> dict[str, Any]:
    from bfcl_eval.eval_checker.multi_turn_eval import multi_turn_utils

    return vars(multi_turn_utils)


def score_entry(entry: BfclEntry, record: DialogueRecord) -> dict[str, Any]:
    """BFCL's verdict on one episode: {"valid", "error_type", "error_message",
    "irrelevance_valid", "finish_reason"}."""
    from bfcl_eval.eval_checker.multi_turn_eval.multi_turn_checker import (
        multi_turn_checker,
        multi_turn_irrelevance_checker,
    )

    row: dict[str, Any] = {"finish_reason": record.finish_reason, "irrelevance_valid": None}
    if record.failed is not None:
        return {**row, "valid": False, "error_type": "multi_turn:inference_error",
                "error_message": record.failed}
    truth = entry.ground_truth
    if len(record.turns) != len(truth):
        return {**row, "valid": False, "error_type": "multi_turn:force_terminated",
                "error_message": f"episode ended ({record.finish_reason}) after "
                                 f"{len(record.turns)} of {len(truth)} user turns"}
    decoded = decode_turns(record)
    model_name = f"prove_jax_bfcl_{uuid.uuid4().hex}"
    with _SCORING_LOCK:
        space = _checker_globals()
        try:
            verdict = multi_turn_checker(decoded, truth, entry.raw, entry.category, model_name)
        except Exception as err:  # a checker assertion: the entry fails, the run goes on
            verdict = {"valid": False, "error_type": "multi_turn:checker_error",
                       "error_message": f"{type(err).__name__}: {err}"}
        finally:
            for key in [k for k in space if k.startswith(model_name)]:
                del space[key]
    irrelevance = multi_turn_irrelevance_checker(decoded, truth)
    return {**row, "valid": bool(verdict["valid"]), "error_type": verdict.get("error_type"),
            "error_message": verdict.get("error_message"),
            "irrelevance_valid": bool(irrelevance["valid"])}


def score_category(results: Sequence[Mapping[str, Any]]) -> float:
    """Accuracy: the fraction of valid entries (0.0 for none)."""
    return sum(bool(r["valid"]) for r in results) / len(results) if results else 0.0


class BfclOracle:
    """A `Policy` that replays BFCL's ground truth (answers from task id, user turn and turn
    step only, so concurrent episodes cannot disturb it).

    Per user turn: all ground-truth calls in one assistant turn, then a short answer; a turn
    without ground truth (missing parameter / function) gets an answer asking for what is
    missing. `drop_last_call` leaves out the last call of every turn."""

    def __init__(self, chat: ChatFormat, entries: Sequence[BfclEntry], *,
                 drop_last_call: bool = False):
        self.chat, self.drop_last_call = chat, drop_last_call
        writer = OraclePolicy(chat, {})  # its calls_text: the family's tool-call syntax
        self._tokens: dict[str, list[list[list[int]]]] = {}
        for entry in entries:
            turns = []
            for u, truth in enumerate(entry.ground_truth):
                calls = [parse_truth_call(c, entry.involved_classes) for c in truth]
                if drop_last_call and calls:
                    calls.pop()
                texts = [writer.calls_text(calls)] if calls else []
                texts.append(default_answer(self._reply(entry, u, calls, bool(truth))))
                turns.append([chat.encode(t + chat.eot_text) for t in texts])
            self._tokens[entry.id] = turns

    @staticmethod
    def _reply(entry: BfclEntry, user_turn: int, calls: list[dict], has_truth: bool) -> Reply:
        if has_truth:
            return Reply("done", entry.id, user_turn, tuple(calls))
        if entry.category == "multi_turn_miss_func":
            return Reply("refuse", entry.id, user_turn)
        return Reply("ask", entry.id, user_turn)

    async def generate(self, requests: list[GenerationRequest]) -> list[Generation]:
        return [self._one(r) for r in requests]

    def _one(self, request: GenerationRequest) -> Generation:
        turns = self._tokens.get(request.task_id)
        if turns is None:
            raise KeyError(f"BfclOracle: no entry {request.task_id!r}")
        if not 0 <= request.user_turn < len(turns):
            raise ValueError(f"BfclOracle: {request.task_id!r} has {len(turns)} user turns, "
                             f"asked for turn {request.user_turn}")
        steps = turns[request.user_turn]
        tokens = steps[min(request.turn_step, len(steps) - 1)][:request.max_new_tokens]
        finish = "stop" if tokens and tokens[-1] == self.chat.eot_id else "length"
        return Generation(tokens, [0.0] * len(tokens), finish)


async def run_bfcl(policy: Policy, chat: ChatFormat,
                   categories: Sequence[str] = CATEGORIES, limit: int | None = None,
                   config: DialogueConfig | None = None, seed: int = 0, *,
                   system_prompt: str | None = None) -> dict[str, Any]:
    """Play and score the first `limit` entries (all when None) of each category.

    Returns {"categories": {name: {"n", "accuracy"}}, "overall": {"n", "accuracy": the mean
    of the category accuracies (BFCL's overall)}, "rows": [{"id", "category", "valid",
    "error_type", ...}]}: each row is also an episode record (`prove_jax.rollout.record`,
    without PROVE rewards, truth or hashes)."""
    config = config or DialogueConfig()
    entries = [e for c in categories for e in load_entries(c, limit)]
    jobs = [(e.id, partial(BfclEnv, e, system_prompt)) for e in entries]
    records = await run_dialogues(policy, chat, jobs, config, seed)
    rows = [{**r.episode(e.category), "id": e.id, "category": e.category, **score_entry(e, r),
             "seconds": round(r.seconds, 3)} for e, r in zip(entries, records, strict=True)]
    summary = {c: {"n": sum(r["category"] == c for r in rows),
                   "accuracy": score_category([r for r in rows if r["category"] == c])}
               for c in categories}
    overall = statistics.fmean(s["accuracy"] for s in summary.values()) if summary else 0.0
    return {"categories": summary, "overall": {"n": len(rows), "accuracy": overall},
            "rows": rows}
