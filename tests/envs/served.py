"""`taue serve env DOMAIN` as its own OS process on free loopback ports, its output kept in a file (a
full pipe would block a server that logs)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx2

from tests.paths import ROOT

ADMIN_TOKEN = "taue-test-admin-token"
"""The token of the servers started here (the suite's, tests/conftest.py)."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class ServedDomain:
    process: subprocess.Popen
    mcp_port: int
    control_port: int
    log: Path

    @property
    def control_url(self) -> str:
        return f"http://127.0.0.1:{self.control_port}"

    @property
    def admin(self) -> dict[str, str]:
        """The header of the admin token the server was started with."""
        return {"Authorization": f"Bearer {ADMIN_TOKEN}"}

    @property
    def mcp_url(self) -> str:
        return f"http://127.0.0.1:{self.mcp_port}"

    def output(self) -> str:
        return self.log.read_text(errors="replace")


def _wait_until_healthy(served: ServedDomain, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while True:
        if served.process.poll() is not None:
            raise RuntimeError(f"taue serve env exited with {served.process.returncode}:\n{served.output()}")
        try:
            if httpx2.get(served.control_url + "/healthz", timeout=1).status_code == 200:
                return
        except httpx2.HTTPError:
            pass
        if time.monotonic() > deadline:
            raise TimeoutError(f"taue serve env did not answer in {timeout} s:\n{served.output()}")
        time.sleep(0.05)


@contextmanager
def served_domain(
    domain: str, log: Path, *args: str, env: dict[str, str] | None = None
) -> Iterator[ServedDomain]:
    """The server, healthy; stopped with SIGTERM (then waited for) when the block ends."""
    mcp, control = free_port(), free_port()
    command = [sys.executable, "-m", "taue", "serve", "env", domain, "--mcp-port", str(mcp)]
    settings = {k: v for k, v in os.environ.items() if not k.startswith("TAUE_")}
    with log.open("wb") as out:
        process = subprocess.Popen(
            [*command, "--control-port", str(control), *args],
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**settings, "COLUMNS": "200", "TAUE_ADMIN_TOKEN": ADMIN_TOKEN, **(env or {})},
            cwd=ROOT,
        )
    served = ServedDomain(process, mcp, control, log)
    try:
        _wait_until_healthy(served, timeout=60)
        yield served
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)
