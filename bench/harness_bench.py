"""Harness speed, measured side by side in one run on this machine.

    python bench/harness_bench.py [--domains airline,retail] [--episodes 200]

Prints: episode create and reset latency (in-process and over the control port), MCP tool-call
round trip p50/p99 on loopback, and oracle episodes per second at concurrency 1, 8 and 64 in one
process and at concurrency 64 spread over one worker process per core (`taue run --workers`), each
with its ratio to the target from the foundation issue (reset < 2 ms, tool round trip p50 < 5 ms,
>= 20 oracle episodes/s at concurrency 64 on 2 cores).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import httpx2

from taue.contracts.run import RunConfig
from taue.envs.runtime.discovery import get_domain
from taue.envs.runtime.episodes import EpisodeRegistry
from taue.runner.embedded import embedded_domains
from taue.runner.mcp_session import episode_session
from taue.runner.runner import execute_run


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def bench_reset(domain_name: str, repeats: int) -> dict[str, float]:
    domain = get_domain(domain_name)
    registry = EpisodeRegistry(domain)
    started = time.perf_counter()
    episodes = [await registry.create(None) for _ in range(repeats)]
    create_ms = (time.perf_counter() - started) * 1000 / repeats
    resets = [await registry.reset(episode.id) for episode in episodes]
    registry.close()
    return {
        "create_ms": create_ms,
        "reset_p50_ms": statistics.median(resets),
        "reset_p99_ms": percentile(resets, 0.99),
    }


async def bench_http(domain_name: str, calls: int) -> dict[str, float]:
    domain = get_domain(domain_name)
    async with embedded_domains([domain_name]) as servers, httpx2.AsyncClient(timeout=30) as http:
        server = servers[domain_name]
        admin = {"Authorization": f"Bearer {server.admin_token}"}
        timings = []
        for _ in range(50):
            t0 = time.perf_counter()
            created = (await http.post(server.control_url + "/episodes", json={}, headers=admin)).json()
            await http.post(f"{server.control_url}/episodes/{created['episode_id']}/reset", headers=admin)
            timings.append((time.perf_counter() - t0) * 1000)
        headers = {"Authorization": f"Bearer {created['token']}"}
        tool, arguments = _cheap_read(domain)
        round_trips = []
        async with episode_session(created["mcp_url"], headers) as client:
            for _ in range(calls):
                t0 = time.perf_counter()
                await client.call_tool(tool, arguments)
                round_trips.append((time.perf_counter() - t0) * 1000)
    return {
        "create_reset_http_p50_ms": statistics.median(timings),
        "tool_rt_p50_ms": statistics.median(round_trips),
        "tool_rt_p99_ms": percentile(round_trips, 0.99),
    }


def _cheap_read(domain) -> tuple[str, dict]:
    """A read-only tool call that succeeds on the seed data: the first read of the first task."""
    for task in domain.tasks:
        for action in task.evaluation.actions:
            if action.name not in domain.write_tools and action.name not in domain.terminal_tools:
                return action.name, dict(action.arguments)
    return "think", {"thought": "benchmark"}


async def bench_oracle(domains: list[str], concurrency: int, episodes: int, workers: int = 1) -> float:
    run_dir = Path(tempfile.mkdtemp(prefix="taue-bench-"))
    try:
        per_domain = [get_domain(name) for name in domains]
        tasks = sum(len(d.tasks) for d in per_domain)
        trials = max(1, episodes // tasks)
        config = RunConfig(run="bench", domains=domains, agent="oracle", trials=trials)
        started = time.perf_counter()
        report = await execute_run(config, run_dir, {}, concurrency, workers=workers)
        elapsed = time.perf_counter() - started
        assert report.failed == 0 and all(r.reward == 1 for r in report.records), "oracle must score 1"
        return len(report.records) / elapsed
    finally:
        shutil.rmtree(run_dir, ignore_errors=True)


async def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--domains", default="airline,retail")
    parser.add_argument("--episodes", type=int, default=240, help="oracle episodes per concurrency level")
    parser.add_argument("--calls", type=int, default=500, help="MCP tool calls for the round-trip figure")
    args = parser.parse_args()
    domains = args.domains.split(",")
    print(f"# harness bench on {os.cpu_count()} cores, domains {domains}")
    print(f"{'figure':45} {'value':>10}  {'target':>8}  {'value/target':>12}")

    def line(name: str, value: float, target: float | None, unit: str) -> None:
        ratio = f"{value / target:12.2f}" if target else " " * 12
        target_text = f"{target:8.1f}" if target else " " * 8
        print(f"{name:45} {value:10.3f}  {target_text}  {ratio}  {unit}")

    for name in domains:
        reset = await bench_reset(name, 200)
        line(f"{name}: episode create (in-process)", reset["create_ms"], None, "ms")
        line(f"{name}: reset p50", reset["reset_p50_ms"], 2.0, "ms")
        line(f"{name}: reset p99", reset["reset_p99_ms"], 2.0, "ms")
        http = await bench_http(name, args.calls)
        line(f"{name}: create+reset over control port p50", http["create_reset_http_p50_ms"], None, "ms")
        line(f"{name}: MCP tool round trip p50", http["tool_rt_p50_ms"], 5.0, "ms")
        line(f"{name}: MCP tool round trip p99", http["tool_rt_p99_ms"], None, "ms")
    rates = {}
    for concurrency in (1, 8, 64):
        rates[concurrency] = await bench_oracle(domains, concurrency, args.episodes)
        line(
            f"oracle episodes/s, concurrency {concurrency}, 1 process", rates[concurrency], 20.0, "episodes/s"
        )
    workers = os.cpu_count() or 1
    rates["workers"] = await bench_oracle(domains, 64, args.episodes, workers=workers)
    line(
        f"oracle episodes/s, concurrency 64, {workers} worker processes", rates["workers"], 20.0, "episodes/s"
    )
    print(f"speed-up concurrency 64 vs 1 (1 process): {rates[64] / rates[1]:.2f}x")
    print(f"speed-up {workers} workers vs 1 process at concurrency 64: {rates['workers'] / rates[64]:.2f}x")


if __name__ == "__main__":
    asyncio.run(main())
