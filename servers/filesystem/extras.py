"""Archives (virtual zip/tar.gz records of files) and tags (labels on files and folders)."""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict

from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State
from servers.filesystem.common import (
    DOMAIN,
    DirPath,
    FileInfo,
    Path,
    check_mutable,
    check_quota,
    check_writable_dir,
    descendants,
    get_dir,
    info,
    is_within,
    join,
    lookup,
    new_node,
    now,
    parent_of,
    size_of,
    stamp_dir,
)
from servers.filesystem.seed import compressed_size

ArchiveId = Annotated[str, Arg("Archive id, e.g. 'arc_dkuu4x' (from list_archives or "
                               "create_archive)")]
TAG_PATTERN = r"^[a-z0-9][a-z0-9_-]{0,31}$"
MAX_TAGS = 10


class Archive(TypedDict):
    archive_id: str
    name: str
    format: str
    created_at: str
    sources: list[str]
    entries: list[str]
    entry_count: int
    total_bytes: int
    compressed_bytes: int


class ArchiveList(TypedDict):
    archives: list[Archive]
    total: int


class ExtractOut(TypedDict):
    archive_id: str
    destination: str
    files: list[str]
    directories_created: list[str]
    overwritten: list[str]


class TagsOut(TypedDict):
    path: str
    tags: list[str]


class TagCount(TypedDict):
    tag: str
    count: int


class TagList(TypedDict):
    tags: list[TagCount]
    total: int


class TaggedOut(TypedDict):
    tag: str
    files: list[FileInfo]
    total: int


def _archive(row: Row) -> Archive:
    return {"archive_id": row["archive_id"], "name": row["name"], "format": row["format"],
            "created_at": row["created_at"], "sources": row["sources"],
            "entries": [e["path"] for e in row["entries"]], "entry_count": len(row["entries"]),
            "total_bytes": row["total_bytes"], "compressed_bytes": row["compressed_bytes"]}


@DOMAIN.tool(read_only=False)
def create_archive(
        s: State,
        paths: Annotated[list[str], Arg("Files and directories to pack (absolute or relative)",
                                        min_length=1, max_length=20)],
        name: Annotated[str, Arg("Archive name, e.g. 'reports_2026' (the extension is added "
                                 "if missing)", min_length=1, max_length=100,
                                 pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$")],
        format: Annotated[Literal["zip", "tar.gz"], Arg("Archive format")] = "zip",
        remove_sources: Annotated[bool, Arg("Delete the packed files afterwards (like zip "
                                            "-m) to free space")] = False) -> Archive:
    """Pack files and directories into a named archive kept in the archive store (see
    list_archives); entries are stored relative to each source's parent directory."""
    full = name if name.endswith("." + format) else f"{name}.{format}"
    clash = s["archives"].rows(lambda r: r["name"] == full)
    if clash:
        raise ToolError(f"an archive named {full!r} already exists ({clash[0]['archive_id']}); "
                        "choose another name")
    sources: list[Row] = []
    for path in paths:
        p, row = lookup(s, path)
        if p == "/":
            raise ToolError("cannot archive the whole file system '/'; archive folders inside "
                            f"your home {s.var('home')!r} instead")
        for other in sources:
            if is_within(p, other["path"]) or is_within(other["path"], p):
                raise ToolError(f"{p!r} and {other['path']!r} overlap; list each file or "
                                "directory once")
        sources.append(row)
    entries: list[dict] = []
    for row in sources:
        base = parent_of(row["path"]).rstrip("/") + "/"
        for r in [row, *(descendants(s, row["path"]) if row["type"] == "directory" else [])]:
            rel = r["path"][len(base):]
            if any(e["path"] == rel for e in entries):
                raise ToolError(f"two sources would both be stored as {rel!r}; archive them "
                                "separately or rename one")
            entries.append({"path": rel, "type": r["type"], "content": r["content"]})
    if remove_sources:
        for row in sources:  # validate every deletion before the first write
            check_mutable(s, row, "deleted")
            locked = [r["path"] for r in descendants(s, row["path"]) if r["read_only"]]
            if locked:
                raise ToolError(f"cannot remove {row['path']!r} after archiving: it contains "
                                f"read-only entries ({', '.join(locked[:3])})")
            if is_within(s.var("cwd"), row["path"]):
                raise ToolError(f"cannot remove {row['path']!r}: it contains the current "
                                "directory; cd elsewhere first")
            check_writable_dir(s, parent_of(row["path"]))
    when = now(s)
    total = sum(len(e["content"].encode()) for e in entries if e["type"] == "file")
    rec = s["archives"].insert({
        "archive_id": s.next_id("arc"), "name": full, "format": format, "created_at": when,
        "sources": [r["path"] for r in sources], "entries": entries, "total_bytes": total,
        "compressed_bytes": compressed_size(total, len(entries))})
    if remove_sources:
        for row in sources:
            for r in reversed(descendants(s, row["path"])):
                s["nodes"].delete(r["path"])
            s["nodes"].delete(row["path"])
            stamp_dir(s, parent_of(row["path"]), when)
    return _archive(rec)


@DOMAIN.tool(read_only=False)
def extract_archive(s: State, archive_id: ArchiveId, destination: DirPath = None,
                    overwrite: Annotated[bool, Arg("Replace existing files with the archived "
                                                   "versions")] = False) -> ExtractOut:
    """Unpack an archive into a directory (default: the current one), recreating its folders."""
    rec = s["archives"].get(archive_id)
    dest, _ = get_dir(s, destination)
    nodes = s["nodes"]
    new_dirs: list[str] = []
    files: list[tuple[str, str]] = []
    replaced: list[str] = []

    def need_dir(d: str) -> None:
        if d in new_dirs:
            return
        existing = nodes.find(d)
        if existing is None:
            if parent_of(d) not in new_dirs:
                check_writable_dir(s, parent_of(d))
            new_dirs.append(d)
        elif existing["type"] != "directory":
            raise ToolError(f"{d!r} exists as a file but the archive has a directory there; "
                            "extract somewhere else")

    for e in rec["entries"]:
        target = join(dest, e["path"])
        parts = e["path"].split("/")
        for k in range(1, len(parts)):
            need_dir(join(dest, "/".join(parts[:k])))
        if e["type"] == "directory":
            need_dir(target)
            continue
        existing = nodes.find(target)
        if existing is not None:
            if existing["type"] == "directory":
                raise ToolError(f"{target!r} is a directory but the archive has a file there; "
                                "extract somewhere else")
            if not overwrite:
                raise ToolError(f"{target!r} already exists; pass overwrite=true to replace "
                                "it or extract into an empty directory")
            check_mutable(s, existing, "overwritten")
            replaced.append(target)
        elif parent_of(target) not in new_dirs:
            check_writable_dir(s, parent_of(target))
        files.append((target, e["content"]))
    check_quota(s, sum(len(c.encode()) for _, c in files)
                - sum(size_of(nodes.get(p)) for p in replaced))
    when = now(s)
    for d in new_dirs:
        new_node(s, d, "directory", None, when)
    for target, content in files:
        if target in replaced:
            nodes.update(target, content=content, modified_at=when)
        else:
            new_node(s, target, "file", content, when)
    stamp_dir(s, dest, when)
    return {"archive_id": archive_id, "destination": dest, "files": [t for t, _ in files],
            "directories_created": new_dirs, "overwritten": replaced}


@DOMAIN.tool(read_only=True)
def list_archives(s: State, name_contains: Annotated[str | None, Arg(
        "Only archives whose name contains this text", min_length=1, max_length=100)] = None
                  ) -> ArchiveList:
    """List the archives in the archive store, newest first, with their entries."""
    rows = [r for r in s["archives"].rows()
            if name_contains is None or name_contains.lower() in r["name"].lower()]
    rows.sort(key=lambda r: (r["created_at"], r["archive_id"]), reverse=True)
    return {"archives": [_archive(r) for r in rows], "total": len(rows)}


@DOMAIN.tool(read_only=False)
def tag_file(s: State, path: Path,
             tag: Annotated[str, Arg("Tag: lowercase letters, digits, '-' or '_', e.g. "
                                     "'tax-2025'", min_length=1, max_length=32,
                                     pattern=TAG_PATTERN)],
             remove: Annotated[bool, Arg("Remove the tag instead of adding it")] = False
             ) -> TagsOut:
    """Add a tag to a file or directory (or remove one); tags do not change modified times."""
    p, row = lookup(s, path)
    tags = row["tags"]
    if remove:
        if tag not in tags:
            raise ToolError(f"{p!r} has no tag {tag!r}; its tags are {tags or 'none'}")
        tags = [t for t in tags if t != tag]
    else:
        if tag in tags:
            raise ToolError(f"{p!r} already has tag {tag!r}")
        if len(tags) >= MAX_TAGS:
            raise ToolError(f"{p!r} already has {MAX_TAGS} tags; remove one first")
        tags = sorted([*tags, tag])
    s["nodes"].update(p, tags=tags)
    return {"path": p, "tags": tags}


@DOMAIN.tool(read_only=True)
def list_tags(s: State) -> TagList:
    """All tags in use, with how many files and directories carry each."""
    counts: dict[str, int] = {}
    for row in s["nodes"].rows():
        for t in row["tags"]:
            counts[t] = counts.get(t, 0) + 1
    return {"tags": [{"tag": t, "count": counts[t]} for t in sorted(counts)],
            "total": len(counts)}


@DOMAIN.tool(read_only=True)
def search_by_tag(s: State, tag: Annotated[str, Arg("Tag to look for (see list_tags)",
                                                    min_length=1, max_length=32)],
                  path: DirPath = None) -> TaggedOut:
    """Files and directories carrying a tag, anywhere or below a given directory, by path."""
    scope = "/" if path is None else get_dir(s, path)[0]
    rows = sorted((r for r in s["nodes"].rows() if tag in r["tags"]
                   and is_within(r["path"], scope)), key=lambda r: r["path"])
    return {"tag": tag, "files": [info(s, r) for r in rows], "total": len(rows)}
