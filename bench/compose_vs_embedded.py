"""The same oracle run through docker compose and in the embedded default, side by side in one run.

    python bench/compose_vs_embedded.py [--domains airline,bank] [--trials 1] [--no-cache]

Needs a Docker engine (or root and apt-get: tests/containers/engine.py provisions one as the container
stage does). Prints the image's build time and size, the stack's cold start to every service healthy
(`down -v`, then `up -d --wait`), and for each way of running: wall seconds, episodes per hour and
CPU-seconds per episode. Compose's CPU is every container's: the services' cgroup counters before and
after the run, and the runner's own process tree (getrusage inside its container); embedded's is the
`taue run` process tree's. The stack is left down (`down -v`) at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.containers.engine import IMAGE, Timings, build_image, provision, sh, stop_dockerd
from tests.containers.stack import SERVICES, Stack
from tests.deploy.helpers import validate

# Runs `taue ARGS` in the runner container and prints its process tree's wall and CPU seconds as JSON.
TIMED = (
    "import json, resource, subprocess, sys, time; t = time.monotonic(); "
    "code = subprocess.run(['taue', *sys.argv[1:]]).returncode; "
    "u = resource.getrusage(resource.RUSAGE_CHILDREN); "
    "print(json.dumps({'wall': time.monotonic() - t, 'cpu': u.ru_utime + u.ru_stime, 'code': code}))"
)


@dataclass
class Measured:
    wall: float
    cpu: float
    episodes: int

    def row(self, name: str) -> str:
        per_hour = self.episodes / self.wall * 3600
        per_episode = self.cpu / self.episodes
        return f"{name:<10} {self.episodes:>8} {self.wall:>8.1f} {per_hour:>12,.0f} {per_episode:>12.4f}"


def cgroup_cpu(container: str) -> float:
    """CPU seconds a running container has used (cgroup v1 cpuacct, or v2 cpu.stat)."""
    full = sh("docker", "inspect", "--format", "{{.Id}}", container).strip()
    v1 = [Path(f"/sys/fs/cgroup/cpuacct/docker/{full}/cpuacct.usage")]
    v2 = [Path(f"/sys/fs/cgroup/system.slice/docker-{full}.scope/cpu.stat")]
    for path in v1:
        if path.exists():
            return int(path.read_text()) / 1e9
    for path in v2:
        if path.exists():
            usage = dict(line.split() for line in path.read_text().splitlines())
            return int(usage["usage_usec"]) / 1e6
    raise SystemExit(f"error: no cgroup CPU counter for container {container[:12]}")


def services_cpu(stack: Stack) -> float:
    return sum(cgroup_cpu(stack.container(service)) for service in SERVICES)


def runner_command(domains: str, trials: int) -> list[str]:
    """The compose runner's `taue run` command, on these domains and trials, into /runs/bench."""
    values = {"--domains": domains, "--trials": str(trials), "--agent": "oracle", "--seed": "0"}
    values["--out"] = "/runs/bench"
    command = validate.compose_model()["services"]["runner"]["command"]
    flags = [arg.split("=", 1)[0] for arg in command]
    pairs = zip(flags, command, strict=True)
    return [f"{flag}={values[flag]}" if flag in values else arg for flag, arg in pairs]


def run_compose(stack: Stack, domains: str, trials: int) -> Measured:
    before = services_cpu(stack)
    args = ["run", "--rm", "--entrypoint", "python", "runner", "-c", TIMED, *runner_command(domains, trials)]
    out = stack.compose(*args, timeout=3600)
    timed = json.loads(out.strip().splitlines()[-1])
    assert timed["code"] == 0, out[-2000:]
    cpu = services_cpu(stack) - before + timed["cpu"]
    with tempfile.TemporaryDirectory() as folder:
        episodes = len((stack.copy_out("bench", Path(folder)) / "results.jsonl").read_text().splitlines())
    return Measured(timed["wall"], cpu, episodes)


def run_embedded(domains: str, trials: int) -> Measured:
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "bench"
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.monotonic()
        command = [sys.executable, "-m", "taue", "run", f"--domains={domains}", f"--trials={trials}"]
        command += ["--agent=oracle", "--seed=0", f"--out={out}", "--quiet"]
        subprocess.run(command, check=True, capture_output=True)
        wall = time.monotonic() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        episodes = len((out / "results.jsonl").read_text().splitlines())
    return Measured(wall, cpu, episodes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--domains", default="airline,bank")
    parser.add_argument("--trials", type=int, default=1)
    parser.add_argument("--no-cache", action="store_true", help="build the image without the layer cache")
    options = parser.parse_args()
    timings = Timings()
    with tempfile.TemporaryDirectory() as folder:
        daemon = provision(Path(folder) / "dockerd.log", timings)
        try:
            report(options, timings)
        finally:
            stop_dockerd(daemon)


def report(options: argparse.Namespace, timings: Timings) -> None:
    if options.no_cache:
        build_image(timings, no_cache=True)
    size = int(sh("docker", "image", "inspect", "--format", "{{.Size}}", IMAGE)) / 1e6
    stack = Stack(f"taue-bench-{os.getpid()}")
    try:
        cold = stack.up()
        embedded = run_embedded(options.domains, options.trials)
        compose = run_compose(stack, options.domains, options.trials)
    finally:
        stack.down()
    print(f"image {IMAGE}: {size:,.0f} MB; build {timings.image_build:.0f} s ({', '.join(timings.steps)})")
    print(f"cold start (up -d --wait, every service healthy): {cold:.0f} s")
    print(f"{'':<10} {'episodes':>8} {'wall s':>8} {'episodes/h':>12} {'CPU-s/ep':>12}")
    print(embedded.row("embedded"))
    print(compose.row("compose"))
    rate = (compose.episodes / compose.wall) / (embedded.episodes / embedded.wall)
    cpu = (compose.cpu / compose.episodes) / (embedded.cpu / embedded.episodes)
    print(f"compose / embedded: episodes per hour x{rate:.2f}, CPU-s per episode x{cpu:.2f}")


if __name__ == "__main__":
    main()
