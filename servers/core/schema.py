"""JSON schemas from Python signatures, and a fast validator compiled from them.

A tool is a plain function whose parameters carry type hints (str, int, float, bool, Literal,
list[...], X | None) with `Annotated[T, Arg("description", ...)]` metadata, and whose return
type is a TypedDict. From that we derive the OpenAI-style input schema, the MCP output schema,
and a validator that turns raw JSON arguments into keyword arguments or raises a ToolError a
model can act on (what was wrong, what is valid).
"""

from __future__ import annotations

import inspect
import math
import re
import sys
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal, Union, get_args, get_origin, is_typeddict

from servers.core.errors import SchemaError


@dataclass(frozen=True)
class Arg:
    """Metadata for one tool parameter (goes in `Annotated[T, Arg(...)]`)."""

    description: str
    minimum: float | None = None
    maximum: float | None = None
    min_length: int | None = None
    max_length: int | None = None
    pattern: str | None = None


_PRIMITIVES = {str: "string", int: "integer", float: "number", bool: "boolean"}


def _unwrap_optional(tp: Any) -> tuple[Any, bool]:
    if get_origin(tp) in (Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        if len(args) == 1 and len(args) < len(get_args(tp)):
            return args[0], True
    return tp, False


def type_schema(tp: Any, *, nullable_ok: bool = True) -> dict[str, Any]:
    """JSON schema of a Python type annotation."""
    meta: Arg | None = None
    if get_origin(tp) is Annotated:
        tp, *extras = get_args(tp)
        meta = next((e for e in extras if isinstance(e, Arg)), None)
    inner, optional = _unwrap_optional(tp)
    if optional:
        schema = type_schema(inner)
        if nullable_ok:
            schema = {**schema, "type": [schema["type"], "null"]} if "type" in schema else schema
    elif tp in _PRIMITIVES:
        schema = {"type": _PRIMITIVES[tp]}
    elif get_origin(tp) is Literal:
        values = list(get_args(tp))
        kind = _PRIMITIVES[type(values[0])]
        schema = {"type": kind, "enum": values}
    elif get_origin(tp) is list:
        (item,) = get_args(tp) or (Any,)
        schema = {"type": "array", "items": type_schema(item) if item is not Any else {}}
    elif tp is dict or get_origin(tp) is dict:
        schema = {"type": "object"}
    elif is_typeddict(tp):
        hints = typing.get_type_hints(tp, include_extras=True)
        schema = {
            "type": "object",
            "properties": {k: type_schema(v) for k, v in hints.items()},
            "required": sorted(tp.__required_keys__),
        }
    elif tp is Any:
        schema = {}
    else:
        raise TypeError(f"unsupported type in a tool signature: {tp!r}")
    if meta is not None:
        schema = {**schema, "description": meta.description}
        for key, name in (("minimum", "minimum"), ("maximum", "maximum"),
                          ("min_length", "minLength" if schema.get("type") == "string"
                           else "minItems"),
                          ("max_length", "maxLength" if schema.get("type") == "string"
                           else "maxItems"), ("pattern", "pattern")):
            value = getattr(meta, key)
            if value is not None:
                schema[name] = value
    return schema


def signature_schemas(fn: Callable[..., Any]) -> tuple[dict, dict, list[str]]:
    """(input schema, output schema, parameter names) of a tool function `fn(state, ...)`."""
    hints = typing.get_type_hints(fn, include_extras=True)
    params = list(inspect.signature(fn).parameters.values())[1:]  # drop the state argument
    properties, required = {}, []
    for p in params:
        if p.name not in hints:
            raise TypeError(f"{fn.__name__}: parameter {p.name!r} needs a type hint")
        schema = type_schema(hints[p.name], nullable_ok=False)
        if _has_fields(schema):
            raise TypeError(f"{fn.__name__}: parameter {p.name!r} is an object with fields; "
                            "check_value does not check nested fields, so use flat parameters")
        if "description" not in schema:
            raise TypeError(f"{fn.__name__}: parameter {p.name!r} needs Arg(description)")
        if p.default is inspect.Parameter.empty:
            required.append(p.name)
        elif p.default is not None:
            schema["default"] = p.default
        properties[p.name] = schema
    input_schema = {"type": "object", "properties": properties, "required": required,
                    "additionalProperties": False}
    ret = hints.get("return")
    if ret is None or not is_typeddict(ret):
        raise TypeError(f"{fn.__name__}: return type must be a TypedDict (the output schema)")
    return input_schema, type_schema(ret), [p.name for p in params]


def _has_fields(schema: dict) -> bool:
    """Does an input schema hold an object with declared fields (a TypedDict), at any depth?"""
    items = schema.get("items")
    return "properties" in schema or (bool(items) and _has_fields(items))


# ----------------------------------------------------------------------------- validation
_JSON_NAMES = {"string": "a string", "integer": "an integer", "number": "a number",
               "boolean": "a boolean (true/false)", "array": "an array", "object": "an object",
               "null": "null"}


def json_type(value: Any) -> str:
    """The JSON type of a decoded JSON value; a subclass counts as its base (an IntEnum is an
    integer, an OrderedDict an object). Anything else (tuple, set, bytes, Decimal, object())
    is "non-JSON <class>", which matches no schema type. Kept identical to json_type in
    prove_jax/synthesis/schemas.py: servers/ and prove_jax/ do not import each other."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return f"non-JSON {type(value).__name__}"


def check_value(value: Any, schema: dict, where: str) -> Any:
    """Validate (and normalise: 5.0 -> 5 for integers) one value; raise SchemaError."""
    kind = schema.get("type")
    if isinstance(kind, list):  # [T, "null"]: how type_schema writes an Optional in a list
        if value is None and "null" in kind:
            return None
        (kind,) = [k for k in kind if k != "null"]
    actual = json_type(value)
    if kind == "integer" and actual == "number" and float(value).is_integer():
        value, actual = int(value), "integer"
    elif kind == "number" and actual == "integer":
        if abs(value) > sys.float_info.max:
            raise SchemaError(f"argument {where} must be a finite number, got an integer "
                              f"beyond {sys.float_info.max:.3g}")
        value = float(value)  # one Python type per schema type: amounts stay floats in state
    ok = (kind is None or actual == kind or (kind == "number" and actual == "integer"))
    if not ok:
        raise SchemaError(f"argument {where} must be {_JSON_NAMES.get(kind, kind)}, "
                          f"got {_JSON_NAMES.get(actual, actual)} {value!r}")
    if "enum" in schema and value not in schema["enum"]:
        raise SchemaError(f"argument {where} must be one of {schema['enum']}, got {value!r}")
    if kind in ("integer", "number"):
        # NaN passes every range check (all its comparisons are false) and poisons state.
        if actual == "number" and not math.isfinite(value):
            raise SchemaError(f"argument {where} must be a finite number, got {value}")
        if "minimum" in schema and value < schema["minimum"]:
            raise SchemaError(f"argument {where} must be >= {schema['minimum']}, got {value}")
        if "maximum" in schema and value > schema["maximum"]:
            raise SchemaError(f"argument {where} must be <= {schema['maximum']}, got {value}")
    elif kind == "string":
        if len(value) < schema.get("minLength", 0):
            raise SchemaError(f"argument {where} must not be empty" if schema["minLength"] == 1
                              else f"argument {where} needs >= {schema['minLength']} characters")
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            raise SchemaError(f"argument {where} must be at most {schema['maxLength']} "
                              f"characters, got {len(value)}")
        if "pattern" in schema and not re.fullmatch(schema["pattern"], value):
            raise SchemaError(f"argument {where} must match {schema['pattern']}, got {value!r}")
    elif kind == "array":
        if len(value) < schema.get("minItems", 0):
            raise SchemaError(f"argument {where} needs at least {schema['minItems']} items")
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            raise SchemaError(f"argument {where} takes at most {schema['maxItems']} items")
        items = schema.get("items") or {}
        value = [check_value(v, items, f"{where}[{i}]") for i, v in enumerate(value)]
    return value


def make_validator(tool: str, schema: dict) -> Callable[[Any], dict[str, Any]]:
    """A function raw-arguments -> validated kwargs for one tool."""
    properties: dict[str, dict] = schema["properties"]
    required: list[str] = schema["required"]
    valid = ", ".join(properties) or "(none)"

    def validate(arguments: Any) -> dict[str, Any]:
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            got = json_type(arguments)
            raise SchemaError(f"{tool}: arguments must be a JSON object, got {got}")
        for name in arguments:
            if name not in properties:
                raise SchemaError(f"{tool}: unknown argument {name!r}; valid arguments: {valid}")
        out = {}
        for name in required:
            if name not in arguments or arguments[name] is None:
                desc = properties[name].get("description", "")
                raise SchemaError(f"{tool}: missing required argument {name!r} ({desc})")
        for name, value in arguments.items():
            if value is None and name not in required:
                continue  # explicit null for an optional argument means "not given"
            try:
                out[name] = check_value(value, properties[name], repr(name))
            except SchemaError as err:
                raise SchemaError(f"{tool}: {err}") from None
        return out

    return validate
