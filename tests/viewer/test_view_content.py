"""launch.view's pages hold what a reader needs, checked by parsing the written HTML: call
outcomes on their calls, reward components, which call covered which truth call, the missed
ones; GRPO groups side by side; escaping; paging; one-line CLI errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from prove_jax.viewer.pages import write_episode_pages
from tests.viewer import records as rec
from tests.viewer.dom import Node, parse

ROOT = Path(__file__).resolve().parents[2]


def view(*flags: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "launch.view", *flags], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def train_view(tmp_path_factory) -> Path:
    long_result = "x" * 5000
    beta = rec.episode("t-beta", 0, step=3, group=1,
                       calls=[rec.call(1, "get_balance", result=long_result)])
    run = rec.train_run(tmp_path_factory.mktemp("run"),
                        {1: [rec.episode("t-gamma", 0, step=1)],
                         3: [*rec.scripted_group(3), beta]})
    proc = view(f"--run={run}")
    assert proc.returncode == 0, proc.stderr
    return run / "view"


@pytest.fixture(scope="module")
def page(train_view) -> Node:
    return parse((train_view / "step_000003.html").read_text(encoding="utf-8"))


def sample0(page: Node) -> Node:
    return page.one("article", data_episode="t-alpha#0")


def test_call_outcomes_sit_on_their_calls(page):
    ep = sample0(page)
    bad = ep.one("div", data_call="2")
    assert bad.attrs["data-outcome"] == "schema_error"
    assert "outcome-schema_error" in bad.classes
    assert "schema_error" in bad.text() and "amount: expected number" in bad.text()
    ok = ep.one("div", data_call="0")
    assert ok.attrs["data-outcome"] == "ok" and "outcome-ok" in ok.classes
    malformed = ep.one("div", data_call="3")
    assert "malformed" in malformed.classes and malformed.attrs["data-kind"] == "malformed_call"
    assert "malformed" in {n.text() for n in malformed.find_all("span")}
    # each tool turn shows its call's result with the same outcome
    assert ep.one("div", data_result="2").attrs["class"] == "call outcome-schema_error"
    assert set(ep.attrs["data-outcomes"].split()) == {"ok", "schema_error", "unknown_tool",
                                                       "malformed"}


def test_reward_components_with_their_values(page):
    bars = {n.attrs["data-component"]: float(n.attrs["data-value"])
            for n in sample0(page).find_all(data_component=None)}
    assert bars == pytest.approx(rec.REWARDS)
    names = [n.text() for n in sample0(page).find_all("span", class_="reward-name")]
    assert names[0] == "total" and set(names) == set(rec.REWARDS)
    neg = sample0(page).one(data_component="arg").find_all("span")[0]
    assert neg.attrs.get("class") == "neg" and "width:25.0%" in neg.attrs["style"]


def test_alignment_shows_covering_call_and_missed_truth(page):
    ep = sample0(page)
    covers = ep.one("div", data_call="1").one("div", data_truth="0")
    assert "truth step 0" in covers.text() and "find_payee" in covers.text()
    assert "covers no truth call" in ep.one("div", data_call="2").text()
    covered = ep.one("tr", data_truth="0")
    assert covered.attrs["data-covered-by"] == "1" and "call #1 find_payee" in covered.text()
    missed = ep.one("tr", data_truth="1")
    assert "missed" in missed.classes and "missed" in missed.text()
    assert '"amount": 20' in missed.text()  # the truth call's own arguments
    assert "data-covered-by" not in missed.attrs
    late = ep.one("tr", data_truth="2")
    assert late.attrs["data-covered-by"] == "0" and late.find_all(data_in_order="false")
    assert "out of order" in ep.one("div", data_call="0").text()


def test_grpo_group_side_by_side_with_advantages(page):
    group = page.one("section", data_task="t-alpha")
    episodes = group.find_all("article")
    assert [e.attrs["data-episode"] for e in episodes] == ["t-alpha#0", "t-alpha#1"]
    advantages = [e.find_all("b", pred=lambda n: "advantage" in n.classes)[0].text()
                  for e in episodes]
    assert advantages == ["0.700", "-0.700"]
    cols = group.one("div", class_="cols").attrs["style"]
    assert "repeat(2," in cols


def test_state_hashes_finish_and_failure(page):
    ep = sample0(page)
    assert ep.find_all(data_state_match="false")
    row = ep.one("tr", data_server="banking")
    assert "f00d" in row.text() and "beef" in row.text() and "✗" in row.text()
    failed = page.one("article", data_episode="t-alpha#1")
    assert failed.attrs["data-failed"] == "1" and failed.attrs["data-finish"] == "failed"
    assert "server timeout" in failed.one(data_failed_reason="1").text()
    assert "turn cut" in failed.text()
    assert sample0(page).attrs["data-failed"] == "0"


def test_turns_as_chat_and_long_results_folded(page):
    turns = sample0(page).find_all("div", data_turn=None)
    assert [t.attrs["data-role"] for t in turns] == ["system", "user", "assistant", "tool",
                                                     "tool", "tool", "assistant", "tool",
                                                     "assistant"]
    beta = page.one("article", data_episode="t-beta#0")
    result = beta.one("div", data_result="0")
    details = result.one("details")
    assert "x" * 5000 in details.text()


def test_model_text_is_escaped(page):
    failed = page.one("article", data_episode="t-alpha#1")
    assert rec.SCRIPT_TEXT in failed.text()
    assert len(page.find_all("script")) == 1  # the viewer's own filters
    assert not page.find_all("img") and not page.find_all(pred=lambda n: any(
        k.startswith("on") for k in n.attrs))


def test_index_lists_steps_and_draws_the_curve(train_view):
    index = parse((train_view / "index.html").read_text(encoding="utf-8"))
    rows = {r.attrs["data-step"]: r for r in index.find_all("tr", data_step=None)}
    assert set(rows) == {"1", "3"}
    assert rows["3"].one("td", class_="mean-reward").text() == f"{(0.4125 + 0 + 0.5) / 3:.3f}"
    assert rows["3"].find_all("a", href="step_000003.html")
    series = {n.attrs["data-series"]: n for n in index.find_all("polyline")}
    assert set(series) == {"reward/total", "reward/val"}
    assert len(series["reward/total"].attrs["points"].split()) == 2  # metrics of steps 1, 3
    assert (train_view / "step_000001.html").is_file()


def test_without_metrics_the_curve_is_the_episode_mean(tmp_path):
    run = rec.train_run(tmp_path / "run", {1: [rec.episode(step=1)], 2: [rec.episode(step=2)]},
                        metrics=False)
    assert view(f"--run={run}").returncode == 0
    index = parse((run / "view" / "index.html").read_text(encoding="utf-8"))
    assert "no metrics.jsonl" in index.text()
    line = index.one("polyline", data_series="reward/total")
    assert len(line.attrs["points"].split()) == 2


def test_step_flag_writes_only_that_step(tmp_path):
    run = rec.train_run(tmp_path / "run", {1: [rec.episode(step=1)], 2: [rec.episode(step=2)]})
    proc = view(f"--run={run}", "--step=2", f"--out={tmp_path / 'o'}")
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in (tmp_path / "o").iterdir()) == ["step_000002.html"]


def test_evaluation_dir_without_rewards_or_truth(tmp_path):
    run = rec.eval_dir(tmp_path, [rec.benchmark_episode("bfcl-1"),
                                  rec.benchmark_episode("bfcl-2")])
    proc = view(f"--run={run}")
    assert proc.returncode == 0, proc.stderr
    page = parse((run / "view" / "episodes.html").read_text(encoding="utf-8"))
    eps = page.find_all("article")
    assert [e.attrs["data-episode"] for e in eps] == ["bfcl-1#0", "bfcl-2#0"]
    assert all(e.attrs["data-reward"] == "" and "no rewards" in e.text() for e in eps)
    index = parse((run / "view" / "index.html").read_text(encoding="utf-8"))
    assert index.find_all("a", href="episodes.html") and "accuracy" in index.text()


def test_pages_split_by_budget_and_link_each_other(tmp_path):
    records = [rec.episode(f"t{i}", s, calls=[rec.call(1, "f", result="y" * 3000)])
               for i in range(6) for s in range(2)]
    paths = write_episode_pages(tmp_path, "step_000000", "t", records, budget=20_000)
    names = [p.name for p in paths]
    assert len(names) > 1 and names[:2] == ["step_000000.html", "step_000000.p2.html"]
    seen = []
    for n, path in enumerate(paths):
        page = parse(path.read_text(encoding="utf-8"))
        seen += [a.attrs["data-episode"] for a in page.find_all("article")]
        hrefs = {a.attrs["href"] for a in page.find_all("a")}
        assert "index.html" in hrefs and set(names) - {path.name} <= hrefs
        assert page.one("main").attrs["data-page"] == str(n + 1)
        for group in page.find_all("section"):  # a group that fits is never split
            assert len(group.find_all("article")) == 2
    assert seen == [f"t{i}#{s}" for i in range(6) for s in range(2)]
    # a rerun with fewer pages removes the old ones
    write_episode_pages(tmp_path, "step_000000", "t", records[:1], budget=20_000)
    assert sorted(p.name for p in tmp_path.glob("*.html")) == ["step_000000.html"]


@pytest.mark.parametrize("case", ["no_run", "empty_dir", "missing_dir", "bad_step",
                                  "bad_flag", "bad_json"])
def test_cli_errors_are_one_line_exit_2(tmp_path, case):
    (tmp_path / "episodes").mkdir()
    flags = {"no_run": [], "empty_dir": [f"--run={tmp_path}"],
             "missing_dir": [f"--run={tmp_path / 'nope'}"],
             "bad_step": [f"--run={rec.train_run(tmp_path / 'r', {1: [rec.episode()]})}",
                          "--step=9"],
             "bad_flag": ["--rnu=x"],
             "bad_json": [f"--run={tmp_path}"]}[case]
    if case == "bad_json":
        (tmp_path / "episodes.jsonl").write_text('{"task_id": "a"}\n{oops\n')
    proc = view(*flags)
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2, proc.stderr
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
    assert "Traceback" not in proc.stderr
    expect = {"no_run": "--run", "empty_dir": "no episode files", "missing_dir": "no such",
              "bad_step": "step_000009", "bad_flag": "rnu", "bad_json": "episodes.jsonl:2"}
    assert expect[case] in lines[0]
