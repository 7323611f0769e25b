"""`taue run --workers N`: the episodes spread over worker processes, each with its own embedded servers.

Workers die with the parent (agent-runner/lifecycle.py), however it dies. A cancelled parent (SIGTERM,
SIGINT) forwards SIGTERM to its workers, waits for them to wind down, and keeps the outcomes they sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable
from queue import Empty
from typing import Any

from taue.contracts.run import EpisodeRecord, RunConfig
from taue.runner.embedded import Services
from taue.runner.lifecycle import Interrupted, die_with_parent, until_signalled
from taue.runner.runner import EpisodeKey, Outcome, before_exit, run_episodes, shard_by_task

POLL_S = 0.2
WIND_DOWN_S = 20.0
"""How long a stopped worker may take to cancel its episodes and delete them before it is killed."""


class WorkersGone(RuntimeError):
    """Every worker process exited while episodes were still missing (one was killed, say)."""


def _died(processes: list[Any]) -> str:
    """The infrastructure error of an episode whose worker died before it ended."""
    dead = [f"pid {p.pid} exit code {p.exitcode}" for p in processes if p.exitcode not in (0, None)]
    return f"worker process died before the episode ended ({', '.join(dead) or 'no exit code'})"


async def run_in_workers(
    config: RunConfig,
    todo: list[EpisodeKey],
    given: Services,
    concurrency: int,
    admin_token: str | None,
    workers: int,
    sink: Callable[[Outcome], None],
    manifest_sha256: str | None = None,
) -> None:
    """Spread `todo` over worker processes by task; their outcomes stream back through a queue."""
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    per_worker = max(1, concurrency // workers)
    arguments = (
        os.getpid(),
        config.model_dump(),
        given.model_dump(),
        per_worker,
        admin_token,
        queue,
        manifest_sha256,
    )
    processes = [
        context.Process(target=_worker_main, args=(shard, *arguments), daemon=True)
        for shard in shard_by_task(todo, workers)
        if shard
    ]
    for process in processes:
        process.start()  # from this (the main) thread: the workers' parent-death signal follows it
    loop = asyncio.get_running_loop()
    stop = threading.Event()
    received: set[EpisodeKey] = set()
    try:
        while len(received) < len(todo):
            reading = loop.run_in_executor(None, _next_outcome, queue, processes, stop)
            try:
                outcome = await asyncio.shield(reading)
            except asyncio.CancelledError:
                stop.set()
                await _wind_down(processes, queue, reading, sink)
                raise
            except WorkersGone:
                for outcome in _drain(queue):
                    received.add(outcome.key)
                    sink(outcome)
                for key in todo:
                    if key not in received:
                        sink(Outcome(key, errors=[_died(processes)]))
                return
            if outcome is not None:
                received.add(outcome.key)
                sink(outcome)
    finally:
        stop.set()
        await loop.run_in_executor(None, _join, processes, 10.0)


async def _wind_down(
    processes: list[Any], queue: Any, reading: asyncio.Future[Outcome | None], sink: Callable[[Outcome], None]
) -> None:
    """Stop the workers (SIGTERM), wait for them, and keep every outcome they sent before exiting."""
    for process in processes:
        if process.is_alive():
            process.terminate()
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, _join, processes, WIND_DOWN_S)
    with contextlib.suppress(WorkersGone):  # every worker gone: the rest is in the queue
        last = await reading
        if last is not None:
            sink(last)
    for outcome in _drain(queue):
        sink(outcome)


def _join(processes: list[Any], timeout: float) -> None:
    for process in processes:
        process.join(timeout=timeout)
        if process.is_alive():
            process.kill()
            process.join()


def _drain(queue: Any) -> list[Outcome]:
    outcomes = []
    while True:
        try:
            outcomes.append(_outcome(queue.get(timeout=POLL_S)))
        except Empty:
            return outcomes


def _next_outcome(queue: Any, processes: list[Any], stop: threading.Event) -> Outcome | None:
    """The next outcome a worker sent; None once `stop` is set."""
    while not stop.is_set():
        try:
            return _outcome(queue.get(timeout=POLL_S))
        except Empty:
            if not any(process.is_alive() for process in processes):
                raise WorkersGone from None
    return None


def _outcome(item: tuple[Any, str | None, list[str]]) -> Outcome:
    key, record_json, errors = item
    record = EpisodeRecord.model_validate_json(record_json) if record_json else None
    return Outcome(tuple(key), record, errors)


def _worker_main(
    keys: list[EpisodeKey],
    parent_pid: int,
    config: dict[str, Any],
    given: dict[str, Any],
    concurrency: int,
    admin_token: str | None,
    queue: Any,
    manifest_sha256: str | None,
) -> None:
    die_with_parent(parent_pid)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a terminal's Ctrl-C: the parent decides, then forwards

    def send(outcome: Outcome) -> None:
        record = outcome.record.model_dump_json() if outcome.record else None
        queue.put((outcome.key, record, outcome.errors))

    run = run_episodes(
        RunConfig.model_validate(config),
        keys,
        Services.model_validate(given),
        concurrency,
        admin_token,
        send,
        manifest_sha256,
    )
    with contextlib.suppress(Interrupted):
        asyncio.run(until_signalled(run, (signal.SIGTERM,)))
    before_exit()
