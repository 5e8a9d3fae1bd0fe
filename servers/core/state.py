"""Session state: named tables of JSON records with an undo journal, so that a failed call
leaves the state exactly as it was (all or nothing) without copying the world per call.

Rules for tool code: read rows with `get`/`find`/`rows`, never mutate a row dict in place;
change state only through `insert`, `update`, `delete`, `set_var` and `next_id`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from servers.core.errors import NotFound, ToolError
from servers.core.ids import opaque

Row = dict[str, Any]


class Table:
    def __init__(self, state: State, name: str, key: str, kind: str, hint: str):
        self._state, self.name, self.key, self.kind, self.hint = state, name, key, kind, hint
        self._rows: dict[str, Row] = {}

    def __len__(self) -> int:
        return len(self._rows)

    def __contains__(self, row_id: object) -> bool:
        return row_id in self._rows

    def get(self, row_id: str) -> Row:
        """The row, or a NotFound naming the id and where valid ids come from."""
        row = self._rows.get(row_id)
        if row is None:
            raise NotFound(f"no {self.kind} with id {row_id!r}; {self.hint}")
        return row

    def find(self, row_id: str) -> Row | None:
        return self._rows.get(row_id)

    def rows(self, where: Callable[[Row], bool] | None = None) -> list[Row]:
        return [r for r in self._rows.values() if where is None or where(r)]

    def ids(self) -> list[str]:
        return list(self._rows)

    def insert(self, row: Row) -> Row:
        row_id = row[self.key]
        if row_id in self._rows:
            raise ToolError(f"{self.kind} {row_id!r} already exists")
        self._state._record((self._rows, row_id, _MISSING, None))
        self._rows[row_id] = row
        return row

    def update(self, row_id: str, **changes: Any) -> Row:
        old = self.get(row_id)
        self._state._record((self._rows, row_id, old, None))
        new = {**old, **changes}
        self._rows[row_id] = new
        return new

    def delete(self, row_id: str) -> Row:
        old = self.get(row_id)
        # Its position too: list tools return rows in table order, so a rollback must put the
        # row back where it was, not at the end.
        position = list(self._rows).index(row_id)
        self._state._record((self._rows, row_id, old, position))
        del self._rows[row_id]
        return old

    def load(self, rows: list[Row]) -> None:
        """Initial rows (generation time, not journaled)."""
        self._state._digest = None
        for row in rows:
            self._rows[row[self.key]] = row


class State:
    """All tables of one session, plus scalar vars and id counters."""

    def __init__(self) -> None:
        self.tables: dict[str, Table] = {}
        self._vars: dict[str, Any] = {}
        # (store, key, old value or _MISSING, position of a deleted row or None)
        self._journal: list[tuple[dict, str, Any, int | None]] = []
        self._digest: str | None = None  # memo, dropped by every change
        self.id_salt = ""  # the world seed that `next_id` mints under (set by ids.seal)

    def _record(self, entry: tuple[dict, str, Any, int | None]) -> None:
        """Journal one change (for rollback); the state is no longer what was hashed."""
        self._digest = None
        self._journal.append(entry)

    def table(self, name: str, *, key: str = "id", kind: str | None = None,
              hint: str = "") -> Table:
        """Create (at generation time) or fetch a table."""
        if name not in self.tables:
            self._digest = None
            kind = kind or name.rstrip("s")
            self.tables[name] = Table(self, name, key, kind, hint or f"list {name} to see ids")
        return self.tables[name]

    def __getitem__(self, name: str) -> Table:
        return self.tables[name]

    def var(self, name: str, default: Any = None) -> Any:
        return self._vars.get(name, default)

    def set_var(self, name: str, value: Any) -> None:
        self._record((self._vars, name, self._vars.get(name, _MISSING), None))
        self._vars[name] = value

    def next_id(self, prefix: str) -> str:
        """A fresh opaque id like 'txn_k7qm2x' (the 42nd 'txn' of this world, see
        servers.core.ids); counters are state too, so replays agree."""
        return opaque(self.id_salt, f"{prefix}_{self.next_number(prefix)}")

    def next_number(self, prefix: str) -> int:
        """Advance the counter of `prefix` and return it (for serial numbers beside ids)."""
        key = f"__seq_{prefix}"
        n = self._vars.get(key, 0) + 1
        self.set_var(key, n)
        return n

    # ---------------------------------------------------------------- transactions
    def begin(self) -> None:
        self._journal.clear()

    def rollback(self) -> None:
        # Newest first: each undo then sees the store exactly as its change left it, so a
        # deleted row's recorded position is still right.
        if self._journal:
            self._digest = None
        for store, key, old, position in reversed(self._journal):
            if old is _MISSING:
                store.pop(key, None)
            elif position is None:
                store[key] = old
            else:
                _put_at(store, key, old, position)
        self._journal.clear()

    def commit(self) -> None:
        self._journal.clear()

    # ---------------------------------------------------------------- snapshots
    def to_json(self) -> dict[str, Any]:
        return {"tables": {n: t._rows for n, t in sorted(self.tables.items())},
                "vars": self._vars}

    def canonical(self) -> str:
        return json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"),
                          ensure_ascii=False)

    def digest(self) -> str:
        """sha256 of the canonical JSON; memoised until the next change (tools change state
        only through the journaled methods, so the memo cannot go stale)."""
        if self._digest is None:
            self._digest = hashlib.sha256(self.canonical().encode()).hexdigest()
        return self._digest


def _put_at(store: dict, key: str, value: Any, position: int) -> None:
    """Insert `key` at `position` of the dict's order (the dict is changed in place)."""
    tail = [(k, store.pop(k)) for k in list(store)[position:]]
    store[key] = value
    store.update(tail)


class _Missing:
    def __repr__(self) -> str:
        return "<missing>"


_MISSING = _Missing()
