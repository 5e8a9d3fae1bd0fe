"""`python -m launch.train` against MCP servers running as separate HTTP processes, given by
URL on the command line, one of which is SIGKILLed mid-run: the run still finishes every step,
and the episodes that needed the dead server are counted failed (loss mask 0), not crashed on."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.net import free_port

ROOT = Path(__file__).resolve().parents[2]
STEPS = 3


def _serve(name: str, port: int) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-m", "servers", name, "--transport", "http", "--port", str(port)],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    while True:
        assert proc.poll() is None, f"{name} server exited"
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return proc
        assert time.time() < deadline, f"{name} server never listened on {port}"
        time.sleep(0.1)


@pytest.fixture(scope="module")
def http_tasks(tasks, tmp_path_factory) -> Path:
    """The shared tasks that need payments (the server killed below), some budget too: the
    synthesizer may also write a budget-only task, which would not notice the kill."""
    rows = [json.loads(x) for x in tasks.read_text().splitlines()]
    rows = [r for r in rows if "payments" in r["servers"]]
    assert len(rows) >= 30 and any("budget" in r["servers"] for r in rows)
    path = tmp_path_factory.mktemp("http_tasks") / "train.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _metrics(workdir: Path) -> list[dict]:
    path = workdir / "metrics.jsonl"
    if not path.exists():
        return []
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


@pytest.mark.timeout(1200)
def test_http_servers_by_url_and_one_killed_mid_run(http_tasks, tmp_path):
    ports = {"payments": free_port(), "budget": free_port()}
    urls = {n: f"http://127.0.0.1:{p}/mcp" for n, p in ports.items()}
    servers: dict[str, subprocess.Popen] = {}
    train = None
    workdir, log = tmp_path / "run", tmp_path / "train.log"
    try:
        for name, port in ports.items():
            servers[name] = _serve(name, port)
        with open(log, "w") as out:
            train = subprocess.Popen(
                [sys.executable, "-m", "launch.train", "--config=configs/tiny.py",
                 f"--config.workdir={workdir}", f"--config.train.steps={STEPS}",
                 "--config.train.checkpoint_every=1000", "--config.train.export_at_end=False",
                 "--config.train.progress=False", "--config.data.synthesize=0",
                 f"--config.data.train_path={http_tasks}", "--config.servers.transport=http",
                 *(f"--config.servers.urls.{n}={u}" for n, u in urls.items())],
                cwd=ROOT, stdout=out, stderr=out, start_new_session=True)
        deadline = time.time() + 900
        while not _metrics(workdir):  # step 1 played against both live servers
            assert train.poll() is None, log.read_text()[-3000:]
            assert time.time() < deadline, "no step finished in time"
            time.sleep(0.2)
        servers["payments"].send_signal(signal.SIGKILL)
        servers["payments"].wait(timeout=10)
        assert train.wait(timeout=max(1.0, deadline - time.time())) == 0, \
            log.read_text()[-3000:]
    finally:
        if train is not None and train.poll() is None:
            os.killpg(train.pid, signal.SIGKILL)
            train.wait()
        for proc in servers.values():
            if proc.poll() is None:
                proc.kill()
                proc.wait(timeout=10)

    rows = _metrics(workdir)
    assert [r["step"] for r in rows] == [1, 2, 3]
    assert [r["episodes"] for r in rows] == [8, 8, 8]
    assert rows[0]["failed"] == 0.0
    # Every task needs payments: step 3's episodes all started after the kill and failed
    # cleanly (step 2's may have been under way when it came).
    assert rows[2]["failed"] == 1.0
    text = log.read_text()
    assert urls["payments"] in text  # the reason names the dead server's URL
    assert "Traceback" not in text


def test_server_urls_come_from_the_command_line_and_a_missing_one_names_its_flag(tmp_path):
    from absl import flags
    from ml_collections import config_flags

    from launch.wiring import server_specs

    tasks = tmp_path / "train.jsonl"
    tasks.write_text(json.dumps({"servers": ["payments", "budget"]}) + "\n")
    argv = ["prog", f"--config={ROOT / 'configs/tiny.py'}", "--config.servers.transport=http",
            "--config.servers.urls.payments=http://10.0.0.5:8765/mcp"]  # as launch.train sees it
    fv = flags.FlagValues()
    config_flags.DEFINE_config_file("config", None, flag_values=fv, sys_argv=argv)
    fv(argv)
    c = fv.config
    with pytest.raises(ValueError, match=r"--config\.servers\.urls\.budget="):
        server_specs(c, tasks)
    c.servers.urls.budget = "http://10.0.0.6:8765/mcp"
    assert {(s.name, s.url) for s in server_specs(c, tasks)} == {
        ("payments", "http://10.0.0.5:8765/mcp"), ("budget", "http://10.0.0.6:8765/mcp")}
    c.servers.transport = "inprocess"  # a URL the transport would ignore is an error
    with pytest.raises(ValueError, match=r"--config\.servers\.transport=http"):
        server_specs(c, tasks)
