"""Soak: many concurrent oracle episodes over all ten domains on one machine.

    python bench/soak.py                                             # small: 200 episodes, 100 at once
    python bench/soak.py --episodes 1000 --concurrency 1000          # the full soak, embedded services
    python bench/soak.py --episodes 1000 --concurrency 1000 --separate   # each service its own process

The runner runs in this process (`execute_run`, scripted user, oracle agent). With the embedded default
every domain server, the simulator and the scorer live in that same process, so its peak RSS is the
only figure; `--separate` starts each domain (`taue serve env`), the simulator and the scorer as its
own process, which gives a peak RSS per service (sampled with psutil every 0.1 s).

Printed: peak RSS per process, the most episodes in flight at once, episodes lost (planned − recorded
− infrastructure errors; must be 0: the exit status is 1 otherwise) and the tool round trip, two ways:
`server` is each call's `duration_ms` from the records' events (the tool's execution inside the domain
server), `client` is the oracle's `call_tool` timed in the runner (MCP over HTTP, the server, and the
wait for the runner's own event loop, which 1,000 episodes share). The client times and the count of
episodes in flight come from pass-through wrappers this script installs; nothing else is changed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
import mcp
import psutil

import taue.runner.episode as episode_module
import taue.runner.runner as runner_module
from taue.contracts.run import RunConfig
from taue.envs.runtime.discovery import domain_names
from taue.runner.embedded import Services
from taue.runner.results import ResultsFile
from taue.runner.runner import execute_run

TAUE = [sys.executable, "-m", "taue"]
RUNNER = "runner (this process)"
EMBEDDED = "runner + all services"


@dataclass
class Gauge:
    """Episodes in flight now and at most."""

    now: int = 0
    peak: int = 0


@dataclass
class Sampler:
    """Peak RSS of named processes, sampled on a thread until stopped."""

    processes: dict[str, psutil.Process]
    interval: float = 0.1
    start: dict[str, int] = field(default_factory=dict)
    peak: dict[str, int] = field(default_factory=dict)
    _stop: threading.Event = field(default_factory=threading.Event)

    def __enter__(self) -> Sampler:
        self._sample()
        self.start = dict(self.peak)
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()
        self._sample()

    def _loop(self) -> None:
        while not self._stop.wait(self.interval):
            self._sample()

    def _sample(self) -> None:
        for name, process in self.processes.items():
            try:
                rss = process.memory_info().rss
            except psutil.Error:
                continue
            self.peak[name] = max(self.peak.get(name, 0), rss)


def instrument(client_ms: list[float], gauge: Gauge, live: Gauge) -> None:
    """Pass-through wrappers: time each MCP tool call of the agent, count episodes in flight (started by
    the runner) and live (opened on a domain server and the simulator, not yet closed; the runner
    opens at most 32 at a time, `Harness.opening`)."""
    open_episode, close_episode = episode_module.open_episode, episode_module.close_episode

    async def counted_open(*args: Any, **kwargs: Any) -> Any:
        opened = await open_episode(*args, **kwargs)
        live.now += 1
        live.peak = max(live.peak, live.now)
        return opened

    async def counted_close(*args: Any, **kwargs: Any) -> Any:
        try:
            return await close_episode(*args, **kwargs)
        finally:
            live.now -= 1

    episode_module.open_episode, episode_module.close_episode = counted_open, counted_close
    call_tool = mcp.Client.call_tool

    async def timed_call_tool(self: mcp.Client, *args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return await call_tool(self, *args, **kwargs)
        finally:
            client_ms.append((time.perf_counter() - started) * 1000)

    run_episode = runner_module.run_episode

    async def counted_run_episode(*args: Any, **kwargs: Any) -> Any:
        gauge.now += 1
        gauge.peak = max(gauge.peak, gauge.now)
        try:
            return await run_episode(*args, **kwargs)
        finally:
            gauge.now -= 1

    mcp.Client.call_tool = timed_call_tool
    runner_module.run_episode = counted_run_episode


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Started:
    """Services started as their own processes, and where they listen."""

    processes: dict[str, subprocess.Popen] = field(default_factory=dict)
    services: Services = field(default_factory=Services)

    def stop(self) -> None:
        for process in self.processes.values():
            process.terminate()
        for process in self.processes.values():
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()


def start_services(domains: list[str], logs: Path) -> Started:
    """`taue serve env` per domain, `taue serve simulator` and `taue serve scorer`, each its own process."""
    started = Started()
    env: dict[str, str] = {}
    for domain in domains:
        mcp_port, control_port = free_port(), free_port()
        command = ["serve", "env", domain, "--mcp-port", str(mcp_port), "--control-port", str(control_port)]
        started.processes[f"env {domain}"] = _spawn(command, logs / f"{domain}.log")
        env[domain] = f"http://127.0.0.1:{control_port}"
    grpc = {}
    for name in ("simulator", "scorer"):
        port = free_port()
        started.processes[name] = _spawn(["serve", name, "--port", str(port)], logs / f"{name}.log")
        grpc[name] = f"127.0.0.1:{port}"
    started.services = Services(env=env, simulator=grpc["simulator"], scorer=grpc["scorer"])
    for domain, url in env.items():
        _wait_http(f"{url}/healthz", started.processes[f"env {domain}"])
    return started  # the runner's gRPC clients wait for the simulator and the scorer themselves


def _spawn(arguments: list[str], log: Path) -> subprocess.Popen:
    with log.open("wb") as out:
        return subprocess.Popen([*TAUE, *arguments], stdout=out, stderr=subprocess.STDOUT)


def _wait_http(url: str, process: subprocess.Popen, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"a service exited ({process.returncode}) before answering {url}")
        try:
            if httpx2.get(url, timeout=2).status_code == 200:
                return
        except httpx2.HTTPError:
            pass
        time.sleep(0.2)
    raise SystemExit(f"no answer from {url} in {timeout} s")


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else math.nan


@dataclass
class Figures:
    planned: int
    recorded: int
    infra_errors: int
    lost: int
    peak_in_flight: int
    peak_live: int
    wall_s: float
    peak_rss_mb: dict[str, float]
    start_rss_mb: dict[str, float]
    server_ms: list[float]
    client_ms: list[float]
    causes: dict[str, int]
    """The last error of each episode given up as an infrastructure error, counted."""


def chosen_domains(given: str) -> list[str]:
    served = domain_names()
    if given == "all":
        return served
    names = [name.strip() for name in given.split(",") if name.strip()]
    unknown = sorted(set(names) - set(served))
    if unknown or not names:
        shown = ", ".join(unknown) or repr(given)
        raise ValueError(f"unknown domains {shown}; served: {', '.join(served)}")
    return names


def infra_error_causes(out: Path) -> dict[str, int]:
    causes = Counter(
        (entry.get("errors") or ["?"])[-1][:120]
        for entry in ResultsFile(out).errors()
        if entry.get("termination") == "infra_error"
    )
    return dict(causes.most_common())


def server_tool_ms(out: Path) -> list[float]:
    return [
        event.duration_ms
        for record in ResultsFile(out).load()
        for event in record.timeline()
        if event.kind == "tool_call" and event.duration_ms is not None
    ]


async def soak(args: argparse.Namespace, domains: list[str], out: Path, logs: Path) -> Figures:
    limit = math.ceil(args.episodes / (args.trials * len(domains)))
    config = RunConfig(
        run="soak", domains=domains, agent="oracle", user="scripted", trials=args.trials, limit=limit
    )
    started = start_services(domains, logs) if args.separate else Started()
    here = RUNNER if args.separate else EMBEDDED
    processes = {here: psutil.Process()}
    processes |= {name: psutil.Process(process.pid) for name, process in started.processes.items()}
    client_ms: list[float] = []
    gauge, live = Gauge(), Gauge()
    instrument(client_ms, gauge, live)
    try:
        with Sampler(processes) as sampler:
            began = time.perf_counter()
            report = await execute_run(config, out, started.services, args.concurrency)
            wall = time.perf_counter() - began
    finally:
        started.stop()
    # the sampler may miss a short peak of this process; the kernel's own figure cannot
    sampler.peak[here] = max(sampler.peak[here], resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)
    return Figures(
        planned=report.planned,
        recorded=len(report.records),
        infra_errors=report.failed,
        lost=report.planned - len(report.records) - report.failed,
        peak_in_flight=gauge.peak,
        peak_live=live.peak,
        wall_s=wall,
        peak_rss_mb={name: rss / 2**20 for name, rss in sampler.peak.items()},
        start_rss_mb={name: rss / 2**20 for name, rss in sampler.start.items()},
        server_ms=server_tool_ms(out),
        client_ms=client_ms,
        causes=infra_error_causes(out),
    )


def print_figures(args: argparse.Namespace, figures: Figures) -> None:
    where = "each service its own process" if args.separate else "embedded: one process for all"
    print(
        f"soak: {figures.planned} episodes planned ({args.domains}, {args.trials} trial(s)), "
        f"concurrency {args.concurrency}, {where}; wall {figures.wall_s:.1f} s, "
        f"peak in flight {figures.peak_in_flight}, peak live (opened, not yet closed) {figures.peak_live}"
    )
    print(f"\n{'process':<28}{'start RSS MB':>14}{'peak RSS MB':>14}")
    for name, peak in figures.peak_rss_mb.items():
        print(f"{name:<28}{figures.start_rss_mb.get(name, math.nan):>14.0f}{peak:>14.0f}")
    total = sum(figures.peak_rss_mb.values())
    print(f"{'sum of peaks':<28}{'':>14}{total:>14.0f}")
    print(
        f"\nepisodes: planned {figures.planned}, recorded {figures.recorded}, "
        f"infrastructure errors {figures.infra_errors}, lost {figures.lost}"
    )
    for cause, count in list(figures.causes.items())[:5]:
        print(f"  {count:>6} x {cause}")
    print(f"\n{'tool round trip':<30}{'calls':>8}{'p50 ms':>10}{'p99 ms':>10}{'max ms':>10}")
    rows = (("server (duration_ms)", figures.server_ms), ("client (call_tool)", figures.client_ms))
    for name, values in rows:
        row = f"{name:<30}{len(values):>8}{percentile(values, 0.5):>10.2f}{percentile(values, 0.99):>10.2f}"
        print(row + f"{max(values, default=math.nan):>10.2f}")


def write_json(args: argparse.Namespace, figures: Figures) -> None:
    summary = {k: v for k, v in vars(figures).items() if k not in ("server_ms", "client_ms")}
    for name, values in (("server", figures.server_ms), ("client", figures.client_ms)):
        summary[f"{name}_tool_ms"] = {
            "calls": len(values),
            "p50": percentile(values, 0.5),
            "p99": percentile(values, 0.99),
            "max": max(values, default=math.nan),
        }
    shown = {key: str(value) if isinstance(value, Path) else value for key, value in vars(args).items()}
    args.json.write_text(json.dumps({"args": shown, **summary}, indent=2))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--episodes", type=int, default=200, help="episodes to plan, at least (default 200)")
    parser.add_argument("--concurrency", type=int, default=100, help="episodes in flight (default 100)")
    parser.add_argument("--domains", default="all", help="comma-separated domains, or all (default)")
    parser.add_argument("--trials", type=int, default=1, help="trials per task (default 1)")
    parser.add_argument("--separate", action="store_true", help="each service as its own process")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--out", type=Path, help="keep the run directory here (default: a temporary one)")
    args = parser.parse_args()
    if args.episodes < 1 or args.concurrency < 1 or args.trials < 1:
        parser.error("--episodes, --concurrency and --trials must be at least 1")
    try:
        domains = chosen_domains(args.domains)
    except ValueError as exc:
        parser.error(str(exc))
    if args.out is not None and args.out.exists():
        parser.error(f"--out {args.out} exists: the soak needs a fresh run directory")
    scratch = Path(tempfile.mkdtemp(prefix="taue-soak-"))
    try:
        figures = asyncio.run(soak(args, domains, args.out or scratch / "run", scratch))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print_figures(args, figures)
    if args.json is not None:
        write_json(args, figures)
    sys.exit(0 if figures.lost == 0 else 1)


if __name__ == "__main__":
    main()
