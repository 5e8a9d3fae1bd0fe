"""How users ask for each tool, in their own words: at least three phrasings per tool, one
module per server (`PHRASES: dict[tool name, tuple of phrasings]`).

A phrasing is a verb phrase in the user's voice that fits after "Could you ..." or "Please
...": lower-case first letter, no final punctuation, no tool names, no ids.

- `{arg}` is a slot for one argument of the call. The verbalizer renders it:
  - an id argument (`id`, `*_id`, `*_ids`) as a noun phrase that carries its own noun ("the
    account 'Holiday Savings'", "ticket 'WEB-6'", "that payment"), so a phrasing never puts
    the noun before an id slot ("freeze {card_id}", not "freeze card {card_id}");
  - any other argument as its bare value: strings quoted ('Rent'), numbers as digits, enum
    choices as the choice itself, so the phrasing says what the value is ("nicknamed
    {nickname}", "for {amount}").
- `{arg?words if true|words if false}` is a slot for a yes/no argument, said as words
  ("{on?switch on|switch off} {device_id}").
- `[...]` is an optional part, said only when every slot in it has a value in the call (an
  optional argument left out, or a required one withheld for a clarification, drops it).
  Parts do not nest and each holds at least one slot.
- Every required argument has a slot in every phrasing. An id slot whose entity the user
  leaves open (withheld for a clarification) reads "an expense"; a yes/no slot the call
  leaves out takes the schema's default; any other bare slot (outside `[...]`) whose value
  the user does not state makes the phrasing unusable for that call (another one, or the
  generic wording, is used).
- Arguments a phrasing has no slot for, when the call has them, are appended by the
  verbalizer ("..., with the limit set to 5").
"""

from __future__ import annotations

import importlib
import re
from functools import cache

__all__ = ["SLOT", "fill", "kept_slots", "phrasings", "slots"]

SLOT = re.compile(r"\{([a-z_][a-z0-9_]*)(?:\?([^|{}]*)\|([^{}]*))?\}")
_PART = re.compile(r"\[([^\[\]]*)\]")


@cache
def _book(server: str) -> dict[str, tuple[str, ...]]:
    try:
        module = importlib.import_module(f"{__name__}.{server}")
    except ModuleNotFoundError:
        return {}
    return module.PHRASES


def phrasings(server: str, tool: str) -> tuple[str, ...]:
    """The phrasings of `tool` on `server` (empty when it has none)."""
    return _book(server).get(tool, ())


def slots(phrasing: str) -> list[str]:
    """Every argument a phrasing has a slot for, in order."""
    return [m.group(1) for m in SLOT.finditer(phrasing)]


def kept_slots(phrasing: str, values: dict[str, str]) -> set[str]:
    """The slots `fill` renders: those outside optional parts, and those of the optional parts
    it keeps (a part is dropped whole when any of its slots lacks a value)."""
    kept = _PART.sub(lambda m: m.group(1) if all(a in values for a in slots(m.group(1)))
                     else "", phrasing)
    return set(slots(kept))


def _say(m: re.Match, values: dict[str, str]) -> str:
    said = values[m.group(1)]
    if m.group(2) is None:
        return said
    return m.group(2) if said == "yes" else m.group(3)  # yes/no values render as yes / no


def fill(phrasing: str, values: dict[str, str]) -> str | None:
    """The phrasing with its slots rendered (`values`: argument -> its rendering, only the
    arguments the user states). Optional parts whose slots lack a value are dropped; None
    when a bare slot lacks one."""
    def part(m: re.Match) -> str:
        inner = m.group(1)
        return SLOT.sub(lambda s: _say(s, values), inner) \
            if all(a in values for a in slots(inner)) else ""
    text = _PART.sub(part, phrasing)
    if any(a not in values for a in slots(text)):
        return None
    return " ".join(SLOT.sub(lambda s: _say(s, values), text).split())
