"""Writing a run's view: the episode pages of every (or one) episode file, then the index."""

from __future__ import annotations

import json
from pathlib import Path

from prove_jax.viewer.data import (
    ViewError,
    find_sources,
    load_episodes,
    load_metrics,
    step_summary,
)
from prove_jax.viewer.index import render_index_body
from prove_jax.viewer.pages import render_shell, write_episode_pages

__all__ = ["build_view"]


def build_view(run: str | Path, out: str | Path | None = None,
               step: int | None = None) -> list[Path]:
    """Write the HTML view of a training run or evaluation dir into `out` (default
    RUN/view); returns the written files, the index last. With `step`, only that step's pages
    (the index needs every step file and is left as it is)."""
    run = Path(run)
    kind, sources = find_sources(run, step)
    out = Path(out) if out is not None else run / "view"
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ViewError(f"--out={out}: cannot create it ({err.strerror})") from None
    written, rows = [], []
    for src in sources:  # one file at a time: a run's episodes never sit in memory together
        records = load_episodes(src.path)
        title = f"{run.name} · step {src.step}" if src.step is not None else \
            f"{run.name} · {src.path.name}"
        pages = write_episode_pages(out, src.name, title, records)
        written += pages
        rows.append({"name": src.path.name, "step": src.step, "pages": [p.name for p in pages],
                     **step_summary(records)})
    if step is not None:
        return written
    metrics, bad = load_metrics(run / "metrics.jsonl") if kind == "train" else ([], 0)
    results = None
    if kind == "eval" and (run / "results.json").is_file():
        try:
            results = json.loads((run / "results.json").read_text(encoding="utf-8"))
        except json.JSONDecodeError as err:
            raise ViewError(f"{run / 'results.json'}: not JSON ({err.msg})") from None
    body = render_index_body(str(run), kind, rows, metrics, bad, results)
    index = out / "index.html"
    index.write_text(render_shell(f"{run.name} · index", body), encoding="utf-8")
    return [*written, index]
