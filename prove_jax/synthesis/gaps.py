"""Which values a clarification may withhold (issue 23: only required ones a user states and
could forget), so that asking for one is the right habit, never asking for an optional filter
or for what was already said."""

from __future__ import annotations

from typing import Any

from prove_jax.synthesis.held import user_holds
from prove_jax.synthesis.records import Filled, StepRecord
from prove_jax.synthesis.schemas import schema_types

__all__ = ["SEARCH_TEXT", "gap_args", "gap_options"]


# what a search looks for: nobody asks to "look up the contact" without saying whom
SEARCH_TEXT = frozenset(("query", "q", "search", "keyword", "keywords", "pattern", "text_query"))
# half of a coordinate pair: nobody gives a latitude and forgets the longitude ("use 10.22 for
# the lon", a reading check found)
COORDINATES = frozenset(("lat", "lon", "lng", "latitude", "longitude"))


def gap_args(step: StepRecord, steps: list[StepRecord]) -> list[str]:
    """Values a user must state and could forget: required by the tool (without an optional
    one, such as a `limit` or a filter, the call is still valid, so asking for it would be
    the wrong habit), not a yes/no flag, and either stated by the user or an entity the user
    names for a look-up of its own ("which payee?" - "Maya Wang"), not taken from an output."""
    required = set(step.node.required)
    return [a for a, f in step.filled.items() if a in required
            and a not in SEARCH_TEXT | COORDINATES
            and (f.user_sourced or _named_for_lookup(f, step, steps))
            and not isinstance(f.value, bool) and not _unheld_id(a, f)
            and "boolean" not in schema_types(step.node.properties.get(a, {}))]


def gap_options(part: list[int], steps: list[StepRecord]) -> list[tuple[int, str]]:
    """(step, argument) pairs of `part` a clarification could withhold."""
    return [(i, a) for i in part for a in gap_args(steps[i], steps)
            if not _said_elsewhere(steps, i, steps[i].args[a])]


def _unheld_id(arg: str, f: Filled) -> bool:
    """An id the user would have to quote in the answer ("it's 'itm_yjs68j'") though no
    user holds it: a row saying so is dropped (`quotes_internal_id`), so it is no gap."""
    values = f.value if isinstance(f.value, list) else [f.value]
    id_like = bool(f.kind) or arg == "id" or arg.endswith(("_id", "_ids"))
    return f.user_sourced and id_like and not str(f.kind or "").startswith("@") and any(
        isinstance(v, str) and not user_holds(v) for v in values)


def _said_elsewhere(steps: list[StepRecord], i: int, value: Any) -> bool:
    """Does another step take the same value? Then the user states it there, and asking
    for it would be asking for what was already said."""
    return any(value in (s.args or {}).values() for j, s in enumerate(steps) if j != i
               and not s.lookup)


def _named_for_lookup(f: Filled, step: StepRecord, steps: list[StepRecord]) -> bool:
    """Is `f` an entity the user names, found by a look-up that serves only this step?"""
    if f.from_step is None or not steps[f.from_step].lookup or f.entity is None \
            or f.entity.label is None:
        return False
    return not any(f.from_step in s.deps for s in steps if s is not step)
