"""The index page: a table of the run's episode files (with links to their pages) and, for a
training run, the reward curve of metrics.jsonl as inline SVG."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

from prove_jax.viewer.episode import esc

__all__ = ["render_curve", "render_index_body"]

_COLORS = ("#0969da", "#1a7f37", "#b35900", "#8250df", "#cf222e", "#57606a", "#bf3989")
_W, _H, _PAD = 680, 260, 40


def _finite(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)


def render_curve(series: dict[str, list[tuple[float, float]]], title: str) -> str:
    """Lines of (step, value) points as an <svg>; "reward/total" is drawn bold."""
    series = {k: sorted(v) for k, v in series.items() if v}
    if not series:
        return '<p class="meta">no reward values to plot</p>'
    xs = [x for pts in series.values() for x, _ in pts]
    ys = [y for pts in series.values() for _, y in pts]
    x0, x1 = min(xs), max(xs) if max(xs) > min(xs) else min(xs) + 1
    y0, y1 = min(min(ys), 0.0), max(max(ys), 1e-9)

    def px(x: float, y: float) -> str:
        sx = _PAD + (x - x0) / (x1 - x0) * (_W - 2 * _PAD)
        sy = _H - _PAD - (y - y0) / (y1 - y0) * (_H - 2 * _PAD)
        return f"{sx:.1f},{sy:.1f}"

    parts = [f'<line x1="{_PAD}" y1="{_H - _PAD}" x2="{_W - _PAD}" y2="{_H - _PAD}" '
             'stroke="#8c959f"/>', f'<line x1="{_PAD}" y1="{_PAD}" x2="{_PAD}" '
             f'y2="{_H - _PAD}" stroke="#8c959f"/>']
    for y in (y0, (y0 + y1) / 2, y1):
        parts.append(f'<text x="{_PAD - 4}" y="{px(x0, y).split(",")[1]}" font-size="10" '
                     f'text-anchor="end">{y:.2f}</text>')
    for x in (x0, x1):
        parts.append(f'<text x="{px(x, y0).split(",")[0]}" y="{_H - _PAD + 14}" '
                     f'font-size="10" text-anchor="middle">{x:g}</text>')
    ordered = sorted(series, key=lambda k: (k != "reward/total", k))
    for n, key in enumerate(ordered):
        color, width = _COLORS[n % len(_COLORS)], 2.5 if key == "reward/total" else 1
        points = " ".join(px(x, y) for x, y in series[key])
        parts.append(f'<polyline class="series" data-series="{esc(key)}" fill="none" '
                     f'stroke="{color}" stroke-width="{width}" points="{points}"/>')
        if len(series[key]) <= 200:  # markers: a lone step is a point, not an empty line
            parts += [f'<circle cx="{p.split(",")[0]}" cy="{p.split(",")[1]}" r="2.5" '
                      f'fill="{color}"/>' for p in points.split()]
        parts.append(f'<text x="{_W - _PAD + 4}" y="{_PAD + 12 * n}" font-size="10" '
                     f'fill="{color}">{esc(key.removeprefix("reward/"))}</text>')
    return (f'<svg class="curve" width="{_W + 80}" '
            f'height="{_H}" role="img" aria-label="{esc(title)}"><title>{esc(title)}</title>'
            f'{"".join(parts)}</svg>')


def _curve_series(metrics: Sequence[dict[str, Any]],
                  rows: Sequence[dict[str, Any]]) -> tuple[dict, str]:
    series: dict[str, list[tuple[float, float]]] = {}
    for m in metrics:
        for key, value in m.items():
            if key.startswith("reward/") and _finite(value):
                series.setdefault(key, []).append((float(m["step"]), float(value)))
    if series:
        return series, "reward per step (metrics.jsonl)"
    # No metrics (copied episodes only): the mean of the episode files stands in.
    pts = [(float(r["step"]), r["mean_reward"]) for r in rows
           if r.get("step") is not None and _finite(r.get("mean_reward"))]
    return {"reward/total": pts}, "mean episode reward per step (no metrics.jsonl)"


def _table(rows: Sequence[dict[str, Any]]) -> str:
    head = ("<tr><th>file</th><th>episodes</th><th>groups</th><th>mean reward</th>"
            "<th>failed</th><th>call outcomes</th><th>pages</th></tr>")
    body = []
    for r in rows:
        mean = f'{r["mean_reward"]:.3f}' if _finite(r.get("mean_reward")) else "–"
        outcomes = ", ".join(f"{esc(k)} {v}" for k, v in r["outcomes"].items()) or "–"
        links = " ".join(f'<a href="{esc(p)}">{n + 1}</a>' for n, p in enumerate(r["pages"]))
        step = "" if r.get("step") is None else f' data-step="{r["step"]}"'
        body.append(f'<tr class="file"{step}><td><a href="{esc(r["pages"][0])}">'
                    f'{esc(r["name"])}</a></td><td>{r["episodes"]}</td><td>{r["groups"]}</td>'
                    f'<td class="mean-reward">{mean}</td><td>{r["failed"]}</td>'
                    f"<td>{outcomes}</td><td>{links}</td></tr>")
    return f'<table class="files">{head}{"".join(body)}</table>'


def render_index_body(run: str, kind: str, rows: Sequence[dict[str, Any]],
                      metrics: Sequence[dict[str, Any]], bad_metric_lines: int = 0,
                      results: Any = None) -> str:
    """The index's body: title, curve (training) or results (evaluation), the file table."""
    parts = [f"<h1>{esc(run)}</h1>"]
    if kind == "train":
        series, title = _curve_series(metrics, rows)
        parts.append(f"<h2>{esc(title)}</h2>{render_curve(series, title)}")
        if bad_metric_lines:
            parts.append(f'<p class="warn">{bad_metric_lines} line(s) of metrics.jsonl did not '
                         "parse and are not plotted</p>")
    parts.append(_table(rows))
    if results is not None:
        text = json.dumps(results, indent=1, ensure_ascii=False)
        parts.append(f"<h2>results.json</h2><details open><summary>{len(text):,} chars"
                     f"</summary><pre>{esc(text[:200_000])}</pre></details>")
    return "".join(parts)
