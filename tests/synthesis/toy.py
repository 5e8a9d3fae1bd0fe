"""A toy tool world for state-machine tests: a graph built from hand-written tool metadata, a
context with three items, and a scripted manager (each call's outcome decided by the test)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from prove_jax.synthesis.context import Context
from prove_jax.synthesis.graph import build_graph
from prove_jax.synthesis.records import Plan
from prove_jax.synthesis.settings import SynthConfig
from prove_jax.synthesis.values import ValueFiller
from prove_jax.tools.manager import CallResult

ITEM = {"type": "object", "properties": {"item_id": {"type": "string"},
                                         "name": {"type": "string"},
                                         "status": {"type": "string"}}}
LIST = {"type": "object", "properties": {"items": {"type": "array", "items": ITEM}}}


def _tool(name: str, read_only: bool, props: dict, required: list[str], out: dict,
          description: str, requires: tuple[str, ...] = ()) -> dict:
    return {"name": name, "description": description, "read_only": read_only,
            "input_schema": {"type": "object", "properties": props, "required": required},
            "output_schema": out, "meta": {"prove/requires": list(requires)} if requires else {}}


ID = {"type": "string", "description": "Item id, e.g. 'i_1'"}
TOOLS = {"toy": [
    _tool("list_items", True, {}, [], LIST, "List the items."),
    _tool("find_items", True, {"query": {"type": "string", "minLength": 1,
                                         "description": "Part of a name"}}, ["query"], LIST,
          "Find items by name."),
    _tool("get_item", True, {"item_id": ID}, ["item_id"], ITEM, "Get one item."),
    _tool("archive_item", False, {"item_id": ID, "note": {
        "type": "string", "maxLength": 40, "description": "Why"}}, ["item_id", "note"],
        ITEM, "Archive an active item."),
]}
ITEMS = [{"item_id": f"i_{k}", "name": name, "status": status}
         for k, (name, status) in enumerate([("Red lamp", "active"), ("Blue chair", "active"),
                                             ("Green desk", "archived")], start=1)]


def graph():
    return build_graph(TOOLS)


def context() -> Context:
    ctx = Context("toy", 0)
    ctx.add("list_items", {"items": ITEMS}, listed=True)
    return ctx


def cfg(**changes: Any) -> SynthConfig:
    return SynthConfig(**{"p_optional_arg": 0.0, **changes})


def plan(chain: list[str], **changes: Any) -> Plan:
    base = dict(index=0, id="t-0", block=0, world_seed=0, split="train", server="toy",
                variant="chain", info="complete", n_turns=2, chain=[f"toy.{c}" for c in chain],
                servers=["toy"])
    base.update(changes)
    return Plan(**base)


def filler(c: SynthConfig | None = None) -> ValueFiller:
    c = c or cfg()
    return ValueFiller(graph(), c.today, c.p_optional_arg)


@dataclass
class Episode:
    routes: dict = field(default_factory=lambda: {t["name"]: ("toy", t["name"])
                                                  for t in TOOLS["toy"]})


@dataclass
class ScriptedManager:
    """Outcome of each call: script[tool] is a list of functions args -> CallResult, used in
    turn (the last one repeats); tools without a script succeed with the toy data."""

    script: dict[str, list[Callable[[dict], CallResult]]] = field(default_factory=dict)
    calls: list[tuple[str, dict]] = field(default_factory=list)

    async def call(self, episode: Any, tool: str, args: dict) -> CallResult:
        self.calls.append((tool, args))
        queue = self.script.get(tool)
        if queue:
            fn = queue.pop(0) if len(queue) > 1 else queue[0]
            return fn(args)
        return ok(tool, args)


def ok(tool: str, args: dict) -> CallResult:
    if tool in ("list_items", "find_items"):
        q = args.get("query", "").lower()
        return CallResult("toy", tool, True, {"items": [i for i in ITEMS
                                                        if q in i["name"].lower()]})
    item = next((i for i in ITEMS if i["item_id"] == args.get("item_id")), ITEMS[0])
    return CallResult("toy", tool, True, dict(item))


def fail(tool: str) -> Callable[[dict], CallResult]:
    return lambda args: CallResult("toy", tool, False, error=f"{tool}: no", kind="execution_error")


def empty(tool: str) -> Callable[[dict], CallResult]:
    return lambda args: CallResult("toy", tool, True, {"items": []})


NAMES = {("toy", t["name"]): t["name"] for t in TOOLS["toy"]}
RNG = random.Random
