"""Navigation and inspection tools: where am I, what is here, how big is it."""

from __future__ import annotations

import fnmatch
from typing import Annotated, Literal, TypedDict

from servers.core import paging
from servers.core.schema import Arg
from servers.core.state import State
from servers.filesystem.common import (
    DOMAIN,
    DirPath,
    FileInfo,
    Path,
    children,
    descendants,
    get_dir,
    human,
    info,
    lines_of,
    lookup,
    resolve,
    size_of,
    total_size,
)


class Cwd(TypedDict):
    cwd: str


class LsOut(TypedDict):
    path: str
    names: list[str]
    entries: list[FileInfo] | None
    total: int


class TreeOut(TypedDict):
    path: str
    tree: str
    directories: int
    files: int


class FindOut(TypedDict):
    paths: list[str]
    total: int
    next_cursor: str | None


class StatOut(TypedDict):
    path: str
    name: str
    type: str
    size: int
    read_only: bool
    owner: str
    created_at: str
    modified_at: str
    tags: list[str]
    lines: int | None
    entries: int | None


class Exists(TypedDict):
    path: str
    exists: bool
    type: str | None


class SizeOut(TypedDict):
    path: str
    type: str
    bytes: int
    human: str


class DuEntry(TypedDict):
    path: str
    type: str
    bytes: int


class DuOut(TypedDict):
    path: str
    total_bytes: int
    entries: list[DuEntry]


class DiskUsage(TypedDict):
    quota_bytes: int
    used_bytes: int
    free_bytes: int
    percent_used: float
    files: int
    directories: int
    archives: int


class RecentOut(TypedDict):
    files: list[FileInfo]
    total: int
    next_cursor: str | None


ShowHidden = Annotated[bool, Arg("Also show hidden entries (names starting with '.')")]


@DOMAIN.tool(read_only=True)
def pwd(s: State) -> Cwd:
    """Print the current working directory (relative paths are resolved against it)."""
    return {"cwd": s.var("cwd")}


@DOMAIN.tool(read_only=False)
def cd(s: State, path: Annotated[str, Arg(
        "Directory to change to: absolute, relative ('..', 'projects'), or '~' for home",
        min_length=1, max_length=1024)]) -> Cwd:
    """Change the current working directory."""
    p, _ = get_dir(s, path)
    s.set_var("cwd", p)
    return {"cwd": p}


@DOMAIN.tool(read_only=True)
def ls(s: State, path: DirPath = None, all: ShowHidden = False,
       long: Annotated[bool, Arg("Long listing: size, read-only flag and modified time of each "
                                 "entry (in `entries`)")] = False) -> LsOut:
    """List a directory's entries sorted by name (directories end with '/'); a file path lists
    just that file."""
    p, row = lookup(s, s.var("cwd") if path is None else path)
    rows = [row] if row["type"] == "file" else [
        r for r in children(s, p) if all or not r["name"].startswith(".")]
    names = [r["name"] + ("/" if r["type"] == "directory" else "") for r in rows]
    return {"path": p, "names": names, "entries": [info(s, r) for r in rows] if long else None,
            "total": len(rows)}


@DOMAIN.tool(read_only=True)
def tree(s: State, path: DirPath = None,
         max_depth: Annotated[int, Arg("Levels to show below the directory", minimum=1,
                                       maximum=10)] = 3,
         all: ShowHidden = False) -> TreeOut:
    """Show a directory and its contents as an indented tree (like the `tree` command)."""
    p, _ = get_dir(s, path)
    out, counts = [p], {"directory": 0, "file": 0}

    def walk(directory: str, prefix: str, depth: int) -> None:
        rows = [r for r in children(s, directory) if all or not r["name"].startswith(".")]
        for i, r in enumerate(rows):
            last = i == len(rows) - 1
            counts[r["type"]] += 1
            suffix = "/" if r["type"] == "directory" else ""
            out.append(f"{prefix}{'└── ' if last else '├── '}{r['name']}{suffix}")
            if r["type"] == "directory" and depth < max_depth:
                walk(r["path"], prefix + ("    " if last else "│   "), depth + 1)

    walk(p, "", 1)
    return {"path": p, "tree": "\n".join(out), "directories": counts["directory"],
            "files": counts["file"]}


@DOMAIN.tool(read_only=True)
def find(s: State, path: DirPath = None,
         name: Annotated[str | None, Arg("Glob on the entry name, e.g. '*.csv' or 'test_*' "
                                         "(case-sensitive)", min_length=1,
                                         max_length=200)] = None,
         type: Annotated[Literal["file", "directory"] | None, Arg(
             "Only files or only directories")] = None,
         limit: paging.Limit = 20, cursor: paging.Cursor = None) -> FindOut:
    """Find files and directories below a directory by name pattern and type (hidden ones
    included), sorted by path."""
    p, _ = get_dir(s, path)
    found = [r["path"] for r in descendants(s, p)
             if (name is None or fnmatch.fnmatchcase(r["name"], name))
             and (type is None or r["type"] == type)]
    pg = paging.page(found, limit, cursor, key=lambda path: path)
    return {"paths": pg.rows, "total": len(found), "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=True)
def stat(s: State, path: Path) -> StatOut:
    """Full details of a file or directory: size, owner, read-only flag, times, tags, and line
    count (files) or entry count (directories)."""
    _, row = lookup(s, path)
    is_file = row["type"] == "file"
    return {"path": row["path"], "name": row["name"], "type": row["type"],
            "size": total_size(s, row), "read_only": row["read_only"], "owner": row["owner"],
            "created_at": row["created_at"], "modified_at": row["modified_at"],
            "tags": row["tags"], "lines": len(lines_of(row["content"])) if is_file else None,
            "entries": None if is_file else len(children(s, row["path"]))}


@DOMAIN.tool(read_only=True)
def file_exists(s: State, path: Path) -> Exists:
    """Check whether a path exists, and whether it is a file or a directory."""
    p = resolve(s, path)
    row = s["nodes"].find(p)
    return {"path": p, "exists": row is not None, "type": row["type"] if row else None}


@DOMAIN.tool(read_only=True)
def get_size(s: State, path: Path) -> SizeOut:
    """Size in bytes of a file, or of everything below a directory."""
    p, row = lookup(s, path)
    n = total_size(s, row)
    return {"path": p, "type": row["type"], "bytes": n, "human": human(n)}


@DOMAIN.tool(read_only=True)
def du(s: State, path: DirPath = None) -> DuOut:
    """Disk usage of each entry of a directory (directories counted recursively), largest
    first, like `du -d 1`."""
    p, row = get_dir(s, path)
    entries: list[DuEntry] = [{"path": r["path"], "type": r["type"], "bytes": total_size(s, r)}
                              for r in children(s, p)]
    entries.sort(key=lambda e: (-e["bytes"], e["path"]))
    return {"path": p, "total_bytes": total_size(s, row), "entries": entries}


@DOMAIN.tool(read_only=True)
def get_disk_usage(s: State) -> DiskUsage:
    """The user's storage quota: bytes used and free, and how many files, directories and
    archives exist."""
    rows = s["nodes"].rows()
    used = sum(size_of(r) for r in rows)
    quota = s.var("quota_bytes")
    return {"quota_bytes": quota, "used_bytes": used, "free_bytes": quota - used,
            "percent_used": round(100 * used / quota, 2),
            "files": sum(r["type"] == "file" for r in rows),
            "directories": sum(r["type"] == "directory" for r in rows),
            "archives": len(s["archives"])}


@DOMAIN.tool(read_only=True)
def list_recent(s: State, path: DirPath = None,
                limit: paging.Limit = 20, cursor: paging.Cursor = None) -> RecentOut:
    """Recently modified files below a directory (default: the current one), newest first."""
    p, _ = get_dir(s, path)
    rows = [r for r in descendants(s, p) if r["type"] == "file"]
    rows.sort(key=lambda r: r["path"])
    rows.sort(key=lambda r: r["modified_at"], reverse=True)
    pg = paging.page(rows, limit, cursor, key="path")
    return {"files": [info(s, r) for r in pg.rows], "total": len(rows),
            "next_cursor": pg.next_cursor}
