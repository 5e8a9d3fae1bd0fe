"""Argument filling: every value comes from an earlier step's real output (an explicit edge),
from the sampling context (ids and attribute values that exist), from an enum, or from a
generator (amounts, dates, short texts) inside the schema's constraints. Never from nowhere:
an argument that none of these can fill makes the tool unusable for this chain.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Mapping, Sequence
from typing import Any

from prove_jax.synthesis.context import Context
from prove_jax.synthesis.generators import (
    OFFERED_AGAINST,
    QUERY_LIKE,
    TOOL_TEXT,
    check_value,
    date_format,
    gen_date,
    gen_number,
    gen_text,
    offer_below,
)
from prove_jax.synthesis.graph import WORLD_WIDE, ToolGraph, ToolNode
from prove_jax.synthesis.held import user_holds
from prove_jax.synthesis.newperson import own_email
from prove_jax.synthesis.records import Filled, StepRecord
from prove_jax.synthesis.references import name_on_owner
from prove_jax.synthesis.schemas import (
    arg_kind,
    describe,
    key_of,
    label_of,
    out_fields,
    schema_types,
)
from prove_jax.synthesis.textbanks import EDITS, LEGAL_FORMS, MERCHANTS, fitting

__all__ = ["ValueFiller", "extract"]

MAX_OPTIONAL = 2
CATCH_ALL = frozenset(("other", "unknown", "misc", "none"))
PHONE_HEAD = re.compile(r"^(\+\d{1,3}[ -]\d+)[ -]")  # '+49 151' of '+49 151 23456789'
# Words that make an argument the far end of a pair (end_date after start_date, max_price
# above min_price, check_out after check_in): the pair's other end is found by swapping them.
_PAIRS = {"end": "start", "to": "from", "until": "start", "out": "in", "max": "min",
          "return": "depart", "last": "first", "arrival": "departure"}


def like_phone(sample: str, rng: random.Random) -> str:
    """Another number in the format of `sample` ('+49 151 23456789'): the country code and the
    first group (area or mobile prefix) kept, every later digit drawn."""
    match = PHONE_HEAD.match(sample)
    if match is None:
        return sample
    head, tail = match.group(1), sample[match.end(1):]
    return head + re.sub(r"\d", lambda _: str(rng.randrange(10)), tail)


def _start_of(arg: str, filled: dict[str, Filled]) -> Filled | None:
    """The already filled near end of the pair `arg` closes, if any."""
    words = arg.split("_")
    for i, w in enumerate(words):
        if w in _PAIRS:
            other = "_".join([*words[:i], _PAIRS[w], *words[i + 1:]])
            for cand in (other, _PAIRS[w]):
                if cand in filled:
                    return filled[cand]
    return None


def extract(payload: Any, path: Sequence[str]) -> list[tuple[Any, dict, list]]:
    """(value, the dict holding it, that dict's siblings) at an output field path; the
    siblings are the innermost array's elements ([dict] outside arrays)."""
    out: list[tuple[Any, dict, list]] = []

    def walk(node: Any, i: int, siblings: list) -> None:
        if i == len(path) - 1:
            if isinstance(node, dict) and node.get(path[i]) not in (None, "", []):
                value = node[path[i]]
                many = isinstance(value, list)
                for v in value if many else [value]:
                    if isinstance(v, (str, int, float)) and not isinstance(v, bool):
                        # a list of scalars: each value is its own element
                        out.append((v, {path[i]: v} if many else node,
                                    [{path[i]: x} for x in value] if many else siblings))
            return
        key = path[i]
        if key == "[]":
            if isinstance(node, list):
                for item in node:
                    walk(item, i + 1, node)
        elif isinstance(node, dict) and key in node:
            walk(node[key], i + 1, siblings if siblings else [node])

    walk(payload, 0, [])
    return out


_WORD = re.compile(r"[a-z][a-z_]{2,}")


def _words(node: ToolNode, arg: str) -> frozenset[str]:
    text = f"{node.description} {node.properties.get(arg, {}).get('description', '')}"
    return frozenset(_WORD.findall(text.lower()))


def _score(record: dict | None, words: frozenset[str]) -> int:
    """How many of a record's state words (status 'pending', direction 'incoming') the tool's
    description uses: 'Pay or decline a pending request someone sent' prefers pending ones."""
    if not record:
        return 0
    return sum(1 for v in record.values()
               if isinstance(v, str) and 3 <= len(v) <= 20 and v.lower() in words)


def _prefer(options: list, records: list[dict | None], words: frozenset[str],
            rng: random.Random) -> list:
    """The options whose records fit the description best (most of the time)."""
    scores = [_score(r, words) for r in records]
    best = max(scores, default=0)
    if best > 0 and rng.random() < 0.85:
        return [o for o, sc in zip(options, scores, strict=True) if sc == best]
    return options


_STOPWORDS = frozenset((
    "the", "and", "for", "with", "from", "out", "not", "but", "are", "was", "has", "have",
    "you", "your", "our", "all", "any", "can", "new", "now", "this", "that", "into", "over",
    "after", "before", "about", "just", "still", "again", "anyone", "some", "who", "how",
    "what", "when", "why", "got", "get", "its", "let", "off", "too", "very", "will", "would")
) | LEGAL_FORMS


class ValueFiller:
    """Fills one tool's arguments for one conversation (its rng makes the choices)."""

    def __init__(self, graph: ToolGraph, today: dt.date, p_optional: float):
        self.graph, self.today, self.p_optional = graph, today, p_optional

    def fill(self, node: ToolNode, steps: Sequence[StepRecord], ctxs: Mapping[str, Context],
             rng: random.Random, avoid: set[tuple[str, Any]] | frozenset = frozenset(),
             derive: bool = True) -> dict[str, Filled] | None:
        """Arguments for `node`, or None when a required one cannot be filled; `derive=False`
        stops taking values from earlier outputs (after those kept failing)."""
        ctx = ctxs[node.server]
        props = node.properties
        filled: dict[str, Filled] = {}
        # records first: a merchant is chosen to fit the expense's category, a new title from
        # the record's own (sorted is stable: schema order otherwise)
        for arg in sorted(node.required, key=lambda a: arg_kind(a, props.get(a, {})) is None):
            value = self._one(node, arg, props.get(arg, {}), steps, ctxs, ctx, rng, avoid,
                              filled, required=derive)
            if value is None:
                return None
            filled[arg] = value
        optional = sorted(a for a in props if a not in filled)
        rng.shuffle(optional)
        for arg in optional:
            if sum(1 for a in filled if a not in node.required) >= MAX_OPTIONAL:
                break
            # later retries add more optional arguments: some tools need one of them
            if rng.random() >= (self.p_optional if derive else max(self.p_optional, 0.6)):
                continue
            value = self._one(node, arg, props[arg], steps, ctxs, ctx, rng, avoid, filled,
                              required=False)
            if value is not None and value.value != props[arg].get("default"):
                filled[arg] = value
        if not node.read_only:
            own_email(filled, ctx, steps)
        return {a: filled[a] for a in props if a in filled}  # schema order, stable

    # ------------------------------------------------------------------------- one argument
    def _one(self, node: ToolNode, arg: str, schema: dict, steps: Sequence[StepRecord],
             ctxs: Mapping[str, Context], ctx: Context, rng: random.Random,
             avoid: set | frozenset, filled: dict[str, Filled], required: bool
             ) -> Filled | None:
        """One value; `required` also allows taking it from an earlier output."""
        kind = arg_kind(arg, schema)
        if required:
            taken = {(arg, v) for f in filled.values() if f.kind == kind and kind
                     for v in (f.value if isinstance(f.value, list) else [f.value])}
            got = self._derived(node, arg, schema, kind, steps, ctxs, rng, {*avoid, *taken})
            if got is not None:
                return got
        if "enum" in schema:
            options = [v for v in schema["enum"] if (arg, v) not in avoid]
            # a catch-all ('other', 'unknown') only where nothing else is left to choose
            options = [v for v in options if v not in CATCH_ALL] or options
            return Filled(rng.choice(options), "enum") if options else None
        types = schema_types(schema)
        if kind is not None:
            return (self._affine(arg, schema, kind, filled, ctx, rng, avoid)
                    or self._context(node, arg, schema, kind, ctx, rng, avoid, filled))
        if "boolean" in types:
            return Filled(rng.random() < 0.5, "generated")
        if types & {"integer", "number"}:
            value = gen_number(arg, schema, rng, "integer" in types and "number" not in types,
                               ctx.currency)
            offered, priced = OFFERED_AGAINST.get(node.name, (None, None))
            prices = [p for f in filled.values() if arg == offered
                      and isinstance(p := (_record(f) or {}).get(priced), (int, float))]
            value = type(value)(offer_below(prices[0], rng)) if prices else value
            low = _start_of(arg, filled)
            if low is not None and isinstance(low.value, (int, float)) and value <= low.value:
                value = type(value)(low.value * 2 + 10)
            return Filled(value, "generated") if check_value(value, schema) else None
        if "string" not in types:
            return None
        fmt = date_format(arg, schema)
        if fmt is not None:
            start = _start_of(arg, filled)
            desc = (schema.get("description") or "").lower()
            future = ("not in the future" not in desc) and (
                not node.read_only or "after today" in desc or "or later" in desc)
            value = gen_date(fmt, arg, schema, self.today, rng, future,
                             start.value if start is not None else None)
            return Filled(value, "generated") if check_value(value, schema) else None
        if arg in QUERY_LIKE:
            return self._query(node, schema, ctx, rng)
        pooled = [v for v in ctx.by_name.get(arg, []) if isinstance(v, str)
                  and check_value(v, schema) and (arg, v) not in avoid]
        if pooled and not node.read_only and "phone" in arg:
            # a new number looks like the world's own: its country code and prefix, new digits
            value = like_phone(rng.choice(pooled), rng)
            if check_value(value, schema):
                return Filled(value, "generated")
        if arg == "merchant" and not node.read_only:  # one the category is for: no
            shops = [m for f in filled.values() if f.kind == "category"  # pharmacy as Fitness
                     and (lab := _label(f)) is not None for m in MERCHANTS.get(lab, ())]
            if shops:
                return Filled(rng.choice(shops), "generated")
        if not node.read_only and (fit := fitting(arg, filled, rng)) is not None:
            return Filled(fit, "generated")  # a new name from the old, a city's country
        own = (node.name, arg) in TOOL_TEXT  # the tool's own bank beats what others wrote
        if pooled and (node.read_only or (not own and rng.random() < 0.3)):
            return Filled(rng.choice(pooled), "context")
        current = _current_label(filled, arg) if arg in ("title", "name") and \
            node.name.startswith(("update_", "edit_", "rename_")) else None
        if current is not None:  # an edit of the record's own title, not a stranger's
            kind, old = current
            text = rng.choice(EDITS.get(kind, EDITS[""])).format(t=old)
            return Filled(text, "generated") if check_value(text, schema) else None
        text = gen_text(arg, schema, rng, node.name)
        if text is None and pooled:
            text = rng.choice(pooled)
        return Filled(text, "generated") if text is not None else None

    def _derived(self, node: ToolNode, arg: str, schema: dict, kind: str | None,
                 steps: Sequence[StepRecord], ctxs: Mapping[str, Context],
                 rng: random.Random, avoid: set | frozenset) -> Filled | None:
        """A value from the most recent earlier step whose output feeds `arg` (explicit edge)."""
        many = "array" in schema_types(schema)
        for j in range(len(steps) - 1, -1, -1):
            step = steps[j]
            paths = [p for e in self.graph.edges_between(step.node.key, node.key)
                     if e.kind == "explicit" for p, a in e.via if a == arg]
            found = []
            for path in paths:
                for value, element, siblings in extract(step.payload, path.split(".")):
                    if siblings and len(siblings) > 1 and describe(element, siblings) is None \
                            and not isinstance(value, str):
                        continue  # the user could not say which one
                    if (arg, value) in avoid or any(value == f[0] for f in found):
                        continue
                    if step.node.server != node.server and kind not in (None, *WORLD_WIDE) \
                            and not ctxs[node.server].knows(kind, value):
                        # a cross-server id only where it exists there too; an address is
                        # good anywhere (invite a CRM contact to an event by their email)
                        continue
                    item_schema = (schema.get("items") or {}) if many else schema
                    if check_value(value, item_schema):
                        found.append((value, element, siblings))
            if found:
                found = _prefer(found, [f[1] for f in found], _words(node, arg), rng)
                value, element, siblings = rng.choice(found)
                n = max(len(siblings), 1)
                if many:
                    return Filled([value], "derived", kind, None, j, element, n, siblings)
                return Filled(value, "derived", kind, None, j, element, n, siblings)
        return None

    def _affine(self, arg: str, schema: dict, kind: str, filled: dict[str, Filled],
                ctx: Context, rng: random.Random, avoid: set | frozenset) -> Filled | None:
        """A value that belongs to an entity another argument already names (the email of an
        attendee of the chosen event), so the arguments of one call fit together."""
        many = "array" in schema_types(schema)
        item_schema = (schema.get("items") or {}) if many else schema
        known = ctx.by_kind.get(kind, ())
        for f in filled.values():
            ent = f.entity
            if ent is None:
                continue
            options = []
            for field, value in ent.fields.items():
                if field == ent.key_field:
                    continue
                for v in value if isinstance(value, list) else [value]:
                    if isinstance(v, str) and v in known and (arg, v) not in avoid \
                            and check_value(v, item_schema) and v not in options:
                        options.append(v)
            if options:
                value = rng.choice(options)
                return Filled([value] if many else value, "context", kind,
                              ctx.entity(kind, value))
        return None

    def _context(self, node: ToolNode, arg: str, schema: dict, kind: str, ctx: Context,
                 rng: random.Random, avoid: set | frozenset, filled: dict[str, Filled]
                 ) -> Filled | None:
        """An existing entity's id (or an observed value of that kind), not one another
        argument of this call already uses (from and to accounts differ)."""
        taken = {v for f in filled.values() if f.kind == kind
                 for v in (f.value if isinstance(f.value, list) else [f.value])}
        avoid = {*avoid, *((arg, v) for v in taken)}
        many = "array" in schema_types(schema)
        item_schema = (schema.get("items") or {}) if many else schema
        options = [k for k in ctx.keys(kind)
                   if (arg, k) not in avoid and check_value(k, item_schema)]
        if not options:
            options = [v for v in ctx.by_kind.get(kind, ()) if (arg, v) not in avoid
                       and check_value(v, item_schema)]
        if not options:
            return None
        options = _prefer(options, [getattr(ctx.entity(kind, o), "fields", None)
                                    for o in options], _words(node, arg), rng)
        if many:
            # two of the server's own ids would be quoted: one is named and looked up
            two = rng.random() < 0.3 and all(isinstance(o, str) and user_holds(o)
                                             for o in options)
            n = min(len(options), 2 if two else 1, schema.get("maxItems", 10 ** 9))
            values = rng.sample(options, n)
            if not check_value(values, schema):
                return None
            return Filled(values, "context", kind, ctx.entity(kind, values[0]))
        value = rng.choice(options)
        return Filled(value, "context", kind, ctx.entity(kind, value))

    def _query(self, node: ToolNode, schema: dict, ctx: Context, rng: random.Random
               ) -> Filled | None:
        """A search text that finds something: a word of a label of an entity the tool lists."""
        kinds = {f.kind for f in out_fields(node.output_schema) if f.in_array and f.kind}
        entities = [e for k in sorted(kinds) for e in ctx.entities.get(k, {}).values()]
        if not entities:
            entities = [e for k in sorted(ctx.entities) for e in ctx.entities[k].values()]
        rng.shuffle(entities)
        for ent in entities[:8]:
            label = label_of(ent.fields)
            if label is None:
                continue
            words = [w.strip(".,:;()'\"") for w in label[1].split()]
            # a word a person would search for: not "the", "for", "out" ("find messages
            # mentioning 'the'" came out of a reading check)
            words = [w for w in words if len(w) >= 3 and w.isalnum()
                     and w.lower() not in _STOPWORDS]
            if words:
                word = rng.choice(words)
                if check_value(word, schema):
                    return Filled(word, "generated", None, ent)
        return None


def _record(f: Filled) -> dict | None:
    """The fields of the record `f` holds the id of: its sampled entity's, or the output
    element it was taken from when that element is the record itself (not one pointing at
    it)."""
    if f.entity is not None:
        return f.entity.fields
    element = f.element
    if f.kind and isinstance(element, dict) and (key := key_of(element)) is not None \
            and key[1] == f.kind:
        return element
    return None


def _label(f: Filled) -> str | None:
    """The name of the record `f` holds the id of, where it has one; from a record pointing
    at it, its `<kind>_name` (a budget's `category_name`)."""
    fields = _record(f)
    if fields is None:
        named = name_on_owner(f)
        return named[0][1] if named else None
    label = label_of(fields)
    return label[1] if label else None


def _current_label(filled: dict[str, Filled], arg: str) -> tuple[str, str] | None:
    """(kind, title) of the record a call edits, where an argument already names it and its
    name is in `arg` (a contact's `title` is a job title, not an edit of 'Rafael Costa')."""
    for f in filled.values():
        fields = _record(f)
        label = label_of(fields) if fields is not None else None
        if label is not None and label[0] == arg:
            return f.kind, label[1]
    return None
