"""`taue run` ends cleanly: SIGTERM and SIGINT wind a run down (exit 143 and 130, also as PID 1), its
episodes are deleted from a remote domain server, a rerun completes exactly the rest, and worker
processes never outlive their parent, even one killed with SIGKILL."""

from __future__ import annotations

import json
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2
import psutil
import pytest

from taue.contracts.run import EpisodeRecord
from tests.conftest import ADMIN_TOKEN
from tests.paths import ROOT

pytestmark = pytest.mark.slow  # each test runs `taue run` in its own process (workers: three)

TAUE = [sys.executable, "-m", "taue"]
STARTUP_S = 180  # to the first records, on a loaded 2-core machine
ORACLE = ["--agent", "oracle", "--quiet", "--concurrency", "2"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_run(out: Path, *args: str, prefix: tuple[str, ...] = ()) -> subprocess.Popen[str]:
    command = [*prefix, *TAUE, "run", *ORACLE, "--out", str(out), *args]
    return subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def results_lines(out: Path) -> list[bytes]:
    path = out / "results.jsonl"
    return path.read_bytes().splitlines(keepends=True) if path.exists() else []


def wait_for_records(out: Path, count: int, process: subprocess.Popen[str]) -> None:
    """Until `count` episodes are recorded, the run still going (mid-flight)."""
    deadline = time.monotonic() + STARTUP_S
    while len(results_lines(out)) < count:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, f"no {count} records in {STARTUP_S} s"
        time.sleep(0.1)


def whole_records(out: Path) -> list[EpisodeRecord]:
    """Every line of results.jsonl, each a whole record: nothing torn."""
    lines = results_lines(out)
    assert all(line.endswith(b"\n") for line in lines)
    return [EpisodeRecord.model_validate_json(line) for line in lines]


def stopped(process: subprocess.Popen[str], code: int) -> str:
    """The process's stderr, once it exited with `code` after winding down in one line."""
    _, err = process.communicate(timeout=120)
    assert process.returncode == code, err
    last = err.strip().splitlines()[-1]
    assert last.startswith(f"stopped by {signal.Signals(code - 128).name}: ") and "rerun" in last, err
    assert "Traceback" not in err, err
    return err


@pytest.fixture(scope="module")
def remote_airline(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`taue serve env airline` in its own process: the control URL."""
    control = free_port()
    args = ["serve", "env", "airline", "--mcp-port", str(free_port()), "--control-port", str(control)]
    log = tmp_path_factory.mktemp("server") / "stderr.log"
    with log.open("w") as stderr:
        server = subprocess.Popen([*TAUE, *args], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=stderr)
    url = f"http://127.0.0.1:{control}"
    try:
        deadline = time.monotonic() + STARTUP_S
        while not _healthy(url):
            assert server.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        yield url
    finally:
        server.kill()
        server.wait()


def _healthy(url: str) -> bool:
    try:
        return httpx2.get(f"{url}/healthz", timeout=1).status_code == 200
    except httpx2.HTTPError:
        return False


def run_episodes_on(url: str, run_id: str) -> list[dict]:
    admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    response = httpx2.get(f"{url}/episodes", params={"run_id": run_id}, timeout=5, headers=admin)
    assert response.status_code == 200, response.text
    return response.json()["episodes"]


def test_sigterm_deletes_the_runs_episodes_on_a_remote_server_and_a_rerun_does_the_rest(
    remote_airline: str, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    args = ("--domains", "airline", "--limit", "6", "--trials", "2", "--env", f"airline={remote_airline}")
    process = start_run(out, *args)
    wait_for_records(out, 2, process)
    run_id = json.loads((out / "run.json").read_text())["run_id"]
    deadline = time.monotonic() + 30
    while not run_episodes_on(remote_airline, run_id):  # the server holds the run's in-flight episodes
        assert process.poll() is None and time.monotonic() < deadline
        time.sleep(0.02)
    process.send_signal(signal.SIGTERM)
    stopped(process, 143)
    assert run_episodes_on(remote_airline, run_id) == []
    assert httpx2.get(f"{remote_airline}/healthz").json()["episodes"] == 0
    first = {record.key: record.without_clock() for record in whole_records(out)}
    assert 2 <= len(first) < 12

    command = [*TAUE, "run", *ORACLE, "--out", str(out), *args]
    rerun = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert rerun.returncode == 0, rerun.stderr
    assert f"{12 - len(first)} episodes run, {len(first)} already done, 0 failed" in rerun.stderr
    records = whole_records(out)
    assert len(records) == len({record.key for record in records}) == 12
    assert all(first[r.key] == r.without_clock() for r in records if r.key in first)
    assert json.loads((out / "run.json").read_text())["run_id"] == run_id  # kept when a run resumes
    assert httpx2.get(f"{remote_airline}/healthz").json()["episodes"] == 0


def _unshare_works() -> bool:
    command = ["unshare", "--pid", "--fork", "--map-root-user", "--mount-proc", "true"]
    try:
        return shutil.which("unshare") is not None and subprocess.run(command, timeout=30).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def test_sigterm_winds_a_run_down_as_pid_1(tmp_path: Path) -> None:
    """In a container `taue run` is PID 1, which gets no signal it has no handler for."""
    if not _unshare_works():
        pytest.skip("unshare cannot make a PID namespace here (user namespaces refused): no PID 1 to test")
    out = tmp_path / "run"
    namespace = ("unshare", "--pid", "--fork", "--map-root-user", "--mount-proc")
    process = start_run(out, "--domains", "airline", "--limit", "10", "--trials", "2", prefix=namespace)
    wait_for_records(out, 1, process)
    (pid_1,) = psutil.Process(process.pid).children()  # unshare's child: PID 1 in its namespace
    pid_1.send_signal(signal.SIGTERM)
    stopped(process, 143)
    assert 1 <= len(whole_records(out)) < 20


def _workers_and_tracker(parent: subprocess.Popen[str]) -> tuple[list[psutil.Process], str]:
    children = psutil.Process(parent.pid).children(recursive=True)
    kinds = sorted(
        "tracker" if "resource_tracker" in line else "worker" if "spawn_main" in line else line
        for line in (" ".join(child.cmdline()) for child in children)
    )
    return children, ",".join(kinds)


WORKERS = ("--domains", "airline", "--trials", "3", "--workers", "2")


def test_workers_and_the_resource_tracker_die_with_a_parent_killed_by_sigkill(tmp_path: Path) -> None:
    out = tmp_path / "run"
    process = start_run(out, *WORKERS)
    wait_for_records(out, 1, process)
    children, kinds = _workers_and_tracker(process)
    assert kinds == "tracker,worker,worker"
    process.kill()
    process.wait()
    _, alive = psutil.wait_procs(children, timeout=5)
    assert alive == []
    whole_records(out)


def test_sigint_reaches_the_workers_and_the_parent_waits_for_them(tmp_path: Path) -> None:
    """Ctrl-C (SIGTERM takes the same path): the parent sends SIGTERM to each worker, keeps what they
    finished, and exits 130 once they are gone."""
    out = tmp_path / "run"
    process = start_run(out, *WORKERS)
    wait_for_records(out, 1, process)
    children, kinds = _workers_and_tracker(process)
    assert kinds == "tracker,worker,worker"
    process.send_signal(signal.SIGINT)
    stopped(process, 130)
    _, alive = psutil.wait_procs(children, timeout=5)
    assert alive == []
    assert len(whole_records(out)) >= 1
