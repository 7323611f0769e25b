"""Imported τ-Emotion-Bench train sets, end to end: import, replay figures, and oracle + scripted user on
every task whose ground truth replays cleanly.

    python bench/task_set_bench.py [--data ../shared/data/tau-emotion-bench] [--domains airline,retail]
                                   [--split train] [--workers 2] [--concurrency 32]

Prints one JSON object per domain: import wall/CPU seconds, tasks, clean replays, oracle episodes,
their rewards and terminations, and the run's wall time and episodes per second. The figures in
docs/compatibility.md ("Imported task sets") come from this script. The CI tests run a deterministic
sample of the same episodes (tests/envs/task_sets/test_import_published.py).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import resource
import tempfile
import time
from pathlib import Path

from taue.contracts.run import RunConfig
from taue.envs.runtime.discovery import domain_names, get_domain
from taue.envs.task_sets.importer import import_task_set
from taue.runner.runner import execute_run

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "tau-emotion-bench"


def cpu_seconds() -> float:
    """CPU time of this process and its finished children (the worker processes)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


async def bench_domain(
    data: Path, domain: str, split: str, workers: int, concurrency: int, out: Path
) -> dict:
    cpu, wall = cpu_seconds(), time.perf_counter()
    info = await import_task_set(data, domain, split, f"bench-{domain}-{split}", replace=True)
    imported = {"import_s": time.perf_counter() - wall, "import_cpu_s": cpu_seconds() - cpu}
    tasks = get_domain(info.name).tasks
    failing = set(info.replay_failures)
    emotional = [t.id for t in tasks if t.emotion is not None]
    clean = [task_id for task_id in emotional if task_id not in failing]
    config = RunConfig(run=info.name, domains=[info.name], agent="oracle", trials=1, task_ids=clean)
    cpu, wall = cpu_seconds(), time.perf_counter()
    report = await execute_run(config, out / info.name, {}, concurrency, workers=workers)
    run_s = time.perf_counter() - wall
    rewards = collections.Counter(r.reward for r in report.records)
    return {
        "domain": domain,
        "split": split,
        **{key: round(value, 1) for key, value in imported.items()},
        "tasks": len(emotional),
        "replay_clean": len(emotional) - len(failing & set(emotional)),
        "oracle_episodes": len(report.records),
        "infra_failures": report.failed,
        "rewards": {str(k): v for k, v in sorted(rewards.items())},
        "terminations": dict(collections.Counter(r.termination for r in report.records)),
        "run_s": round(run_s, 1),
        "run_cpu_s": round(cpu_seconds() - cpu, 1),
        "episodes_per_s": round(len(report.records) / run_s, 1),
    }


async def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument(
        "--domains", default=",".join(d for d in ("airline", "retail", "telecom", "telehealth"))
    )
    parser.add_argument("--split", default="train")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--concurrency", type=int, default=32)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        os.environ["TAUE_HOME"] = str(Path(home) / "sets")
        for domain in args.domains.split(","):
            if domain not in domain_names():
                print(json.dumps({"domain": domain, "skipped": "not installed"}))
                continue
            result = await bench_domain(
                args.data, domain, args.split, args.workers, args.concurrency, Path(home)
            )
            print(json.dumps(result), flush=True)


if __name__ == "__main__":
    asyncio.run(main())
