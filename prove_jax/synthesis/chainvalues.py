"""How a chain step's values stand to what came before: a goal's story continues only with
what earlier steps found (`continues_story`), and a value a user could only quote, or would
name through a chain of records, is named instead (`named_instead`)."""

from __future__ import annotations

from prove_jax.synthesis.context import Context
from prove_jax.synthesis.dialogue import arg_spec
from prove_jax.synthesis.graph import ToolGraph, ToolNode
from prove_jax.synthesis.held import user_holds
from prove_jax.synthesis.records import Filled, StepRecord
from prove_jax.synthesis.schemas import LABEL_FIELDS

__all__ = ["continues_story", "internal_id", "named_instead"]


def continues_story(graph: ToolGraph, node: ToolNode, filled: dict[str, Filled],
                    steps: list[StepRecord]) -> bool:
    """Does the call act on what an earlier step of the chain found or made, where the graph
    lets an earlier step's output feed it? A step no earlier output can feed (freeze the
    card, then list transactions) continues the story as it is."""
    earlier = [i for i, s in enumerate(steps) if not s.lookup]
    required = set(node.required)  # only required arguments are taken from outputs
    if not any(e.kind == "explicit" and any(a in required for _, a in e.via) for i in earlier
               for e in graph.edges_between(steps[i].node.key, node.key)):
        return True
    return any(f.source == "derived" and f.from_step in earlier for f in filled.values())


def named_instead(filled: dict[str, Filled], steps: list[StepRecord], ctx: Context | None
                  ) -> list[str]:
    """A value taken from an earlier output that the user could only quote ('p_aruzsq': a
    task holds a contact and an owner, so "the person of that task" is two) is named
    instead ("the contact 'Olivia Ahmed'") where the world knows its name; the look-up then
    finds it, and the step no longer depends on that output. So is one the user would name
    through another record that itself needs telling apart, and one the user holds (a
    ticker) is said as it is. Rewrites `filled` in place and returns the arguments it
    renamed. The reading checks found such quotes in a fifth of
    their unnatural rows, and such chains of records in 3 of 30."""
    renamed = []
    for arg, f in filled.items():
        if f.source != "derived" or ctx is None:
            continue
        # a value the user holds ('NFLX', no address), found on this same server
        held = isinstance(f.value, str) and bool(f.kind) and user_holds(f.value) \
            and "@" not in f.value and f.from_step is not None \
            and steps[f.from_step].node.server == ctx.server
        entity = ctx.entity(f.kind, f.value) if internal_id(
            Filled(f.value, "context", f.kind)) else None
        named = entity is not None and entity.label is not None
        if not (held or named):
            continue
        spec = arg_spec(arg, f, steps)  # only where it can matter: it scans every step
        if held and spec.via:
            # said as it is, not through a record that points at it ("the stock traded in
            # the trade for 575.98"); addresses and cross-server values stay the flow they
            # are ("email that contact")
            filled[arg] = Filled(f.value, "context", f.kind)
            renamed.append(arg)
        elif named and (spec.how == "literal" or (
                spec.via and any(k not in LABEL_FIELDS for k, _ in spec.pairs))):
            # quoted, or named through another record that itself needs telling apart ("the
            # vehicle the appointment created on February 27 at 9:45 pm is for")
            filled[arg] = Filled(f.value, "context", f.kind, entity)
            renamed.append(arg)
    return renamed


def internal_id(f: Filled) -> bool:
    """A value the user would have to state that is a server's internal id: no look-up
    found the entity by its name, so the request would quote 'acc_k7qm2x'. One other
    proposal is tried before the quote is kept (issue 23: users name what they know)."""
    return f.source == "context" and isinstance(f.value, str) and bool(f.kind) \
        and not f.kind.startswith("@") and not user_holds(f.value)
