"""A person a write creates gets an address of their own: "add Priya Rivera at RedTextiles,
priya.rivera@redtextiles.com", not the address of someone already in the world (the reading
check found a new contact 'Yuki Ahmed' reachable at 'tara.okafor@ironlabs.com')."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from prove_jax.synthesis.context import Context
from prove_jax.synthesis.records import Filled, StepRecord
from prove_jax.synthesis.textbanks import LEGAL_FORMS

__all__ = ["own_email"]

_WORD = re.compile(r"[a-z0-9]+")


def _as_domain(name: str) -> str | None:
    """A company's name as its domain ("RedTextiles GmbH" -> redtextiles.com)."""
    words = [w for w in _WORD.findall(name.lower()) if w not in LEGAL_FORMS]
    return "".join(words) + ".com" if words else None


def _domain(filled: Mapping[str, Filled], ctx: Context) -> str | None:
    """The employer's name as a domain, else the world's most common one."""
    for f in filled.values():
        label = f.entity.label if f.entity is not None else None
        if f.kind in ("account", "company") and label and (domain := _as_domain(label[1])):
            return domain
    seen = [v.rsplit("@", 1)[1] for v in ctx.by_name.get("email", [])
            if isinstance(v, str) and "@" in v]
    return max(sorted(set(seen)), key=seen.count) if seen else None


def _name_beside(value: str, found: Any) -> str | None:
    """The full name stored beside an address in an earlier output (an email's `from_name`
    beside its `from_email`)."""
    if isinstance(found, dict):
        if value in found.values():
            names = [v for k, v in found.items() if k.endswith("name") and isinstance(v, str)
                     and len(v.split()) >= 2]
            if names:
                return names[0]
        found = list(found.values())
    if isinstance(found, list):
        for item in found:
            name = _name_beside(value, item)
            if name is not None:
                return name
    return None


def own_email(filled: dict[str, Filled], ctx: Context, steps: Sequence[StepRecord] = ()
              ) -> None:
    """Give the new person's `email` their own name (in place), where the call names them by
    first and last name. An address an earlier step found (save an email's sender as a
    contact) stays, and the person takes the name found beside it instead."""
    first, last, email = (filled.get(k) for k in ("first_name", "last_name", "email"))
    if first is None or last is None or email is None or not isinstance(email.value, str):
        return
    if email.source == "derived" and email.from_step is not None:
        step = steps[email.from_step]
        name = _name_beside(email.value, email.element or step.payload)
        if name is not None:
            given, family = name.split(" ", 1)
            filled["first_name"] = Filled(given, "generated")  # said by the user
            filled["last_name"] = Filled(family, "generated")
            _employer(filled, email.value.rsplit("@", 1)[-1], ctx)
            return
    domain = _domain(filled, ctx)
    local = ".".join("".join(_WORD.findall(str(f.value).lower())) for f in (first, last))
    if domain and local.strip("."):
        filled["email"] = Filled(f"{local}@{domain}", "generated")


def _employer(filled: dict[str, Filled], domain: str, ctx: Context) -> None:
    """The company whose domain the found address has, where the call files the person under
    one and the context knows it (olivia@redcapital.com goes under RedCapital Inc)."""
    for arg, f in list(filled.items()):
        if f.kind not in ("account", "company"):
            continue
        for key, ent in ctx.entities.get(f.kind, {}).items():
            if ent.label is not None and _as_domain(ent.label[1]) == domain:
                filled[arg] = Filled(key, "context", f.kind, ent)
                break
