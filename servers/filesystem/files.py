"""Tools that change the tree: create, delete, move, copy, write, edit, chmod.

Each validates everything before its first write; the core's journal still rolls back any
failure, so a call either fully happens or leaves no trace.
"""

from __future__ import annotations

from typing import Annotated, TypedDict

from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State
from servers.filesystem.common import (
    DOMAIN,
    Content,
    FileInfo,
    FilePath,
    Path,
    base_name,
    check_mutable,
    check_name,
    check_quota,
    check_writable_dir,
    descendants,
    get_file,
    info,
    is_within,
    join,
    lookup,
    new_node,
    now,
    parent_of,
    resolve,
    size_of,
    stamp_dir,
    total_size,
)
from servers.filesystem.patterns import Budget, PatternError, compile_pattern

Source = Annotated[str, Arg("Path of the file or directory to move/copy, absolute or relative",
                            min_length=1, max_length=1024)]
Destination = Annotated[str, Arg("Target path; if it is an existing directory the source goes "
                                 "inside it under its own name", min_length=1, max_length=1024)]
Overwrite = Annotated[bool, Arg("Replace an existing file at the destination (never a "
                                "directory or a read-only file)")]


class MkdirOut(TypedDict):
    path: str
    created: list[str]


class RemoveOut(TypedDict):
    removed: list[str]
    freed_bytes: int


class MoveOut(TypedDict):
    source: str
    destination: str
    entries: int
    overwritten: bool


class WriteOut(TypedDict):
    path: str
    size: int
    lines: int
    created: bool
    modified_at: str


class EditOut(TypedDict):
    path: str
    replacements: int
    size: int
    modified_at: str


class ChmodOut(TypedDict):
    changed: list[FileInfo]


def _guard_cwd(s: State, path: str, verb: str) -> None:
    if is_within(s.var("cwd"), path):
        raise ToolError(f"cannot {verb} {path!r}: it contains the current directory "
                        f"{s.var('cwd')!r}; cd elsewhere first")


def _plan_target(s: State, src: str, row: Row, destination: str, overwrite: bool,
                 verb: str) -> tuple[str, Row | None]:
    """Where `src` lands, and the file it would replace (checked, not yet touched)."""
    dest = resolve(s, destination)
    dest_row = s["nodes"].find(dest)
    target = join(dest, row["name"]) if dest_row and dest_row["type"] == "directory" else dest
    if target == src:
        raise ToolError(f"cannot {verb} {src!r} onto itself; choose another destination")
    if row["type"] == "directory" and is_within(target, src):
        raise ToolError(f"cannot {verb} directory {src!r} into itself ({target!r})")
    check_writable_dir(s, parent_of(target))
    existing = s["nodes"].find(target)
    if existing is None:
        return target, None
    if existing["type"] == "directory" or row["type"] == "directory":
        raise ToolError(f"{target!r} already exists and is a {existing['type']}; choose another "
                        "destination or remove it first")
    if not overwrite:
        raise ToolError(f"{target!r} already exists; pass overwrite=true to replace it")
    check_mutable(s, existing, "overwritten")
    return target, existing


def _relocate(s: State, src: str, target: str, when: str, copy: bool) -> int:
    nodes = s["nodes"]
    top = nodes.get(src)
    rows = [top, *descendants(s, src)] if top["type"] == "directory" else [top]
    for r in rows:
        path = target + r["path"][len(src):]
        moved = {**r, "path": path, "name": base_name(path), "parent": parent_of(path)}
        if copy:
            moved.update(read_only=False, owner=s.var("user"), created_at=when,
                         modified_at=when, tags=[])
        else:
            nodes.delete(r["path"])
        nodes.insert(moved)
    return len(rows)


def _move(s: State, source: str, destination: str, overwrite: bool, verb: str) -> MoveOut:
    src, row = lookup(s, source)
    check_mutable(s, row, "moved or renamed")
    check_writable_dir(s, parent_of(src))
    target, existing = _plan_target(s, src, row, destination, overwrite, verb)
    when = now(s)
    if existing is not None:
        s["nodes"].delete(target)
    n = _relocate(s, src, target, when, copy=False)
    stamp_dir(s, parent_of(src), when)
    stamp_dir(s, parent_of(target), when)
    cwd = s.var("cwd")
    if is_within(cwd, src):  # the shell's cwd follows the moved directory
        s.set_var("cwd", target + cwd[len(src):])
    return {"source": src, "destination": target, "entries": n,
            "overwritten": existing is not None}


@DOMAIN.tool(read_only=False)
def mkdir(s: State, path: Path,
          parents: Annotated[bool, Arg("Create missing parent directories too, and do not "
                                       "fail if the directory exists (like mkdir -p)")] = False
          ) -> MkdirOut:
    """Create a directory."""
    p = resolve(s, path)
    row = s["nodes"].find(p)
    if row is not None:
        if parents and row["type"] == "directory":
            return {"path": p, "created": []}
        raise ToolError(f"{p!r} already exists (a {row['type']})")
    missing = [p]
    while parents and s["nodes"].find(parent_of(missing[-1])) is None:
        missing.append(parent_of(missing[-1]))
    check_writable_dir(s, parent_of(missing[-1]))
    when = now(s)
    for d in reversed(missing):
        new_node(s, d, "directory", None, when)
    stamp_dir(s, parent_of(missing[-1]), when)
    return {"path": p, "created": list(reversed(missing))}


@DOMAIN.tool(read_only=False)
def rmdir(s: State, path: Path) -> RemoveOut:
    """Remove an empty directory (use rm with recursive=true for a non-empty one)."""
    p, row = lookup(s, path)
    if row["type"] != "directory":
        raise ToolError(f"{p!r} is a file; use rm to delete files")
    check_mutable(s, row, "deleted")
    inside = descendants(s, p)
    if inside:
        raise ToolError(f"directory {p!r} is not empty ({len(inside)} entries below it); "
                        "use rm with recursive=true to delete it with its contents")
    _guard_cwd(s, p, "remove")
    check_writable_dir(s, parent_of(p))
    s["nodes"].delete(p)
    stamp_dir(s, parent_of(p), now(s))
    return {"removed": [p], "freed_bytes": 0}


@DOMAIN.tool(read_only=False)
def rm(s: State, path: Path,
       recursive: Annotated[bool, Arg("Required to delete a directory with everything in "
                                      "it")] = False) -> RemoveOut:
    """Delete a file, or a directory and its contents (recursive=true). Deletion is permanent."""
    p, row = lookup(s, path)
    check_mutable(s, row, "deleted")
    inside = descendants(s, p) if row["type"] == "directory" else []
    if row["type"] == "directory" and not recursive:
        raise ToolError(f"{p!r} is a directory; pass recursive=true to delete it and its "
                        f"{len(inside)} entries, or use rmdir if it is empty")
    locked = [r["path"] for r in inside if r["read_only"]]
    if locked:
        raise ToolError(f"cannot delete {p!r}: it contains read-only entries "
                        f"({', '.join(locked[:3])}); chmod them with read_only=false first")
    _guard_cwd(s, p, "remove")
    check_writable_dir(s, parent_of(p))
    freed = total_size(s, row)
    for r in reversed(inside):
        s["nodes"].delete(r["path"])
    s["nodes"].delete(p)
    stamp_dir(s, parent_of(p), now(s))
    return {"removed": [p, *(r["path"] for r in inside)], "freed_bytes": freed}


@DOMAIN.tool(read_only=False)
def mv(s: State, source: Source, destination: Destination, overwrite: Overwrite = False
       ) -> MoveOut:
    """Move or rename a file or directory (modified times are kept)."""
    return _move(s, source, destination, overwrite, "move")


@DOMAIN.tool(read_only=False)
def rename(s: State, path: Path, new_name: Annotated[str, Arg(
        "New name in the same directory, e.g. 'report_final.csv' (no '/')", min_length=1,
        max_length=255)]) -> MoveOut:
    """Rename a file or directory in place."""
    check_name(new_name)
    p, _ = lookup(s, path)
    target = join(parent_of(p), new_name)
    if s["nodes"].find(target) is not None:
        raise ToolError(f"{target!r} already exists; choose another name")
    return _move(s, path, target, False, "rename")


@DOMAIN.tool(read_only=False)
def cp(s: State, source: Source, destination: Destination,
       recursive: Annotated[bool, Arg("Required to copy a directory with its contents")] = False,
       overwrite: Overwrite = False) -> MoveOut:
    """Copy a file, or a directory tree with recursive=true. Copies are writable, untagged and
    stamped with the current time."""
    src, row = lookup(s, source)
    if row["type"] == "directory" and not recursive:
        raise ToolError(f"{src!r} is a directory; pass recursive=true to copy it")
    target, existing = _plan_target(s, src, row, destination, overwrite, "copy")
    check_quota(s, total_size(s, row) - (size_of(existing) if existing else 0))
    when = now(s)
    if existing is not None:
        s["nodes"].delete(target)
    n = _relocate(s, src, target, when, copy=True)
    stamp_dir(s, parent_of(target), when)
    return {"source": src, "destination": target, "entries": n,
            "overwritten": existing is not None}


@DOMAIN.tool(read_only=False)
def touch(s: State, path: FilePath) -> FileInfo:
    """Create an empty file, or update an existing file's modified time."""
    p = resolve(s, path)
    row = s["nodes"].find(p)
    if row is not None:
        check_mutable(s, row, "touched")
        return info(s, s["nodes"].update(p, modified_at=now(s)))
    check_writable_dir(s, parent_of(p))
    when = now(s)
    stamp_dir(s, parent_of(p), when)
    return info(s, new_node(s, p, "file", "", when))


def _write(s: State, path: str, content: str, *, create: bool) -> WriteOut:
    p = resolve(s, path)
    row = s["nodes"].find(p)
    if row is None and not create:
        _, row = get_file(s, path)  # raises the not-found error
    if row is not None:
        if row["type"] != "file":
            raise ToolError(f"{p!r} is a directory; give a file path")
        check_mutable(s, row, "written")
        check_quota(s, len(content.encode()) - size_of(row))
        when = now(s)
        row = s["nodes"].update(p, content=content, modified_at=when)
        created = False
    else:
        check_writable_dir(s, parent_of(p))
        check_quota(s, len(content.encode()))
        when = now(s)
        stamp_dir(s, parent_of(p), when)
        row = new_node(s, p, "file", content, when)
        created = True
    return {"path": p, "size": size_of(row), "lines": len(content.splitlines()),
            "created": created, "modified_at": when}


@DOMAIN.tool(read_only=False)
def write_file(s: State, path: FilePath, content: Content) -> WriteOut:
    """Write text to a file, creating it or replacing all of its content."""
    return _write(s, path, content, create=True)


@DOMAIN.tool(read_only=False)
def append_file(s: State, path: FilePath, content: Content,
                newline: Annotated[bool, Arg("End the appended text with a newline if it has "
                                             "none")] = True) -> WriteOut:
    """Append text to the end of an existing file (use write_file to create one)."""
    _, row = get_file(s, path)
    old = row["content"]
    if old and not old.endswith("\n"):
        old += "\n"  # keep lines separate, like `echo >>` after a final newline
    add = content + ("\n" if newline and not content.endswith("\n") else "")
    return _write(s, path, old + add, create=False)


@DOMAIN.tool(read_only=False)
def edit_replace(s: State, path: FilePath,
                 find: Annotated[str, Arg("Text to find (a regular expression if regex=true)",
                                          min_length=1, max_length=500)],
                 replace: Annotated[str, Arg("Replacement text (may be empty; with regex=true "
                                             "\\1 refers to a group)", max_length=5000)],
                 regex: Annotated[bool, Arg("Treat `find` as a regular expression")] = False,
                 ignore_case: Annotated[bool, Arg("Match case-insensitively")] = False,
                 count: Annotated[int, Arg("Replace at most this many matches (0 = all)",
                                           minimum=0, maximum=10000)] = 0) -> EditOut:
    """Find and replace text inside a file, like `sed -i 's/find/replace/g'`."""
    p, row = get_file(s, path)
    check_mutable(s, row, "edited")
    budget = Budget(find, "pass regex=false to replace the text as it is")
    try:
        pattern = compile_pattern(find, ignore_case, not regex, "fix it or pass regex=false "
                                  "for plain text")
        new, n = budget.subn(pattern, replace if regex else (lambda _: replace),
                             row["content"], count)
    except PatternError as err:  # a bad replacement template
        raise ToolError(f"invalid regular expression or replacement: {err}; fix it or pass "
                        "regex=false for plain text") from None
    if n == 0:
        raise ToolError(f"{find!r} was not found in {p!r}; nothing replaced (use grep to check "
                        "the exact text)")
    check_quota(s, len(new.encode()) - size_of(row))
    when = now(s)
    s["nodes"].update(p, content=new, modified_at=when)
    return {"path": p, "replacements": n, "size": len(new.encode()), "modified_at": when}


@DOMAIN.tool(read_only=False)
def chmod(s: State, path: Path,
          read_only: Annotated[bool, Arg("true: protect from changes, moves and deletion; "
                                         "false: make writable again")],
          recursive: Annotated[bool, Arg("Also apply to everything below a directory")] = False
          ) -> ChmodOut:
    """Set or clear the read-only flag of a file or directory (a read-only directory also
    refuses new or removed entries)."""
    p, row = lookup(s, path)
    rows = [row, *(descendants(s, p) if recursive and row["type"] == "directory" else [])]
    for r in rows:
        if r["owner"] != s.var("user"):
            raise ToolError(f"permission denied: {r['path']!r} is owned by {r['owner']}; "
                            "only your own files can be changed")
    changed = [s["nodes"].update(r["path"], read_only=read_only) for r in rows
               if r["read_only"] != read_only]
    return {"changed": [info(s, r) for r in changed]}
