"""Look at a run's episodes in a browser: self-contained HTML (no network, CSS/JS inline).

    python -m launch.view --run=DIR [--step=N] [--out=DIR]

DIR is a training workdir (episodes/step_NNNNNN.jsonl, metrics.jsonl): one page per step file,
DIR/view/step_NNNNNN.html (--step=N: only that step), and DIR/view/index.html with the steps and
the reward curve. Or an evaluation dir (episodes.jsonl, results.json): DIR/view/episodes.html
and an index. A file too big for one page continues in step_NNNNNN.p2.html, ... (see
prove_jax/viewer/pages.py). Mistakes end in one `error: ...` line and exit status 2.
"""

from __future__ import annotations

import sys
from typing import NoReturn

from absl import app, flags

_RUN = flags.DEFINE_string("run", None, "a training workdir or an evaluation output dir")
_STEP = flags.DEFINE_integer("step", None, "only this training step's page")
_OUT = flags.DEFINE_string("out", None, "where to write the pages (default: RUN/view)")


def _fail(message: str) -> NoReturn:
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)  # a usage error, as argparse reports one


def _parse(argv: list[str]) -> list[str]:
    try:
        return flags.FLAGS(argv)
    except flags.Error as err:  # absl would print a multi-line usage and exit 1
        _fail(str(err))


def main(argv: list[str]) -> None:
    if len(argv) > 1:
        _fail(f"unexpected argument {argv[1]!r} (flags are --run, --step, --out)")
    if not _RUN.value:
        _fail("pass --run=DIR (a training workdir or an evaluation dir)")
    from prove_jax.viewer import ViewError, build_view

    try:
        written = build_view(_RUN.value, _OUT.value, _STEP.value)
    except (ViewError, OSError) as err:
        _fail(str(err))
    print(f"wrote {len(written)} page(s) to {written[-1].parent}; open {written[-1]}")


if __name__ == "__main__":
    app.run(main, flags_parser=_parse)
