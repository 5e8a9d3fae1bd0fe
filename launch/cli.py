"""What every `launch` entry point shares on the command line: a usage error (bad flag, bad
value, missing input, a config file that is not there, an override of a key the config does
not have) ends in one `error: ...` line on stderr and exit status 2, as argparse does, never a
traceback; failures at run time keep status 1.

    app.run(main, flags_parser=parse_flags)   # absl's own errors: one line, status 2
    usage_error("pass --workdir=RUN_DIR")     # the entry point's own checks
"""

from __future__ import annotations

import difflib
import importlib.util
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn

from absl import flags
from ml_collections import ConfigDict

CONFIG_DIR = Path(__file__).resolve().parents[1] / "configs"


def usage_error(message: str) -> NoReturn:
    """One line on stderr, exit status 2 (a usage error, as argparse reports one)."""
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


def parse_flags(argv: list[str]) -> list[str]:
    """absl's flag parsing (for `app.run(flags_parser=)`), with its errors in one line and
    status 2 instead of a usage dump and status 1."""
    try:
        return flags.FLAGS(argv)
    except flags.Error as err:
        usage_error("; ".join(line.strip() for line in str(err).splitlines() if line.strip()))


def check_config_flags(argv: Sequence[str], flag: str = "config",
                       default: str | None = None) -> None:
    """Exit with `error: ...` when --FLAG (else `default`) names a missing file or an override
    names a key the loaded config lacks; return quietly otherwise (absl then parses)."""
    problem = config_flag_problem(argv, flag, default)
    if problem is not None:
        usage_error(problem)


def config_flag_problem(argv: Sequence[str], flag: str = "config",
                        default: str | None = None) -> str | None:
    """The problem with the config flags of `argv`, or None."""
    value = _flag_value(argv, flag) or default
    if value is None:
        return None  # the entry point says that --config is needed
    path, _, arg = value.partition(":")
    if not Path(path).is_file():
        known = ", ".join(sorted(p.name for p in CONFIG_DIR.glob("*.py")
                                 if not p.name.startswith("_")))
        return f"--{flag}={value}: no such config file (configs/ holds: {known})"
    try:
        config = _load(path, arg)
    except Exception as err:  # a broken config file: name it and the cause in one line
        return f"--{flag}={value}: the config file failed to load ({type(err).__name__}: {err})"
    for key in _override_keys(argv, flag):
        problem = _key_problem(config, key, path)
        if problem is not None:
            return f"--{flag}.{key}: {problem}"
    return None


def _flag_value(argv: Sequence[str], flag: str) -> str | None:
    value = None
    for i, arg in enumerate(argv):
        if arg.startswith(f"--{flag}="):
            value = arg.split("=", 1)[1]
        elif arg == f"--{flag}" and i + 1 < len(argv):
            value = argv[i + 1]
    return value


def _override_keys(argv: Sequence[str], flag: str) -> Iterator[str]:
    for arg in argv:
        for prefix in (f"--{flag}.", f"--no{flag}."):
            if arg.startswith(prefix):
                yield arg[len(prefix):].split("=", 1)[0]


def _load(path: str, arg: str) -> ConfigDict:
    spec = importlib.util.spec_from_file_location("_checked_config", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.get_config(arg) if arg else module.get_config()


def _key_problem(config: ConfigDict, key: str, path: str) -> str | None:
    node: Any = config
    walked: list[str] = []
    for part in key.split("."):
        if not isinstance(node, (ConfigDict, dict)):
            return (f"config.{'.'.join(walked)} in {path} is a value "
                    f"({type(node).__name__}), not a group with a field {part!r}")
        if part not in node:
            return _unknown(config, node, walked, part, path)
        node = node[part]
        walked.append(part)
    return None


def _unknown(config: ConfigDict, node: Any, walked: list[str], part: str, path: str) -> str:
    full = ".".join([*walked, part])
    nearest = difflib.get_close_matches(full, list(_dotted(config)), n=3, cutoff=0.6)
    if nearest:
        hint = "did you mean " + " or ".join(f"config.{k}" for k in nearest)
    else:  # no near spelling: show what this group does hold
        where = f"config.{'.'.join(walked)}" if walked else "the config"
        hint = f"{where} holds: " + ", ".join(sorted(node))
    return f"{path} has no key config.{full}; {hint}"


def _dotted(node: Any, prefix: str = "") -> Iterator[str]:
    for key in node:
        path = f"{prefix}{key}"
        yield path
        if isinstance(node[key], (ConfigDict, dict)):
            yield from _dotted(node[key], path + ".")
