"""Throughput with model traffic: the real CLI against an OpenAI-compatible mock with a fixed latency.

    python bench/llm_throughput.py [--latency 0.5] [--concurrency 1,8,64,256] [--workers 1,auto]
                                   [--waves 2] [--trials 3] [--domain airline] [--profile FILE]
                                   [--repeat 1]

Starts a mock model server in its own process: every answer comes `--latency` seconds after the
request. It is stateless, reading only the request: the agent (a request with `tools`) makes one
read-only tool call in its first turn and otherwise answers a short line; the LLM user (no `tools`)
writes short lines and ends its `--user-turns`-th line with ###STOP###. Then, for every concurrency C
and worker setting, it runs `taue run --agent model --user llm` as a subprocess with about
`--waves` × C episodes (about `--trials` per task, 3 as in a real run, where a task's expected end
state is computed once for all its trials) and prints:

- episodes/h: episodes over the model-traffic window (first request to last answer at the mock, so
  start-up is left out), and that as a % of the latency limit C × 3600 / (calls per episode × latency);
- CPU-s per episode: CPU of the whole process tree (runner, workers) from the first model request to
  its exit, over the episodes (start-up, imports and server start are left out; "incl. start-up" has them);
- peak RSS: of the largest process, and of all processes together; per in-flight episode: the
  largest process's peak over the C=1 run's, divided by the episodes in flight in it;
- model calls per episode, as counted at the mock;
- the mock's own CPU per episode (its process is outside the tree measured above);
- % of the latency limit in the first minute of model traffic (the ramp: answers the mock sent in that
  minute over C × 60 / latency; the whole window when it is shorter), and that as a % of the whole
  run's share (100 %: no ramp).

`--repeat N` runs every configuration N times, round robin (a drifting machine then touches them
all alike), and prints the run with the median rate of each, then each one's range.

`--profile FILE` profiles the first configuration's runner process with `py-spy record` (samples of
its threads that are not idle) from its first model request to its end (start-up left out) and prints
the functions with the largest inclusive share of the samples, leaving out the frames that hold
everything (the CLI, the event loop, a thread's start), then the samples charged to the parts of an
episode (`bench/profile_parts.py`). py-spy needs ptrace: root or CAP_SYS_PTRACE.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import multiprocessing
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import psutil

sys.path.insert(0, str(Path(__file__).parent))
from profile_parts import report as parts_report

TAUE = [sys.executable, "-m", "taue"]
RAMP_WINDOW_S = 60.0
"""The ramp figure's window: the first minute of model traffic."""
PROFILE_RATE = 100
"""py-spy samples per second."""
READ_PREFIXES = ("list_", "get_", "search_", "find_")
HOLDERS = (
    "(<frozen runpy>)", "/runners.py)", "/base_events.py)", "/events.py)", "(threading.py)",
    "(concurrent/futures/thread.py)", "(typer/main.py)", "(typer/core.py)", "(typer/_click/core.py)",
    "(taue/cli/__init__.py)", "(taue/cli/commands/run.py)", "(taue/__main__.py)", "(asyncio/runners.py)",
    "(asyncio/base_events.py)", "(asyncio/events.py)",
)  # fmt: skip
"""Frames a profile's stacks pass through to reach anything (start, CLI, event loop, thread pool)."""


# --- the mock model server -------------------------------------------------------------------


@dataclass
class MockStats:
    requests: int = 0
    agent: int = 0
    user: int = 0
    connections: int = 0
    first: float | None = None
    last: float | None = None
    per_second: list[int] = field(default_factory=list)
    """Answers sent in each second after the first request (the ramp)."""


def read_tool(tools: list[dict[str, Any]]) -> str:
    """A tool the agent may call without arguments: a read tool with no required parameter if any."""
    names = [t["function"]["name"] for t in tools]
    free = [
        t["function"]["name"]
        for t in tools
        if t["function"]["name"].startswith(READ_PREFIXES)
        and not t["function"].get("parameters", {}).get("required")
    ]
    return (free or [n for n in names if n.startswith(READ_PREFIXES)] or names)[0]


def agent_reply(body: dict[str, Any]) -> dict[str, Any]:
    """One read tool call in the agent's first turn, otherwise a short line."""
    messages = body["messages"]
    if messages[-1]["role"] == "user" and not any(m["role"] == "tool" for m in messages):
        function = {"name": read_tool(body["tools"]), "arguments": "{}"}
        call = {"id": "call_1", "type": "function", "function": function}
        return {"role": "assistant", "content": None, "tool_calls": [call]}
    return {"role": "assistant", "content": "I have looked into it. Is there anything else?"}


def user_reply(body: dict[str, Any], user_turns: int) -> dict[str, Any]:
    """The LLM user's next line (its own earlier lines are the `assistant` messages): the last one stops."""
    said = sum(1 for m in body["messages"] if m["role"] == "assistant")
    if said + 1 >= user_turns:
        return {"role": "assistant", "content": "Thank you, that is all. ###STOP###"}
    return {"role": "assistant", "content": f"I need help with my booking, point {said + 1}."}


def completion(message: dict[str, Any], model: str) -> bytes:
    finish = "tool_calls" if message.get("tool_calls") else "stop"
    return json.dumps(
        {
            "id": "chatcmpl-bench",
            "object": "chat.completion",
            "created": 0,
            "model": model,
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110},
        }
    ).encode()


class MockProtocol(asyncio.Protocol):
    """Minimal HTTP/1.1 with keep-alive: far cheaper per request than a web framework, so the mock
    takes little of the CPU that the run under test needs."""

    def __init__(self, stats: MockStats, latency: float, user_turns: int) -> None:
        self.stats, self.latency, self.user_turns = stats, latency, user_turns
        self.buffer = bytearray()
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.stats.connections += 1

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while (end := self.buffer.find(b"\r\n\r\n")) >= 0:
            head = bytes(self.buffer[:end]).decode("latin-1").split("\r\n")
            headers = dict(line.lower().split(":", 1) for line in head[1:] if ":" in line)
            length = int(headers.get("content-length", "0").strip())
            if len(self.buffer) < end + 4 + length:
                return
            body = bytes(self.buffer[end + 4 : end + 4 + length])
            del self.buffer[: end + 4 + length]
            method, path = head[0].split(" ")[:2]
            self.answer(method, path, body)

    def answer(self, method: str, path: str, body: bytes) -> None:
        if path.endswith("/chat/completions") and method == "POST":
            request = json.loads(body)
            now = time.time()
            self.stats.requests += 1
            self.stats.first = self.stats.first or now
            if "tools" in request:
                self.stats.agent += 1
                message = agent_reply(request)
            else:
                self.stats.user += 1
                message = user_reply(request, self.user_turns)
            payload = completion(message, request.get("model", "mock"))
            asyncio.get_running_loop().call_later(self.latency, self.send, payload, True)
        elif path == "/stats":
            self.send(json.dumps(self.stats.__dict__).encode(), False)
        elif path == "/reset" and method == "POST":
            self.stats.__init__()  # type: ignore[misc]
            self.send(b"{}", False)
        else:
            self.send(b'{"error": {"message": "not found"}}', False, status="404 Not Found")

    def send(self, payload: bytes, timed: bool, status: str = "200 OK") -> None:
        if self.transport is None or self.transport.is_closing():
            return
        if timed:
            self.stats.last = time.time()
            second = int(self.stats.last - (self.stats.first or self.stats.last))
            counts = self.stats.per_second
            counts.extend([0] * (second + 1 - len(counts)))
            counts[second] += 1
        head = f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {len(payload)}"
        self.transport.write(head.encode() + b"\r\n\r\n" + payload)


def serve_mock(port_pipe: Any, latency: float, user_turns: int) -> None:
    async def main() -> None:
        stats = MockStats()
        loop = asyncio.get_running_loop()
        server = await loop.create_server(
            lambda: MockProtocol(stats, latency, user_turns), "127.0.0.1", 0, backlog=4096
        )
        port_pipe.send(server.sockets[0].getsockname()[1])
        await server.serve_forever()

    asyncio.run(main())


def mock_call(base: str, path: str, method: str = "GET") -> dict[str, Any]:
    request = urllib.request.Request(base + path, method=method, data=b"" if method == "POST" else None)
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


# --- measuring one run -----------------------------------------------------------------------


@dataclass
class TreeSampler:
    """Samples the CPU time and RSS of a process and its descendants every `interval` seconds."""

    root: psutil.Process
    interval: float = 0.1
    samples: list[tuple[float, dict[int, tuple[float, int]]]] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)
    looked_at: set[int] = field(default_factory=set)
    workers: set[int] = field(default_factory=set)

    def run(self) -> None:
        while not self.stop.is_set():
            seen: dict[int, tuple[float, int]] = {}
            try:
                procs = [self.root, *self.root.children(recursive=True)]
            except psutil.Error:
                procs = []
            for proc in procs:
                try:
                    if proc.pid not in self.looked_at:
                        self.looked_at.add(proc.pid)
                        if "spawn_main" in " ".join(proc.cmdline()):  # a multiprocessing worker
                            self.workers.add(proc.pid)
                    with proc.oneshot():
                        cpu = proc.cpu_times()
                        seen[proc.pid] = (cpu.user + cpu.system, proc.memory_info().rss)
                except psutil.Error:
                    continue
            self.samples.append((time.time(), seen))
            self.stop.wait(self.interval)

    def cpu_before(self, moment: float) -> float:
        """Tree CPU seconds as of the last sample taken before `moment` (each process's latest figure)."""
        latest: dict[int, float] = {}
        for when, seen in self.samples:
            if when > moment:
                break
            latest.update({pid: cpu for pid, (cpu, _) in seen.items()})
        return sum(latest.values())

    def peaks(self) -> tuple[int, int, int]:
        """(largest single-process peak RSS, peak of the sum over processes, episode processes: the
        worker processes if there are any, else the runner)."""
        peak: Counter[int] = Counter()
        total = 0
        for _, seen in self.samples:
            for pid, (_, rss) in seen.items():
                peak[pid] = max(peak[pid], rss)
            total = max(total, sum(rss for _, rss in seen.values()))
        return max(peak.values(), default=0), total, max(1, len(self.workers))


@dataclass
class Figures:
    concurrency: int
    workers: str
    episodes: int
    completed: int
    calls: int
    window_s: float
    cpu_window_s: float
    cpu_total_s: float
    peak_process: int
    peak_all: int
    processes: int
    wall_s: float
    retries: int
    """Episodes the runner reran after an infrastructure error (errors.jsonl's `retry` lines)."""
    mock_cpu_s: float = 0.0
    """CPU of the mock model server over the run (its own process, not in the tree's figures)."""
    first_minute_calls: int = 0
    """Model answers in the first minute after the first request (or the whole window if shorter)."""
    first_minute_s: float = 60.0


def trials_for(episodes: int, tasks: int, preferred: int) -> int:
    """Trials per task closest to `preferred` that make exactly `episodes` from at most `tasks` tasks
    (a last wave of fewer than C episodes would lower the rate), else the fewest that cover them."""
    exact = [t for t in range(1, episodes + 1) if episodes % t == 0 and episodes // t <= tasks]
    return min(exact, key=lambda t: (abs(t - preferred), -t)) if exact else math.ceil(episodes / tasks)


def attach_profiler(base: str, process: subprocess.Popen[str], output: str) -> subprocess.Popen[bytes]:
    """py-spy attached to `process` once the mock saw its first model request; it ends with it."""
    while mock_call(base, "/stats")["requests"] == 0 and process.poll() is None:
        time.sleep(0.05)
    spy = Path(sys.executable).with_name("py-spy")
    command = [
        str(spy) if spy.exists() else "py-spy",
        "record",
        "--format",
        "raw",
        "--rate",
        str(PROFILE_RATE),
    ]
    return subprocess.Popen(
        [*command, "--pid", str(process.pid), "-o", output],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def process_cpu(pid: int) -> float:
    times = psutil.Process(pid).cpu_times()
    return times.user + times.system


def run_once(
    args: argparse.Namespace, base: str, concurrency: int, workers: str, profile: str | None
) -> Figures:
    wanted = max(4, args.waves * concurrency)
    trials = trials_for(wanted, args.tasks, args.trials)
    limit = math.ceil(wanted / trials)
    out = Path(tempfile.mkdtemp(prefix="taue-llm-bench-"))
    command = [
        *TAUE, "run", "--domains", args.domain, "--agent", "model", "--model", "bench-agent",
        "--base-url", base + "/v1", "--user", "llm", "--user-model", "bench-user",
        "--user-base-url", base + "/v1", "--trials", str(trials), "--limit", str(limit),
        "--concurrency", str(concurrency), "--workers", workers, "--out", str(out / "run"), "--quiet",
    ]  # fmt: skip
    mock_call(base, "/reset", "POST")
    mock_cpu0 = process_cpu(args.mock_pid)
    cpu0, started = children_cpu(), time.time()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    sampler = TreeSampler(psutil.Process(process.pid))
    thread = threading.Thread(target=sampler.run, daemon=True)
    thread.start()
    spy = attach_profiler(base, process, profile) if profile else None
    _, stderr = process.communicate()
    if spy is not None:
        spy.wait()
    sampler.stop.set()
    thread.join()
    wall, cpu_total = time.time() - started, children_cpu() - cpu0
    if process.returncode not in (0, 1) or not (out / "run" / "results.jsonl").exists():
        raise SystemExit(f"taue run failed ({process.returncode}): {stderr.strip()[-2000:]}")
    stats = mock_call(base, "/stats")
    mock_cpu = process_cpu(args.mock_pid) - mock_cpu0
    lines = (out / "run" / "results.jsonl").read_text().splitlines()
    errors = out / "run" / "errors.jsonl"
    retries = errors.read_text().count('"kind": "retry"') if errors.exists() else 0
    shutil.rmtree(out, ignore_errors=True)
    first, last = stats["first"] or started, stats["last"] or time.time()
    minute = min(RAMP_WINDOW_S, max(last - first, 1e-6))
    peak_process, peak_all, processes = sampler.peaks()
    return Figures(
        concurrency=concurrency,
        workers=workers,
        episodes=limit * trials,
        completed=len(lines),
        calls=stats["requests"],
        window_s=max(last - first, 1e-6),
        cpu_window_s=cpu_total - sampler.cpu_before(first),
        cpu_total_s=cpu_total,
        peak_process=peak_process,
        peak_all=peak_all,
        processes=processes,
        wall_s=wall,
        retries=retries,
        mock_cpu_s=mock_cpu,
        first_minute_calls=sum(stats["per_second"][: math.ceil(minute)]),
        first_minute_s=minute,
    )


# --- the table -------------------------------------------------------------------------------

HEADER = (
    "| C | workers | episodes | episodes/h | % of the latency limit | CPU-s per episode (incl. start-up) "
    "| peak RSS: largest process / all (episode processes) | RSS per in-flight episode "
    "| model calls per episode | retries | mock CPU-s per episode "
    "| % of the limit in the first minute (of the whole run's) |"
)


def row(f: Figures, latency: float, baseline_rss: int | None) -> str:
    calls = f.calls / max(f.completed, 1)
    rate, share = rate_share(f, latency)
    ramp = first_minute_share(f, latency)
    per_process = f.concurrency / max(1, f.processes)
    inflight = (
        f"{(f.peak_process - baseline_rss) / per_process / 2**20:.2f} MB"
        if baseline_rss is not None and f.concurrency > 1
        else "—"
    )
    return (
        f"| {f.concurrency} | {f.workers} | {f.completed}/{f.episodes} | {rate:,.0f} "
        f"| {share:.0f} % "
        f"| {f.cpu_window_s / max(f.completed, 1):.3f} ({f.cpu_total_s / max(f.completed, 1):.3f}) "
        f"| {f.peak_process / 2**20:.0f} / {f.peak_all / 2**20:.0f} MB ({f.processes}) | {inflight} "
        f"| {calls:.1f} | {f.retries} | {f.mock_cpu_s / max(f.completed, 1):.4f} "
        f"| {ramp:.0f} % ({100 * ramp / max(share, 1e-9):.0f} %) |"
    )


def rate_share(f: Figures, latency: float) -> tuple[float, float]:
    """(episodes per hour, % of the latency limit)."""
    rate = f.completed / f.window_s * 3600
    return rate, 100 * rate * f.calls / max(f.completed, 1) * latency / (f.concurrency * 3600)


def first_minute_share(f: Figures, latency: float) -> float:
    """% of the latency limit in the first minute of model traffic: answers over C x window / latency
    (each episode in flight waits `latency` for every answer, so C can take no more)."""
    return 100 * f.first_minute_calls * latency / (f.concurrency * f.first_minute_s)


def as_json(f: Figures, latency: float) -> str:
    rate, share = rate_share(f, latency)
    cpu = f.cpu_window_s / max(f.completed, 1)
    ramp = first_minute_share(f, latency)
    return json.dumps(
        {**asdict(f), "per_hour": rate, "share": share, "cpu_per_episode": cpu, "first_minute_share": ramp}
    )


def print_medians(runs: dict[tuple[int, str], list[Figures]], latency: float, baseline: int | None) -> None:
    """Each configuration's run with the median rate, then every configuration's range over its runs."""
    for figures in runs.values():
        ranked = sorted(figures, key=lambda f: rate_share(f, latency)[0])
        print(row(ranked[(len(ranked) - 1) // 2], latency, baseline), flush=True)
    count = len(next(iter(runs.values())))
    print(f"\nthe run with the median rate of {count} per configuration; ranges over the {count}:")
    for (concurrency, workers), figures in runs.items():
        shares = sorted(rate_share(f, latency)[1] for f in figures)
        cpu = sorted(f.cpu_window_s / max(f.completed, 1) for f in figures)
        retries = sum(f.retries for f in figures)
        print(
            f"  C={concurrency} workers {workers}: {shares[0]:.0f}-{shares[-1]:.0f} % of the latency limit, "
            f"{cpu[0]:.3f}-{cpu[-1]:.3f} CPU-s per episode, {retries} retries"
        )


def top_inclusive(raw_file: str, count: int = 10) -> list[tuple[float, str]]:
    """The `count` frames with the largest inclusive share of a py-spy raw (collapsed) profile."""
    inclusive: Counter[str] = Counter()
    total = 0
    for line in Path(raw_file).read_text().splitlines():
        stack, _, samples = line.rpartition(" ")
        frames = [short_frame(frame) for frame in stack.split(";")]
        # A stack that ends in a holder is a thread waiting (in C, below its last Python frame).
        if not stack or not samples.isdigit() or frames[-1].endswith(HOLDERS):
            continue
        for frame in set(frames):
            inclusive[frame] += int(samples)
        total += int(samples)
    ranked = [(100 * n / total, frame) for frame, n in inclusive.most_common()]
    return [(share, frame) for share, frame in ranked if not frame.endswith(HOLDERS)][:count]


def short_frame(frame: str) -> str:
    """`function (path/to/file.py:LINE)` as `function (path/to/file.py)`: one entry per function."""
    name, _, where = frame.partition(" (")
    return f"{name} ({where.rsplit(':', 1)[0]})" if where else name


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--latency", type=float, default=0.5, help="seconds before each mock answer")
    parser.add_argument("--concurrency", default="1,8,64,256", help="comma-separated C values")
    parser.add_argument("--workers", default="1,auto", help="comma-separated --workers values to run")
    parser.add_argument("--waves", type=int, default=2, help="episodes per run: about WAVES x C (at least 4)")
    parser.add_argument("--user-turns", type=int, default=4, help="the LLM user's lines; the last one stops")
    parser.add_argument("--domain", default="airline")
    parser.add_argument("--trials", type=int, default=3, help="trials per task (as taue run's default)")
    parser.add_argument("--profile", help="py-spy raw profile of the first configuration, written here")
    parser.add_argument(
        "--repeat", type=int, default=1, help="runs of every configuration, round robin; prints the medians"
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per run (bench/compare_base.py)")
    args = parser.parse_args()
    from taue.runner.catalog import local_catalog

    args.tasks = len(local_catalog(args.domain, "eval").tasks)
    receive, send = multiprocessing.Pipe(duplex=False)
    mock = multiprocessing.Process(target=serve_mock, args=(send, args.latency, args.user_turns), daemon=True)
    mock.start()
    args.mock_pid = mock.pid
    base = f"http://127.0.0.1:{receive.recv()}"
    if not args.json:
        print(f"{args.domain}, mock latency {args.latency} s; {psutil.cpu_count()} CPUs")
        print(HEADER)
        print("|" + "---|" * HEADER.count(" | ") + "---|")
    configurations = [(int(c), w) for c in args.concurrency.split(",") for w in args.workers.split(",")]
    runs: dict[tuple[int, str], list[Figures]] = {key: [] for key in configurations}
    baseline: int | None = None
    profile = args.profile
    try:
        for _ in range(args.repeat):  # round robin: a drift of the machine touches every configuration
            for concurrency, workers in configurations:
                figures = run_once(args, base, concurrency, workers, profile)
                runs[(concurrency, workers)].append(figures)
                if concurrency == 1 and baseline is None:
                    baseline = figures.peak_process
                if args.json:
                    print(as_json(figures, args.latency), flush=True)
                elif args.repeat == 1:
                    print(row(figures, args.latency, baseline), flush=True)
                if profile:
                    print(f"\nprofile {profile}, top inclusive:")
                    for share, frame in top_inclusive(profile):
                        print(f"  {share:5.1f} %  {frame}")
                    print("\n" + parts_report(profile, figures.completed, PROFILE_RATE) + "\n")
                    profile = None
    finally:
        mock.terminate()
    if args.repeat > 1 and not args.json:
        print_medians(runs, args.latency, baseline)


if __name__ == "__main__":
    main()
