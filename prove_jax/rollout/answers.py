"""What the oracle says when a user turn is done: what the tools returned, in a line or two
("Found 3 payments: 'rent share', 'dinner', 'groceries'."), not which tools it called. SFT
on "Done. I took care of that using get_size, cd." taught a model to stop, but not to answer
a question from the results (the second SmolLM2 reading).

The results come from the request's own context: the last tool responses shown, one per call
of the turn, as the chat templates render them (<tool_response> blocks)."""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["summarize", "tool_results"]

_RESPONSE = re.compile(r"<tool_response>\n?(.*?)\n?</tool_response>", re.S)
_LABELS = ("name", "title", "subject", "display_name", "label", "symbol", "path", "merchant",
           "filename", "note", "memo", "content", "text", "description")
_FACTS = ("status", "amount", "total", "balance", "price", "quantity", "start", "date",
          "city", "rating", "count", "size", "is_read", "locked", "on")
_FAILED = "that did not work: "
MAX_ITEMS = 3  # items named from a listing
MAX_CHARS = 240  # an answer stays a line or two: the SFT budget is tokens


def tool_results(context: str, n: int) -> list[str]:
    """The last `n` tool responses in a decoded context (fewer where it shows fewer)."""
    found = _RESPONSE.findall(context)
    return found[-n:] if n > 0 else []


def _label(record: dict) -> str | None:
    for field in _LABELS:
        value = record.get(field)
        if isinstance(value, str) and value and "\n" not in value:
            return value if len(value) <= 60 else value[:57] + "..."
    return None


def _facts(record: dict) -> str:
    out = []
    for field in _FACTS:
        value = record.get(field)
        if isinstance(value, bool):
            out.append(f"{field.replace('_', ' ')}: {'yes' if value else 'no'}")
        elif isinstance(value, (int, float, str)) and value != "" and \
                not (isinstance(value, str) and len(value) > 40):
            out.append(f"{field.replace('_', ' ')} {value}")
    return ", ".join(out[:3])


def _record(record: dict) -> str:
    label, facts = _label(record), _facts(record)
    if label and facts:
        return f"'{label}' ({facts})"
    return f"'{label}'" if label else facts


def _one(result: str) -> str:
    try:
        value: Any = json.loads(result)
    except (json.JSONDecodeError, TypeError):
        text = " ".join(result.split())
        return text if len(text) <= 120 else text[:117] + "..."
    if isinstance(value, dict):
        if isinstance(value.get("error"), (str, dict)):
            error = value["error"]
            message = error.get("message") if isinstance(error, dict) else error
            return f"{_FAILED}{message}"
        lists = [(k, v) for k, v in value.items() if isinstance(v, list)
                 and all(isinstance(x, dict) for x in v)]
        if lists and not _label(value):
            key, items = max(lists, key=lambda kv: len(kv[1]))
            if not items:
                return f"no {key.replace('_', ' ')} found"
            named = [s for s in (_record(x) for x in items[:MAX_ITEMS]) if s]
            more = f" and {len(items) - MAX_ITEMS} more" if len(items) > MAX_ITEMS else ""
            head = f"{len(items)} {key.replace('_', ' ')}"
            return f"{head}: {'; '.join(named)}{more}" if named else head
        said = _record(value)
        return said or "done"
    if isinstance(value, list):
        return f"{len(value)} results" if value else "no results"
    return str(value)


def _listing(result: str) -> bool:
    try:
        value = json.loads(result)
    except (json.JSONDecodeError, TypeError):
        return False
    return isinstance(value, list) or (isinstance(value, dict) and not _label(value) and any(
        isinstance(v, list) for v in value.values()))


def summarize(results: list[str]) -> str:
    """The final answer from the turn's tool results: what a listing holds ("Here is what I
    found: 2 payments: ..."), else the record a call returned ("Done: 'Order 7116' (status
    cancelled)")."""
    body = "; ".join(p for p in (_one(r) for r in results) if p)
    if len(body) > MAX_CHARS:
        body = body[:MAX_CHARS - 3].rstrip() + "..."
    if not body:
        return "Done. Is there anything else you need?"
    if body.startswith(_FAILED) and all(p.startswith(_FAILED) for p in map(_one, results)):
        return f"Sorry, {body}."
    lead = "Here is what I found" if any(_listing(r) for r in results) else "Done"
    return f"{lead}: {body}."
