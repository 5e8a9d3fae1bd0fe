"""How the requests read and what skills the truth covers: the figures issue 23 judges a run
by, computed on the kept conversations and written to stats.json under `quality`.

- `ids_quoted`: normal rows where the string value of a truth argument named `id` or `*_id`,
  or an element of one named `*_ids`, appears verbatim in the user's turns;
  `internal_ids_quoted` counts only ids a user would not hold (held.user_holds).
- `template_fragments`: rows holding a phrase of the old template verbalizer.
- `parallel`: normal rows with a step of two or more calls.
- `cross_server`: normal rows where a step takes a value from a step on another server.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from prove_jax.synthesis.held import user_holds
from prove_jax.synthesis.records import Conversation

__all__ = ["FRAGMENTS", "quality_of", "quoted_internal_ids"]

FRAGMENTS = ("the one whose", "that same one", "handle this", "the one from the previous step")


def _ids(args: dict[str, Any]) -> list[str]:
    """The ids a call takes: `id`, `*_id`, and each element of an `*_ids` list (channel
    members to invite are as much quoted ids as one member)."""
    return [v for k, value in args.items() if k == "id" or k.endswith(("_id", "_ids"))
            for v in (value if isinstance(value, list) else [value]) if isinstance(v, str) and v]


def quoted_internal_ids(turns: Sequence[str], calls: Sequence[dict[str, Any]]) -> list[str]:
    """The ids the calls take that the user's turns quote verbatim and no user holds."""
    text = " ".join(turns)
    return [v for args in calls for v in _ids(args) if v in text and not user_holds(v)]


def _share(hits: int, total: int) -> float:
    return round(hits / total, 4) if total else 0.0


def quality_of(kept: Sequence[Conversation]) -> dict[str, Any]:
    normal = [c for c in kept if c.kind == "normal"]
    quoted = internal = parallel = cross = 0
    for c in normal:
        text = " ".join(c.user_turns)
        quoted += any(v in text for s in c.steps for v in _ids(s.args))
        internal += bool(quoted_internal_ids(c.user_turns, [s.args for s in c.steps]))
        parallel += any(len(step) > 1 for step in c.truth()["steps"])
        cross += any(c.steps[d].node.server != s.node.server for s in c.steps for d in s.deps)
    fragments = sum(any(f in " ".join(c.user_turns) for f in FRAGMENTS) for c in kept)
    n = len(normal)
    return {"normal_rows": n, "ids_quoted": _share(quoted, n),
            "internal_ids_quoted": _share(internal, n),
            "template_fragments": _share(fragments, len(kept)),
            "parallel": _share(parallel, n), "cross_server": _share(cross, n)}
