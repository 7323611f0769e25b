"""Service overhead, measured side by side in one run on this machine.

    python bench/services_bench.py [--calls 2000] [--trials 2]

Prints the gRPC `Respond` round trip of the simulator service against a direct in-process call of
the same scripted user, and oracle episode throughput with every service embedded in the runner's
process versus every service (airline, retail, simulator, scorer) in its own OS process.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx2

from taue.contracts.run import RunConfig
from taue.envs.runtime.discovery import get_domain
from taue.runner.embedded import Services
from taue.runner.runner import execute_run
from taue.simulator.client import SimulatorClient
from taue.simulator.scripted import ScriptedUser
from taue.simulator.service import build_server
from taue.simulator.session import UserOptions

TAUE = [sys.executable, "-m", "taue"]


async def respond_latency(calls: int) -> tuple[float, float, float]:
    task = get_domain("airline").tasks[0]
    user = ScriptedUser(task, 0)
    started = time.perf_counter()
    for i in range(calls):
        user.reply(f"Could you tell me more, step {i}?")
    direct = (time.perf_counter() - started) / calls * 1000
    server = build_server()
    await server.start()
    client = SimulatorClient(server.address)
    await client.wait_ready()
    session, _ = await client.start(task, 0, UserOptions())
    samples = []
    for i in range(calls):
        t0 = time.perf_counter()
        await client.respond(session, f"Could you tell me more, step {i}?")
        samples.append((time.perf_counter() - t0) * 1000)
    await client.close()
    await server.stop(0)
    return direct, statistics.median(samples), sorted(samples)[int(0.99 * len(samples))]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_stack() -> tuple[list[subprocess.Popen], Services]:
    ports = {name: free_port() for name in ("a_mcp", "a", "r_mcp", "r", "sim", "sc")}
    commands = [
        ["serve", "env", "airline", "--mcp-port", str(ports["a_mcp"]), "--control-port", str(ports["a"])],
        ["serve", "env", "retail", "--mcp-port", str(ports["r_mcp"]), "--control-port", str(ports["r"])],
        ["serve", "simulator", "--port", str(ports["sim"])],
        ["serve", "scorer", "--port", str(ports["sc"])],
    ]
    processes = [
        subprocess.Popen([*TAUE, *c], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for c in commands
    ]
    for port in (ports["a"], ports["r"]):
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx2.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx2.HTTPError:
                time.sleep(0.1)
    services = Services(
        env={"airline": f"http://127.0.0.1:{ports['a']}", "retail": f"http://127.0.0.1:{ports['r']}"},
        simulator=f"127.0.0.1:{ports['sim']}",
        scorer=f"127.0.0.1:{ports['sc']}",
    )
    return processes, services


async def throughput(services: Services | None, trials: int, concurrency: int) -> float:
    run_dir = Path(tempfile.mkdtemp(prefix="taue-bench-"))
    try:
        config = RunConfig(run="bench", domains=["airline", "retail"], agent="oracle", trials=trials)
        started = time.perf_counter()
        report = await execute_run(config, run_dir, services, concurrency)
        elapsed = time.perf_counter() - started
        assert report.failed == 0 and all(r.reward == 1 for r in report.records)
        return len(report.records) / elapsed
    finally:
        shutil.rmtree(run_dir, ignore_errors=True)


async def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--trials", type=int, default=2)
    parser.add_argument("--concurrency", type=int, default=32)
    args = parser.parse_args()
    direct, p50, p99 = await respond_latency(args.calls)
    print(f"scripted user reply, direct call:          {direct:8.3f} ms")
    print(f"simulator Respond over gRPC, p50 / p99:     {p50:8.3f} / {p99:.3f} ms")
    print(f"gRPC overhead per turn (p50 - direct):      {p50 - direct:8.3f} ms")
    embedded = await throughput(None, args.trials, args.concurrency)
    processes, services = start_stack()
    try:
        await SimulatorClient(services.simulator).wait_ready()
        separate = await throughput(services, args.trials, args.concurrency)
    finally:
        for process in processes:
            process.terminate()
            process.wait(timeout=20)
    print(f"oracle episodes/s, all services embedded:   {embedded:8.2f}")
    print(f"oracle episodes/s, one process per service: {separate:8.2f}")
    print(f"multi-process / embedded:                   {separate / embedded:8.2f}x")


if __name__ == "__main__":
    asyncio.run(main())
