"""τ²-bench (airline, retail, telecom) as an `EvalEnv`: tau2's own environments, prompts and
message types behind our dialogue loop.

Everything that defines the benchmark comes from the installed `tau2` package: tasks and splits
(its domain loaders), a fresh `Environment` per episode (its constructors, initial state applied
as its orchestrator does), tool schemas (`Tool.openai_schema`), tool execution
(`Environment.get_response`, so results and errors read exactly as tau2 renders them), and the
prompts. The prompts live in modules that import `litellm` at load time, which this project
does not install; they are read from those modules' source with `ast` instead of being
imported (or copied), so a tau2 upgrade changes them here too.

The episode is recorded as tau2 messages (`AssistantMessage` with `tool_calls`, `ToolMessage`,
`UserMessage`) in `Tau2Env.messages`, which tau2's evaluators replay for scoring
(`prove_jax.eval.tau2_score`). Each executed call is its own assistant message: the loop hands
calls over one at a time, and tau2's evaluators read calls in order regardless of grouping.

Who speaks for the user is pluggable (`Tau2User`, see `prove_jax.eval.tau2_user`). tau2's
conversation opens with a fixed agent greeting that the user answers; that first user message
may need an LLM call, so `await env.start()` must run before the loop asks `first_messages()`.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import itertools
import re
import threading
from collections.abc import Callable, Collection
from functools import cache
from typing import Any, Protocol

from loguru import logger
from pydantic import ValidationError
from tau2.data_model.message import AssistantMessage, Message, ToolCall, ToolMessage, UserMessage
from tau2.data_model.tasks import Action, Task
from tau2.environment.environment import Environment
from tau2.user.base import OUT_OF_SCOPE, STOP, TRANSFER
from tau2.utils import DATA_DIR

from prove_jax.eval.dialogue import ToolOutcome, UserTurn

__all__ = ["DOMAINS", "Tau2Env", "Tau2User", "agent_system_prompt", "environment_constructor",
           "episode_id", "gold_segments", "greeting", "load_tasks", "user_system_prompt",
           "visible_text"]

# tau2 logs every tool response at DEBUG through loguru; at eval scale that floods the output.
logger.disable("tau2")

DOMAINS = ("airline", "retail", "telecom")
_USER_STOP_TOKENS = (STOP, TRANSFER, OUT_OF_SCOPE)


def _domain_module(domain: str) -> Any:
    if domain not in DOMAINS:
        raise ValueError(f"unknown τ² domain {domain!r}; known: {', '.join(DOMAINS)}")
    return importlib.import_module(f"tau2.domains.{domain}.environment")


def environment_constructor(domain: str) -> Callable[..., Environment]:
    """tau2's environment constructor for a domain (the one its registry names `domain`:
    telecom with the manual tech-support policy)."""
    module = _domain_module(domain)
    return module.get_environment_manual_policy if domain == "telecom" else module.get_environment


def load_tasks(domain: str, limit: int | None = None, split: str | None = None,
               task_ids: Collection[str] | None = None) -> list[Task]:
    """The domain's tasks through tau2's loader, in its order; `split` None is tau2's default
    evaluation set ("base": every airline and retail task, telecom's 114 of 2285; telecom also
    has "small" and "full", every domain "train" and "test"). `task_ids` keeps those tasks
    (tau2 ids), then `limit` the first ones."""
    tasks = _domain_module(domain).get_tasks(split or "base")
    if task_ids is not None:
        missing = set(task_ids) - {t.id for t in tasks}
        if missing:
            raise ValueError(f"τ² {domain} ({split or 'base'}): no task ids {sorted(missing)}")
        tasks = [t for t in tasks if t.id in set(task_ids)]
    if limit is not None:
        if limit < 1:
            raise ValueError(f"τ² {domain}: limit must be >= 1, got {limit}")
        tasks = tasks[:limit]
    return tasks


def episode_id(domain: str, task: Task) -> str:
    """The dialogue task_id of a τ² task: unique across domains (tau2 ids are per domain)."""
    return f"{domain}/{task.id}"


# ---------------------------------------------------------------------------- tau2's prompts
# CPython's ast.parse is not thread-safe (concurrent calls can fail with "SystemError: AST
# constructor recursion depth mismatch"), and envs are built in worker threads: parse under a
# lock, once per text.
_AST_LOCK = threading.Lock()


@cache
def _source_text(module: str, name: str) -> str:
    """A module-level string of a tau2 module, read from its source without importing it: a
    literal, a literal's `.strip()`, or the `content=` literal of a message constructor."""
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        raise RuntimeError(f"τ²: module {module} is not installed")
    with open(spec.origin, encoding="utf-8") as f, _AST_LOCK:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == name for t in node.targets):
            value = node.value
            if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
                    and value.func.attr == "strip" and isinstance(value.func.value, ast.Constant):
                return str(value.func.value.value).strip()
            if isinstance(value, ast.Call):
                value = next((k.value for k in value.keywords if k.arg == "content"), value)
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                return value.value
            break
    raise RuntimeError(f"τ²: no string constant {name} in {spec.origin} (tau2 changed shape; "
                       "update prove_jax.eval.tau2_env)")


@cache
def _agent_templates() -> tuple[str, str]:
    return (_source_text("tau2.agent.llm_agent", "SYSTEM_PROMPT"),
            _source_text("tau2.agent.llm_agent", "AGENT_INSTRUCTION"))


def agent_system_prompt(policy: str) -> str:
    """The system prompt tau2's LLMAgent gives the agent for a domain policy."""
    template, instruction = _agent_templates()
    return template.format(agent_instruction=instruction, domain_policy=policy)


@cache
def greeting() -> str:
    """The agent's fixed first message in every tau2 conversation."""
    return _source_text("tau2.orchestrator.orchestrator", "DEFAULT_FIRST_AGENT_MESSAGE")


def user_system_prompt(instructions: str, with_tools: bool) -> str:
    """tau2's user-simulator system prompt: its global guidelines (the tool-using variant when
    the user has tools, as in telecom) and the task's scenario."""
    name = "simulation_guidelines_tools.md" if with_tools else "simulation_guidelines.md"
    guidelines = (DATA_DIR / "tau2" / "user_simulator" / name).read_text(encoding="utf-8")
    template = _source_text("tau2.user.user_simulator", "SYSTEM_PROMPT")
    return template.format(global_user_sim_guidelines=guidelines, instructions=instructions)


# ---------------------------------------------------------------------------- gold plan
def gold_segments(task: Task) -> list[tuple[list[Action], list[Action]]]:
    """The task's gold actions cut into conversation rounds: (agent actions, then the user
    actions that follow them). Airline and retail have one round with no user actions;
    telecom alternates (the agent fixes the account, the user acts on the phone)."""
    actions = list((task.evaluation_criteria and task.evaluation_criteria.actions) or [])
    rounds: list[tuple[list[Action], list[Action]]] = [([], [])]
    for action in actions:
        agent, user = rounds[-1]
        if action.requestor == "user":
            user.append(action)
        elif user:  # an agent action after user actions opens the next round
            rounds.append(([action], []))
        else:
            agent.append(action)
    return rounds


_THINK = re.compile(r"<think>.*?</think>", re.DOTALL)


def visible_text(assistant_text: str) -> str:
    """What the user sees of an assistant turn: reasoning (<think>…</think>) removed, as tau2
    keeps a reasoning model's thoughts out of the message content."""
    text = _THINK.sub("", assistant_text)
    if "</think>" in text:  # a template that opens <think> in the prompt leaves only the close
        text = text[text.rindex("</think>") + len("</think>"):]
    return text.strip()


# ---------------------------------------------------------------------------- the env
class Tau2User(Protocol):
    """Speaks for the user of one episode (one instance per episode)."""

    async def first_message(self, env: Tau2Env) -> str: ...

    async def reply(self, env: Tau2Env, assistant_text: str, user_turn: int) -> str: ...


class Tau2Env:
    """One τ² episode: a fresh tau2 environment in the task's initial state, and its user.

    `messages` is the episode as tau2 messages; `tool_errors` counts failed tool calls, the
    agent's and the user's (tau2 ends an episode after `max_errors` of them, reward 0)."""

    def __init__(self, domain: str, task: Task, user: Tau2User):
        self.domain, self.task, self.user = domain, task, user
        self.environment: Environment = environment_constructor(domain)()
        state = task.initial_state
        if state is not None and state.message_history:
            raise ValueError(f"τ² {domain}/{task.id}: tasks that start from a message history "
                             "are not supported")
        # The orchestrator's initialisation: initial data, then initial actions, then a sync.
        self.environment.set_state(
            initialization_data=state.initialization_data if state else None,
            initialization_actions=state.initialization_actions if state else None,
            message_history=[])
        self._tools = {t.name: t for t in self.environment.get_tools()}
        self.user_tools = (self.environment.get_user_tools()
                           if self.environment.user_tools is not None else [])
        self.messages: list[Message] = [AssistantMessage(role="assistant", content=greeting())]
        self.tool_errors = 0
        self.done = False  # the user ended the conversation
        self._ids = itertools.count()
        self._first: str | None = None

    # -- EvalEnv
    def tools(self) -> list[dict]:
        return [t.openai_schema for t in self._tools.values()]

    async def start(self) -> None:
        """Ask the user for its first message (it answers tau2's greeting)."""
        self._first = self._user_says(await self.user.first_message(self))

    def first_messages(self) -> list[dict]:
        if self._first is None:
            raise RuntimeError("Tau2Env: await env.start() before the dialogue (the user's "
                               "first message may need an LLM call)")
        return [{"role": "system",
                 "content": agent_system_prompt(self.environment.get_policy())},
                {"role": "assistant", "content": greeting()},
                {"role": "user", "content": self._first}]

    async def call(self, name: str, arguments: dict) -> ToolOutcome:
        if not isinstance(arguments, dict):
            return ToolOutcome("schema_error", f"Error: {name}: arguments must be a JSON "
                                               f"object, got {type(arguments).__name__}")
        call = ToolCall(id=f"call_{next(self._ids)}", name=name, arguments=arguments,
                        requestor="assistant")
        try:
            result = self.environment.get_response(call)
        except Exception as err:  # tau2 could not even render the result; nothing is recorded
            self.tool_errors += 1
            return ToolOutcome("execution_error", f"Error: {type(err).__name__}: {err}")
        self.messages += [AssistantMessage(role="assistant", tool_calls=[call]), result]
        if not result.error:
            return ToolOutcome("ok", result.content or "")
        self.tool_errors += 1
        return ToolOutcome(self._error_kind(name, arguments), result.content or "")

    async def user_reply(self, assistant_text: str, user_turn: int) -> UserTurn | None:
        text = visible_text(assistant_text)
        self.messages.append(AssistantMessage(role="assistant", content=text))
        if self.done:
            return None
        said = self._user_says(await self.user.reply(self, text, user_turn))
        return None if self.done else UserTurn(said)

    # -- for user simulators
    def user_call(self, name: str, arguments: dict) -> ToolMessage:
        """Run one of the user's own tools (telecom: the phone) and record it as tau2 does."""
        call = ToolCall(id=f"call_{next(self._ids)}", name=name, arguments=arguments,
                        requestor="user")
        result = self.environment.get_response(call)
        self.messages += [UserMessage(role="user", tool_calls=[call]), result]
        self.tool_errors += result.error  # tau2's error cap counts the user's failures too
        return result

    # -- internals
    def _user_says(self, text: str) -> str:
        self.messages.append(UserMessage(role="user", content=text))
        if any(token in text for token in _USER_STOP_TOKENS):
            self.done = True
        return text

    def _error_kind(self, name: str, arguments: dict) -> str:
        """Which of our outcome kinds a failed call is (tau2 itself only flags `error`)."""
        tool = self._tools.get(name)
        if tool is None:
            return "unknown_tool"
        if set(arguments) - set(tool.params.model_fields):
            return "schema_error"
        try:
            tool.params.model_validate(arguments)
        except ValidationError:
            return "schema_error"
        return "execution_error"
