"""Shared pieces of the filesystem server: the domain, path resolution and node helpers.

The tree is the `nodes` table keyed by normalised absolute path. Nothing here touches the host
disk: paths are plain strings resolved against the session's own cwd and root.
"""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict

from servers.core import clock
from servers.core.domain import Domain
from servers.core.errors import NotFound, ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State
from servers.filesystem.seed import SYSTEM, build

DOMAIN = Domain("filesystem", "A virtual file system: browse, read, edit, search, archive and "
                "tag the user's files (home directory under /home).", build)
# fields stamped from the session clock: left out of clock-free state comparisons
DOMAIN.clock_fields = {"nodes": ("created_at", "modified_at"), "archives": ("created_at",)}

MAX_CONTENT = 100_000  # characters one write may carry

Path = Annotated[str, Arg("File or directory path, absolute ('/home/...') or relative to the "
                          "current directory ('notes/todo.txt', '../reports'); '~' is home",
                          min_length=1, max_length=1024)]
DirPath = Annotated[str | None, Arg("Directory path, absolute or relative (default: the current "
                                    "directory)", min_length=1, max_length=1024)]
FilePath = Annotated[str, Arg("File path, absolute or relative to the current directory",
                              min_length=1, max_length=1024)]
Content = Annotated[str, Arg("Text content", max_length=MAX_CONTENT)]
NodeType = Literal["file", "directory"]


class FileInfo(TypedDict):
    path: str
    name: str
    type: str
    size: int
    read_only: bool
    modified_at: str


# ------------------------------------------------------------------------------ paths
def _shown(given: str, resolved: str) -> str:
    return repr(given) if given == resolved else f"{given!r} (resolved to {resolved!r})"


def resolve(s: State, path: str) -> str:
    """Normalise `path` against the cwd; refuse anything that climbs above '/'."""
    home = s.var("home")
    if "\x00" in path:
        raise ToolError(f"path {path!r} contains a NUL character; remove it")
    full = home + path[1:] if path == "~" or path.startswith("~/") else path
    stack = [] if full.startswith("/") else [p for p in s.var("cwd").split("/") if p]
    for part in full.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not stack:
                raise ToolError(f"path {path!r} escapes the root directory '/'; paths must "
                                f"stay inside the file system (your home is {home!r})")
            stack.pop()
            continue
        if len(part) > 255 or any(ord(ch) < 32 for ch in part):
            raise ToolError(f"path {path!r} has an invalid name {part[:40]!r}: names are at "
                            "most 255 characters with no control characters")
        stack.append(part)
    return "/" + "/".join(stack)


def parent_of(path: str) -> str:
    return path.rsplit("/", 1)[0] or "/"


def base_name(path: str) -> str:
    return path.rsplit("/", 1)[1] or "/"


def join(directory: str, name: str) -> str:
    return f"{directory.rstrip('/')}/{name}"


def is_within(path: str, ancestor: str) -> bool:
    return ancestor == "/" or path == ancestor or path.startswith(ancestor + "/")


# ------------------------------------------------------------------------------ nodes
def lookup(s: State, path: str) -> tuple[str, Row]:
    """(resolved path, row) or a NotFound that names the path and what to do."""
    p = resolve(s, path)
    row = s["nodes"].find(p)
    if row is None:
        missing, parent = p, parent_of(p)
        while s["nodes"].find(parent) is None:
            missing, parent = parent, parent_of(parent)
        if s["nodes"].get(parent)["type"] == "file":
            hint = f"{parent!r} is a file, not a directory"
        elif missing != p:
            hint = f"directory {missing!r} does not exist; use ls or find to see what exists"
        else:
            hint = f"use ls {parent!r} or find to see what exists"
        raise NotFound(f"no such file or directory: {_shown(path, p)}; {hint}")
    return p, row


def get_file(s: State, path: str) -> tuple[str, Row]:
    p, row = lookup(s, path)
    if row["type"] != "file":
        raise ToolError(f"{_shown(path, p)} is a directory, not a file; use ls to list it")
    return p, row


def get_dir(s: State, path: str | None) -> tuple[str, Row]:
    p, row = lookup(s, s.var("cwd") if path is None else path)
    if row["type"] != "directory":
        raise ToolError(f"{_shown(path or p, p)} is a file, not a directory; use cat or stat "
                        "to read it")
    return p, row


def children(s: State, directory: str) -> list[Row]:
    return sorted(s["nodes"].rows(lambda r: r["parent"] == directory), key=lambda r: r["name"])


def descendants(s: State, directory: str) -> list[Row]:
    """Everything below `directory` (not itself), parents before children."""
    prefix = directory.rstrip("/") + "/"
    return sorted(s["nodes"].rows(lambda r: r["path"].startswith(prefix)),
                  key=lambda r: r["path"])


def size_of(row: Row) -> int:
    return len(row["content"].encode("utf-8")) if row["type"] == "file" else 0


def total_size(s: State, row: Row) -> int:
    """A file's bytes, or the bytes of every file below a directory."""
    if row["type"] == "file":
        return size_of(row)
    return sum(size_of(r) for r in descendants(s, row["path"]))


def info(s: State, row: Row) -> FileInfo:
    return {"path": row["path"], "name": row["name"], "type": row["type"],
            "size": total_size(s, row), "read_only": row["read_only"],
            "modified_at": row["modified_at"]}


def lines_of(text: str) -> list[str]:
    return text.splitlines()


def human(n: int) -> str:
    if n < 1024:
        return f"{n} B"
    return f"{n / 1024:.1f} KB" if n < 1024 ** 2 else f"{n / 1024 ** 2:.1f} MB"


# ------------------------------------------------------------------------------ mutation
def now(s: State) -> str:
    """The world clock, one minute further per mutating call."""
    return clock.tick(s)


def check_mutable(s: State, row: Row, what: str = "changed") -> None:
    """Read-only and system nodes cannot be changed, moved or deleted."""
    home = s.var("home")
    if row["owner"] == SYSTEM or row["path"] == home:
        kind = "your home directory" if row["path"] == home else "a system directory"
        raise ToolError(f"permission denied: {row['path']!r} is {kind} and cannot be {what}; "
                        f"work with the files inside your home {home!r}")
    if row["read_only"]:
        raise ToolError(f"permission denied: {row['path']!r} is read-only and cannot be {what}; "
                        "use chmod with read_only=false first")


def check_writable_dir(s: State, directory: str) -> Row:
    """The directory that will gain or lose an entry: it must exist and accept changes."""
    row = s["nodes"].find(directory)
    if row is None:
        raise NotFound(f"directory {directory!r} does not exist; create it with mkdir "
                       "(parents=true creates missing parents)")
    if row["type"] != "directory":
        raise ToolError(f"{directory!r} is a file, not a directory")
    if row["read_only"]:
        hint = ("it belongs to the system; work inside your home " + repr(s.var("home"))
                if row["owner"] == SYSTEM else "use chmod with read_only=false first")
        raise ToolError(f"permission denied: directory {directory!r} is read-only; {hint}")
    return row


def check_quota(s: State, extra: int) -> None:
    if extra <= 0:
        return
    used = sum(size_of(r) for r in s["nodes"].rows(lambda r: r["type"] == "file"))
    quota = s.var("quota_bytes")
    if used + extra > quota:
        raise ToolError(f"disk quota exceeded: this needs {extra} more bytes but only "
                        f"{quota - used} of {quota} are free; delete or archive files first "
                        "(see get_disk_usage)")


def check_name(name: str) -> None:
    if name in ("", ".", "..") or "/" in name or any(ord(ch) < 32 for ch in name):
        raise ToolError(f"invalid name {name!r}: a name is one path component, not '.', '..' "
                        "or anything containing '/' or control characters")


def new_node(s: State, path: str, kind: NodeType, content: str | None, when: str) -> Row:
    return s["nodes"].insert({
        "path": path, "name": base_name(path), "parent": parent_of(path), "type": kind,
        "content": content, "read_only": False, "owner": s.var("user"), "created_at": when,
        "modified_at": when, "tags": []})


def stamp_dir(s: State, directory: str, when: str) -> None:
    """An entry was added or removed: the directory's modified time moves (as in POSIX)."""
    if s["nodes"].find(directory) is not None:
        s["nodes"].update(directory, modified_at=when)
