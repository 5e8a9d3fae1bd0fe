"""Opaque, seeded ids: what a policy sees instead of positions.

Builders and tools name entities positionally for readability ('acc_003' is the third account
built, 'ord_46' the 46th order). Positional ids would let a policy memorise them across seeds
and leak from train worlds into held-out ones, so every one is shown as an opaque id derived
from (world seed, positional name): 'acc_003' becomes e.g. 'acc_k7qm2x' at one seed and
'acc_p3hv9t' at another. The mapping is a pure function, so every server of a world (and every
process) agrees on the ids of shared entities, and a seed still gives one world.

`seal` rewrites a freshly built state once; `State.next_id` mints through `opaque` at run time.
"""

from __future__ import annotations

import hashlib
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from servers.core.state import State

# no look-alikes (0/o, 1/l/i); the body starts with a letter, so it is never all digits and
# a sealed id never looks positional again (sealing twice changes nothing)
LETTERS = "abcdefghjkmnpqrstuvwxyz"
ALPHABET = LETTERS + "23456789"
BODY_LEN = 6  # 23 * 31^5, about 6.6e8 values: no collision among a world's thousands of ids
POSITIONAL = re.compile(r"^([a-z][a-z0-9]*)_(\d+)$")
# what `opaque` makes of a positional id: its prefix, then BODY_LEN characters of no meaning
SEALED = re.compile(rf"^[a-z][a-z0-9]*_[{LETTERS}][{ALPHABET}]{{{BODY_LEN - 1}}}$")


def opaque(salt: str | int, name: str) -> str:
    """The opaque id of positional `name` ('acc_003', 'acc_3' alike) in the world `salt`."""
    match = POSITIONAL.match(name)
    if match is None:
        raise ValueError(f"{name!r} is not a positional id like 'acc_e9k4dg'")
    prefix, number = match.group(1), int(match.group(2))
    digest = hashlib.blake2b(f"{salt}/{prefix}_{number}".encode(), digest_size=BODY_LEN).digest()
    # a byte per character (the modulo bias, under 10%, costs no uniqueness that matters here)
    return (f"{prefix}_{LETTERS[digest[0] % len(LETTERS)]}"
            + "".join(ALPHABET[b % len(ALPHABET)] for b in digest[1:]))


def key_numbers(state: State) -> dict[str, int]:
    """The prefix of every positional id in the state ('acc' of 'acc_003': row keys and
    `id` / `*_id` fields), with the highest number built under it."""
    found: dict[str, int] = {}

    def note(value: Any) -> None:
        match = POSITIONAL.match(value) if isinstance(value, str) else None
        if match:
            prefix, number = match.group(1), int(match.group(2))
            found[prefix] = max(found.get(prefix, 0), number)

    for table in state.tables.values():
        for row_id, row in table._rows.items():
            note(row_id)
            for field, value in row.items():  # ids of things with no table ('thr_0003')
                if field == "id" or field.endswith("_id"):
                    note(value)
    return found


class Sealer:
    """Rewrites every positional id with a known prefix, wherever it appears: keys, values,
    list items, dict keys and inside free text ('Refund for ord_0045')."""

    def __init__(self, salt: str | int, prefixes: set[str]):
        self.salt = str(salt)
        alternatives = "|".join(sorted(map(re.escape, prefixes), key=len, reverse=True))
        # not inside a longer word or path: 'x_acc_003' and 'acc_003.txt' stay as they are,
        # while 'ord_0045.' ending a sentence is an id
        self._pattern = re.compile(rf"(?<![\w/.-])(?:{alternatives})_\d+(?![\w/-]|\.\w)"
                                   if prefixes else r"(?!x)x")
        self._cache: dict[str, str] = {}
        self._texts: dict[str, str] = {}

    def _id(self, match: re.Match) -> str:
        name = match.group(0)
        out = self._cache.get(name)
        if out is None:
            out = self._cache[name] = opaque(self.salt, name)
        return out

    def text(self, value: str) -> str:
        if "_" not in value:
            return value
        out = self._texts.get(value)
        if out is None:  # worlds repeat their strings (statuses, names, ids): match each once
            out = self._texts[value] = self._pattern.sub(self._id, value)
        return out

    def row(self, row: dict) -> dict:
        """A row: its field names are not ids, and most values are plain scalars."""
        out = {}
        for field, value in row.items():
            kind = type(value)
            if kind is str:
                out[field] = value if "_" not in value else self.text(value)
            elif kind is dict or kind is list or kind is tuple:
                out[field] = self.value(value)
            else:
                out[field] = value
        return out

    def value(self, value: Any) -> Any:
        kind = type(value)
        if kind is str:
            return self.text(value)
        if kind is dict:
            return {self.text(k) if type(k) is str else k: self.value(v)
                    for k, v in value.items()}
        if kind is list:
            return [self.value(v) for v in value]
        if kind is tuple:
            return tuple(self.value(v) for v in value)
        return value


def seal(state: State, salt: str | int, extra_prefixes: set[str] = frozenset()) -> None:
    """Replace the positional ids of a freshly built state by opaque ones (generation time,
    not journaled). `extra_prefixes` are those of entities the state refers to but holds no
    table of (the world's people, companies, places and meetings)."""
    built = key_numbers(state)
    sealer = Sealer(salt, set(built) | set(extra_prefixes))
    state.id_salt = str(salt)
    for prefix, highest in built.items():
        # ids minted later must not land on a built one ('ord_0045' and 'ord_45' are one id)
        counter = f"__seq_{prefix}"
        state._vars[counter] = max(state._vars.get(counter, 0), highest)
    for table in state.tables.values():
        rows = [sealer.row(row) for row in table.rows()]
        table._rows.clear()
        table.load(rows)
    for name in list(state._vars):
        state._vars[name] = sealer.value(state._vars[name])
    state._digest = None


def id_values(payload: Any, out: list[str] | None = None) -> list[str]:
    """Every string a client reads as an id in `payload` (under a key `id` or `*_id`, at any
    depth), in order: what the overlap checks count."""
    out = [] if out is None else out
    if isinstance(payload, dict):
        for key, value in payload.items():
            if (key == "id" or key.endswith("_id")) and isinstance(value, str):
                out.append(value)
            else:
                id_values(value, out)
    elif isinstance(payload, list):
        for value in payload:
            id_values(value, out)
    return out


def resolve(value: Any, salt: str | int, key: str = "") -> Any:
    """`value` with every positional id under an id key ('account_id', 'attendee_ids', 'id')
    replaced by its opaque id in world `salt`: how example calls written against the built
    (positional) names of a world are played against it."""
    if isinstance(value, dict):
        return {k: resolve(v, salt, k) for k, v in value.items()}
    if isinstance(value, list):
        return [resolve(v, salt, key) for v in value]
    is_id_key = key == "id" or key.endswith(("_id", "_ids"))
    if is_id_key and isinstance(value, str) and POSITIONAL.match(value):
        return opaque(salt, value)
    return value
