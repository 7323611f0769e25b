"""CPU time of `taue --help` (the CLI's start-up cost), side by side with a bare Python start.

    python bench/cli_startup.py [--repeat 10]

Prints the median user+system CPU seconds of each and their ratio; the target is `taue --help`
under 0.3 s of CPU. Run it on a quiet machine: CPU time is less noisy than wall time, not immune.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys


def cpu_seconds(command: list[str]) -> float:
    before = os.times()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    after = os.times()
    return (after.children_user - before.children_user) + (after.children_system - before.children_system)


def median_cpu(command: list[str], repeat: int) -> float:
    cpu_seconds(command)  # warm the bytecode cache
    return statistics.median(cpu_seconds(command) for _ in range(repeat))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    bare = median_cpu([sys.executable, "-c", "pass"], args.repeat)
    cli = median_cpu([sys.executable, "-m", "taue", "--help"], args.repeat)
    print(f"python -c pass      {bare:.3f} s CPU (median of {args.repeat})")
    print(f"python -m taue --help {cli:.3f} s CPU (median of {args.repeat}), target < 0.300")
    print(f"ratio               {cli / bare:.1f}x a bare interpreter start")


if __name__ == "__main__":
    main()
