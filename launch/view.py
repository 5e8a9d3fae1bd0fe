"""Look at a run's episodes in a browser: self-contained HTML (no network, CSS/JS inline).

    python -m launch.view --run=DIR [--step=N] [--out=DIR]

DIR is a training workdir (episodes/step_NNNNNN.jsonl, metrics.jsonl): one page per step file,
DIR/view/step_NNNNNN.html (--step=N: only that step), and DIR/view/index.html with the steps and
the reward curve. Or an evaluation dir (episodes.jsonl, results.json): DIR/view/episodes.html
and an index. Mistakes end in one `error: ...` line and exit status 2.

Size: pages, not lazy loading. Each page file is plain server-rendered HTML of at most ~6 MB
(prove_jax/viewer/pages.py PAGE_BYTES); an episode file that needs more continues in
step_NNNNNN.p2.html, p3, ... with prev/next links, a GRPO group kept on one page unless it alone
is larger. 256 paper-length episodes (~100 KB of text each) make 8 pages of ~4.9 MB. Pages
stay readable with scripts off and by any HTML parser (the tests parse them); the inline JS
only filters the episodes of the page it is on (reward range, outcome, finish reason, failed
only; also from the URL: step_000012.html#failed=1&outcome=schema_error). One text over 256 KB
is shown cut, with its length.
"""

from __future__ import annotations

from absl import app, flags

from launch.cli import parse_flags, usage_error

_RUN = flags.DEFINE_string("run", None, "a training workdir or an evaluation output dir")
_STEP = flags.DEFINE_integer("step", None, "only this training step's page")
_OUT = flags.DEFINE_string("out", None, "where to write the pages (default: RUN/view)")


def main(argv: list[str]) -> None:
    if len(argv) > 1:
        usage_error(f"unexpected argument {argv[1]!r} (flags are --run, --step, --out)")
    if not _RUN.value:
        usage_error("pass --run=DIR (a training workdir or an evaluation dir)")
    from prove_jax.viewer import ViewError, build_view

    try:
        written = build_view(_RUN.value, _OUT.value, _STEP.value)
    except (ViewError, OSError) as err:
        usage_error(str(err))
    print(f"wrote {len(written)} page(s) to {written[-1].parent}; open {written[-1]}")


if __name__ == "__main__":
    app.run(main, flags_parser=parse_flags)
