"""Read-only text tools: read, search, count, compare and slice file contents."""

from __future__ import annotations

import csv
import difflib
import hashlib
from typing import Annotated, Literal, TypedDict

from servers.core import paging
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State
from servers.filesystem.common import (
    DOMAIN,
    DirPath,
    FilePath,
    Path,
    descendants,
    get_dir,
    get_file,
    lines_of,
    lookup,
    size_of,
)
from servers.filesystem.patterns import Budget, compile_pattern

LineCount = Annotated[int, Arg("Number of lines", minimum=1, maximum=1000)]
IgnoreCase = Annotated[bool, Arg("Match case-insensitively")]


class CatOut(TypedDict):
    path: str
    content: str
    lines: int
    size: int


class LinesOut(TypedDict):
    path: str
    lines: list[str]
    total_lines: int


class GrepMatch(TypedDict):
    path: str
    line_number: int
    line: str


class GrepOut(TypedDict):
    matches: list[GrepMatch]
    total: int
    files_searched: int


class WcOut(TypedDict):
    path: str
    lines: int
    words: int
    characters: int
    bytes: int


class SortOut(TypedDict):
    path: str
    lines: list[str]
    total: int


class UniqLine(TypedDict):
    line: str
    count: int


class UniqOut(TypedDict):
    path: str
    lines: list[UniqLine]
    total: int


class DiffOut(TypedDict):
    identical: bool
    diff: str
    added: int
    removed: int


class ContentHit(TypedDict):
    path: str
    matches: int
    first_line_number: int
    first_line: str


class SearchOut(TypedDict):
    results: list[ContentHit]
    total_files: int
    total_matches: int
    next_cursor: str | None


class LineTotal(TypedDict):
    path: str
    lines: int


class CountOut(TypedDict):
    path: str
    total: int
    files: list[LineTotal]


class ChecksumOut(TypedDict):
    path: str
    algorithm: str
    digest: str
    size: int


class CutOut(TypedDict):
    path: str
    header: list[str]
    rows: list[list[str]]
    total_rows: int


def _files_under(s: State, path: str | None) -> tuple[str, list[Row]]:
    """A file alone, or every file below a directory (sorted by path)."""
    if path is not None:
        p, row = lookup(s, path)
        if row["type"] == "file":
            return p, [row]
    p, _ = get_dir(s, path)
    return p, [r for r in descendants(s, p) if r["type"] == "file"]


@DOMAIN.tool(read_only=True)
def cat(s: State, path: FilePath) -> CatOut:
    """Read a whole text file."""
    p, row = get_file(s, path)
    return {"path": p, "content": row["content"], "lines": len(lines_of(row["content"])),
            "size": size_of(row)}


@DOMAIN.tool(read_only=True)
def head(s: State, path: FilePath, lines: LineCount = 10) -> LinesOut:
    """The first lines of a file."""
    p, row = get_file(s, path)
    all_lines = lines_of(row["content"])
    return {"path": p, "lines": all_lines[:lines], "total_lines": len(all_lines)}


@DOMAIN.tool(read_only=True)
def tail(s: State, path: FilePath, lines: LineCount = 10) -> LinesOut:
    """The last lines of a file."""
    p, row = get_file(s, path)
    all_lines = lines_of(row["content"])
    return {"path": p, "lines": all_lines[-lines:], "total_lines": len(all_lines)}


@DOMAIN.tool(read_only=True)
def grep(s: State,
         pattern: Annotated[str, Arg("Regular expression (Python syntax) to look for in each "
                                     "line", min_length=1, max_length=200)],
         path: Path,
         recursive: Annotated[bool, Arg("Search every file below a directory")] = False,
         ignore_case: IgnoreCase = False,
         fixed_string: Annotated[bool, Arg("Treat the pattern as plain text, not a regular "
                                           "expression")] = False,
         max_results: Annotated[int, Arg("Return at most this many matching lines", minimum=1,
                                         maximum=500)] = 100) -> GrepOut:
    """Print the lines of a file (or, recursively, of a directory's files) that match a
    pattern, with line numbers."""
    rx = compile_pattern(pattern, ignore_case, fixed_string,
                         "escape special characters or pass fixed_string=true")
    budget = Budget(pattern, "pass fixed_string=true to search for the text as it is")
    p, row = lookup(s, path)
    if row["type"] == "directory" and not recursive:
        raise ToolError(f"{p!r} is a directory; pass recursive=true to search the files in it")
    _, files = _files_under(s, p)
    hits: list[GrepMatch] = [{"path": r["path"], "line_number": i, "line": line}
                             for r in files
                             for i, line in enumerate(lines_of(r["content"]), 1)
                             if budget.search(rx, line)]
    return {"matches": hits[:max_results], "total": len(hits), "files_searched": len(files)}


@DOMAIN.tool(read_only=True)
def wc(s: State, path: FilePath) -> WcOut:
    """Count the lines, words, characters and bytes of a file."""
    p, row = get_file(s, path)
    text = row["content"]
    return {"path": p, "lines": text.count("\n") + (1 if text and not text.endswith("\n")
                                                    else 0),
            "words": len(text.split()), "characters": len(text), "bytes": size_of(row)}


@DOMAIN.tool(read_only=True)
def sort(s: State, path: FilePath,
         reverse: Annotated[bool, Arg("Largest/last first")] = False,
         numeric: Annotated[bool, Arg("Compare as numbers instead of text")] = False,
         column: Annotated[int | None, Arg("Sort by this 1-based field instead of the whole "
                                           "line", minimum=1, maximum=100)] = None,
         delimiter: Annotated[str, Arg("Field separator for `column`", min_length=1,
                                       max_length=3)] = ",",
         header: Annotated[bool, Arg("Keep the first line (a header) on top, unsorted")] = False,
         unique: Annotated[bool, Arg("Drop repeated identical lines")] = False) -> SortOut:
    """Return a file's lines sorted (the file itself is not changed)."""
    p, row = get_file(s, path)
    lines = lines_of(row["content"])
    top, body = (lines[:1], lines[1:]) if header else ([], lines)
    if unique:
        body = list(dict.fromkeys(body))

    def key(item: tuple[int, str]) -> tuple:
        n, line = item
        field = line
        if column is not None:
            parts = line.split(delimiter)
            if len(parts) < column:
                raise ToolError(f"line {n} of {p!r} has {len(parts)} fields, fewer than column "
                                f"{column} (delimiter {delimiter!r})")
            field = parts[column - 1].strip()
        if not numeric:
            return (field,)
        try:
            return (float(field),)
        except ValueError:
            raise ToolError(f"line {n} of {p!r} is not numeric in the sort key ({field[:40]!r})"
                            "; pass header=true to keep a header line first, or sort as "
                            "text") from None

    first = 2 if header else 1
    ordered = sorted(enumerate(body, first), key=key, reverse=reverse)
    out = top + [line for _, line in ordered]
    return {"path": p, "lines": out, "total": len(out)}


@DOMAIN.tool(read_only=True)
def uniq(s: State, path: FilePath,
         all_duplicates: Annotated[bool, Arg("Merge equal lines anywhere in the file (like "
                                             "sort | uniq -c), not only adjacent ones")] = False,
         only_repeated: Annotated[bool, Arg("Only lines that occur more than once")] = False
         ) -> UniqOut:
    """Collapse repeated lines of a file and count them (like `uniq -c`)."""
    p, row = get_file(s, path)
    groups: list[UniqLine] = []
    if all_duplicates:
        counts: dict[str, int] = {}
        for line in lines_of(row["content"]):
            counts[line] = counts.get(line, 0) + 1
        groups = [{"line": k, "count": v} for k, v in counts.items()]
    else:
        for line in lines_of(row["content"]):
            if groups and groups[-1]["line"] == line:
                groups[-1] = {"line": line, "count": groups[-1]["count"] + 1}
            else:
                groups.append({"line": line, "count": 1})
    if only_repeated:
        groups = [g for g in groups if g["count"] > 1]
    return {"path": p, "lines": groups, "total": len(groups)}


@DOMAIN.tool(read_only=True)
def diff(s: State, path: FilePath,
         other_path: Annotated[str, Arg("The file to compare against", min_length=1,
                                        max_length=1024)],
         context: Annotated[int, Arg("Unchanged lines shown around each change", minimum=0,
                                     maximum=20)] = 3) -> DiffOut:
    """Compare two text files line by line (unified diff, like `diff -u`)."""
    a, row_a = get_file(s, path)
    b, row_b = get_file(s, other_path)
    lines = list(difflib.unified_diff(lines_of(row_a["content"]), lines_of(row_b["content"]),
                                      fromfile=a, tofile=b, n=context, lineterm=""))
    body = lines[2:]
    return {"identical": not lines, "diff": "\n".join(lines),
            "added": sum(ln.startswith("+") for ln in body),
            "removed": sum(ln.startswith("-") for ln in body)}


@DOMAIN.tool(read_only=True)
def search_content(s: State,
                   query: Annotated[str, Arg("Plain text to look for inside files", min_length=1,
                                             max_length=200)],
                   path: DirPath = None, ignore_case: IgnoreCase = True,
                   limit: paging.Limit = 20, cursor: paging.Cursor = None) -> SearchOut:
    """Find which files below a directory (default: the current one) contain a text, with
    the number of matches per file and the first matching line."""
    _, files = _files_under(s, path)
    needle = query.lower() if ignore_case else query
    results: list[ContentHit] = []
    for r in files:
        found = [(i, line) for i, line in enumerate(lines_of(r["content"]), 1)
                 if needle in (line.lower() if ignore_case else line)]
        if found:
            text = r["content"].lower() if ignore_case else r["content"]
            results.append({"path": r["path"], "matches": text.count(needle),
                            "first_line_number": found[0][0], "first_line": found[0][1]})
    results.sort(key=lambda h: (-h["matches"], h["path"]))
    pg = paging.page(results, limit, cursor, key="path")
    return {"results": pg.rows, "total_files": len(results), "next_cursor": pg.next_cursor,
            "total_matches": sum(h["matches"] for h in results)}


@DOMAIN.tool(read_only=True)
def count_lines(s: State, path: Path,
                contains: Annotated[str | None, Arg("Only count lines containing this text",
                                                    min_length=1, max_length=200)] = None,
                skip_blank: Annotated[bool, Arg("Do not count empty lines")] = False) -> CountOut:
    """Count lines in a file, or in every file below a directory (with a per-file
    breakdown)."""
    p, files = _files_under(s, path)
    per: list[LineTotal] = []
    for r in files:
        n = sum(1 for line in lines_of(r["content"])
                if (contains is None or contains in line) and (line.strip() or not skip_blank))
        per.append({"path": r["path"], "lines": n})
    return {"path": p, "total": sum(f["lines"] for f in per), "files": per}


@DOMAIN.tool(read_only=True)
def checksum(s: State, path: FilePath,
             algorithm: Annotated[Literal["sha256", "sha1", "md5"], Arg(
                 "Hash algorithm")] = "sha256") -> ChecksumOut:
    """Hash a file's content (UTF-8), e.g. to check that two copies are identical."""
    p, row = get_file(s, path)
    digest = hashlib.new(algorithm, row["content"].encode("utf-8")).hexdigest()
    return {"path": p, "algorithm": algorithm, "digest": digest, "size": size_of(row)}


@DOMAIN.tool(read_only=True)
def cut_columns(s: State, path: FilePath,
                columns: Annotated[list[str], Arg(
                    "Columns to keep, by header name (e.g. 'city') or 1-based number ('2')",
                    min_length=1, max_length=20)],
                delimiter: Annotated[str, Arg("Field separator", min_length=1,
                                              max_length=1)] = ",",
                limit: Annotated[int, Arg("At most this many data rows", minimum=1,
                                          maximum=1000)] = 100) -> CutOut:
    """Extract columns from a CSV-like file whose first line is a header (like `cut -d, -f`)."""
    p, row = get_file(s, path)
    table = [r for r in csv.reader(lines_of(row["content"]), delimiter=delimiter) if r]
    if not table:
        raise ToolError(f"{p!r} is empty; there is no header to pick columns from")
    header = table[0]
    picks = []
    for col in columns:
        if col in header:
            picks.append(header.index(col))
        elif col.lower() in [h.lower() for h in header]:
            picks.append([h.lower() for h in header].index(col.lower()))
        elif col.isdigit() and 1 <= int(col) <= len(header):
            picks.append(int(col) - 1)
        else:
            raise ToolError(f"no column {col!r} in {p!r}; its columns are "
                            f"{', '.join(header)} (or numbers 1-{len(header)})")
    rows = [[r[i] if i < len(r) else "" for i in picks] for r in table[1:]]
    return {"path": p, "header": [header[i] for i in picks], "rows": rows[:limit],
            "total_rows": len(rows)}
