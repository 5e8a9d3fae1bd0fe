"""launch.view's pages in headless Chromium: they load from file:// with their script
running (the filter counter fills in), no console message, no reference to the network; and
256 paper-length episodes stay under 20 MB per file.

Chromium is required, never skipped: CI (.ci/run) installs Debian's package."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.viewer import records as rec
from tests.viewer.dom import Node, parse

ROOT = Path(__file__).resolve().parents[2]
MAX_FILE_BYTES = 20 * 1024 * 1024
_URL_ATTRS = ("src", "href", "action", "srcset", "poster", "data", "formaction")


@pytest.fixture(scope="module")
def chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        pytest.fail("chromium is not installed: apt-get install -y chromium (Debian's package; "
                    ".ci/run installs it on CI)")
    return path


def load(chromium: str, page: Path, tmp: Path, fragment: str = "") -> tuple[Node, str, float]:
    """(the DOM after scripts ran, Chromium's stderr, seconds to load and dump)."""
    start = time.perf_counter()
    proc = subprocess.run(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", f"--user-data-dir={tmp / 'chromium-profile'}",
         "--enable-logging=stderr", "--v=0", "--dump-dom", page.as_uri() + fragment],
        capture_output=True, text=True, timeout=120)
    seconds = time.perf_counter() - start
    assert proc.returncode == 0, proc.stderr[-3000:]
    return parse(proc.stdout), proc.stderr, seconds


def check_clean(dom: Node, stderr: str) -> None:
    """No console output (errors, CSP refusals) and only local references."""
    console = [line for line in stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]
    assert not console, "\n".join(console)
    for node in dom.iter():
        for attr in _URL_ATTRS:
            value = (node.attrs.get(attr) or "").strip()
            if value:
                assert not re.match(r"[a-z][a-z0-9+.-]*:", value, re.I) or \
                    value.startswith(("data:", "file:")), f"{node.tag} {attr}={value}"


def view(run: Path) -> Path:
    proc = subprocess.run([sys.executable, "-m", "launch.view", f"--run={run}"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return run / "view"


def test_training_step_page_renders_in_chromium(chromium, tmp_path):
    run = rec.train_run(tmp_path / "run", {3: [*rec.scripted_group(3),
                                               rec.episode("t-beta", 0, step=3, group=1)]})
    out = view(run)
    dom, stderr, _ = load(chromium, out / "step_000003.html", tmp_path)
    check_clean(dom, stderr)
    episodes = dom.find_all("article", data_episode=None)
    assert [e.attrs["data-episode"] for e in episodes] == ["t-alpha#0", "t-alpha#1", "t-beta#0"]
    assert [len(e.find_all(data_turn=None)) for e in episodes] == [9, 2, 5]
    assert dom.one(id="shown").text() == "3 of 3 episodes shown"  # the script ran
    # a filter from the URL: only the failed episode stays visible
    dom, stderr, _ = load(chromium, out / "step_000003.html", tmp_path, "#failed=1")
    check_clean(dom, stderr)
    assert dom.one(id="shown").text() == "1 of 3 episodes shown"
    hidden = {e.attrs["data-episode"] for e in dom.find_all("article") if "hidden" in e.attrs}
    assert hidden == {"t-alpha#0", "t-beta#0"}
    assert "hidden" in dom.one("section", data_task="t-beta").attrs
    index, stderr, _ = load(chromium, out / "index.html", tmp_path)
    check_clean(index, stderr)
    assert index.find_all("polyline", data_series="reward/total")


def test_evaluation_page_renders_in_chromium(chromium, tmp_path):
    records = [rec.benchmark_episode("bfcl-1"), rec.benchmark_episode("bfcl-2"),
               rec.benchmark_episode("bfcl-2", 1)]
    out = view(rec.eval_dir(tmp_path / "eval", records))
    dom, stderr, _ = load(chromium, out / "episodes.html", tmp_path)
    check_clean(dom, stderr)
    assert len(dom.find_all("article", data_episode=None)) == 3
    assert len(dom.find_all(data_turn=None)) == 3 * 5
    assert len(dom.find_all("section", data_task="bfcl-2")[0].find_all("article")) == 2
    assert dom.one(id="shown").text() == "3 of 3 episodes shown"
    index, stderr, _ = load(chromium, out / "index.html", tmp_path)
    check_clean(index, stderr)


def _paper_episode(task: int, sample: int, pool: str, rng: random.Random) -> dict:
    """~100 KB of text: a long system prompt, 6 assistant turns with calls and tool results."""
    def text(n: int) -> str:
        start = rng.randrange(len(pool) - n)
        return pool[start:start + n]

    calls = [rec.call(1 + 2 * k, f"tool_{k}", result=text(9000), args={"q": text(200)})
             for k in range(6)]
    turns = [{"role": "system", "text": text(12000)}, {"role": "user", "text": text(2000)}]
    for k in range(6):
        turns += [{"role": "assistant", "text": text(5000), "calls": [k], "complete": True},
                  {"role": "tool", "call": k}]
    turns.append({"role": "assistant", "text": text(3000), "calls": [], "complete": True})
    return rec.episode(f"task-{task:03d}", sample, step=7, group=task, calls=calls,
                       turns=turns, advantage=rng.uniform(-1, 1),
                       rewards={"total": rng.random(), "val": rng.random()})


def test_256_paper_length_episodes_stay_under_20mb_per_file(chromium, tmp_path):
    rng = random.Random(0)
    words = ["the", "account", "<b>", "transfer", "&amp;", "balance", "\"quoted\"", "payee",
             "年", "{\"id\": 3}", "schedule", "\n"]
    pool = " ".join(rng.choice(words) for _ in range(400_000))
    records = [_paper_episode(t, s, pool, rng) for t in range(32) for s in range(8)]
    text_bytes = sum(len(str(r).encode()) for r in records)
    run = rec.train_run(tmp_path / "run", {7: records})
    start = time.perf_counter()
    out = view(run)
    build_s = time.perf_counter() - start
    pages = sorted(out.glob("step_000007*.html"))
    sizes = {p.name: p.stat().st_size for p in pages}
    print(f"\n256 episodes, {text_bytes / 1e6:.1f} MB of records -> {len(pages)} page files "
          f"{ {k: f'{v / 1e6:.2f} MB' for k, v in sizes.items()} } in {build_s:.1f} s")
    assert all(size < MAX_FILE_BYTES for size in sizes.values()), sizes
    counts = [len(re.findall(r'<article class="episode[^"]*" data-episode=', p.read_text()))
              for p in pages]
    assert sum(counts) == 256
    dom, stderr, seconds = load(chromium, pages[0], tmp_path)
    print(f"headless Chromium load + DOM dump of {pages[0].name} "
          f"({sizes[pages[0].name] / 1e6:.2f} MB): {seconds:.2f} s")
    check_clean(dom, stderr)
    assert len(dom.find_all("article", data_episode=None)) == counts[0]
