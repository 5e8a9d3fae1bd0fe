"""BFCL multi-turn data: entries, ground truth and tool schemas, read from the installed package.

Nothing is copied from `bfcl_eval`: its own loaders (`load_dataset_entry`,
`load_ground_truth_entry`) read the data files shipped in the wheel, and they already build each
entry's function list from `multi_turn_func_doc` by its `involved_classes` and move the
`missed_function` docs out of it (`populate_test_cases_with_predefined_functions`), exactly as
BFCL's own generation does. The loaded lists are cached per category and treated as read-only:
an episode copies what it mutates (the scenario config).

BFCL's function docs use Python-flavoured types ("dict", "float", "tuple", "any"); chat
templates expect OpenAI/JSON-schema tools, so `tool_schema` maps them with BFCL's own
GORILLA_TO_OPENAPI table ("any" leaves the type out instead of BFCL's "string", since any value
is accepted). Ground-truth calls are Python call strings, some with positional arguments
(`sort('final_report.pdf')`); `parse_truth_call` reads them with `ast` (literals only) and names
the positional ones from the owning method's signature.
"""

from __future__ import annotations

import ast
import copy
import functools
import importlib
import inspect
import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["CATEGORIES", "BfclEntry", "bfcl_class", "load_entries", "method_owner",
           "parse_truth_call", "tool_schema", "truth_uses_withheld"]

# Importing bfcl_eval's config creates result/, score/ and .file_locks/ under BFCL_PROJECT_ROOT
# (default: inside site-packages, which may be read-only); send them to a scratch dir unless
# the caller chose one. bfcl_eval itself is imported lazily, on first use.
os.environ.setdefault("BFCL_PROJECT_ROOT", str(Path(tempfile.gettempdir()) / "prove_jax_bfcl"))

CATEGORIES = ("multi_turn_base", "multi_turn_miss_param", "multi_turn_miss_func",
              "multi_turn_long_context")


@dataclass(frozen=True, eq=False)  # identity: the raw dict is not hashable
class BfclEntry:
    """One BFCL multi-turn test entry with its ground truth (read-only views of BFCL's data)."""

    id: str
    category: str
    raw: dict  # BFCL's test entry as its loader returns it (what the checker takes)
    ground_truth: list[list[str]]  # per user turn, BFCL's call strings

    @property
    def questions(self) -> list[list[dict]]:
        """Per user turn, BFCL's messages ([] on a miss_func turn that reveals functions)."""
        return self.raw["question"]

    @property
    def involved_classes(self) -> list[str]:
        return self.raw["involved_classes"]

    @property
    def functions(self) -> list[dict]:
        """BFCL docs of the functions offered from the start."""
        return self.raw["function"]

    @property
    def missed_functions(self) -> dict[int, list[dict]]:
        """User turn -> BFCL docs of the functions withheld until that turn."""
        return {int(k): v for k, v in self.raw.get("missed_function", {}).items()}

    @property
    def long_context(self) -> bool:
        # BFCL's rule (multi_turn_checker / base_handler): by the category in the id
        return "long_context" in self.category or "composite" in self.category


@functools.cache
def _category(category: str) -> tuple[BfclEntry, ...]:
    from bfcl_eval.utils import load_dataset_entry, load_ground_truth_entry

    entries = load_dataset_entry(category)
    truths = {t["id"]: t["ground_truth"] for t in load_ground_truth_entry(category)}
    missing = [e["id"] for e in entries if e["id"] not in truths]
    if missing:
        raise ValueError(f"BFCL {category}: no ground truth for {missing[:5]}")
    return tuple(BfclEntry(e["id"], category, e, truths[e["id"]]) for e in entries)


def load_entries(category: str, limit: int | None = None,
                 ids: Iterable[str] | None = None) -> list[BfclEntry]:
    """The category's entries in BFCL's order; `ids` selects some (order kept), `limit` keeps
    the first n of the result."""
    if category not in CATEGORIES:
        raise ValueError(f"unknown BFCL multi-turn category {category!r}; known: {CATEGORIES}")
    entries = list(_category(category))
    if ids is not None:
        wanted = list(ids)
        known = {e.id for e in entries}
        unknown = [i for i in wanted if i not in known]
        if unknown:
            raise ValueError(f"BFCL {category}: no entries {unknown[:5]}")
        keep = set(wanted)
        entries = [e for e in entries if e.id in keep]
    if limit is not None:
        if limit < 0:
            raise ValueError(f"limit must be >= 0, got {limit}")
        entries = entries[:limit]
    return entries


# ---------------------------------------------------------------------- tool schemas
def _json_types(node: dict, where: str) -> dict:
    from bfcl_eval.constants.type_mappings import GORILLA_TO_OPENAPI

    kind = node.get("type")
    out = {}
    if kind is not None and kind not in ("any", "Any"):
        if kind not in GORILLA_TO_OPENAPI:
            raise ValueError(f"BFCL function doc {where}: unknown type {kind!r}")
        out["type"] = GORILLA_TO_OPENAPI[kind]
    out.update((k, v) for k, v in node.items() if k != "type")
    if isinstance(out.get("properties"), dict):
        out["properties"] = {k: _json_types(v, f"{where}.{k}")
                             for k, v in out["properties"].items()}
    if isinstance(out.get("items"), dict):
        out["items"] = _json_types(out["items"], f"{where}[]")
    return out


def tool_schema(doc: dict) -> dict:
    """A BFCL function doc as an OpenAI-style tool ({"type": "function", "function": ...}).

    The `response` schema stays (BFCL shows it to function-calling models too), typed the same
    way."""
    fn = copy.deepcopy(doc)
    name = fn.get("name", "?")
    params = _json_types({**(fn.get("parameters") or {}), "type": "dict"}, name)
    params.setdefault("properties", {})
    fn["parameters"] = params
    if isinstance(fn.get("response"), dict):
        fn["response"] = _json_types(fn["response"], f"{name}.response")
    return {"type": "function", "function": fn}


# ---------------------------------------------------------------------- ground truth calls
@functools.cache
def bfcl_class(class_name: str) -> type:
    from bfcl_eval.constants.executable_backend_config import CLASS_FILE_PATH_MAPPING

    if class_name not in CLASS_FILE_PATH_MAPPING:
        raise ValueError(f"unknown BFCL class {class_name!r}")
    return getattr(importlib.import_module(CLASS_FILE_PATH_MAPPING[class_name]), class_name)


def method_owner(involved_classes: Iterable[str]) -> dict[str, str]:
    """Public method name -> owning class, a later class winning a clash (BFCL's rule in
    `execute_multi_turn_func_call`)."""
    owner: dict[str, str] = {}
    for class_name in involved_classes:
        for name, _ in inspect.getmembers(bfcl_class(class_name), inspect.isfunction):
            if not name.startswith("_"):
                owner[name] = class_name
    return owner


def parse_truth_call(text: str, involved_classes: Iterable[str]) -> dict[str, Any]:
    """A ground-truth call string -> {"name", "arguments"} with literal, keyword arguments."""
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except SyntaxError as err:
        raise ValueError(f"BFCL ground truth {text!r} is not a Python call: {err}") from None
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
        raise ValueError(f"BFCL ground truth {text!r} is not a plain function call")
    name = node.func.id
    owner = method_owner(involved_classes).get(name)
    if owner is None:
        raise ValueError(f"BFCL ground truth {text!r}: no involved class has {name!r}")
    try:
        args = [ast.literal_eval(a) for a in node.args]
        kwargs = {k.arg: ast.literal_eval(k.value) for k in node.keywords}
    except ValueError as err:
        raise ValueError(f"BFCL ground truth {text!r}: non-literal argument ({err})") from None
    if None in kwargs:
        raise ValueError(f"BFCL ground truth {text!r}: **kwargs are not supported")
    if args:  # name positional arguments by the method's own signature
        sig = inspect.signature(getattr(bfcl_class(owner), name))
        bound = sig.bind(None, *args, **kwargs)  # None stands for self
        kwargs = {k: v for k, v in list(bound.arguments.items())[1:]}
    return {"name": name, "arguments": kwargs}


def truth_uses_withheld(entry: BfclEntry) -> list[tuple[int, str]]:
    """(user turn, function) for each ground-truth call of a function still withheld at that
    turn: a BFCL data defect (e.g. multi_turn_miss_func_49 calls `tail` a turn before it is
    revealed) that no model restricted to the offered functions can match."""
    reveal = {doc["name"]: turn for turn, docs in entry.missed_functions.items()
              for doc in docs}
    found = []
    for turn, calls in enumerate(entry.ground_truth):
        for text in calls:
            name = parse_truth_call(text, entry.involved_classes)["name"]
            if reveal.get(name, 0) > turn:
                found.append((turn, name))
    return found
