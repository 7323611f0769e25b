"""This tree against its base commit, side by side in one run: fails when the change loses more than 10 %.

    python bench/compare_base.py [--base REF] [--bench oracle|llm] [--rounds 3] [--tolerance 0.10]
                                 [-- ARGS FOR THE BENCH]

Checks the base commit out into a temporary `git worktree` (default base: where this branch left
`main`, or HEAD~1 on main itself) and runs the same bench script, this tree's, against both code
trees in turns: base, this, this, base, base, … (so a machine that drifts during the run touches both
alike). The base tree's code is imported through a `sitecustomize` shim on PYTHONPATH that maps the
`taue` namespace onto the base checkout's folders (taue/layout.py), so both sides share this virtual
environment and differ only in the project's code; the working tree's uncommitted changes count as
this tree's.

Benches (their `--json` output):
- `oracle` (default): `bench/oracle_bench.py`: episodes per second over the wall time, CPU-s per episode;
  default arguments `--limit 10 --workers 1` (300 episodes over the ten domains);
- `llm`: `bench/llm_throughput.py`: % of the latency limit, CPU-s per episode; default arguments
  `--concurrency 256 --workers 1 --waves 2`.

Prints each side's median and range and the change, and exits 1 when the median rate falls or the
median CPU per episode rises by more than `--tolerance` (10 %); a bench figure, not a timed test.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SHIM = '''"""Maps the `taue` namespace onto {root} (bench/compare_base.py): imports the base commit's code."""
import runpy
import sys
from importlib.machinery import PathFinder
from importlib.util import spec_from_file_location

ROOT = {root!r}
MOUNTS = runpy.run_path(ROOT + "/taue/layout.py")["mounts"]()


class BaseTree:
    @classmethod
    def find_spec(cls, fullname, path=None, target=None):
        if fullname in MOUNTS:
            folder = ROOT + "/" + MOUNTS[fullname]
            init = folder + "/__init__.py"
            return spec_from_file_location(fullname, init, submodule_search_locations=[folder])
        parent = fullname.rpartition(".")[0]
        if parent in MOUNTS:
            return PathFinder.find_spec(fullname, [ROOT + "/" + MOUNTS[parent]])
        return None


sys.meta_path.insert(0, BaseTree)
'''


@dataclass(frozen=True)
class Bench:
    script: str
    defaults: tuple[str, ...]
    rate: str
    """The JSON field that should not fall (higher is better)."""
    rate_label: str


BENCHES = {
    "oracle": Bench("oracle_bench.py", ("--limit", "10", "--workers", "1"), "per_second", "episodes/s"),
    "llm": Bench(
        "llm_throughput.py",
        ("--concurrency", "256", "--workers", "1", "--waves", "2"),
        "share",
        "% of the latency limit",
    ),
}


def git(*args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(ROOT), *args], check=True, capture_output=True, text=True
    ).stdout.strip()


def default_base() -> str:
    head = git("rev-parse", "HEAD")
    try:
        base = git("merge-base", "HEAD", "main")
    except subprocess.CalledProcessError:
        base = head
    return git("rev-parse", "HEAD~1") if base == head else base


def checkout(base: str, where: Path) -> Path:
    tree = where / "base"
    git("worktree", "add", "--detach", str(tree), base)
    shim = where / "shim"
    shim.mkdir()
    (shim / "sitecustomize.py").write_text(SHIM.format(root=str(tree)))
    return shim


def run_bench(bench: Bench, args: list[str], shim: Path | None) -> dict[str, float]:
    env = dict(os.environ)
    if shim is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(shim), env.get("PYTHONPATH")]))
    command = [sys.executable, str(ROOT / "bench" / bench.script), *args, "--json"]
    done = subprocess.run(command, env=env, capture_output=True, text=True, cwd=ROOT)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        raise SystemExit(f"{bench.script} failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
    return json.loads(lines[-1])


def order(rounds: int) -> list[str]:
    """base, this, this, base, base, this, …: each side first as often as the other."""
    sides = []
    for index in range(rounds):
        sides += ["base", "this"] if index % 2 == 0 else ["this", "base"]
    return sides


def summary(name: str, values: list[float], unit: str) -> str:
    return (
        f"{name}: median {statistics.median(values):.4g} {unit} (range {min(values):.4g}-{max(values):.4g})"
    )


def compare(bench: Bench, figures: dict[str, list[dict[str, float]]], tolerance: float) -> bool:
    """Print both sides and the change; True when this tree loses no more than `tolerance`."""
    ok = True
    for field, label, higher_is_better in (
        (bench.rate, bench.rate_label, True),
        ("cpu_per_episode", "CPU-s/episode", False),
    ):
        base = [f[field] for f in figures["base"]]
        this = [f[field] for f in figures["this"]]
        change = statistics.median(this) / statistics.median(base) - 1
        loss = -change if higher_is_better else change
        verdict = "LOSES" if loss > tolerance else "ok"
        ok = ok and loss <= tolerance
        print(f"{label}:\n  {summary('base', base)}\n  {summary('this', this)}")
        print(f"  change {100 * change:+.1f} % ({verdict}; fails beyond a {100 * tolerance:.0f} % loss)")
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--base", help="the commit to compare with (default: the merge base with main)")
    parser.add_argument("--bench", choices=sorted(BENCHES), default="oracle")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each side")
    parser.add_argument("--tolerance", type=float, default=0.10)
    parser.add_argument("bench_args", nargs="*", help="after --: arguments for the bench script")
    args = parser.parse_args()
    bench = BENCHES[args.bench]
    bench_args = args.bench_args or list(bench.defaults)
    base = git("rev-parse", args.base or default_base())
    head = git("rev-parse", "--short", "HEAD")
    print(
        f"{args.bench} bench, {args.rounds} rounds: this tree ({head} + working tree) "
        f"against base {base[:10]}; {' '.join(bench_args)}",
        flush=True,
    )
    where = Path(tempfile.mkdtemp(prefix="taue-compare-"))
    try:
        shim = checkout(base, where)
        figures: dict[str, list[dict[str, float]]] = {"base": [], "this": []}
        for side in order(args.rounds):
            figures[side].append(run_bench(bench, bench_args, shim if side == "base" else None))
            print(
                f"  {side}: {bench.rate} {figures[side][-1][bench.rate]:.4g}, "
                f"CPU-s/episode {figures[side][-1]['cpu_per_episode']:.4f}",
                flush=True,
            )
    finally:
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(where / "base")], check=False
        )
        shutil.rmtree(where, ignore_errors=True)
    sys.exit(0 if compare(bench, figures, args.tolerance) else 1)


if __name__ == "__main__":
    main()
