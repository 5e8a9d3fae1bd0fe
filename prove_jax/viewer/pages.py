"""Episode pages: one episode file's groups, split into page files of at most PAGE_BYTES.

Paging, not lazy loading: each page file is plain server-rendered HTML (readable with scripts
off, checkable by an HTML parser) and the first page keeps the file's name
(`step_000012.html`), later ones add `.pN` (`step_000012.p2.html`); every page links to all
pages of its file and to the index. A group stays on one page unless it alone exceeds the
budget; then it is split by sample and each share says which samples it holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from prove_jax.viewer.assets import CSP, CSS, FILTER_JS
from prove_jax.viewer.data import Group, group_episodes
from prove_jax.viewer.episode import esc, render_episode, render_group

__all__ = ["PAGE_BYTES", "page_names", "render_shell", "write_episode_pages"]

# 256 paper-length episodes (~100 KB of text each) make ~26 MB of markup: 6 MB pages keep each
# file far under the 20 MB ceiling and quick for a browser to lay out.
PAGE_BYTES = 6_000_000


def page_names(name: str, pages: int) -> list[str]:
    """File names of the `pages` pages of episode file `name`."""
    return [f"{name}.html" if p == 0 else f"{name}.p{p + 1}.html" for p in range(pages)]


def render_shell(title: str, body: str, script: str = "") -> str:
    """A whole self-contained page: inline CSS, optional inline script, a CSP that forbids
    every fetch."""
    tail = f"<script>{script}</script>" if script else ""
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{esc(title)}</title><style>{CSS}</style></head><body>{body}{tail}"
            f"</body></html>")


def _filters() -> str:
    return ('<div class="filters">reward <input id="f-min" type="number" step="any" '
            'placeholder="min"> to <input id="f-max" type="number" step="any" '
            'placeholder="max"> <label>outcome <select id="f-outcome"><option value="">any'
            '</option></select></label> <label>finish <select id="f-finish"><option value="">'
            'any</option></select></label> <label><input id="f-failed" type="checkbox"> '
            'failed only</label> <span id="shown" class="meta"></span></div>')


def _nav(names: Sequence[str], current: int) -> str:
    if len(names) < 2:
        return '<nav class="pages"><a href="index.html">index</a></nav>'
    links = ['<a href="index.html">index</a>']
    if current > 0:
        links.append(f'<a href="{esc(names[current - 1])}" rel="prev">← prev</a>')
    for p, n in enumerate(names):
        links.append(f"<b>page {p + 1}</b>" if p == current
                     else f'<a href="{esc(n)}">page {p + 1}</a>')
    if current + 1 < len(names):
        links.append(f'<a href="{esc(names[current + 1])}" rel="next">next →</a>')
    return f'<nav class="pages">{" ".join(links)}</nav>'


def _paginate(groups: Sequence[Group], budget: int) -> list[list[str]]:
    """Pack rendered groups into pages of at most `budget` bytes (a lone oversized episode
    still gets a page of its own)."""
    pages: list[list[str]] = [[]]
    used = 0

    def put(markup: str) -> None:
        nonlocal used
        size = len(markup.encode())
        if pages[-1] and used + size > budget:
            pages.append([])
            used = 0
        pages[-1].append(markup)
        used += size

    for group in groups:
        episodes = [render_episode(r) for r in group.episodes]
        whole = render_group(group, episodes)
        if len(whole.encode()) <= budget:
            put(whole)
            continue
        start = 0  # too big for any page: share it out by sample, one share per page
        while start < len(episodes):
            end, size = start, 0
            while end < len(episodes) and (end == start or
                                           size + len(episodes[end].encode()) <= budget):
                size += len(episodes[end].encode())
                end += 1
            part = f" · samples {start + 1}–{end} of {len(episodes)}"
            put(render_group(group, episodes[start:end], part))
            start = end
    return pages


def write_episode_pages(out: Path, name: str, title: str, records: Sequence[dict[str, Any]],
                        budget: int = PAGE_BYTES) -> list[Path]:
    """Write the pages of one episode file; returns their paths (the first is `name`.html)."""
    pages = _paginate(group_episodes(records), budget)
    names = page_names(name, len(pages))
    for stale in out.glob(f"{name}.p*.html"):  # a rerun with fewer pages leaves no orphans
        if stale.name not in names:
            stale.unlink()
    paths = []
    for p, groups in enumerate(pages):
        where = f" · page {p + 1} of {len(pages)}" if len(pages) > 1 else ""
        body = (f"<h1>{esc(title)}{where}</h1>{_nav(names, p)}{_filters()}"
                f'<main data-page="{p + 1}" data-pages="{len(pages)}">{"".join(groups)}</main>'
                f"{_nav(names, p)}")
        path = out / names[p]
        _write(path, render_shell(f"{title}{where}", body, FILTER_JS))
        paths.append(path)
    return paths


def _write(path: Path, text: str) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)  # a browser reloading the page never reads half a file
