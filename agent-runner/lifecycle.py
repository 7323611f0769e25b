"""How a run ends: on a signal, with its parent, and without leaving episodes on remote servers.

SIGTERM or SIGINT cancels the run's work: each in-flight episode's `finally` deletes its server-side
episode, every finished record stays, and the command exits 128 + the signal number (143, 130).
A worker process ends with its parent even when the parent is killed with SIGKILL. Episodes carry
the run's id, so whatever a killed session left on a remote domain server is deleted by run id when
the run starts again, and on every exit path.
"""

from __future__ import annotations

import asyncio
import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Awaitable
from typing import TypeVar

from taue.runner.control import ControlClient, InfraError, control_session

T = TypeVar("T")
PR_SET_PDEATHSIG = 1
PARENT_POLL_S = 1.0
CLEANUP_TIMEOUT_S = 10.0
_unsupported_warned: set[str] = set()


class Interrupted(Exception):
    """The run was stopped by a signal after winding down."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        super().__init__(f"stopped by {signal.Signals(signum).name}")

    @property
    def exit_code(self) -> int:
        return 128 + self.signum


async def until_signalled(
    work: Awaitable[T], signals: tuple[int, ...] = (signal.SIGTERM, signal.SIGINT)
) -> T:
    """Await `work`; the first of `signals` cancels it, and `Interrupted` is raised once it has wound
    down. A second signal while it winds down ends the process at once.

    An explicit handler matters for SIGTERM: as PID 1 (a container's main process) Python would
    otherwise never see it, since the kernel drops signals PID 1 has no handler for.
    """
    loop = asyncio.get_running_loop()
    task = asyncio.ensure_future(work)
    received: list[int] = []

    def on_signal(signum: int) -> None:
        if received:
            os._exit(128 + received[0])
        received.append(signum)
        task.cancel()

    # Signal handlers belong to the main thread: run from another (a library caller's worker thread),
    # the work runs without them and the caller keeps its own signal handling.
    handled = signals if threading.current_thread() is threading.main_thread() else ()
    for signum in handled:
        loop.add_signal_handler(signum, on_signal, signum)
    try:
        return await task
    except asyncio.CancelledError:
        if received:
            raise Interrupted(received[0]) from None
        raise
    finally:
        for signum in handled:
            loop.remove_signal_handler(signum)


def die_with_parent(parent_pid: int) -> None:
    """End this process when `parent_pid` ends, however it ends (SIGKILL included)."""
    _set_parent_death_signal()
    if os.getppid() != parent_pid:  # the parent died before the death signal was set
        os._exit(1)
    # Where prctl is missing (not Linux), a watchdog sees the process adopted by another parent.
    threading.Thread(target=_watch_parent, args=(parent_pid,), name="parent-watchdog", daemon=True).start()


def _set_parent_death_signal() -> bool:
    """Linux: the kernel sends SIGKILL to this process when the thread that started it exits (the
    parent starts workers from its main thread, so: when the parent exits)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch_parent(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(PARENT_POLL_S)
    os._exit(1)


async def delete_run_episodes(env: dict[str, str], run_id: str | None, tokens: dict[str, str | None]) -> None:
    """Delete the run's episodes on every remote domain server in `env` (domain -> control URL), each
    with its token in `tokens`.

    Best effort: a failure is a one-line warning, never fatal (the server's idle TTL expires them).
    """
    if run_id is None or not env:
        return
    async with control_session(timeout=CLEANUP_TIMEOUT_S) as http:
        for domain, url in sorted(env.items()):
            try:
                deleted = await ControlClient(url, http, tokens.get(domain)).delete_run_episodes(run_id)
            except (InfraError, ValueError) as exc:
                _warn(f"could not delete the run's episodes on {domain}: {exc}")
                continue
            if deleted is None and url not in _unsupported_warned:
                _unsupported_warned.add(url)
                _warn(f"{domain} ({url}) cannot delete episodes by run id; upgrade the server")


def _warn(message: str) -> None:
    # One plain line on stderr: the root logger may carry a rich handler that wraps and decorates.
    print(f"warning: {' '.join(message.split())}", file=sys.stderr, flush=True)
