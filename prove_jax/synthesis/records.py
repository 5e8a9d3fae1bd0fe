"""The records the state machine passes between its states and to the verbalizer and writer."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from prove_jax.synthesis.context import Entity
from prove_jax.synthesis.graph import ToolNode

__all__ = ["Conversation", "Drop", "Filled", "Plan", "StepRecord"]


@dataclass
class Filled:
    """One argument value and where it came from."""

    value: Any
    source: str  # derived (an earlier step's output) | context | enum | generated
    kind: str | None = None  # entity kind of the value
    entity: Entity | None = None  # the sampled entity a context value names
    from_step: int | None = None  # derived: the step whose output holds it
    element: dict | None = None  # derived from an array: the element it was picked from
    siblings: int = 1  # derived: how many elements that array had
    others: list | None = field(default=None, repr=False)  # derived: that array's elements

    @property
    def user_sourced(self) -> bool:
        """Must the user state it (the model cannot get it from a tool output)?"""
        return self.source != "derived"


@dataclass
class StepRecord:
    """One executed, successful call of the conversation's ground truth."""

    node: ToolNode
    name: str  # the exposed name the policy sees in this task
    args: dict[str, Any]
    filled: dict[str, Filled]
    payload: Any
    deps: list[int] = field(default_factory=list)
    lookup: bool = False  # a look-up the minimal information level added (not verbalized)
    part: int = 0  # index of the user turn that asks for it
    # read steps: other reads called on the same state (alternatives.Probe), until selection
    probes: list[Any] = field(default_factory=list, repr=False)
    alternatives: list[dict] = field(default_factory=list)  # verified: {name, arguments}

    def call(self) -> dict:
        return {"name": self.name, "arguments": self.args}

    def truth_call(self) -> dict:
        """The call as the truth records it: with its alternatives, if any."""
        out = self.call()
        if self.alternatives:
            out["alternatives"] = [dict(a) for a in self.alternatives]
        return out


@dataclass
class Plan:
    """What the query state decided before anything runs."""

    index: int
    id: str
    block: int
    world_seed: int
    split: str  # train | test
    server: str
    variant: str  # chain | unsatisfiable | missing_function
    info: str  # complete | missing | minimal
    n_turns: int
    chain: list[str] = field(default_factory=list)  # node keys, in order
    servers: list[str] = field(default_factory=list)  # the row's servers (routing order)
    distractors: list[str] = field(default_factory=list)  # node keys of foreign tools
    enum_strip: bool = False
    missing_first: bool = True  # missing info: the gap is in the first user turn
    hide_pos: int = -1  # missing_function: chain position of the hidden tool
    foreign: list[str] = field(default_factory=list)  # unsatisfiable: what the user asks for
    persona: int = 0
    goal: str = ""  # the workflow pattern the chain follows ("" for a walk)


@dataclass
class Conversation:
    """A finished example: the row and what the writer and validator need to know about it."""

    plan: Plan
    kind: str
    steps: list[StepRecord]
    edges: list[list[int]]
    user_turns: list[str]
    system_prompt: str
    tools: list[Any]
    step_turn: list[int]  # user turn index at which each truth step can first be made
    mentions: list[dict]  # entities named in the user turns: {kind, id, label, how}
    trace: list[str]  # states visited
    stats: dict[str, Any]
    intended: list[dict] = field(default_factory=list)  # abstention: what was asked for
    # server -> clock-free state hash after replaying the truth, for the servers it writes
    end_state: dict[str, str] = field(default_factory=dict)
    # the truth's steps as groups of `steps` indices (parallel.py); None: one call per step
    groups: list[list[int]] | None = None

    def grouping(self) -> tuple[list[list[int]], dict[int, int]]:
        """(groups, step index -> truth step index)."""
        groups = self.groups or [[i] for i in range(len(self.steps))]
        return groups, {i: g for g, members in enumerate(groups) for i in members}

    def truth(self) -> dict:
        groups, where = self.grouping()
        edges = sorted({(where[a], where[b]) for a, b in self.edges if where[a] != where[b]})
        out = {"steps": [[self.steps[i].truth_call() for i in m] for m in groups],
               "edges": [list(e) for e in edges], "kind": self.kind}
        if self.end_state:
            out["end_state"] = dict(sorted(self.end_state.items()))
        return out

    def row(self) -> dict:
        return {"id": self.plan.id, "servers": list(self.plan.servers),
                "user_turns": list(self.user_turns), "truth": self.truth(),
                "system_prompt": self.system_prompt, "tools": list(self.tools),
                "seed": self.plan.world_seed}


@dataclass(frozen=True)
class Drop:
    """An example that did not make it, and why."""

    index: int
    id: str
    reason: str
    detail: str = ""
