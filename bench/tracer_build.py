"""Wall time of a Tracer build of one domain (58 evaluation + 700 training tasks by default), side
by side with its parts: the same build without the careful-agent episodes, and the evaluation set
alone.

    python bench/tracer_build.py [--domain retail] [--eval 58] [--train 700]

Prints seconds, tasks per second and the ratios; the target is the full build under 2 minutes on
two cores. Nothing is written: the builds stay in memory.
"""

from __future__ import annotations

import argparse
import asyncio
import time

from taue.envs.runtime.discovery import get_domain
from taue.tracer.build import Builder


def timed(domain: str, eval_count: int, train_count: int, agent: bool) -> tuple[float, int, int]:
    started = time.perf_counter()
    result = asyncio.run(Builder(get_domain(domain), 0).build(eval_count, train_count, agent))
    tasks = len(result.eval_tasks) // 2 + len(result.train_tasks)
    return time.perf_counter() - started, tasks, result.candidates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--domain", default="retail")
    parser.add_argument("--eval", type=int, default=58)
    parser.add_argument("--train", type=int, default=700)
    args = parser.parse_args()
    full = timed(args.domain, args.eval, args.train, True)
    no_agent = timed(args.domain, args.eval, args.train, False)
    eval_only = timed(args.domain, args.eval, 0, True)
    for label, (seconds, tasks, candidates) in (
        ("full build", full),
        ("without careful-agent episodes", no_agent),
        ("evaluation set only", eval_only),
    ):
        rate = tasks / seconds
        print(f"{label:32s} {seconds:6.1f} s  {tasks:4d} tasks  {candidates:5d} candidates  {rate:5.1f}/s")
    print(f"careful-agent episodes cost      {full[0] / no_agent[0]:.2f}x the build without them")
    print(f"training split share of the time {1 - eval_only[0] / full[0]:.0%}; target: full build < 120 s")


if __name__ == "__main__":
    main()
