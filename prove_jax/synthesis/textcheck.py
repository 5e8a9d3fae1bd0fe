"""The resolution check on free text (issue 23 item 2): a turn the teacher LLM wrote is kept only
where a reader of the conversation resolves it to the truth, as resolution.py does for the
template's references. The teacher may say "my checking account" for 'Everyday Checking' or
"June 23" for '2026-06-23'; it may not drop a value, name a record no shown record alone
matches, or state a value the clarification withholds.

- A stated value (literal or held id) appears in one of its spellings: as given, as the
  template says it, a date in words, an amount with its cents.
- A record the user names (entity) is named by its whole label, or by a word of it that no
  other record of its kind shown so far has in its label ("checking" where only one account
  is a checking account). Whatever else tells it apart (selector pairs) is stated too.
- A withheld value appears in none of its spellings.
"back" references ("that email") are left to resolution.py, which checked the spec the text
was written from.
"""

from __future__ import annotations

import re
from typing import Any

from prove_jax.synthesis.dialogue import ArgSpec, TurnSpec
from prove_jax.synthesis.records import StepRecord
from prove_jax.synthesis.resolution import records_of
from prove_jax.synthesis.schemas import label_of
from prove_jax.synthesis.wording import number, said_literal, spoken_choice, when

__all__ = ["spellings", "unresolved_text"]

_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset(("the", "and", "for", "with", "from", "my", "of", "to", "in", "on", "at",
                   "a", "an", "your", "our", "new", "old"))


def spellings(value: Any, choice: str | None = None) -> set[str]:
    """The ways a reader would accept `value` written (compared case-blind); an enum value the
    offered schema lists for the argument `choice` also in words."""
    if isinstance(value, bool) or value is None:
        return set()
    out = {said_literal(value).strip("'\""), str(value)}
    if isinstance(value, (int, float)):
        out |= {number(value), f"{value:.2f}" if isinstance(value, float) else str(value)}
    if isinstance(value, str) and (spoken := when(value)) is not None:
        out.add(spoken)
    if choice and (words := spoken_choice(choice, value)) is not None:
        out.add(words)
    return {s.lower() for s in out if s}


def _stated(value: Any, text: str, choice: str | None = None) -> bool:
    values = value if isinstance(value, list) else [value]
    return all(any(s in text for s in spellings(v, choice)) for v in values
               if not isinstance(v, bool))


def _words(label: str) -> set[str]:
    return {w for w in _WORD.findall(label.lower()) if w not in _STOP and len(w) > 2}


def _named(a: ArgSpec, text: str, steps: list[StepRecord], at: int) -> bool:
    """Does `text` name the record `a` names, and no other of its kind shown before `at`?"""
    if a.label is None or a.label.lower() in text:
        return a.label is not None
    kind = a.via or a.kind
    others = [lab[1] for key, k, r in records_of(steps[:at])
              if k == kind and key != a.entity_id and (lab := label_of(r)) is not None
              and lab[1] != a.label]
    taken = set().union(set(), *(_words(o) for o in others))
    return any(w in _WORD.findall(text) for w in _words(a.label) - taken)


def _problem(a: ArgSpec, text: str, steps: list[StepRecord], at: int) -> str | None:
    if a.how in ("literal", "id"):
        said = _stated(a.value, text, a.arg if a.choice else None)
        return None if said else f"{a.arg}: {a.value!r} not stated"
    if a.how == "entity":
        if not _named(a, text, steps, at):
            return f"{a.arg}: {a.label!r} not named"
        missing = [f for f, v in a.pairs if not _stated(v, text)]
        return f"{a.arg}: {missing[0]} not stated" if missing else None
    if a.how == "selector":
        missing = [f for f, v in a.pairs if not _stated(v, text)]
        return f"{a.arg}: {missing[0]} not stated" if missing else None
    if a.how in ("withheld", "vague") and not isinstance(a.value, bool):
        values = a.value if isinstance(a.value, list) else [a.value]
        leaked = [v for v in values if any(len(s) > 2 and s in text
                                           for s in spellings(v, a.arg))]
        return f"{a.arg}: withheld {leaked[0]!r} stated" if leaked else None
    return None


def unresolved_text(text: str, turn: TurnSpec, steps: list[StepRecord]) -> str | None:
    """Why `text`, written for `turn`, does not resolve to the truth (None: it does)."""
    low = text.lower()
    items = [(s.index if s.index is not None else len(steps), a) for s in turn.steps
             for a in s.args]
    if turn.supply is not None:
        at = turn.supply_step if turn.supply_step is not None else len(steps)
        items.append((at, turn.supply))
    for at, a in items:
        problem = _problem(a, low, steps, at)
        if problem is not None:
            return problem
    return None
