"""Results files: one shape for every benchmark.

A benchmark run returns {"categories": {name: {metric: value, ...}}, "overall": {...},
"rows": [per-episode dicts]}. `write_results` writes
  results.json   benchmark, policy, run settings, categories and overall (no rows)
  results.md     the same as a markdown table (also printed)
  episodes.jsonl one line per episode (ids, scores, failure reasons) for error analysis.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

__all__ = ["markdown_table", "write_results"]


def _cell(value: Any) -> str:
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float):
        return f"{value:.4f}"
    return "" if value is None else str(value)


def markdown_table(results: Mapping[str, Any], title: str = "") -> str:
    """Rows: each category, then overall; columns: every metric any of them has."""
    rows = [*results["categories"].items(), ("overall", results["overall"])]
    columns: list[str] = []
    for _, metrics in rows:
        columns += [k for k in metrics if k not in columns and not isinstance(metrics[k], dict)]
    lines = [f"### {title}", ""] if title else []
    lines += ["| category | " + " | ".join(columns) + " |",
              "|---|" + "---|" * len(columns)]
    for name, metrics in rows:
        lines.append(f"| {name} | " + " | ".join(_cell(metrics.get(c)) for c in columns) + " |")
    return "\n".join(lines) + "\n"


def write_results(out_dir: str | Path, results: Mapping[str, Any],
                  info: Mapping[str, Any]) -> dict[str, Path]:
    """Write results.json / results.md / episodes.jsonl into out_dir; returns their paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    summary = {**info, "categories": results["categories"], "overall": results["overall"]}
    paths = {"json": out / "results.json", "md": out / "results.md",
             "episodes": out / "episodes.jsonl"}
    paths["json"].write_text(json.dumps(summary, indent=1, default=str) + "\n")
    title = " ".join(str(info[k]) for k in ("benchmark", "policy") if k in info)
    paths["md"].write_text(markdown_table(results, title))
    with paths["episodes"].open("w") as f:
        for row in results.get("rows", []):
            f.write(json.dumps(row, default=str) + "\n")
    return paths
