"""A small domain for the servers/core tests: a seeded table, a running total, and a tool that
makes several changes across tables and vars before it fails (or not) on request."""

from __future__ import annotations

import random
from typing import Annotated, Literal, TypedDict

from servers.core.domain import Domain
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State
from servers.core.world import World


class Ids(TypedDict):
    ids: list[str]


class Item(TypedDict):
    id: str
    v: int
    owner: str


class Total(TypedDict):
    total: float


class Done(TypedDict):
    ok: bool


def build(s: State, world: World, rng: random.Random) -> None:
    s.table("items", kind="item", hint="list_items shows the ids").load(
        [{"id": f"it_{i}", "v": rng.randint(0, 999), "owner": world.user.id}
         for i in range(1, 6)])
    s.set_var("total", 0.0)
    s.set_var("reshuffled", ["it_1", "it_2"])  # sealed with the rest: the ids tools act on


TOY = Domain("toy", "A toy domain for the core tests.", build)


@TOY.tool(read_only=True)
def list_items(s: State) -> Ids:
    """Ids of every item, in the table's order."""
    return {"ids": s["items"].ids()}


@TOY.tool(read_only=True)
def get_item(s: State, item_id: Annotated[str, Arg("Item id from list_items")]) -> Item:
    """One item by id."""
    return dict(s["items"].get(item_id))  # type: ignore[return-value]


@TOY.tool(read_only=False)
def add(s: State, amount: Annotated[float, Arg("Amount to add", minimum=0.01, maximum=1000)]
        ) -> Total:
    """Add an amount to the running total."""
    s.set_var("total", s.var("total") + amount)
    return {"total": s.var("total")}


@TOY.tool(read_only=False)
def reshuffle(s: State, fail: Annotated[Literal["no", "tool_error", "crash"],
                                        Arg("How the call ends after its changes")] = "no"
              ) -> Done:
    """Update the first item, delete the second, insert a new item and bump the total; then
    maybe fail."""
    items = s["items"]
    first, second = s.var("reshuffled")
    items.update(first, v=-1)
    items.delete(second)
    items.insert({"id": s.next_id("new"), "v": 0, "owner": "nobody"})
    s.set_var("total", s.var("total") + 1.0)
    if fail == "tool_error":
        raise ToolError("refused on purpose")
    if fail == "crash":
        raise RuntimeError("boom")
    return {"ok": True}
