"""Regular expressions for the filesystem's tools, bounded in time.

A pattern that backtracks catastrophically (e.g. `(a|aa)+$` against a long run of a's and a
'b') would hold the server for minutes. The standard `re` cannot be interrupted (and a thread
running it cannot be stopped), so patterns run on the third-party `regex` module, whose
default syntax is `re`'s and which checks a timeout while it matches. One call gets
REGEX_SECONDS in all, however many lines or files it searches; past it the call fails with
a message that names the pattern.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import regex

from servers.core.errors import ToolError

REGEX_SECONDS = 1.0

Pattern = regex.Pattern
PatternError = regex.error  # a bad pattern or replacement template


def compile_pattern(pattern: str, ignore_case: bool, literal: bool, hint: str) -> Pattern:
    """`pattern` compiled (escaped first when `literal`); a syntax error names the hint."""
    try:
        return regex.compile(regex.escape(pattern) if literal else pattern,
                             regex.IGNORECASE if ignore_case else 0)
    except regex.error as err:
        raise ToolError(f"invalid regular expression {pattern!r}: {err}; {hint}") from None


class Budget:
    """The time one call may spend matching, shared by all its searches."""

    def __init__(self, pattern: str, hint: str) -> None:
        self.pattern, self.hint = pattern, hint
        self.deadline = time.monotonic() + REGEX_SECONDS

    def search(self, rx: Pattern, text: str) -> bool:
        return self._run(lambda left: rx.search(text, timeout=left)) is not None

    def subn(self, rx: Pattern, repl: str | Callable, text: str, count: int) -> tuple[str, int]:
        try:
            return self._run(lambda left: rx.subn(repl, text, count=count, timeout=left))
        except IndexError as err:  # regex's error for an unknown group name in `repl`
            raise PatternError(f"{err} in the replacement {repl!r}") from None

    def _run(self, match: Callable):
        left = self.deadline - time.monotonic()
        try:
            if left <= 0:
                raise TimeoutError
            return match(left)
        except TimeoutError:
            raise ToolError(f"the regular expression {self.pattern!r} took longer than "
                            f"{REGEX_SECONDS:g}s to match (nested repetition such as (a+)+ "
                            f"or (a|aa)+ backtracks without end); simplify it, or "
                            f"{self.hint}") from None
