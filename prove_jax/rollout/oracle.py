"""The oracle policy: replays a task's ground truth through the rollout engine, as text.

For every request it writes what a perfect assistant would write next: the calls of the next
truth step of the current user turn (parallel calls of a step in one turn) in the family's
tool-call syntax, and after the last step of that user turn a short final answer — a question
for the missing value when the next user turn supplies it (clarification), a refusal when the
needed tool is not offered (abstention), else what the turn's tools returned (answers.py),
read from the request's context. The text is tokenized with the
chat's tokenizer and ends with the family's end-of-turn token; log-probs are 0.0.

Uses: SFT demonstrations (`prove_jax.data.sft`), and validating the harness — the oracle must
reach the truth's final state and the maximum reward; `drop_last_call=True` (the last call of
every user turn left out) must score clearly lower.

Statelessness: everything is planned at construction from the tasks (and their meta rows);
a request is answered from its own fields only (task_id, user_turn, assistant_turn), so
concurrent episodes and GRPO groups cannot disturb each other.

Which user turn each truth step answers is not in a task row: it comes from the synthesizer's
meta.jsonl (`step_turn`, with `gap` for the value the user supplies later and `intended` for
what an abstention row asked for); see `load_meta`. A task with one user turn needs no meta.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from prove_jax.rollout.answers import summarize, tool_results
from prove_jax.rollout.policy import Generation, GenerationRequest
from prove_jax.rollout.task import Task
from prove_jax.tools.chat import ChatFormat

__all__ = ["OraclePolicy", "Reply", "default_answer", "load_meta", "plan_turns"]


@dataclass(frozen=True)
class Reply:
    """What the final answer of one user turn has to say."""

    kind: Literal["done", "ask", "refuse"]
    task_id: str
    user_turn: int
    calls: tuple[dict, ...] = ()  # the calls made for this user turn
    missing: str | None = None  # ask: the argument the user has not given yet
    tool: str | None = None  # refuse: the tool asked for that is not offered (None: unknown)
    results: tuple[str, ...] = ()  # done: what the turn's calls returned, as shown


def _words(name: str) -> str:
    return name.rsplit(".", 1)[-1].replace("_", " ")


def default_answer(reply: Reply) -> str:
    """A short natural final answer (the template verbalizer's register: plain, one line)."""
    if reply.kind == "ask":
        return (f"I can do that, but I need one more detail first: which "
                f"{_words(reply.missing or 'value')} should I use?")
    if reply.kind == "refuse":
        if reply.tool in (None, "out_of_scope"):
            return ("Sorry, I can't do that: none of the tools available to me can carry out "
                    "this request.")
        return (f"Sorry, I can't do that: I don't have a tool to {_words(reply.tool)}, so this "
                f"request can't be completed with the tools available to me.")
    if reply.results:  # what the tools returned, not which tools ran
        return summarize(list(reply.results))
    if reply.calls:
        return "Done. Is there anything else you need?"
    return "Understood. Is there anything else you need?"


def load_meta(path: str | os.PathLike) -> dict[str, dict]:
    """id -> meta row, from a meta.jsonl file or a dataset directory holding one."""
    p = Path(path)
    if p.is_dir():
        p = p / "meta.jsonl"
    if not p.is_file():
        raise FileNotFoundError(f"no meta file at {p}")
    rows = [json.loads(line) for line in p.read_text(encoding="utf-8").splitlines()
            if line.strip()]
    return {r["id"]: r for r in rows}


Item = list[dict] | Reply  # one assistant turn: the calls of one truth step, or the answer


def _step_turns(task: Task, meta: Mapping[str, Any] | None) -> list[int]:
    steps, n_user = task.truth.get("steps", []), len(task.user_turns)
    if meta is not None and meta.get("step_turn") is not None:
        st = [int(u) for u in meta["step_turn"]]
        if len(st) != len(steps) or any(not 0 <= u < n_user for u in st) or st != sorted(st):
            raise ValueError(f"oracle: task {task.id!r}: meta step_turn {st} does not fit "
                             f"{len(steps)} truth steps over {n_user} user turns")
        return st
    if not steps or n_user == 1:
        return [0] * len(steps)
    raise ValueError(f"oracle: task {task.id!r} has {n_user} user turns and {len(steps)} truth "
                     "steps but no meta row with 'step_turn' (which user turn each step "
                     "answers); pass meta=load_meta(<dataset dir>)")


def _refused_tool(meta: Mapping[str, Any] | None, user_turn: int, n_user: int) -> str | None:
    """The abstention's tool for a user turn: the synthesizer's first request, and on the last
    turn its follow-up request when it made one (other turns only insist)."""
    intended = [c.get("name") for c in (meta or {}).get("intended") or []]
    if not intended:
        return None
    if 0 < user_turn == n_user - 1 and user_turn < len(intended):
        return intended[user_turn]
    return intended[0]


def plan_turns(task: Task, meta: Mapping[str, Any] | None = None,
               drop_last_call: bool = False) -> list[list[Item]]:
    """The oracle's assistant turns, per user turn: truth steps (lists of calls), then a Reply.

    `drop_last_call` leaves out the last call of every user turn (and its step when that was
    its only call)."""
    steps = [[{"name": c["name"], "arguments": dict(c.get("arguments", {}))} for c in step]
             for step in task.truth.get("steps", [])]
    st = _step_turns(task, meta)
    n_user = len(task.user_turns)
    gap = (meta or {}).get("gap")
    ask_turn = st[gap["step"]] - 1 if gap else None
    if ask_turn is not None and ask_turn < 0:
        raise ValueError(f"oracle: task {task.id!r}: the gap's step is answered in the first "
                         "user turn, so no earlier turn can ask for it")
    variant = (meta or {}).get("variant")
    plan: list[list[Item]] = []
    for u in range(n_user):
        mine = [list(s) for s, t in zip(steps, st, strict=True) if t == u]
        if drop_last_call and mine:
            mine[-1].pop()
            if not mine[-1]:
                mine.pop()
        calls = tuple(c for s in mine for c in s)
        if task.kind == "abstention":
            reply = Reply("refuse", task.id, u, calls, tool=_refused_tool(meta, u, n_user))
        elif u == ask_turn:
            reply = Reply("ask", task.id, u, calls, missing=str(gap["arg"]))
        elif variant == "missing_function" and u not in st:  # asks for the hidden tool
            reply = Reply("refuse", task.id, u, calls)
        else:
            reply = Reply("done", task.id, u, calls)
        plan.append([*mine, reply])
    return plan


class OraclePolicy:
    """A `Policy` that plays the ground truth of known tasks (see the module docstring).

    tasks: id -> Task; meta: id -> the synthesizer's meta row (needed for multi-turn tasks);
    answer: Reply -> final-answer text."""

    def __init__(self, chat: ChatFormat, tasks: Mapping[str, Task], *,
                 meta: Mapping[str, Mapping[str, Any]] | None = None,
                 drop_last_call: bool = False,
                 answer: Callable[[Reply], str] = default_answer):
        self.chat, self.drop_last_call, self.answer = chat, drop_last_call, answer
        meta = meta or {}
        self._texts: dict[str, list[list[str]]] = {}
        self._tokens: dict[str, list[list[list[int]]]] = {}
        self._offsets: dict[str, list[int]] = {}  # assistant turns before each user turn
        self._replies: dict[str, list[Reply]] = {}  # each user turn's final answer
        for task_id, task in tasks.items():
            plan = plan_turns(task, meta.get(task_id), drop_last_call)
            self._replies[task_id] = [turn[-1] for turn in plan]
            texts = [[self._text(item) for item in turn] for turn in plan]
            self._texts[task_id] = texts
            self._tokens[task_id] = [[chat.encode(t + chat.eot_text) for t in turn]
                                     for turn in texts]
            sizes = [len(turn) for turn in texts]
            self._offsets[task_id] = [sum(sizes[:u]) for u in range(len(sizes))]

    def texts(self, task_id: str) -> list[list[str]]:
        """The planned assistant turns' text (no end-of-turn token), per user turn."""
        return [list(turn) for turn in self._texts[task_id]]

    def calls_text(self, calls: Sequence[Mapping[str, Any]]) -> str:
        """Calls in the family's syntax: Hermes blocks with newlines (Qwen), inline (Granite)."""
        blocks = [json.dumps({"name": c["name"], "arguments": c["arguments"]},
                             ensure_ascii=False) for c in calls]
        if self.chat.family == "granite":
            return "\n".join(f"<tool_call>{b}</tool_call>" for b in blocks)
        return "\n".join(f"<tool_call>\n{b}\n</tool_call>" for b in blocks)

    def _text(self, item: Item) -> str:
        return self.answer(item) if isinstance(item, Reply) else self.calls_text(item)

    async def generate(self, requests: list[GenerationRequest]) -> list[Generation]:
        return [self._one(r) for r in requests]

    def _one(self, request: GenerationRequest) -> Generation:
        turns = self._tokens.get(request.task_id)
        if turns is None:
            raise KeyError(f"OraclePolicy: no task {request.task_id!r} (it knows "
                           f"{len(self._tokens)} tasks; was the request's task_id filled in?)")
        u = request.user_turn
        if not 0 <= u < len(turns):
            raise ValueError(f"OraclePolicy: task {request.task_id!r} has {len(turns)} user "
                             f"turns, asked to answer user turn {u}")
        i = request.assistant_turn - self._offsets[request.task_id][u]
        if i < 0:
            raise ValueError(f"OraclePolicy: task {request.task_id!r}: assistant turn "
                             f"{request.assistant_turn} comes before user turn {u}'s first")
        # Past the plan (a cap or a deviation): repeat the turn's final answer.
        j = min(i, len(turns[u]) - 1)
        tokens = turns[u][j]
        reply = self._replies[request.task_id][u]
        if j == len(turns[u]) - 1 and reply.kind == "done" and reply.calls:
            # the answer reports what this turn's calls returned, read from the context
            shown = tool_results(self.chat.decode(request.tokens), len(reply.calls))
            text = self.answer(dataclasses.replace(reply, results=tuple(shown)))
            tokens = self.chat.encode(text + self.chat.eot_text)
        tokens = tokens[:request.max_new_tokens]
        finish = "stop" if tokens and tokens[-1] == self.chat.eot_id else "length"
        return Generation(tokens, [0.0] * len(tokens), finish)
