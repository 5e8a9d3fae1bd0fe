"""Which back-references name exactly one entity: "that budget" (the only one shown, or the
one record the step just before returned), "the account of that transfer" (its record holds one
account), "the budget whose name is 'Food'" (no other budget shown has that name). dialogue.py
words a value by these rules; resolution.py re-reads the worded conversation independently."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

from prove_jax.synthesis.records import Filled, StepRecord
from prove_jax.synthesis.schemas import entity_kind, key_of, single_out, walk_records

__all__ = ["every_string", "name_on_owner", "owner_holds_one", "seen_selector", "singles_out"]


def _id_prefix(value: Any) -> str | None:
    """'bud_' of an id like 'bud_k7qm2x': ids of one kind share it (servers.core.ids)."""
    if isinstance(value, str) and "_" in value and " " not in value:
        return value[:value.index("_") + 1]
    return None


def every_string(value: Any) -> Iterator[str]:
    """The strings anywhere in a value, nested records and lists included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from every_string(v)
    elif isinstance(value, list):
        for v in value:
            yield from every_string(v)


def _seen(steps: list[StepRecord], prefix: str) -> set[str]:
    """Every id with `prefix` the conversation has shown by these steps: in their arguments
    (what the user said) and their outputs."""
    return {s for step in steps for part in (step.args, step.payload) for s in every_string(part)
            if s.startswith(prefix)}


def singles_out(f: Filled, steps: list[StepRecord], at: int, via: str | None) -> bool:
    """Does a back-reference ("the one you just got", "the one of that email") name exactly
    one entity? Without `via`: the value is the only id of its kind shown so far, and the
    previous step showed it. With `via`: the owner record holds no other id of the value's
    kind (an email's from / to / cc would be three) and is the only one of its kind shown,
    or the one record the step just before returned."""
    f = _one_value(f)
    if f is None:
        return False
    prefix = _id_prefix(f.value)
    if prefix is None and isinstance(f.value, str) and f.kind:
        # a value of a kind with no id prefix (an address, a ticker): "that symbol" only if
        # it is the one value of its kind it could mean (an email's sender, a recipient or a
        # copy would be three addresses)
        if via is not None:
            return owner_holds_one(f) and _main_record(f, steps)
        # without an owner, as for ids: the previous step showed it, and the conversation
        # has shown (or the user has said) no other value of its kind
        shown = [part for step in steps[:at] for part in (step.args, step.payload)]
        return f.from_step == at - 1 and _kind_values(shown, f.kind, f.value) == {f.value}
    if prefix is None:
        return True  # not a string: nothing to mistake it for
    if via is None:
        # "that contact": the only id of its kind shown, or the record the step just before
        # returned alone (a get), whose own id it is
        return f.from_step == at - 1 and (_seen(steps[:at], prefix) == {f.value}
                                          or (_own_key(f) and _records(steps[at - 1], prefix)
                                              == {f.value} and _said(steps[at - 1], prefix)
                                              <= {f.value}))
    if not owner_holds_one(f) or not _main_record(f, steps):
        return False
    owner = key_of(f.element)
    owner_key = f.element.get(owner[0]) if owner else None
    owner_prefix = _id_prefix(owner_key)
    if owner_prefix is None:
        return False
    # "that reservation": the only one of its kind shown, or the one record the step just
    # before returned (the last one mentioned)
    return len(_seen(steps[:at], owner_prefix)) == 1 or \
        (f.from_step == at - 1 and _records(steps[at - 1], owner_prefix) == {owner_key}
         and _said(steps[at - 1], owner_prefix) <= {owner_key})


def name_on_owner(f: Filled) -> list[tuple[str, Any]] | None:
    """The target's name where the record pointing at it says it (a budget's `category_name`
    beside its `category_id`), as the selector that names it: the user knows the category
    'Groceries', not "the category that budget covers"."""
    element = f.element if isinstance(f.element, dict) else {}
    name = element.get(f"{f.kind}_name")
    if isinstance(name, str) and name and element.get(f"{f.kind}_id") == f.value:
        return [(f"{f.kind}_name", name)]
    return None


def _main_record(f: Filled, steps: list[StepRecord]) -> bool:
    """Is the record the value came from one its step returned as what it was asked for (the
    payload itself, or an item of a listing), not a record inside it (a meeting's host)? Only
    such a record is "that X" to the user."""
    if f.from_step is None or not isinstance(f.element, dict):
        return False
    payload = steps[f.from_step].payload
    if isinstance(payload, list):
        items = payload
    elif isinstance(payload, dict):
        keyed = key_of(payload) is not None
        items = [payload] if keyed else []
        for v in payload.values():  # a listing's items; a wrapper's record ({"invitation": })
            items += v if isinstance(v, list) else [] if keyed else [v]
    else:
        items = []
    return any(isinstance(x, dict) and (x is f.element or x == f.element) for x in items)


def _one_value(f: Filled) -> Filled | None:
    """A list argument (`to: [address]`) read as its one value; None for several values,
    which no back-reference names one by one."""
    if not isinstance(f.value, list):
        return f
    return dataclasses.replace(f, value=f.value[0]) if len(f.value) == 1 else None


def _records(step: StepRecord, prefix: str) -> set[str]:
    """The ids of the records with `prefix` a step's output holds (their own ids, not ids
    they point at)."""
    out = set()
    for record in walk_records(step.payload):
        key = key_of(record)
        value = record.get(key[0]) if key else None
        if isinstance(value, str) and value.startswith(prefix):
            out.add(value)
    return out


def _said(step: StepRecord, prefix: str) -> set[str]:
    """Ids with `prefix` a step's arguments name: what the user asked it to act on."""
    return {s for s in every_string(step.args) if s.startswith(prefix)}


def _own_key(f: Filled) -> bool:
    """Is the value the id of the record it came from (not an id that record points at)?"""
    key = key_of(f.element) if isinstance(f.element, dict) else None
    return key is not None and f.element.get(key[0]) == f.value


def owner_holds_one(f: Filled) -> bool:
    """Does the record the value came from hold no other value of its kind ("the account of
    that transfer" could be its source or its target)?"""
    f = _one_value(f)
    if f is None:
        return False
    prefix = _id_prefix(f.value)
    if prefix is not None:
        return {s for s in every_string(f.element) if s.startswith(prefix)} == {f.value}
    if not isinstance(f.value, str):
        return True  # not a string: nothing to mistake it for
    return bool(f.kind) and _kind_values(f.element, f.kind, f.value) == {f.value}


def _kind_values(value: Any, kind: str, like: str, key: str = "") -> set[str]:
    """Strings of `kind` in `value`: under keys of that kind, and for addresses any string
    with an '@' (a `to` or `cc` list holds them under no kind's name)."""
    if isinstance(value, dict):
        return set().union(*(_kind_values(v, kind, like, k) for k, v in value.items()))
    if isinstance(value, list):
        return set().union(*(_kind_values(v, kind, like, key) for v in value))
    if not isinstance(value, str):
        return set()
    if ("@" in like and "@" in value) or (key and entity_kind(key) == kind):
        return {value}
    return set()


def seen_selector(f: Filled, steps: list[StepRecord], at: int) -> list[tuple[str, Any]] | None:
    """Fields that single the value's entity out among every entity of its kind the
    conversation has shown (its outputs' records, one per id), or None: some id of the kind
    was only quoted, with no record to tell it apart, or no field tells them apart."""
    prefix = _id_prefix(f.value)
    if prefix is None:
        return None
    records: dict[str, dict] = {}
    for step in steps[:at]:
        for record in walk_records(step.payload):
            key = key_of(record)
            value = record.get(key[0]) if key else None
            if isinstance(value, str) and value.startswith(prefix):
                records.setdefault(value, record)
    if f.value not in records or set(records) != _seen(steps[:at], prefix):
        return None
    mine = records[f.value]
    return single_out(mine, [mine, *(r for i, r in records.items() if i != f.value)])
