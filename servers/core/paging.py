"""Cursor paging for list and search tools, the way Stripe and Slack page.

A paged tool takes `limit: Limit = 20` and `cursor: Cursor = None`, orders its matching rows as
it always has, and returns `page(rows, limit, cursor)`'s rows plus `next_cursor` (None on the
last page). The caller follows `next_cursor` with the same filter arguments until it is null.

The cursor is an id-anchored keyset cursor: it holds the id of the page's last row (and that
row's position, only as a fallback). Tools order rows by many things (date, relevance,
distance, a `sort` argument), so comparing sort keys would need each tool's sort tuple; anchoring
on the last row's id keeps each tool's own order and still gives keyset's guarantees that an
offset cannot: a row inserted during a walk is never returned twice, and rows deleted behind
the cursor do not shift the rest. If the anchor row itself is gone (deleted, or it no longer
matches a filter), the walk resumes at its old position, where the next row now sits.

The cursor is opaque (urlsafe base64 of a small JSON) and carries a fingerprint of the tool and
its filter arguments, taken by the Domain from the call's bound arguments (every argument but
`limit` and `cursor`, defaults applied), so a tool cannot forget one; a cursor reused with other
filters, on another tool, altered or malformed is refused with a message naming the cause.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import contextvars
import hashlib
import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

from servers.core.errors import SchemaError
from servers.core.schema import Arg

DEFAULT_LIMIT, MAX_LIMIT = 20, 100
PAGING_ARGS = ("limit", "cursor")

Limit = Annotated[int, Arg(f"Page size (at most {MAX_LIMIT})", minimum=1, maximum=MAX_LIMIT)]
Cursor = Annotated[str | None, Arg(
    "next_cursor from the previous page, with the same filter arguments; omit for the first "
    "page", min_length=1, max_length=512)]

_SALT = b"prove-jax/cursor/v1"  # not a secret: the checksum catches edits, not attackers
# The running paged call's (tool, filter fingerprint), set by Domain around the tool function.
_QUERY: contextvars.ContextVar[tuple[str, str]] = contextvars.ContextVar("paging_query")


@dataclass(frozen=True)
class Page:
    rows: list[Any]  # table rows, shaped rows or plain ids (find's paths)
    next_cursor: str | None


def fingerprint(filters: dict[str, Any]) -> str:
    """A short digest of a call's filter arguments (canonical JSON, so order does not matter)."""
    text = json.dumps(filters, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@contextlib.contextmanager
def query(tool: str, filters: dict[str, Any]) -> Iterator[None]:
    """The span of one paged call (Domain opens it around the tool): what page() checks."""
    token = _QUERY.set((tool, fingerprint(filters)))
    try:
        yield
    finally:
        _QUERY.reset(token)


def _checksum(body: dict) -> str:
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(_SALT + text.encode()).hexdigest()[:12]


def encode(tool: str, filters_fp: str, after: str, pos: int) -> str:
    body = {"t": tool, "q": filters_fp, "a": after, "p": pos}
    raw = json.dumps({**body, "c": _checksum(body)}, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


_RESTART = "pass the previous page's next_cursor unchanged, or omit cursor to start over"


def decode(cursor: str, tool: str, filters_fp: str) -> tuple[str, int]:
    """(anchor id, anchor position) of a cursor this call may use, else a SchemaError."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        data = json.loads(raw)
        body = {k: data[k] for k in ("t", "q", "a", "p")}
        valid = (isinstance(data["c"], str) and isinstance(body["a"], str)
                 and type(body["p"]) is int and body["p"] >= 0)
    except (binascii.Error, ValueError, TypeError, KeyError):
        valid = False
    if not valid:
        raise SchemaError(f"{tool}: cursor {cursor[:40]!r} is malformed (not a next_cursor this "
                          f"server returned); {_RESTART}")
    if data["c"] != _checksum(body):
        raise SchemaError(f"{tool}: cursor {cursor[:40]!r} was altered (its checksum does not "
                          f"match); {_RESTART}")
    if body["t"] != tool:
        raise SchemaError(f"{tool}: cursor belongs to {body['t']!r}, not {tool!r}; {_RESTART}")
    if body["q"] != filters_fp:
        raise SchemaError(f"{tool}: cursor was issued for different filter arguments; repeat "
                          "the filters of the call that returned it (only limit may change), "
                          "or omit cursor to start over")
    return body["a"], body["p"]


def page(rows: Sequence[Any], limit: int, cursor: str | None, *,
         key: str | Callable[[Any], str], at: tuple[str, str] | None = None) -> Page:
    """The page of `rows` (already filtered and in the tool's order) after `cursor`.

    key: the rows' unique id field, or a function giving a row's unique id (an occurrence of a
    recurring event: its id and start); at: (tool, filter fingerprint) for a call outside a
    Domain (unit tests).
    """
    ident = (lambda r: r[key]) if isinstance(key, str) else key
    if at is None and _QUERY.get(None) is None:
        raise RuntimeError("paging.page() ran outside a paged call: a tool with a `cursor` "
                           "parameter registered through Domain.tool, or pass `at`")
    tool, filters_fp = at if at is not None else _QUERY.get()
    if not rows:
        if cursor is not None:
            decode(cursor, tool, filters_fp)
        return Page([], None)
    start = 0
    if cursor is not None:
        after, pos = decode(cursor, tool, filters_fp)
        ids = [ident(r) for r in rows]
        start = ids.index(after) + 1 if after in ids else min(pos, len(rows))
    chunk = list(rows[start:start + limit])
    end = start + len(chunk)
    more = end < len(rows) and chunk
    return Page(chunk, encode(tool, filters_fp, ident(chunk[-1]), end - 1) if more else None)
