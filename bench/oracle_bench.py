"""The full oracle benchmark, timed: every domain, three trials, the scripted user, embedded services.

    python bench/oracle_bench.py [--domains all] [--trials 3] [--concurrency 64] [--workers auto]
                                 [--limit N] [--repeat 1] [--profile FILE] [--json]

Runs `taue run --agent oracle --user scripted` as a subprocess (3,480 episodes with the defaults: the
ten domains' 1,160 eval tasks, three trials each) and prints, per run: the episodes recorded and how
many scored 1, the wall time from launch to exit (start-up, server start, expected states and the
results file included) against the target of 2 minutes, episodes per second over that wall time,
CPU seconds per episode of the whole process tree (getrusage of the children), and the largest
resident set of one process of the tree (workers included).

`--profile FILE` records the runner process with py-spy (raw format; use `--workers 1`, or it sees
only the parent of the workers) and prints the samples charged to the parts of an episode
(`bench/profile_parts.py`). `--json` prints one JSON object per run instead of the table rows (what
`bench/compare_base.py` reads).
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from profile_parts import report as parts_report

TARGET_WALL_S = 120.0
PROFILE_RATE = 100


@dataclass
class OracleRun:
    episodes: int
    passed: int
    wall_s: float
    cpu_s: float
    peak_rss_mb: float
    workers: str
    concurrency: int

    @property
    def per_second(self) -> float:
        return self.episodes / self.wall_s

    @property
    def cpu_per_episode(self) -> float:
        return self.cpu_s / max(self.episodes, 1)


def command(args: argparse.Namespace, out: Path) -> list[str]:
    line = [
        sys.executable, "-m", "taue", "run", "--domains", args.domains, "--agent", "oracle",
        "--user", "scripted", "--trials", str(args.trials), "--concurrency", str(args.concurrency),
        "--workers", args.workers, "--out", str(out), "--quiet",
    ]  # fmt: skip
    return line + (["--limit", str(args.limit)] if args.limit else [])


def children() -> tuple[float, float]:
    """(CPU seconds, largest resident set in MB) of the waited-for children so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def run_once(args: argparse.Namespace, profile: str | None) -> OracleRun:
    out = Path(tempfile.mkdtemp(prefix="taue-oracle-bench-")) / "run"
    cpu0, _ = children()
    started = time.monotonic()
    process = subprocess.Popen(
        command(args, out), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    spy = attach_profiler(process.pid, profile) if profile else None
    _, stderr = process.communicate()
    wall = time.monotonic() - started
    if spy is not None:
        spy.wait()
    cpu1, peak = children()
    results = out / "results.jsonl"
    if process.returncode not in (0, 1) or not results.exists():
        raise SystemExit(f"taue run failed ({process.returncode}): {stderr.strip()[-2000:]}")
    records = [json.loads(line) for line in results.read_text().splitlines() if line.strip()]
    shutil.rmtree(out.parent, ignore_errors=True)
    return OracleRun(
        episodes=len(records),
        passed=sum(1 for r in records if r.get("reward") == 1),
        wall_s=wall,
        cpu_s=cpu1 - cpu0,
        peak_rss_mb=peak,
        workers=args.workers,
        concurrency=args.concurrency,
    )


def attach_profiler(pid: int, output: str) -> subprocess.Popen[bytes]:
    spy = Path(sys.executable).with_name("py-spy")
    line = [str(spy) if spy.exists() else "py-spy", "record", "--format", "raw", "--rate", str(PROFILE_RATE)]
    return subprocess.Popen(
        [*line, "--pid", str(pid), "-o", output], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


HEADER = (
    "| domains | C | workers | episodes (reward 1) | wall s | target < 120 s | episodes/s "
    "| CPU-s per episode | peak RSS of one process |\n|---|---|---|---|---|---|---|---|---|"
)


def row(args: argparse.Namespace, run: OracleRun) -> str:
    met = "yes" if run.wall_s < TARGET_WALL_S else "no"
    return (
        f"| {args.domains} | {run.concurrency} | {run.workers} | {run.episodes:,} ({run.passed:,}) "
        f"| {run.wall_s:.1f} | {met} | {run.per_second:.1f} | {run.cpu_per_episode:.4f} "
        f"| {run.peak_rss_mb:.0f} MB |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--domains", default="all")
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--workers", default="auto")
    parser.add_argument("--limit", type=int, help="only the first N tasks of each domain (quick runs)")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--profile", help="py-spy raw profile of the first run, written here")
    parser.add_argument("--json", action="store_true", help="one JSON object per run")
    args = parser.parse_args()
    if not args.json:
        print(HEADER, flush=True)
    profile = args.profile
    for _ in range(args.repeat):
        run = run_once(args, profile)
        if args.json:
            print(
                json.dumps(
                    {**asdict(run), "per_second": run.per_second, "cpu_per_episode": run.cpu_per_episode}
                )
            )
        else:
            print(row(args, run), flush=True)
        if profile:
            print("\n" + parts_report(profile, run.episodes, PROFILE_RATE) + "\n", flush=True)
            profile = None


if __name__ == "__main__":
    main()
