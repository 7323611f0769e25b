"""One runner per run directory: a second `taue run` on the same --out stops at once naming the holder's
pid; the kernel's flock is dropped when the holder dies (kill -9 leaves no stale lock); a refused run
leaves no folder behind; object-store runs take no lock (documented in docs/running.md)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from taue.cli import app
from taue.runner.run_lock import LOCK_FILE, RunDirLocked, RunLock

HOLD = """
import sys, time
from pathlib import Path
from taue.runner.run_lock import RunLock
with RunLock(Path(sys.argv[1])):
    print("held", flush=True)
    time.sleep(120)
"""


def test_a_second_lock_on_the_same_directory_is_refused_naming_the_holder(tmp_path: Path) -> None:
    with RunLock(tmp_path):
        assert (tmp_path / LOCK_FILE).read_text() == f"{os.getpid()}\n"
        with pytest.raises(RunDirLocked) as refused:
            RunLock(tmp_path).__enter__()
        assert str(refused.value) == (
            f"{tmp_path} is in use by another run (pid {os.getpid()}); wait for it to end, or use another "
            "--out"
        )
        with RunLock(tmp_path / "other"):
            pass  # another directory is another lock
    assert not (tmp_path / LOCK_FILE).exists(), "a run that ends removes its lock file"
    with RunLock(tmp_path):
        pass  # and the directory can be locked again


def test_a_holder_killed_with_sigkill_leaves_no_stale_lock(tmp_path: Path) -> None:
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(tmp_path)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        with pytest.raises(RunDirLocked, match=rf"\(pid {holder.pid}\)"):
            RunLock(tmp_path).__enter__()
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=30)
    assert (tmp_path / LOCK_FILE).exists(), "the killed holder's file stays, harmless"
    with RunLock(tmp_path):
        assert (tmp_path / LOCK_FILE).read_text() == f"{os.getpid()}\n"


def test_a_run_that_fails_inside_the_lock_leaves_no_folder_it_made(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="refused settings"), RunLock(tmp_path / "a" / "b"):
        raise ValueError("refused settings")
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "kept").mkdir()
    with RunLock(tmp_path / "kept"):
        (tmp_path / "kept" / "run.json").write_text("{}")
    assert [p.name for p in (tmp_path / "kept").iterdir()] == ["run.json"]


def test_object_store_runs_take_no_lock() -> None:
    location = f"memory://taue-lock-test/{os.getpid()}/run"
    with RunLock(location), RunLock(location):
        pass


def test_taue_run_refuses_a_directory_another_run_holds(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["run", "--domains", "airline", "--trials", "1", "--limit", "1", "--quiet", "--out", str(out)]
    with RunLock(out):
        started = time.monotonic()
        result = CliRunner().invoke(app, args, env={"COLUMNS": "300"})
        refused_after = time.monotonic() - started
    assert result.exit_code == 2, result.output
    assert result.output.strip() == (
        f"error: {out} is in use by another run (pid {os.getpid()}); wait for it to end, or use another --out"
    )
    assert refused_after < 30, "at once, not after the other run"
