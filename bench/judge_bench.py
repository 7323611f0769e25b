"""Judge-matrix speed and where an episode's time goes, measured side by side in one run.

    python bench/judge_bench.py [--domain airline] [--every 5] [--rounds 2]

Prints, for one domain's judge matrix (`taue judge matrix`'s agents, one trial of every `every`-th
emotional task, as tests/runner/test_judge.py plays it):

- episodes per second (wall clock and CPU time of this process), after a warm-up play that builds
  what a process builds once (the seed image, each task's expected end state);
- the calls an episode makes, played at concurrency 1 so that each call's time is its cost: count,
  total and mean of every control request, MCP tool call and simulator and scorer call;
- two ratios of things measured side by side: the state hash resumed from the seed's cached prefix
  against hashing the whole state text, and stopping an embedded server against stopping plain
  uvicorn (which polls for the stop every 100 ms and then waits 100 ms more).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import resource
import shutil
import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import mcp
import uvicorn

from taue.envs.runtime.control_app import build_control_app
from taue.envs.runtime.database import state_hash
from taue.envs.runtime.discovery import get_domain
from taue.envs.runtime.episodes import EpisodeRegistry
from taue.envs.runtime.server import DomainServer, bind_socket
from taue.envs.runtime.task_checks import replay
from taue.runner.control import ControlClient
from taue.runner.judge import MATRIX_AGENTS, judge_matrix
from taue.scorer.client import ScorerClient
from taue.simulator.client import SimulatorClient

TIMED = {
    ControlClient: ("create_episode", "tool_log_since", "finish", "delete_episode"),
    SimulatorClient: ("start", "respond", "end"),
    ScorerClient: ("score",),
    mcp.Client: ("call_tool",),
}
"""The calls of an episode, by client: what `episode_split` times."""


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def play(domain: str, every: int, concurrency: int) -> int:
    """One judge matrix into a fresh folder; the number of episodes."""
    out = Path(tempfile.mkdtemp(prefix="taue-judge-bench-"))
    try:
        matrix = await judge_matrix([domain], list(MATRIX_AGENTS), out, concurrency, every=every)
        return sum(cells[domain].episodes for cells in matrix.values())
    finally:
        shutil.rmtree(out, ignore_errors=True)


async def rates(domain: str, every: int) -> tuple[float, float]:
    """(episodes per wall-clock second, episodes per CPU second) of one play at concurrency 32."""
    wall, cpu = time.perf_counter(), cpu_seconds()
    episodes = await play(domain, every, 32)
    return episodes / (time.perf_counter() - wall), episodes / (cpu_seconds() - cpu)


async def episode_split(domain: str, every: int) -> tuple[int, dict[str, list[float]]]:
    """Every timed call's durations (s) in one play at concurrency 1, and the number of episodes."""
    durations: dict[str, list[float]] = defaultdict(list)
    originals = [(cls, name, getattr(cls, name)) for cls, names in TIMED.items() for name in names]

    def timed(label: str, method: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(method)
        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return await method(*args, **kwargs)
            finally:
                durations[label].append(time.perf_counter() - started)

        return wrapper

    for cls, name, method in originals:
        setattr(cls, name, timed(f"{cls.__name__}.{name}", method))
    try:
        episodes = await play(domain, every, 1)
    finally:
        for cls, name, method in originals:
            setattr(cls, name, method)
    return episodes, durations


async def state_hash_ms(domain_name: str, repeats: int = 50) -> tuple[float, float]:
    """p50 ms of the state hash of a database a task wrote: resumed from the cached prefix, whole text."""
    domain = get_domain(domain_name)
    task = next(t for t in domain.tasks if any(a.name in domain.write_tools for a in t.evaluation.actions))
    db, _ = await replay(domain, task.initial_state + task.evaluation.actions)
    assert db.state_hash() == state_hash(db.comparable_state())
    resumed = median_ms(db.state_hash, repeats)
    whole = median_ms(lambda: state_hash(db.comparable_state()), repeats)
    db.close()
    return resumed, whole


def median_ms(work: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        work()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


async def stop_ms(domain_name: str, repeats: int = 5) -> tuple[float, float]:
    """Mean ms to stop a started domain server, and a plain uvicorn server with its control app."""
    domain = get_domain(domain_name)
    ours, plain = [], []
    for _ in range(repeats):
        server = DomainServer(domain)
        await server.start()
        started = time.perf_counter()
        await server.stop()
        ours.append((time.perf_counter() - started) * 1000)
        app = build_control_app(EpisodeRegistry(domain), "http://127.0.0.1:1")
        reference = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
        serving = asyncio.create_task(reference.serve(sockets=[bind_socket()]))
        while not reference.started:
            await asyncio.sleep(0.01)
        started = time.perf_counter()
        reference.should_exit = True
        await serving
        plain.append((time.perf_counter() - started) * 1000)
    return statistics.mean(ours), statistics.mean(plain)


async def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--domain", default="airline")
    parser.add_argument("--every", type=int, default=5, help="every N-th emotional task (the test's 5)")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    await play(args.domain, args.every, 32)  # warm-up
    measured = [await rates(args.domain, args.every) for _ in range(args.rounds)]
    wall, cpu = (statistics.mean(column) for column in zip(*measured, strict=True))
    print(f"# judge matrix of {args.domain}, every {args.every}th emotional task, concurrency 32")
    print(f"episodes/s: {wall:.2f} wall clock, {cpu:.2f} per CPU second ({args.rounds} rounds)")
    episodes, durations = await episode_split(args.domain, args.every)
    total = sum(sum(values) for values in durations.values())
    print(f"# the timed calls of {episodes} episodes at concurrency 1: {total:.2f} s")
    print(f"{'call':32} {'count':>6} {'total s':>8} {'mean ms':>8} {'share':>6}")
    for label, values in sorted(durations.items(), key=lambda item: -sum(item[1])):
        spent, mean_ms = sum(values), 1000 * statistics.mean(values)
        print(f"{label:32} {len(values):6} {spent:8.2f} {mean_ms:8.2f} {spent / total:6.0%}")
    resumed, whole = await state_hash_ms(args.domain)
    print(f"state hash p50: {resumed:.2f} ms resumed vs {whole:.2f} ms whole text ({whole / resumed:.1f}x)")
    ours, plain = await stop_ms(args.domain)
    print(f"server stop: {ours:.1f} ms embedded vs {plain:.1f} ms plain uvicorn ({plain / ours:.0f}x)")


if __name__ == "__main__":
    asyncio.run(main())
