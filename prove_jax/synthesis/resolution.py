"""The resolution check (issue 23 item 3): after a conversation is shaped, every reference the
user makes instead of a value is resolved again, from what the conversation has shown by then,
and must name exactly the value the truth uses. A row that fails is dropped
("unresolved_reference"), so a wrong or ambiguous truth never reaches training.

What each reference means here, as a reader of the conversation would take it:
- a name or a selector ("my account 'Savings'", "the budget whose limit is 300", "the account
  of the transfer whose memo is 'rent'"): every record of that kind shown by the steps before,
  whose fields match everything said, gives one and the same value;
- "that X" / "the Y of that X": X is the one record of its kind the step just before returned,
  or the one of its kind the conversation has shown at all, and it holds one Y.

This re-derives the meaning from the records rather than from the rules that chose the
wording (dialogue.arg_spec), so a gap in those rules shows up as a drop, not a wrong truth.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from prove_jax.synthesis.dialogue import ArgSpec, DialogueSpec
from prove_jax.synthesis.records import StepRecord
from prove_jax.synthesis.schemas import key_of, values_of_kind, walk_records

__all__ = ["meanings", "records_of", "unresolved"]

REFERENCES = ("entity", "selector", "back")


def records_of(steps: list[StepRecord]) -> Iterator[tuple[str, str, dict]]:
    """(own key, kind, record) of every record these steps' outputs hold."""
    for step in steps:
        for record in walk_records(step.payload):
            key = key_of(record)
            if key is not None:
                yield record[key[0]], key[1], record


def _said(args: dict, kind: str) -> set[str]:
    """Values of `kind` a step's arguments name (what the user asked it to act on); a path
    is any argument that looks like one (`source`, `destination`)."""
    if kind == "@path":
        return {v for value in args.values() for v in (value if isinstance(value, list)
                                                        else [value])
                if isinstance(v, str) and v.startswith("/")}
    return values_of_kind(args, kind)


def _matches(record: dict, pairs: list[tuple[str, Any]]) -> bool:
    return all(field in record and record[field] == value for field, value in pairs)


def meanings(a: ArgSpec, steps: list[StepRecord], at: int) -> set[str]:
    """Every value the reference `a`, made for step `at`, could mean given steps[:at]."""
    shown = steps[:at]
    if a.how == "entity":  # its name, or the name of the record that points at it (via)
        said = ([(a.label_field, a.label)] if a.label_field else []) + list(a.pairs)
        found = [(key, r) for key, kind, r in records_of(shown)
                 if kind == (a.via or a.kind) and _matches(r, said)]
        if a.via is None:
            return {key for key, _ in found}
        return set().union(set(), *(values_of_kind(r, a.kind) for _, r in found))
    if a.how == "selector":
        owner = a.via or a.kind
        found = [(key, r) for key, kind, r in records_of(shown)
                 if kind == owner and _matches(r, a.pairs)]
        if a.via is None:
            return {key for key, _ in found}
        return set().union(set(), *(values_of_kind(r, a.kind) for _, r in found))
    if a.how == "back" and at > 0:
        # "that X": the one X the step just before returned, where its request named no
        # other X; else the one X the whole conversation has shown or the user has said
        owner = a.via or a.kind
        for scope in ([shown[-1]], shown):
            keys = {key for key, kind, _ in records_of(scope) if kind == owner}
            said = set().union(*(_said(s.args, owner) for s in scope))
            if len(keys) == 1 and said <= keys:
                record = next(r for key, kind, r in records_of(scope) if kind == owner)
                return keys if a.via is None else values_of_kind(record, a.kind)
        return set()
    return set()


def _value(a: ArgSpec) -> Any:
    if isinstance(a.value, list):
        return a.value[0] if len(a.value) == 1 else None
    return a.value


def unresolved(spec: DialogueSpec, steps: list[StepRecord]) -> str | None:
    """Why some reference of the conversation does not name exactly its truth value (None:
    every one does)."""
    for turn in spec.turns:
        items = [(s.index, a) for s in turn.steps for a in s.args]
        if turn.supply is not None:
            items.append((turn.supply_step, turn.supply))
        for at, a in items:
            if a.how not in REFERENCES or at is None or at >= len(steps):
                continue  # not a truth step (asked for, but a hidden tool cannot do it)
            meant = meanings(a, steps, at)
            if meant != {_value(a)}:
                return (f"{a.how} {a.arg} of step {at}: means {sorted(map(str, meant))[:3]}, "
                        f"truth {a.value!r}")
    return None
