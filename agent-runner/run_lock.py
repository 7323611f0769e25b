"""One runner per run directory: `taue run` holds an exclusive lock on `<run dir>/.run.lock` while it runs.

The lock is `flock(2)` on that file, taken without waiting: a second runner on the same `--out` stops at
once with a one-line `RunDirLocked` naming the holder's pid (written into the file). The kernel drops the
lock when its process ends, however it ends (`kill -9` included), so a lock is never stale; a lock file
left behind by a killed runner is harmless and reused. A run that ends removes the file.

Runs in an object store (`s3://…`) take no lock: a store has no lock primitive a reader can trust
(see docs/running.md), so two runners on one prefix both run every missing episode; records are
keyed by (task, trial), so the results stay consistent, but the work is done twice.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import TracebackType
from typing import Concatenate, ParamSpec, TypeVar

from taue.runner.storage import RunDirError, RunLocation, file_fault

LOCK_FILE = ".run.lock"
P = ParamSpec("P")
C = TypeVar("C")
T = TypeVar("T")


class RunDirLocked(RunDirError):
    """Another process holds the run directory's lock."""


class RunLock:
    """The exclusive lock of a local run directory, as a context manager (a no-op in an object store).

    Entering makes the directory (and its missing parents); when the run then ends without writing
    anything there (refused settings, say), leaving removes them again, so a refused run changes nothing."""

    def __init__(self, run_dir: Path | RunLocation) -> None:
        self.folder = RunLocation.parse(run_dir).local
        self.fd: int | None = None
        self.made: list[Path] = []
        """The folders entering made, deepest first."""

    def __enter__(self) -> RunLock:
        if self.folder is None:
            return self
        self.made = _missing_folders(self.folder)
        RunLocation.parse(self.folder).make()
        try:
            self.fd = _acquire(self.folder / LOCK_FILE)
        except BaseException:
            self._remove_if_made()
            raise
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self.folder is None or self.fd is None:
            return
        with contextlib.suppress(OSError):
            (self.folder / LOCK_FILE).unlink()  # while still held: see _acquire
        os.close(self.fd)
        self.fd = None
        self._remove_if_made()

    def _remove_if_made(self) -> None:
        with contextlib.suppress(OSError):
            for folder in self.made:
                folder.rmdir()  # only when empty: a run that wrote nothing


def _missing_folders(folder: Path) -> list[Path]:
    missing = []
    for candidate in (folder, *folder.parents):
        if candidate.exists() or candidate == candidate.parent:
            break
        missing.append(candidate)
    return missing


def _acquire(path: Path) -> int:
    """An open descriptor of `path` holding its exclusive lock, or a `RunDirLocked`."""
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise file_fault(path, exc) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            os.close(fd)
            raise RunDirLocked(
                f"{path.parent} is in use by another run (pid {holder}); wait for it to end, or use "
                "another --out"
            ) from None
        # The holder removes the file before releasing it: a lock taken on a removed file is no lock.
        if _same_file(fd, path):
            with contextlib.suppress(OSError):  # the pid only informs a refused runner; a full disk
                os.ftruncate(fd, 0)
                os.write(fd, f"{os.getpid()}\n".encode())
            return fd
        os.close(fd)


def _holder(fd: int) -> str:
    """The pid the holder wrote into the lock file ("unknown" in the instant before it writes it)."""
    with contextlib.suppress(OSError, ValueError):
        return str(int(os.pread(fd, 32, 0).decode().strip()))
    return "unknown"


def _same_file(fd: int, path: Path) -> bool:
    try:
        return os.path.samestat(os.fstat(fd), path.stat())
    except OSError:
        return False


def holding_run_lock(
    run: Callable[Concatenate[C, Path | RunLocation, P], Awaitable[T]],
) -> Callable[Concatenate[C, Path | RunLocation, P], Awaitable[T]]:
    """Run the coroutine function `run(config, run_dir, …)` holding `run_dir`'s lock."""

    @functools.wraps(run)
    async def locked(config: C, run_dir: Path | RunLocation, *args: P.args, **kwargs: P.kwargs) -> T:
        with RunLock(run_dir):
            return await run(config, run_dir, *args, **kwargs)

    return locked
