"""Who speaks for the user in a τ² episode.

  - `ScriptedUser`: deterministic, for tests and the oracle. Its first message is the task's
    scenario (reason for the call and what the user knows); after each agent answer it performs
    the user's own gold actions of that round on its tools (telecom: the phone) and, after the
    last round, ends the conversation with tau2's stop token. It reads the gold plan, so it
    only makes sense opposite the oracle or as a fixed script; it does not judge the agent.
  - `OpenAIUser`: tau2's LLM user simulator behind an OpenAI-compatible
    `/v1/chat/completions` endpoint: tau2's user system prompt with the task's scenario, the
    conversation with roles flipped (the agent's texts are its "user" turns), the user's tools
    when the domain has them (their calls run on the episode's environment and are recorded).
    An endpoint that cannot be reached or answers nonsense fails that episode, naming the URL.

`user_factory_from_config` builds the factory `run_tau2` takes from the eval config
(eval.user_base_url, eval.user_model, eval.user_api_key_env, eval.user_timeout_s,
eval.user_temperature); a model evaluated without a user endpoint is refused up front.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from tau2.data_model.tasks import StructuredUserInstructions, Task
from tau2.user.base import STOP

from prove_jax.eval.tau2_env import Tau2Env, Tau2User, gold_segments, greeting, user_system_prompt

try:  # mcp ships httpx under this name
    import httpx2 as httpx
except ImportError:  # pragma: no cover - a plain httpx install works the same
    import httpx

__all__ = ["OpenAIUser", "ScriptedUser", "Tau2UserError", "UserEndpoint", "UserFactory",
           "user_factory_from_config"]

UserFactory = Callable[[str, Task], Tau2User]  # (domain, task) -> a fresh user per episode


class Tau2UserError(RuntimeError):
    """The user simulator could not produce a turn (the episode fails with this message)."""


class ScriptedUser:
    """A fixed user: states the scenario, performs its gold actions, stops (module docstring)."""

    def __init__(self, task: Task, perform_user_actions: bool = True):
        self.task = task
        self.rounds = gold_segments(task)
        self.perform_user_actions = perform_user_actions

    async def first_message(self, env: Tau2Env) -> str:
        instructions = self.task.user_scenario.instructions
        if isinstance(instructions, StructuredUserInstructions):
            return "\n".join(s.strip() for s in (instructions.reason_for_call,
                                                 instructions.known_info) if s)
        return str(instructions).strip()

    async def reply(self, env: Tau2Env, assistant_text: str, user_turn: int) -> str:
        if self.perform_user_actions and user_turn < len(self.rounds):
            for action in self.rounds[user_turn][1]:
                env.user_call(action.name, dict(action.arguments))
        if user_turn + 1 < len(self.rounds):
            return "I did what you asked. What should I do next?"
        return STOP


@dataclass(frozen=True)
class UserEndpoint:
    """An OpenAI-compatible chat endpoint for the LLM user (tau2 samples its user at
    temperature 0)."""

    base_url: str
    model: str
    api_key_env: str = ""  # name of the environment variable holding the key ("" = none)
    timeout_s: float = 120.0
    temperature: float = 0.0

    @property
    def url(self) -> str:
        base = self.base_url.rstrip("/")
        return base + ("/chat/completions" if base.endswith("/v1") else "/v1/chat/completions")


class OpenAIUser:
    """tau2's LLM user simulator over HTTP (module docstring). One instance per episode."""

    def __init__(self, endpoint: UserEndpoint, max_tool_rounds: int = 10):
        self.endpoint, self.max_tool_rounds = endpoint, max_tool_rounds
        self.system = ""
        self.history: list[dict] = []  # the user's side of the conversation, roles flipped

    async def first_message(self, env: Tau2Env) -> str:
        self.system = user_system_prompt(str(env.task.user_scenario), bool(env.user_tools))
        self.history = [{"role": "user", "content": greeting()}]
        return await self._next(env)

    async def reply(self, env: Tau2Env, assistant_text: str, user_turn: int) -> str:
        self.history.append({"role": "user", "content": assistant_text})
        return await self._next(env)

    async def _next(self, env: Tau2Env) -> str:
        """The user's next message; tool calls it makes first run on the environment."""
        for _ in range(self.max_tool_rounds + 1):
            message = await self._complete(env)
            calls = message.get("tool_calls") or []
            content = message.get("content") or ""
            if not calls:
                if not content.strip():
                    raise Tau2UserError(f"user simulator at {self.endpoint.url} returned an "
                                        "empty message")
                self.history.append({"role": "assistant", "content": content})
                return content
            self.history.append({"role": "assistant", "content": content, "tool_calls": calls})
            for call in calls:
                self.history.append({"role": "tool", "tool_call_id": call.get("id", ""),
                                     "content": self._run(env, call)})
        raise Tau2UserError(f"user simulator at {self.endpoint.url} made more than "
                            f"{self.max_tool_rounds} rounds of tool calls without speaking")

    @staticmethod
    def _run(env: Tau2Env, call: Mapping[str, Any]) -> str:
        function = call.get("function") or {}
        try:
            arguments = json.loads(function.get("arguments") or "{}")
        except json.JSONDecodeError as err:  # not executed: only the user reads the error
            return f"Error: tool arguments are not valid JSON ({err.msg})"
        if not isinstance(arguments, dict):
            return "Error: tool arguments must be a JSON object"
        return env.user_call(str(function.get("name", "")), arguments).content or ""

    async def _complete(self, env: Tau2Env) -> dict:
        endpoint = self.endpoint
        body: dict[str, Any] = {"model": endpoint.model, "temperature": endpoint.temperature,
                                "messages": [{"role": "system", "content": self.system},
                                             *self.history]}
        if env.user_tools:
            body["tools"] = [t.openai_schema for t in env.user_tools]
        key = os.environ.get(endpoint.api_key_env, "") if endpoint.api_key_env else ""
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        try:
            async with httpx.AsyncClient(timeout=endpoint.timeout_s) as client:
                response = await client.post(endpoint.url, json=body, headers=headers)
                response.raise_for_status()
                message = response.json()["choices"][0]["message"]
        except httpx.HTTPError as err:
            raise Tau2UserError(f"user simulator endpoint {endpoint.url} failed: "
                                f"{type(err).__name__}: {err}") from err
        except (KeyError, IndexError, TypeError, ValueError) as err:
            raise Tau2UserError(f"user simulator endpoint {endpoint.url} sent a reply without "
                                f"choices[0].message ({type(err).__name__}: {err})") from err
        if not isinstance(message, dict):
            raise Tau2UserError(f"user simulator endpoint {endpoint.url}: choices[0].message "
                                "is not an object")
        return message


def _field(cfg: Any, name: str, default: Any = None) -> Any:
    if isinstance(cfg, Mapping):
        return cfg.get(name, default)
    return getattr(cfg, name, default)


def user_factory_from_config(eval_cfg: Any, policy_kind: str) -> UserFactory:
    """The user for `run_tau2`: the scripted user opposite the oracle; otherwise the LLM user
    at eval.user_base_url, which must then be set (a model cannot be judged by a script)."""
    if policy_kind.startswith("oracle"):  # oracle, oracle_drop_last
        return lambda domain, task: ScriptedUser(task)
    base_url = _field(eval_cfg, "user_base_url") or ""
    if not base_url:
        raise ValueError(f"τ²-bench with policy {policy_kind!r} needs an LLM user simulator: "
                         "set eval.user_base_url (an OpenAI-compatible endpoint) and "
                         "eval.user_model")
    model = _field(eval_cfg, "user_model") or ""
    if not model:
        raise ValueError("eval.user_base_url is set but eval.user_model is empty")
    endpoint = UserEndpoint(base_url, model, _field(eval_cfg, "user_api_key_env") or "",
                            float(_field(eval_cfg, "user_timeout_s") or 120.0),
                            float(_field(eval_cfg, "user_temperature") or 0.0))
    return lambda domain, task: OpenAIUser(endpoint)
