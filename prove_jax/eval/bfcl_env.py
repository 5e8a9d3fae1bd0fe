"""`BfclEnv`: one BFCL multi-turn entry as an `EvalEnv` (see `prove_jax.eval.dialogue`).

World: fresh instances of the entry's BFCL classes (`func_source_code.*`), loaded with the
entry's `initial_config` the way BFCL's `execute_multi_turn_func_call` loads them (a deep copy
of the class's config, `long_context` by category, stateless classes not loaded). They belong
to this env alone, so concurrent episodes of one entry cannot see each other's state.

Calls: BFCL builds `"f(a=1)"` strings and `eval`s them against module globals; here a call is
dispatched as `getattr(instance, name)(**arguments)` on the instance owning the method (BFCL's
later-class-wins rule). A function withheld until a later turn (miss_func) is not offered, but
it runs if the model names it, as in BFCL, whose executor runs any method of the entry's
classes (its own ground truth relies on that once: multi_turn_miss_func_49 calls `tail` a
turn before revealing it). Results are rendered as BFCL
renders them (str as is, dict as JSON, else `str()`); a Python exception becomes BFCL's
"Error during execution: ..." text. Checked before running, each answered with an error the
model reads (never an exception): an unknown function ("name 'f' is not defined", as BFCL's
eval reports it) and arguments that do not bind to the method's signature
(Python's own TypeError text; BFCL's eval fails the same way, before the method runs).
Argument types are NOT checked against the docs: BFCL runs such calls, and its own ground
truth sometimes disagrees with its docs (`close_ticket(ticket_id='ticket_001')` for an
integer), so a mistyped call runs and fails or succeeds as the method decides.

User turns: BFCL's `question` turns in order. On a miss_func turn (empty question) the withheld
functions are revealed with BFCL's prompt for added functions, their schemas as JSON.
"""

from __future__ import annotations

import copy
import inspect
import json
from typing import Any

from prove_jax.eval.bfcl_data import BfclEntry, bfcl_class, method_owner, tool_schema
from prove_jax.eval.dialogue import ToolOutcome, UserTurn

__all__ = ["BfclEnv", "render_result"]


def render_result(result: Any) -> str:
    """A method's return value as BFCL's `execute_multi_turn_func_call` renders it."""
    if type(result) is str:
        return result
    if type(result) is dict:
        try:
            return json.dumps(result)
        except (TypeError, ValueError):
            return str(result)
    return str(result)


class BfclEnv:
    """One episode of one BFCL entry (see the module docstring)."""

    def __init__(self, entry: BfclEntry, system_prompt: str | None = None):
        from bfcl_eval.constants.executable_backend_config import STATELESS_CLASSES

        if 0 in entry.missed_functions:
            raise ValueError(f"BFCL {entry.id}: functions withheld at the first turn")
        self.entry, self.system_prompt = entry, system_prompt
        config = entry.raw.get("initial_config") or {}
        self._instances: dict[str, Any] = {}
        for class_name in entry.involved_classes:
            instance = bfcl_class(class_name)()
            if class_name not in STATELESS_CLASSES:
                instance._load_scenario(copy.deepcopy(config.get(class_name, {})),
                                        long_context=entry.long_context)
            self._instances[class_name] = instance
        self._owner = method_owner(entry.involved_classes)
        self._known = {doc["name"] for doc in entry.functions} | {
            doc["name"] for docs in entry.missed_functions.values() for doc in docs}
        self._turn = 0

    # ------------------------------------------------------------------ EvalEnv
    def tools(self) -> list[dict]:
        return [tool_schema(doc) for doc in self.entry.functions]

    def callable_names(self) -> set[str]:
        """Offered and withheld functions alike: BFCL runs whichever the model names."""
        return set(self._known)

    def first_messages(self) -> list[dict]:
        system = [{"role": "system", "content": self.system_prompt}] if self.system_prompt else []
        return system + [{"role": m["role"], "content": m["content"]}
                         for m in self.entry.questions[0]]

    async def call(self, name: str, arguments: dict) -> ToolOutcome:
        return self.execute(name, arguments)

    async def user_reply(self, assistant_text: str, user_turn: int) -> UserTurn | None:
        if user_turn != self._turn:
            raise ValueError(f"BFCL {self.entry.id}: asked to follow user turn {user_turn}, "
                             f"but turn {self._turn} is the latest")
        turn = user_turn + 1
        if turn >= len(self.entry.questions):
            return None
        self._turn = turn
        revealed = self.entry.missed_functions.get(turn)
        if revealed is not None:
            from bfcl_eval.constants.default_prompts import (
                DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_PROMPTING as ADDED_FUNCTIONS,
            )

            schemas = tuple(tool_schema(doc) for doc in revealed)
            return UserTurn(ADDED_FUNCTIONS.format(functions=json.dumps(list(schemas))),
                            schemas)
        messages = self.entry.questions[turn]
        if not messages:
            raise ValueError(f"BFCL {self.entry.id}: user turn {turn} is empty and reveals no "
                             "functions")
        return UserTurn("\n\n".join(m["content"] for m in messages))

    # ------------------------------------------------------------------ calls
    def instance(self, class_name: str) -> Any:
        """This episode's instance of a BFCL class (tests, state inspection)."""
        return self._instances[class_name]

    def execute(self, name: str, arguments: Any) -> ToolOutcome:
        """Run one call; every failure is an outcome, never an exception."""
        if not isinstance(name, str) or name not in self._known or name not in self._owner:
            return ToolOutcome("unknown_tool", f"Error during execution: name {name!r} is not "
                                               "defined")
        if not isinstance(arguments, dict):
            return ToolOutcome("schema_error", f"Error during execution: {name}() arguments "
                                               f"must be an object, got "
                                               f"{type(arguments).__name__}")
        method = getattr(self._instances[self._owner[name]], name)
        signature = inspect.signature(method)
        unexpected = [k for k in arguments if k not in signature.parameters]
        if unexpected:  # named first: a misspelt argument also reads as a missing one
            return ToolOutcome("schema_error", f"Error during execution: {name}() got an "
                                               f"unexpected keyword argument {unexpected[0]!r}")
        try:
            signature.bind(**arguments)
        except TypeError as err:
            return ToolOutcome("schema_error", f"Error during execution: {name}() {err}")
        try:  # the method may keep what it is given: never let it alias the caller's record
            result = method(**copy.deepcopy(arguments))
        except Exception as err:
            return ToolOutcome("execution_error", f"Error during execution: {err}")
        # BFCL's classes report a refused operation as {"error": ...}; it still ran
        failed = type(result) is dict and set(result) == {"error"}
        return ToolOutcome("execution_error" if failed else "ok", render_result(result))
