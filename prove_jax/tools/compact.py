"""Compact tool schemas: the same tools in fewer prompt tokens, for small-context runs.

A server's JSON Schema carries validation detail that the server enforces anyway (bounds,
lengths, `additionalProperties: false`, defaults): on a 2-core CPU, where tool schemas are most
of a prompt and each prompt token costs a forward pass per turn, the model is shown only what
it needs to write a call: the tool's description, each argument's type, enum and description,
and which arguments are required. Calls are still validated against the full schema.
"""

from __future__ import annotations

from typing import Any

__all__ = ["compact_schema"]

_KEEP = ("type", "enum", "description", "items", "properties", "required")


def _compact(node: Any) -> Any:
    if not isinstance(node, dict):
        return node
    out = {k: node[k] for k in _KEEP if k in node}
    if "properties" in out:
        out["properties"] = {name: _compact(p) for name, p in out["properties"].items()}
    if "items" in out:
        out["items"] = _compact(out["items"])
    if not out.get("required"):
        out.pop("required", None)
    return out


def compact_schema(schema: dict) -> dict:
    """An OpenAI-style tool schema without the validation-only keywords (see module doc)."""
    fn = schema["function"]
    compact = {"name": fn["name"], "description": fn.get("description", "")}
    if fn.get("parameters"):
        compact["parameters"] = _compact(fn["parameters"])
    return {"type": "function", "function": compact}
