"""A person a write creates gets an address of their own: "add Priya Rivera at RedTextiles,
priya.rivera@redtextiles.com", not the address of someone already in the world (the reading
check found a new contact 'Yuki Ahmed' reachable at 'tara.okafor@ironlabs.com')."""

from __future__ import annotations

import re
from collections.abc import Mapping

from prove_jax.synthesis.context import Context
from prove_jax.synthesis.records import Filled
from prove_jax.synthesis.textbanks import LEGAL_FORMS

__all__ = ["own_email"]

_WORD = re.compile(r"[a-z0-9]+")


def _domain(filled: Mapping[str, Filled], ctx: Context) -> str | None:
    """The employer's name as a domain ("RedTextiles GmbH" -> redtextiles.com), else the
    world's most common one."""
    for f in filled.values():
        label = f.entity.label if f.entity is not None else None
        if f.kind in ("account", "company") and label:
            words = [w for w in _WORD.findall(label[1].lower()) if w not in LEGAL_FORMS]
            if words:
                return "".join(words) + ".com"
    seen = [v.rsplit("@", 1)[1] for v in ctx.by_name.get("email", [])
            if isinstance(v, str) and "@" in v]
    return max(sorted(set(seen)), key=seen.count) if seen else None


def own_email(filled: dict[str, Filled], ctx: Context) -> None:
    """Give the new person's `email` their own name (in place), where the call names them by
    first and last name."""
    first, last, email = (filled.get(k) for k in ("first_name", "last_name", "email"))
    if first is None or last is None or email is None or not isinstance(email.value, str):
        return
    domain = _domain(filled, ctx)
    local = ".".join("".join(_WORD.findall(str(f.value).lower())) for f in (first, last))
    if domain and local.strip("."):
        filled["email"] = Filled(f"{local}@{domain}", "generated")
