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

`--profile DIR` profiles every run with py-spy (DIR/base-1.txt, DIR/this-1.txt, …; the benches'
defaults run one process) and prints both sides' CPU-ms per episode by part (`bench/profile_parts.py`),
summed over their runs.
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
sys.path.insert(0, str(ROOT / "bench"))

from profile_parts import attribute  # noqa: E402

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


def run_bench(bench: Bench, args: list[str], shim: Path | None, profile: Path | None) -> dict[str, float]:
    env = dict(os.environ)
    args = [*args, "--profile", str(profile)] if profile is not None else args
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


def summary(name: str, values: list[float]) -> str:
    return f"{name}: median {statistics.median(values):.4g} (range {min(values):.4g}-{max(values):.4g})"


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


def episodes(figures: dict[str, float]) -> int:
    return int(figures.get("completed", figures.get("episodes", 0)))


def compare_profiles(profiles: dict[str, list[tuple[Path, int]]]) -> None:
    """Both sides' CPU-ms per episode by part, over all their profiled runs."""
    sides: dict[str, dict[str, float]] = {}
    for side, runs in profiles.items():
        total: dict[str, float] = {}
        count = sum(n for _, n in runs)
        for path, _ in runs:
            for part, samples in attribute(str(path))[0].items():
                total[part] = total.get(part, 0.0) + samples * 10 / count  # 100 Hz: 10 ms a sample
        sides[side] = total
    print("\n| part | base CPU-ms/episode | this CPU-ms/episode |\n|---|---|---|")
    for part in sorted(sides["base"].keys() | sides["this"].keys(), key=lambda p: -sides["base"].get(p, 0)):
        print(f"| {part} | {sides['base'].get(part, 0):.2f} | {sides['this'].get(part, 0):.2f} |")
    print(f"| all sampled | {sum(sides['base'].values()):.2f} | {sum(sides['this'].values()):.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--base", help="the commit to compare with (default: the merge base with main)")
    parser.add_argument("--bench", choices=sorted(BENCHES), default="oracle")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each side")
    parser.add_argument("--tolerance", type=float, default=0.10)
    parser.add_argument("--profile", type=Path, help="folder for a py-spy profile of every run")
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
        profiles: dict[str, list[tuple[Path, int]]] = {"base": [], "this": []}
        if args.profile:
            args.profile.mkdir(parents=True, exist_ok=True)
        for side in order(args.rounds):
            path = args.profile / f"{side}-{len(figures[side]) + 1}.txt" if args.profile else None
            figures[side].append(run_bench(bench, bench_args, shim if side == "base" else None, path))
            if path is not None:
                profiles[side].append((path, episodes(figures[side][-1])))
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
    if args.profile:
        compare_profiles(profiles)
    sys.exit(0 if compare(bench, figures, args.tolerance) else 1)


if __name__ == "__main__":
    main()
