"""Near-duplicate removal: Jaccard similarity over the SETS of tool calls (name + canonical
JSON arguments) against every earlier kept example, with a prefix-filter index so a check
costs a few posting lists instead of a scan of all kept examples.

Prefix filtering: order every token by one fixed global order; if J(x, y) >= t then
|x ∩ y| >= t·|x|, so x's first |x| - ceil(t·|x|) + 1 tokens must meet y's tokens, and the
same holds for y. Indexing each kept set under its prefix tokens and probing with the new
set's prefix finds every candidate; exact Jaccard decides. Calls without arguments are the
most common tokens, so they sort last (they rarely land in a prefix).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable

__all__ = ["NearDuplicateIndex", "call_tokens", "jaccard"]


def call_tokens(calls: Iterable[dict]) -> frozenset[str]:
    return frozenset(f"{c['name']}|" + json.dumps(c["arguments"], sort_keys=True,
                                                   separators=(",", ":"), ensure_ascii=False)
                     for c in calls)


def jaccard(a: frozenset, b: frozenset) -> float:
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


def _order(token: str) -> tuple[bool, str]:
    return token.endswith("|{}"), hashlib.sha1(token.encode()).hexdigest()


class NearDuplicateIndex:
    def __init__(self, threshold: float):
        if not 0 < threshold <= 1:
            raise ValueError(f"jaccard threshold must be in (0, 1], got {threshold}")
        self.t = threshold
        self.sets: list[frozenset[str]] = []
        self.ids: list[str] = []
        self.postings: dict[str, list[int]] = {}

    def _prefix(self, tokens: frozenset[str]) -> list[str]:
        ordered = sorted(tokens, key=_order)
        n = len(ordered)
        return ordered[:n - math.ceil(self.t * n - 1e-9) + 1]

    def find(self, tokens: frozenset[str]) -> str | None:
        """The id of a kept example this set is a near-duplicate of, if any."""
        if not tokens:
            return None
        seen: set[int] = set()
        for tok in self._prefix(tokens):
            for k in self.postings.get(tok, ()):
                if k in seen:
                    continue
                seen.add(k)
                if jaccard(tokens, self.sets[k]) >= self.t:
                    return self.ids[k]
        return None

    def add(self, tokens: frozenset[str], example_id: str) -> None:
        if not tokens:
            return
        k = len(self.sets)
        self.sets.append(tokens)
        self.ids.append(example_id)
        for tok in self._prefix(tokens):
            self.postings.setdefault(tok, []).append(k)
