"""The state machine that turns one plan into an executed, grounded conversation.

    QUERY         plan the example (plan.py): variant, information level, chain, knobs
    TURN          propose the next call: fill its arguments (values.py); a proposal that does
                  not fit the tool's schema is regenerated
    EXECUTE       run it on the live session of the example's world (MCPManager episode):
                  SUCCESS, PARTIAL (ran, but returned nothing a later step needs) or FAILURE
    RESPONSE      recovery: retry with corrected arguments (other entities / values), else
                  switch to another tool the graph allows, else give up and end the chain early
    CONTINUATION  next step, or end; then the dialogue shape (dialogue.py): follow-up turns,
                  a clarification turn, or an abstention

The ground truth is the list of successful calls in execution order, with their real outputs;
nothing in it comes from text.
"""

from __future__ import annotations

import asyncio
import random
from collections import OrderedDict
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from prove_jax.synthesis.alternatives import Probe, probe, read_candidates
from prove_jax.synthesis.chainvalues import continues_story, internal_id, named_instead
from prove_jax.synthesis.context import Context, build_context
from prove_jax.synthesis.generators import check_value
from prove_jax.synthesis.graph import ToolGraph, ToolNode
from prove_jax.synthesis.lookups import add_lookups
from prove_jax.synthesis.plausible import implausible_call, user_of
from prove_jax.synthesis.records import Filled, Plan, StepRecord
from prove_jax.synthesis.seeds import rng_for
from prove_jax.synthesis.settings import SynthConfig
from prove_jax.synthesis.values import ValueFiller

__all__ = ["ContextCache", "Outcome", "Phase", "continues_story", "execute_chain",
           "named_instead",
           "payload_empty", "well_formed"]


class Phase(StrEnum):
    QUERY = "query"
    TURN = "turn"
    EXECUTE = "execute"
    RESPONSE = "response"
    CONTINUATION = "continuation"


class Outcome(StrEnum):
    SUCCESS = "success"
    PARTIAL = "partial"
    FAILURE = "failure"


class ContextCache:
    """One sampling context per (server, world seed), built once on a fresh session and shared
    by every conversation of the block (concurrent requests wait for the same build)."""

    def __init__(self, manager: Any, graph: ToolGraph, cfg: SynthConfig, size: int = 96):
        self.manager, self.graph, self.cfg, self.size = manager, graph, cfg, size
        self._tasks: OrderedDict[tuple[str, int], asyncio.Future] = OrderedDict()
        self.built = 0

    async def get(self, server: str, seed: int) -> Context:
        key = (server, seed)
        task = self._tasks.get(key)
        if task is None:
            rng = rng_for(self.cfg.seed, "context", server, seed)
            task = asyncio.ensure_future(build_context(
                self.manager, self.graph, server, seed, rng, self.cfg.context_gets_per_kind))
            self._tasks[key] = task
            self.built += 1
            while len(self._tasks) > self.size:  # rebuilt deterministically if needed again
                self._tasks.popitem(last=False)
        else:
            self._tasks.move_to_end(key)
        return await asyncio.shield(task)


def well_formed(node: ToolNode, args: dict) -> bool:
    props = node.properties
    return all(a in args for a in node.required) and all(
        a in props and check_value(v, props[a]) for a, v in args.items())


def payload_empty(payload: Any) -> bool:
    """A result that lists nothing (every list in it empty); empty is not an error."""
    if not isinstance(payload, dict):
        return False
    lists = [v for v in payload.values() if isinstance(v, list)]
    return bool(lists) and all(not v for v in lists)


@dataclass
class ChainRun:
    steps: list[StepRecord] = field(default_factory=list)
    trace: list[str] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=dict)

    def count(self, key: str, n: int = 1) -> None:
        self.stats[key] = self.stats.get(key, 0) + n


def _needed_later(graph: ToolGraph, node: ToolNode, rest: list[str]) -> bool:
    return any(e.kind == "explicit" and e.dst in rest for e in graph.succ[node.key])


def _implicit_deps(graph: ToolGraph, steps: list[StepRecord], node: ToolNode,
                   payload: Any = None) -> set[int]:
    """Earlier steps `node` must follow though it takes no value from them: a `requires`
    precondition (or an edge a labeler judged implicit), and a read-after-write pair only when
    the read (its live result `payload`) observes the write: it shows an id the write's
    arguments name or the id of a record the write returned (created or changed). A read that
    shows none of them needs nothing from the write (issue 23: ordering edges only where data
    or state flows), so a model that reads first is not marked out of order."""
    shown: set[str] | None = None
    out = set()
    for j, s in enumerate(steps):
        for e in graph.edges_between(s.node.key, node.key):
            if e.kind != "implicit":
                continue
            if e.rule == "read_after_write":
                shown = entity_ids(payload) if shown is None else shown
                if not shown & (entity_ids(s.args) | own_ids(s.payload)):
                    continue
            out.add(j)
            break
    return out


def entity_ids(value: Any, key: str = "", out: set[str] | None = None) -> set[str]:
    """Every string under an id key (`id`, `*_id`, or an item of `*_ids`) at any depth: the
    entities a call names or a result shows. Opaque ('pay_k3x9qa') or not ('WEB-6')."""
    out = set() if out is None else out
    if isinstance(value, dict):
        for k, v in value.items():
            entity_ids(v, k if isinstance(k, str) else "", out)
    elif isinstance(value, list):
        for v in value:
            entity_ids(v, key if key.endswith("_ids") else "", out)
    elif isinstance(value, str) and value and (key == "id" or key.endswith(("_id", "_ids"))):
        out.add(value)
    return out


def own_ids(payload: Any) -> set[str]:
    """The ids of the records a write returned: a record's own id is its first id field
    ('payment_id' of {payment_id, counterparty_id, method_id, ...}); records are the result,
    those directly under it ({"deleted": {...}}) and those it lists. The people, methods or
    categories a record refers to are not the write's entity."""
    records = payload if isinstance(payload, list) else [payload]
    for v in payload.values() if isinstance(payload, dict) else ():
        records = [*records, *(v if isinstance(v, list) else [v])]
    out = set()
    for item in records:
        if isinstance(item, dict):
            key = next((k for k in item if isinstance(k, str)
                        and (k == "id" or k.endswith("_id"))), None)
            if key is not None and isinstance(item[key], str) and item[key]:
                out.add(item[key])
    return out


def _alternative(graph: ToolGraph, run: ChainRun, queue: list[str], pos: int,
                 tried: set[str], rng: random.Random) -> str | None:
    """Another tool the graph lets follow what already ran (RESPONSE: switch tools)."""
    done = [s.node.key for s in run.steps if not s.lookup]
    server = graph.nodes[queue[pos]].server
    options = sorted({e.dst for k in done for e in graph.succ[k]
                      if graph.nodes[e.dst].server == server})
    if not done:
        options = sorted(n.key for n in graph.tools_of(server))
    options = [k for k in options if k not in queue and k not in tried]
    return rng.choice(options) if options else None


MAX_SWITCHES = 2  # other tools tried in place of failing ones, per chain


async def execute_chain(plan: Plan, graph: ToolGraph, cfg: SynthConfig, filler: ValueFiller,
                        manager: Any, episode: Any, ctxs: dict[str, Context],
                        names: dict[tuple[str, str], str], rng: random.Random) -> ChainRun:
    """Run the plan's chain on `episode` through TURN -> EXECUTE -> RESPONSE -> CONTINUATION."""
    machine = _Machine(graph, cfg, filler, manager, episode, ctxs, names, rng,
                       every_lookup=plan.info == "minimal" or rng.random() < cfg.p_name_held,
                       story=bool(plan.goal))
    run = machine.run
    queue = list(plan.chain)
    if plan.variant == "missing_function":
        queue = queue[:plan.hide_pos + 1]  # nothing after the hidden tool is ever asked for
    pos, switched = 0, 0
    tried: set[str] = set()
    while pos < len(queue):
        if await machine.run_step(queue, pos):
            run.trace.append(Phase.CONTINUATION.value)
            pos += 1
            continue
        # RESPONSE, last resort: another tool in this position, else end the chain here
        tried.add(queue[pos])
        # a goal's chain does not wander off to another tool: it ends where its story fails
        alt = _alternative(graph, run, queue, pos, tried, rng) \
            if switched < MAX_SWITCHES and not plan.goal else None
        if alt is None:
            run.count("gave_up")
            break
        switched += 1
        run.count("switched_tool")
        queue[pos] = alt
    return run


class _Machine:
    """One chain's run: what every state needs, and the states of one step."""

    def __init__(self, graph: ToolGraph, cfg: SynthConfig, filler: ValueFiller, manager: Any,
                 episode: Any, ctxs: dict[str, Context], names: dict[tuple[str, str], str],
                 rng: random.Random, *, every_lookup: bool, story: bool = False):
        self.graph, self.cfg, self.filler, self.manager = graph, cfg, filler, manager
        self.episode, self.ctxs, self.names, self.rng = episode, ctxs, names, rng
        self.every_lookup = every_lookup  # held ids are named and looked up too
        self.story = story  # a goal's chain: each step acts on what an earlier one found
        self.local = {route: exposed for exposed, route in episode.routes.items()}
        self.run = ChainRun(trace=[Phase.QUERY.value])

    async def call(self, node: ToolNode, args: dict) -> Any:
        self.run.count("calls")
        return await self.manager.call(self.episode, self.local[(node.server, node.name)], args)

    async def probe_call(self, node: ToolNode, args: dict) -> Any:
        """A candidate alternative's call (alternatives.py): a read, counted apart."""
        self.run.count("probe_calls")
        return await self.manager.call(self.episode, self.local[(node.server, node.name)], args)

    async def run_step(self, queue: list[str], pos: int) -> bool:
        """Attempts at queue[pos], retrying with corrected arguments; True once a call is in
        the truth, False when it cannot be filled or every attempt failed."""
        node = self.graph.nodes[queue[pos]]
        avoid: set[tuple[str, Any]] = set()  # grows in place: the filler reads it
        for attempt in range(self.cfg.max_retries + 1):
            self.run.trace.append(Phase.TURN.value)
            # after two failed attempts, values from earlier outputs are not proposed again,
            # except in a goal's chain, whose story is what earlier steps found
            filled = self.propose(node, avoid, derive=attempt < 2 or self.story)
            if filled is None:
                self.run.count("unfillable")
                return False
            if self.story and not continues_story(self.graph, node, filled, self.run.steps):
                # "research then buy" buys the stock it researched, not another one
                self.run.count("story_breaks")
                avoid |= _avoid({a: f for a, f in filled.items() if f.kind}, everything=True)
                continue
            for _ in named_instead(filled, self.run.steps, self.ctxs.get(node.server)):
                self.run.count("named_instead")
            # look-ups run first and rewrite the context ids they find as derived values
            lookups = await self._add_lookups(node, filled)
            unnamed = [a for a, f in filled.items() if internal_id(f)]
            if unnamed and attempt == 0:  # the user would have to quote an internal id
                self.run.count("unnamed_retries")
                avoid |= {(a, filled[a].value) for a in unnamed}
                continue
            args = {a: f.value for a, f in filled.items()}
            shown = [*self.run.steps, *lookups]
            world = self._context_records()
            odd = implausible_call(node.name, node.read_only, args, shown,
                                   user_of(shown, world), world)
            if odd is not None and attempt < self.cfg.max_retries:
                # a person would not ask for it (mail to themself): other values first
                self.run.count("implausible_retries")
                avoid |= _avoid({odd[0]: filled[odd[0]]}, everything=True)
                continue
            self.run.trace.append(Phase.EXECUTE.value)
            result = await self.call(node, args)
            self.run.trace.append(Phase.RESPONSE.value)
            retry = self.retry_reason(node, _outcome(result), attempt, queue[pos + 1:])
            if retry is not None:
                self.run.count(retry)
                self.run.count("retries")
                avoid |= _avoid(filled, everything=len(filled) == 1)
                continue
            probes = await probe(read_candidates(self.graph, node, args, result.payload),
                                 self.names, self.probe_call) if node.read_only else []
            self.accept(node, args, filled, lookups, result.payload, probes)
            return True
        return False

    def propose(self, node: ToolNode, avoid: set[tuple[str, Any]], *, derive: bool
                ) -> dict[str, Filled] | None:
        """TURN: arguments for `node`; a proposal that does not fit the tool's schema is
        proposed again (at most max_regenerate proposals in all) avoiding all its values.
        None when the filler finds none or no proposal fits."""
        for _ in range(self.cfg.max_regenerate):
            filled = self.filler.fill(node, self.run.steps, self.ctxs, self.rng, avoid,
                                      derive=derive)
            if filled is None or well_formed(node, {a: f.value for a, f in filled.items()}):
                return filled
            self.run.count("regenerated")
            avoid |= _avoid(filled, everything=True)
        return None

    def _context_records(self) -> list[dict]:
        """Every record the chain's sampled contexts hold (fields only)."""
        return [e.fields for ctx in self.ctxs.values() for kind in ctx.entities.values()
                for e in kind.values()]

    async def _add_lookups(self, node: ToolNode, filled: dict[str, Filled]
                           ) -> list[StepRecord]:
        return await add_lookups(self.graph, node, filled, self.run.steps,
                                 self.ctxs[node.server], self.names, self.call, self.rng,
                                 self.run.stats, self.probe_call, every=self.every_lookup)

    def retry_reason(self, node: ToolNode, outcome: Outcome, attempt: int, rest: list[str]
                     ) -> str | None:
        """RESPONSE: the stats key of a retry ("failed_calls", "partial_retries"), or None to
        keep the call. Only a read may be retried after it ran: a write that succeeded
        changed the state, so it stays in the truth whatever it returned; a read that found
        nothing is retried only while retries are left and a later step needs its output."""
        if outcome is Outcome.FAILURE:
            return "failed_calls"
        if (outcome is Outcome.PARTIAL and node.read_only and attempt < self.cfg.max_retries
                and _needed_later(self.graph, node, rest)):
            return "partial_retries"
        return None

    def accept(self, node: ToolNode, args: dict, filled: dict[str, Filled],
               lookups: list[StepRecord], payload: Any, probes: list[Probe]) -> None:
        """The call (after its look-ups) joins the truth, with the steps it depends on."""
        deps = {f.from_step for f in filled.values() if f.from_step is not None}
        self.run.steps.extend(lookups)
        deps |= _implicit_deps(self.graph, self.run.steps, node, payload)
        self.run.steps.append(StepRecord(node, self.names[(node.server, node.name)], args,
                                         filled, payload, sorted(deps), probes=probes))


def _outcome(result: Any) -> Outcome:
    if not result.ok:
        return Outcome.FAILURE
    return Outcome.PARTIAL if payload_empty(result.payload) else Outcome.SUCCESS


def _avoid(filled: dict[str, Filled], everything: bool) -> set[tuple[str, Any]]:
    """(argument, value) pairs not to propose again; enum choices are kept unless they are
    all there is to change."""
    out = set()
    for arg, f in filled.items():
        if f.source == "enum" and not everything:
            continue
        for v in f.value if isinstance(f.value, list) else [f.value]:
            out.add((arg, v))
    return out
