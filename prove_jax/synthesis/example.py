"""One example end to end: plan (QUERY), execute the chain on a live session (TURN, EXECUTE,
RESPONSE), shape the dialogue (CONTINUATION), verbalize it, and assemble the dataset row."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Protocol

from prove_jax.synthesis import phrases
from prove_jax.synthesis.alternatives import select_alternatives
from prove_jax.synthesis.dialogue import (
    DialogueSpec,
    Shaped,
    StepSpec,
    TurnSpec,
    foreign_spec,
    shape,
)
from prove_jax.synthesis.graph import ToolGraph
from prove_jax.synthesis.machine import ContextCache, Phase, execute_chain
from prove_jax.synthesis.parallel import parallel_groups
from prove_jax.synthesis.plan import sample_plan
from prove_jax.synthesis.plausible import implausible
from prove_jax.synthesis.quality import quoted_internal_ids
from prove_jax.synthesis.records import Conversation, Drop, Plan, StepRecord
from prove_jax.synthesis.resolution import unresolved
from prove_jax.synthesis.routes import exposed_names
from prove_jax.synthesis.schemas import strip_enums
from prove_jax.synthesis.seeds import rng_for
from prove_jax.synthesis.settings import SynthConfig
from prove_jax.synthesis.values import ValueFiller

__all__ = ["Engine", "Verbalizer", "synthesize_one"]


class Verbalizer(Protocol):
    name: str

    async def render(self, spec: DialogueSpec, rng: random.Random,
                     steps: list[StepRecord] | None = None) -> tuple[str, list[str]]: ...


@dataclass
class Engine:
    """What every example of a run shares."""

    cfg: SynthConfig
    manager: Any
    graph: ToolGraph
    servers: list[str]
    verbalizer: Verbalizer
    contexts: ContextCache = field(init=False)
    filler: ValueFiller = field(init=False)
    _names: dict[tuple[str, ...], dict] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        self.contexts = ContextCache(self.manager, self.graph, self.cfg)
        self.filler = ValueFiller(self.graph, self.cfg.today, self.cfg.p_optional_arg)

    def names(self, servers: list[str]) -> dict[tuple[str, str], str]:
        key = tuple(servers)
        if key not in self._names:
            self._names[key] = exposed_names(self.manager, servers)
        return self._names[key]


def _offered(eng: Engine, plan: Plan, names: dict, hidden: str | None) -> list[Any]:
    """The task's tools: every policy tool of the chain's servers (minus a hidden one) and the
    distractors; full schemas without enums when the example strips them."""
    graph = eng.graph
    chain_servers = [s for s in plan.servers if s not in
                     {graph.nodes[k].server for k in plan.distractors}]
    hidden_name = graph.nodes[hidden].name if hidden else None
    out: list[Any] = []
    for server in chain_servers:
        for schema in eng.manager.policy_tools(server):
            tool = schema["function"]["name"]
            if hidden and f"{server}.{tool}" == hidden:
                continue
            out.append(_tool(schema, names[(server, tool)], plan.enum_strip))
    for key in plan.distractors:
        node = graph.nodes[key]
        if node.name == hidden_name:
            continue  # the same capability under another service would undo the hiding
        schema = next(s for s in eng.manager.policy_tools(node.server)
                      if s["function"]["name"] == node.name)
        out.append(_tool(schema, names[(node.server, node.name)], plan.enum_strip))
    return out


def _tool(schema: dict, exposed: str, strip: bool) -> Any:
    if not strip:
        return exposed
    return strip_enums({"type": "function", "function": {**schema["function"], "name": exposed}})


def _mentions(spec: DialogueSpec) -> list[dict]:
    out = []
    for turn in spec.turns:
        for step in turn.steps:
            for a in step.args:
                if a.how in ("id", "entity") and a.entity_id:
                    out.append({"kind": a.via or a.kind, "id": a.entity_id, "label": a.label,
                                "how": a.how, "server": step.server}
                               | ({"of": a.kind} if a.via else {}))
                elif a.how == "selector":
                    out.append({"kind": a.kind, "value": a.value, "pairs": a.pairs,
                                "how": a.how, "server": step.server})
    return out


async def _unsatisfiable(eng: Engine, plan: Plan, rng: random.Random) -> Shaped:
    specs: list[StepSpec] = []
    intended = []
    for key in plan.foreign:
        node = eng.graph.nodes[key]
        # the records asked about come from the foreign server's own world, so the user names
        # them as a person would ("my expense at Metro Transit", not "an expense"); that
        # server is not in the episode, so nothing of it is callable
        ctx = await eng.contexts.get(node.server, plan.world_seed)
        filled = {}
        for arg in node.required:
            value = eng.filler._one(node, arg, node.properties.get(arg, {}), [],
                                    {node.server: ctx}, ctx, rng, frozenset(), filled, False)
            if value is not None:
                filled[arg] = value
        spec = foreign_spec(node, filled)
        if any(a.how == "vague" for a in spec.args):
            continue  # "navigate my vehicle to a place": a person names the place
        specs.append(spec)
        intended.append({"name": f"{node.server}.{node.name}",
                         "arguments": {a: f.value for a, f in filled.items()}})
    if not specs:
        text = rng.choice(phrases.OUT_OF_SCOPE)
        specs = [StepSpec("out_of_scope", "", text, False, [])]
        intended = [{"name": "out_of_scope", "arguments": {"request": text}}]
    turns = [TurnSpec("request", [specs[0]])]
    for t in range(1, max(plan.n_turns, 2)):
        turns.append(TurnSpec("request", [specs[t]], follow_up=True) if t < len(specs)
                     and t == plan.n_turns - 1 else TurnSpec("insist"))
    spec = DialogueSpec(turns, plan.persona, plan.servers, eng.cfg.reference_date,
                        "abstention")
    return Shaped("abstention", plan.info, [], [], spec, None, intended)


async def synthesize_one(index: int, eng: Engine) -> Conversation | Drop:
    """Example `index` (its own rng: same seed and index, same example)."""
    cfg, graph = eng.cfg, eng.graph
    rng = rng_for(cfg.seed, "example", index)
    plan = sample_plan(index, cfg, graph, eng.servers, rng, len(phrases.PERSONAS))
    names = eng.names(plan.servers)
    trace, stats = [Phase.QUERY.value], {}
    if plan.variant == "unsatisfiable":
        shaped: Shaped | str = await _unsatisfiable(eng, plan, rng)
    elif not plan.chain:
        return Drop(index, plan.id, "no_chain", plan.server)
    else:
        chain_servers = list(dict.fromkeys(graph.nodes[k].server for k in plan.chain))
        ctxs = {s: await eng.contexts.get(s, plan.world_seed) for s in chain_servers}
        episode = await eng.manager.open_episode(chain_servers, plan.world_seed)
        try:
            run = await execute_chain(plan, graph, cfg, eng.filler, eng.manager, episode, ctxs,
                                      names, rng)
        finally:
            await eng.manager.close_episode(episode)
        trace, stats = run.trace, run.stats
        shaped = shape(plan, run.steps, cfg.min_chain, cfg.max_turns, rng, plan.servers,
                       cfg.reference_date)
    if not isinstance(shaped, str) and not \
            cfg.min_turns <= len(shaped.spec.turns) <= cfg.max_turns:
        shaped = "turns_out_of_range"  # e.g. min_turns above what a short chain can split into
    if isinstance(shaped, str):
        return Drop(index, plan.id, shaped, f"{plan.server}: {' -> '.join(plan.chain)}")
    problem = unresolved(shaped.spec, shaped.steps)
    if problem is not None:
        return Drop(index, plan.id, "unresolved_reference", problem)
    problem = implausible(shaped.steps)
    if problem is not None:
        return Drop(index, plan.id, "implausible", problem)
    system, turns = await eng.verbalizer.render(shaped.spec, rng, shaped.steps)
    steps = shaped.steps
    quoted = quoted_internal_ids(turns, [s.args for s in steps]) if cfg.drop_internal_ids \
        else []
    if quoted:
        return Drop(index, plan.id, "quotes_internal_id",
                    f"{shaped.kind}: {', '.join(dict.fromkeys(quoted))}")
    select_alternatives(steps, shaped.hidden)
    edges = [[j, g] for g, s in enumerate(steps) for j in s.deps]
    stats = {**stats, "variant": plan.variant, "info": shaped.info,
             "lookups": sum(s.lookup for s in steps), "gap": shaped.gap}
    return Conversation(plan, shaped.kind, steps, edges, turns, system,
                        _offered(eng, plan, names, shaped.hidden), shaped.step_turn,
                        _mentions(shaped.spec), [*trace, Phase.CONTINUATION.value], stats,
                        shaped.intended,
                        groups=parallel_groups(steps, shaped.step_turn) if steps else None)
