"""The OS processes fault injection starts, watches and kills: `taue run`, `taue serve simulator` and
`taue serve env` on loopback ports. Each logs to a file: a full pipe would block a process that logs a
lot (a service logging its clients' disconnects) and make it look hung."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx2
import psutil

from tests.paths import ROOT

TAUE = [sys.executable, "-m", "taue"]
ADMIN_TOKEN = "taue-test-admin-token"
"""The token of the services started here (the suite's, tests/conftest.py)."""
Key = tuple[str, int]
"""(task id, trial): a record's key."""


class ServiceDied(RuntimeError):
    """A service exited before it answered (its ports were taken, say)."""


def clean_env() -> dict[str, str]:
    """This environment without TAUE_* settings, which would change the runs being compared, but for
    the admin token every service of the suite is started with."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("TAUE_")}
    return {**env, "COLUMNS": "200", "TAUE_ADMIN_TOKEN": ADMIN_TOKEN}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_logged(command: list[str], log: Path) -> subprocess.Popen:
    with log.open("ab") as out:
        return subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=clean_env(), cwd=ROOT)


def recorded_keys(results: Path) -> list[Key]:
    """(task, trial) of every complete line of a results file, repeats included (a torn last line,
    from a write the kill interrupted, is not a record)."""
    if not results.exists():
        return []
    keys = []
    for line in results.read_bytes().splitlines(keepends=True):
        if line.endswith(b"\n"):
            entry = json.loads(line)
            keys.append((entry["task_id"], entry["trial"]))
    return keys


def wait_for_records(path: Path, count: int, process: subprocess.Popen, timeout: float) -> None:
    """Until `path` holds `count` complete lines (records); fails when `process` exits first."""
    deadline = time.monotonic() + timeout
    while _complete_lines(path) < count:
        assert process.poll() is None, f"the runner exited ({process.returncode}) before record {count}"
        assert time.monotonic() < deadline, f"no record {count} in {path} after {timeout} s"
        time.sleep(0.01)


def _complete_lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def sigkill(pid: int) -> None:
    os.kill(pid, signal.SIGKILL)


def spawned_workers(parent: int, count: int, timeout: float = 0) -> list[psutil.Process]:
    """`parent`'s worker processes (multiprocessing spawn children, not its resource tracker), in
    the order they started, once there are at least `count` (`timeout`: how long to wait for them)."""
    deadline = time.monotonic() + timeout
    while True:
        found = []
        for child in psutil.Process(parent).children():
            try:
                if "spawn_main" in " ".join(child.cmdline()):
                    found.append(child)
            except psutil.Error:
                continue
        if len(found) >= count:
            return sorted(found, key=lambda child: (child.create_time(), child.pid))
        assert time.monotonic() < deadline, f"{len(found)} of {count} workers after {timeout} s"
        time.sleep(0.02)


def descendants(pid: int) -> list[psutil.Process]:
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def end_processes(processes: list[psutil.Process], grace: float) -> list[str]:
    """Give `processes` (ones this test started) `grace` seconds to exit, then SIGKILL the rest;
    returns the command lines of those it killed."""
    _, alive = psutil.wait_procs(processes, timeout=grace)
    killed = []
    for process in alive:
        try:
            killed.append(" ".join(process.cmdline())[-80:])
            process.kill()
        except psutil.NoSuchProcess:
            continue
    psutil.wait_procs(alive, timeout=10)
    return killed


@dataclass
class Service:
    """`taue serve simulator` or `taue serve env DOMAIN` as its own process on fixed loopback ports."""

    kind: str
    log: Path
    domain: str = "airline"
    ports: tuple[int, int] = field(default_factory=lambda: (free_port(), free_port()))
    process: subprocess.Popen | None = None
    starts: int = 0

    @property
    def address(self) -> str:
        """What the runner is given: the gRPC HOST:PORT, or the domain's control URL."""
        if self.kind == "simulator":
            return f"127.0.0.1:{self.ports[0]}"
        return f"http://127.0.0.1:{self.ports[1]}"

    def command(self) -> list[str]:
        if self.kind == "simulator":
            return [*TAUE, "serve", "simulator", "--port", str(self.ports[0])]
        mcp, control = self.ports
        return [*TAUE, "serve", "env", self.domain, "--mcp-port", str(mcp), "--control-port", str(control)]

    def start(self, timeout: float = 60) -> None:
        self.process = start_logged(self.command(), self.log)
        self.starts += 1
        deadline = time.monotonic() + timeout
        while not self._answers():
            if self.process.poll() is not None:
                raise ServiceDied(f"{self.kind} exited with {self.process.returncode}; see {self.log}")
            if time.monotonic() > deadline:
                self.stop()
                raise TimeoutError(f"{self.kind} did not answer in {timeout} s; see {self.log}")
            time.sleep(0.05)

    def restart(self, same_ports: bool = True) -> None:
        """After a kill: on the same ports, as a supervisor would (on new ones if they were taken
        meanwhile), or on new ones."""
        assert self.process is not None
        self.process.wait(10)
        if same_ports:
            try:
                return self.start()
            except ServiceDied:
                pass
        self.ports = (free_port(), free_port())
        self.start()

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        assert self.process is not None
        sigkill(self.process.pid)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def _answers(self) -> bool:
        if self.kind == "simulator":
            return _grpc_serving(self.address)
        try:
            return httpx2.get(f"{self.address}/healthz", timeout=1).status_code == 200
        except httpx2.HTTPError:
            return False


def _grpc_serving(address: str) -> bool:
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    with grpc.insecure_channel(address) as channel:
        try:
            reply = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=1)
        except grpc.RpcError:
            return False
    return reply.status == health_pb2.HealthCheckResponse.SERVING
