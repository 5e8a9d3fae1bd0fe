"""Schema and payload helpers shared by the graph, the sampler and the verbalizer: JSON types,
output-field walking, entity kinds of argument/field names, enum stripping, record labels.

Entity kinds make ids comparable across tools: for `*_id` / `*_ids` names the name itself is
the kind, after dropping a role prefix (`from_account_id` and `to_account_id` hold the same
kind of value as `account_id`; the prefix only says which role the account plays). A few
identifier-like names that carry no `_id` suffix (path, email, symbol, ...) are kinds too.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

__all__ = [
    "LABEL_FIELDS",
    "OutField",
    "arg_kind",
    "describe",
    "entity_kind",
    "humanize",
    "json_type",
    "key_of",
    "label_of",
    "naming",
    "out_fields",
    "record_fields",
    "schema_types",
    "single_out",
    "strip_enums",
    "values_of_kind",
    "walk_records",
]

ROLE_PREFIXES = ("from_", "to_", "source_", "target_", "destination_", "dest_", "parent_",
                 "home_", "default_", "new_", "old_", "other_", "primary_", "origin_")
KEYLIKE = ("path", "symbol", "email", "username", "tag")
# Fields that name a record for a person reading it, best first.
LABEL_FIELDS = ("name", "title", "subject", "label", "display_name", "full_name", "symbol",
                "filename", "merchant", "counterparty_name", "store_name", "product_name",
                "listing_title", "event_title", "description", "note", "path", "topic",
                "nickname", "category_name", "content", "text", "hotel_name",
                "destination_name", "flight_number", "last4")


def schema_types(schema: dict) -> frozenset[str]:
    """The JSON types a schema allows (a list type like ["string", "null"] gives both)."""
    t = schema.get("type")
    if t is None:
        return frozenset()
    return frozenset(t) if isinstance(t, list) else frozenset([t])


def json_type(value: Any) -> str:
    """The JSON type of a decoded JSON value; a subclass counts as its base (an IntEnum is an
    integer, an OrderedDict an object). Anything else (tuple, set, bytes, Decimal, object())
    is "non-JSON <class>", which matches no schema type. Kept identical to json_type in
    servers/core/schema.py: servers/ and prove_jax/ do not import each other."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return f"non-JSON {type(value).__name__}"


def _strip_role(base: str) -> str:
    for prefix in ROLE_PREFIXES:
        if base.startswith(prefix) and len(base) > len(prefix):
            return base[len(prefix):]
    return base


def entity_kind(name: str) -> str | None:
    """Kind of the values a field or argument name holds, or None when it is not a reference."""
    n = name.lower()
    if n.endswith("_ids"):
        n = n[:-1]
    if n.endswith("_id"):
        base = _strip_role(n[:-3])
        return base or None
    n = _strip_role(n)
    if n.endswith("s") and n[:-1] in KEYLIKE:
        n = n[:-1]
    # "@" keeps value kinds apart from id kinds: an `email` address is not an `email_id`.
    return f"@{n}" if n in KEYLIKE else None


def arg_kind(name: str, schema: dict) -> str | None:
    """Kind of an input argument: its name first, then what its description says it holds
    (`to: Recipient email addresses` holds emails; `source: Path of the file` holds paths)."""
    kind = entity_kind(name)
    if kind is not None:
        return kind
    types = schema_types(schema)
    items = schema.get("items") or {}
    if not ("string" in types or ("array" in types and "string" in schema_types(items))):
        return None
    desc = (schema.get("description") or "").lower()
    if re.search(r"\bemail address", desc):
        return "@email"
    if re.search(r"(^|\b)(directory )?path\b", desc) and "string" in types:
        return "@path"
    return None


@dataclass(frozen=True)
class OutField:
    """One leaf (or scalar array) of an output schema."""

    path: tuple[str, ...]  # keys from the top; "[]" marks an array level
    name: str
    types: frozenset[str]
    item_types: frozenset[str]  # for arrays of scalars
    in_array: bool

    @property
    def kind(self) -> str | None:
        return entity_kind(self.name)


def out_fields(schema: dict, path: tuple[str, ...] = (), in_array: bool = False
               ) -> Iterator[OutField]:
    """Every named field of an output schema, nested objects and arrays included."""
    for key, sub in (schema.get("properties") or {}).items():
        types = schema_types(sub)
        here = (*path, key)
        if "object" in types and "properties" in sub:
            yield from out_fields(sub, here, in_array)
        elif "array" in types:
            items = sub.get("items") or {}
            if "properties" in items:
                yield from out_fields(items, (*here, "[]"), True)
            else:
                yield OutField(here, key, types, schema_types(items), in_array)
        else:
            yield OutField(here, key, types - {"null"}, frozenset(), in_array)


def strip_enums(schema: Any) -> Any:
    """A deep copy of a schema with every `enum` list removed."""
    def strip(node: Any) -> Any:
        if isinstance(node, dict):
            return {k: strip(v) for k, v in node.items() if k != "enum"}
        if isinstance(node, list):
            return [strip(v) for v in node]
        return node
    return strip(copy.deepcopy(schema))


def key_of(record: dict) -> tuple[str, str] | None:
    """(key field, kind) of a record dict: its first `*_id` field, else an identifier-like one."""
    for field, value in record.items():
        if field.endswith("_id") and isinstance(value, str) and value:
            kind = entity_kind(field)
            if kind:
                return field, kind
    for field in KEYLIKE:
        if isinstance(record.get(field), str) and record[field]:
            return field, f"@{field}"
    return None


def record_fields(record: dict) -> dict[str, Any]:
    """The scalar fields (and lists of scalars) of a record: what a query may mention."""
    out = {}
    for field, value in record.items():
        if isinstance(value, (str, int, float, bool)) or value is None:
            out[field] = value
        elif isinstance(value, list) and all(isinstance(v, (str, int, float)) for v in value):
            out[field] = list(value)
    return out


def walk_records(payload: Any) -> Iterator[dict]:
    """Every dict inside a payload that has a key field (an entity record)."""
    if isinstance(payload, dict):
        if key_of(payload) is not None:
            yield payload
        for value in payload.values():
            if isinstance(value, (dict, list)):
                yield from walk_records(value)
    elif isinstance(payload, list):
        for value in payload:
            if isinstance(value, (dict, list)):
                yield from walk_records(value)


MAX_LABEL = 100  # characters: a post's text is how its author knows it


def label_of(record: dict) -> tuple[str, str] | None:
    """(field, text) a person would call this record by, if it has one."""
    for field in LABEL_FIELDS:
        value = record.get(field)
        if isinstance(value, str) and 2 <= len(value) <= MAX_LABEL and "\n" not in value:
            return field, value
    return None


_SPLIT = re.compile(r"[_\s]+")


def humanize(name: str) -> str:
    """`send_payment` -> `send payment`; `from_account_id` -> `from account id`."""
    return _SPLIT.sub(" ", name).strip().lower()


# Fields that tell one record from its siblings in a list, for "the one with ..." phrases.
# when, how much and where before a status: "my budget 'Travel' for July 2026", not "my
# budget 'Travel' that is near limit" (a reading check)
DESCRIBE_FIELDS = (*LABEL_FIELDS, "month", "amount", "price", "total", "created_at",
                   "posted_at", "date", "start", "sent_at", "placed_at", "city", "status",
                   "direction", "type", "kind", "category", "from_name", "from_email",
                   "seller_name", "author_name", "quantity")


def describe(element: dict, siblings: list) -> list[tuple[str, Any]] | None:
    """The fewest (field, value) pairs (at most 2) that single `element` out among
    `siblings`; None when no such pair exists (the user would have to give the id)."""
    fields = [f for f in DESCRIBE_FIELDS if isinstance(element.get(f), (str, int, float))
              and not isinstance(element.get(f), bool) and element.get(f) != ""
              and (not isinstance(element.get(f), str) or len(element[f]) <= 80)]
    others = [s for s in siblings if s is not element and s != element]
    if len(others) == len(siblings):  # element not found by identity: compare by value
        others = [s for s in siblings if s != element]
    for f in fields:
        if all(not isinstance(o, dict) or o.get(f) != element[f] for o in others):
            return [(f, element[f])]
    for i, f in enumerate(fields):
        for g in fields[i + 1:]:
            if all(not isinstance(o, dict) or (o.get(f), o.get(g)) != (element[f], element[g])
                   for o in others):
                return [(f, element[f]), (g, element[g])]
    return None


def naming(element: dict, records: list, label: tuple[str, str]) -> list[tuple[str, Any]] | None:
    """What the user says to single the record out among `records`: its name when no other
    record has it, else the name and what tells it apart from its namesakes ("'Hiring sync'
    whose start is ..."); None when nothing does."""
    same = [r for r in records if isinstance(r, dict) and r.get(label[0]) == label[1]]
    if len(same) <= 1 or all(r == element for r in same):  # one device listed in two groups
        return [label]  # is no namesake: not "'Floor Lamp' whose name is 'Floor Lamp'"
    extra = describe(element, same)
    return [label, *extra] if extra else None


def single_out(element: dict, siblings: list) -> list[tuple[str, Any]] | None:
    """What singles `element` out among `siblings`, its name first where it has one: "the
    place 'Cafe Juniper' in Berlin" where two places share the name, not "the place in
    Berlin"; a record with no name by what tells it apart ("the order for 267")."""
    label = next(((k, element[k]) for k in LABEL_FIELDS if isinstance(element.get(k), str)
                  and 0 < len(element[k]) <= 80), None)
    named = naming(element, siblings, label) if label else None
    return named or describe(element, siblings)


def values_of_kind(record: dict, kind: str) -> set[str]:
    """The values of `kind` a record holds in its own fields (its key when it is of that
    kind, ids it points at, addresses in a `to` list)."""
    out: set[str] = set()
    for field, value in record.items():
        items = value if isinstance(value, list) else [value]
        for v in items:
            if not isinstance(v, str) or not v:
                continue
            if entity_kind(field) == kind or (kind == "@email" and "@" in v):
                out.add(v)
    return out
