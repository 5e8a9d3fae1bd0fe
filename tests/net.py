"""Network and process helpers the tests share."""

import os
import socket
import subprocess
from pathlib import Path


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_processes(commands: list[list[str]], *, devices: int, cwd: Path,
                  timeout: float, returncode: int = 0) -> list[str]:
    """Run the commands side by side (the processes of one JAX run, each with `devices` fake
    CPU devices); every one must exit with `returncode`. Returns each one's output (stdout +
    stderr)."""
    env = {**os.environ, "XLA_FLAGS": f"--xla_force_host_platform_device_count={devices}",
           "JAX_PLATFORMS": "cpu"}
    procs = [subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True) for cmd in commands]
    try:
        logs = [p.communicate(timeout=timeout)[0] for p in procs]
    finally:
        for p in procs:
            p.kill()
    for p, log in zip(procs, logs, strict=True):
        assert p.returncode == returncode, log[-3000:]
    return logs
