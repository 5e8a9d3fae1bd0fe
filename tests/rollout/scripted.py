"""A scripted policy for rollout tests: it emits known tool calls as TEXT, tokenized with the real
Qwen3 tokenizer and ending with <|im_end|>, so they go through the same parser and engine as a
model's output. It is stateless: the task comes from a "[task NAME]" tag in the first user turn
and the turn index from the number of assistant turns already in the context. It records every
batch size and every (request, generation) pair so tests can check batching and the loss mask.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from prove_jax.rollout.policy import Generation, GenerationRequest
from prove_jax.tools.chat import ChatFormat

Item = tuple  # ("call", name, args) | ("raw", text)
Script = Callable[[int, int], list[Item] | str]  # (sampling seed, turn) -> items | answer


def call(name: str, args: dict) -> Item:
    return ("call", name, args)


def raw(text: str) -> Item:
    return ("raw", text)


def turn_text(turn: list[Item] | str) -> str:
    if isinstance(turn, str):
        return turn
    parts = []
    for item in turn:
        if item[0] == "call":
            parts.append("<tool_call>\n" + json.dumps({"name": item[1], "arguments": item[2]})
                         + "\n</tool_call>")
        else:
            parts.append(item[1])
    return "\n".join(parts)


@dataclass
class Record:
    seed: int
    start: int  # len(request.tokens): where the sampled tokens begin in the trajectory
    tokens: list[int]
    logprobs: list[float]
    context: str  # the decoded request


@dataclass
class ScriptedPolicy:
    chat: ChatFormat
    scripts: dict[str, Script]
    delay_s: float = 0.0  # per generate call, to test timeouts
    truncate: bool = False  # return max_new_tokens tokens without <|im_end|>
    batch_sizes: list[int] = field(default_factory=list)
    records: list[Record] = field(default_factory=list)

    async def generate(self, requests: list[GenerationRequest]) -> list[Generation]:
        self.batch_sizes.append(len(requests))
        await asyncio.sleep(self.delay_s)
        return [self._one(r) for r in requests]

    def _one(self, request: GenerationRequest) -> Generation:
        context = self.chat.decode(request.tokens)
        task = re.search(r"\[task (\w+)\]", context).group(1)
        turn = context.count("<|im_start|>assistant") - 1
        tokens = self.chat.encode(turn_text(self.scripts[task](request.seed, turn))
                                  + self.chat.eot_text)
        if self.truncate:
            tokens = (tokens * 50)[:request.max_new_tokens]
        tokens = tokens[:request.max_new_tokens]
        logprobs = [-(1 + (request.seed + i) % 97) / 100 for i in range(len(tokens))]
        self.records.append(Record(request.seed, len(request.tokens), tokens, logprobs, context))
        finish = "stop" if tokens and tokens[-1] == self.chat.eot_id else "length"
        return Generation(tokens, logprobs, finish)

    def by_seed(self) -> dict[int, list[Record]]:
        out: dict[int, list[Record]] = {}
        for r in self.records:
            out.setdefault(r.seed, []).append(r)
        return out
