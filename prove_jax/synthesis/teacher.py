"""The teacher LLM behind an OpenAI-compatible `/v1/chat/completions` endpoint: a verbalizer
with the template verbalizer's interface, and a labeler for ambiguous graph edges. Off unless
config.teacher.url is set. The teacher only writes text: every turn it writes goes through the
resolution check on text (textcheck.py: each value stated in some spelling, each named record
resolvable among those shown, nothing withheld leaked), and a turn that fails it falls back
to the template."""

from __future__ import annotations

import json
import os
import random
from typing import Any

from prove_jax.synthesis.dialogue import DialogueSpec, TurnSpec
from prove_jax.synthesis.graph import Edge, ToolNode
from prove_jax.synthesis.records import StepRecord
from prove_jax.synthesis.textcheck import unresolved_text
from prove_jax.synthesis.verbalize import TemplateVerbalizer, render_arg

try:  # mcp ships httpx under this name
    import httpx2 as httpx
except ImportError:  # pragma: no cover - a plain httpx install works the same
    import httpx

__all__ = ["ChatClient", "TeacherLabeler", "TeacherVerbalizer"]


class ChatClient:
    """A minimal async client of an OpenAI-compatible chat endpoint."""

    def __init__(self, url: str, model: str, api_key_env: str = "", timeout_s: float = 60.0,
                 temperature: float = 0.7):
        base = url.rstrip("/")
        self.url = base + ("/chat/completions" if base.endswith("/v1")
                           else "/v1/chat/completions")
        self.model, self.temperature = model, temperature
        key = os.environ.get(api_key_env, "") if api_key_env else ""
        self.headers = {"Authorization": f"Bearer {key}"} if key else {}
        self.client = httpx.AsyncClient(timeout=timeout_s)
        self.calls = 0

    async def complete(self, messages: list[dict], temperature: float | None = None) -> str:
        self.calls += 1
        body = {"model": self.model, "messages": messages,
                "temperature": self.temperature if temperature is None else temperature}
        reply = await self.client.post(self.url, json=body, headers=self.headers)
        reply.raise_for_status()
        return reply.json()["choices"][0]["message"]["content"]

    async def aclose(self) -> None:
        await self.client.aclose()


def _brief(spec: DialogueSpec, t: int, rng: random.Random) -> str:
    turn: TurnSpec = spec.turns[t]
    if turn.role == "supply" and turn.supply.how == "entity":
        return ("Reply to the assistant, who asked which one you meant: "
                f"{render_arg(turn.supply, rng)}.")
    if turn.role == "supply":
        return (f"Reply to the assistant, who asked for a missing detail: the "
                f"{turn.supply.arg} is {json.dumps(turn.supply.value)}.")
    if turn.role == "insist":
        return "Insist once, briefly, that you need the previous request done."
    lines = []
    for s in turn.steps:
        args = [r for r in (render_arg(a, rng) for a in s.args) if r]
        lines.append(f"- {s.description.strip()} " + (f"[{'; '.join(args)}]" if args else ""))
    kind = "a follow-up message" if turn.follow_up else "the first message"
    return f"Write {kind} asking the assistant to:\n" + "\n".join(lines)


class TeacherVerbalizer:
    """User turns written by the teacher; the template writes any turn the teacher gets wrong
    (a value missing, a record it does not single out, a withheld value said) and the
    system prompt."""

    def __init__(self, client: ChatClient):
        self.client = client
        self.template = TemplateVerbalizer()
        self.name = f"teacher:{client.model}"
        self.fallbacks = 0

    async def render(self, spec: DialogueSpec, rng: random.Random,
                     steps: list[StepRecord] | None = None) -> tuple[str, list[str]]:
        from prove_jax.synthesis.phrases import PERSONAS

        system = self.template.system_prompt(spec, rng)
        persona = PERSONAS[spec.persona]
        turns: list[str] = []
        for t in range(len(spec.turns)):
            prompt = (f"You are role-playing a user ({persona}); today is {spec.today}. "
                      f"{_brief(spec, t, rng)}\nState every quoted value exactly as given. "
                      "Do not mention tools or ids unless given. Answer with the message only.")
            try:
                text = (await self.client.complete([{"role": "user", "content": prompt}])).strip()
            except (httpx.HTTPError, KeyError, IndexError, ValueError):
                text = ""
            if len(text.split()) < 3 or unresolved_text(text, spec.turns[t], steps or []):
                self.fallbacks += 1
                text = self.template.turn(spec, t, rng)
            turns.append(text)
        return system, turns


class TeacherLabeler:
    """Labels an ambiguous tool pair explicit / implicit / none (the graph keeps the first
    two)."""

    def __init__(self, client: ChatClient):
        self.client = client
        self.name = f"labeler:{client.model}"

    async def __call__(self, src: ToolNode, dst: ToolNode, edge: Edge) -> str:
        prompt = (
            "Two tools. A: {a} ({ad}). B: {b} ({bd}). Candidate link: {via}.\n"
            "Answer with one word: explicit (an output of A is a required input of B), "
            "implicit (A must run before B for B to work), or none."
        ).format(a=f"{src.server}.{src.name}", ad=src.description, b=f"{dst.server}.{dst.name}",
                 bd=dst.description, via=", ".join(f"{o} -> {i}" for o, i in edge.via) or "-")
        try:
            answer = await self.client.complete([{"role": "user", "content": prompt}], 0.0)
        except (httpx.HTTPError, KeyError, IndexError, ValueError):
            return edge.kind  # unlabeled: keep the rule's verdict
        word = answer.strip().split()[0].lower().strip(".,") if answer.strip() else ""
        return word if word in ("explicit", "implicit", "none") else edge.kind


def teacher_from(cfg: Any) -> ChatClient | None:
    if not cfg.teacher_url:
        return None
    if not cfg.teacher_model:
        raise ValueError("config.teacher.url is set but config.teacher.model is empty")
    return ChatClient(cfg.teacher_url, cfg.teacher_model, cfg.teacher_api_key_env,
                      cfg.teacher_timeout_s, cfg.teacher_temperature)
