"""Shared pieces of the τ² tests: the chat format, a script policy, call text, and playing one
episode of a `Tau2Env` (start, then the dialogue loop)."""

from __future__ import annotations

import asyncio
import json

from prove_jax.eval.dialogue import DialogueConfig, DialogueRecord, play_dialogue
from prove_jax.eval.tau2_env import Tau2Env
from prove_jax.rollout.policy import Generation, GenerationRequest
from prove_jax.tools.chat import ChatFormat


def calls_text(*calls: tuple[str, dict]) -> str:
    return "\n".join("<tool_call>\n" + json.dumps({"name": n, "arguments": a}) + "\n</tool_call>"
                     for n, a in calls)


class ScriptPolicy:
    """Plays scripts[task_id][user_turn][turn_step] (the last entry of a turn repeats)."""

    def __init__(self, chat: ChatFormat, scripts: dict[str, list[list[str]]]):
        self.chat, self.scripts = chat, scripts

    async def generate(self, requests: list[GenerationRequest]) -> list[Generation]:
        out = []
        for r in requests:
            turns = self.scripts[r.task_id]
            turn = turns[min(r.user_turn, len(turns) - 1)]
            ids = self.chat.encode(turn[min(r.turn_step, len(turn) - 1)] + self.chat.eot_text)
            out.append(Generation(ids, [0.0] * len(ids), "stop"))
        return out

    async def one(self, request: GenerationRequest) -> Generation:
        return (await self.generate([request]))[0]


def play(env: Tau2Env, key: str, policy: ScriptPolicy, chat: ChatFormat) -> DialogueRecord:
    """One episode: the user's first message, then the dialogue loop."""

    async def go() -> DialogueRecord:
        await env.start()
        return await play_dialogue(env, task_id=key, policy_generate=policy.one, chat=chat,
                                   config=DialogueConfig())

    return asyncio.run(go())
