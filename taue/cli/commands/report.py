"""`taue report` (one self-contained HTML page of one or more runs) and `taue leaderboard` (a static
site ranking runs made on one task set)."""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from taue.cli.options import KEY_FILE_HELP, fail, parse_location
from taue.cli.trust_options import (
    AllowUnverified,
    KeyFile,
    TrustedKeys,
    check_runs,
    key_ring,
    print_status,
    status_of,
)

if TYPE_CHECKING:
    from taue.contracts.run import VerificationStatus
    from taue.report.run_data import RunData
    from taue.runner.storage import RunLocation
    from taue.runner.trust import KeyRing

console = Console(stderr=True, soft_wrap=True)
RunDirs = Annotated[
    list[str],
    typer.Argument(help="Run directories (each holding results.jsonl), or their object-store URLs."),
]


def register(app: typer.Typer) -> None:
    app.command("report")(report)
    app.command("leaderboard")(leaderboard)


def report(
    run_dirs: RunDirs,
    out: Annotated[Path, typer.Option(help="The HTML file to write.")] = Path("report.html"),
    title: Annotated[str | None, typer.Option(help="The page title (default: the runs' names).")] = None,
    quiet: Annotated[bool, typer.Option(help="No progress bar.")] = False,
    key_file: KeyFile = None,
    trusted_keys: TrustedKeys = None,
    allow_unverified: AllowUnverified = False,
) -> None:
    """One self-contained HTML report of the runs, side by side: headline with confidence intervals,
    emotion and family × domain heat maps, pass^k curves, politeness/urgency/trust, tool calls vs
    questions, failure categories, the simulator audit and a transcript viewer (docs/reports.md).
    Each run's verification status is a badge in the header; a run that fails verification is
    refused (exit 2) unless --allow-unverified."""
    import asyncio

    from taue.report.html.page import render_report

    started = time.perf_counter()
    ring = key_ring(key_file, trusted_keys)
    runs = _load(run_dirs)
    if out.is_dir():
        raise fail(f"--out {out} is a directory; give the HTML file to write")
    statuses = _verification(runs, ring, allow_unverified)
    with _progress(quiet) as bar:
        task = bar.add_task("episodes", total=sum(len(run.records) for run in runs))
        html = asyncio.run(
            render_report(
                runs,
                title,
                on_progress=lambda done, _: bar.update(task, completed=done),
                verification=statuses,
            )
        )
    _write_atomically(out, html)
    episodes = sum(len(run.records) for run in runs)
    size = out.stat().st_size / 1e6
    console.print(
        f"wrote {out} ({episodes} episodes, {size:.1f} MB) in {time.perf_counter() - started:.1f} s"
    )


def _verification(runs: list[RunData], ring: KeyRing, allow_unverified: bool) -> list[VerificationStatus]:
    """Each run's verification status, printed on stderr; one that fails is refused (exit 2) unless
    `allow_unverified`."""
    trusts = check_runs([run.path for run in runs], ring, allow_unverified, "reports")
    for run, trust in zip(runs, trusts, strict=True):
        print_status(run.path, trust)
    return [status_of(trust) for trust in trusts]


def leaderboard(
    run_dirs: Annotated[
        list[str],
        typer.Argument(
            help="Run directories or object-store URLs; a folder or prefix holding several runs (each "
            "with run.json) stands for all of them."
        ),
    ],
    out: Annotated[
        str, typer.Option(help="The folder of the site (created), or an object-store URL to upload it to.")
    ] = "site",
    quiet: Annotated[bool, typer.Option(help="No progress bar.")] = False,
    key_file: Annotated[Path | None, typer.Option(help=KEY_FILE_HELP)] = None,
    trusted_keys: TrustedKeys = None,
    allow_unverified: Annotated[
        bool, typer.Option(help="Rank runs that fail verification, marked UNVERIFIED on the page.")
    ] = False,
    allow_self_signed: Annotated[
        bool,
        typer.Option(
            help="Rank runs not signed with a trusted key (self-signed: a local run's own key; consistent: "
            "no key to check with), marked as such."
        ),
    ] = False,
    allow_partial: Annotated[
        bool, typer.Option(help="Rank runs that play part of the plan (--limit, --task-id, one shard).")
    ] = False,
) -> None:
    """A static site ranking the runs (model, agent kind, user, tasks × trials, Avg@k, pass^1..k,
    UNSATISFIED, cost per task, date, task-set hash, verified) with each run's report as a page.
    Refuses (exit 2, one line naming the runs and the difference) runs that are not comparable (another
    task set, plan, user or limits), partial runs, a run id twice, runs that fail verification as `taue
    verify` checks them, and runs not signed with a trusted key, unless told."""
    import asyncio

    from taue.report.leaderboard import LeaderboardError, check_task_sets, verify_runs, write_site
    from taue.report.ranking_rules import RankingError, check_rankable

    started = time.perf_counter()
    runs = _load(run_dirs, expand=True)
    ring = key_ring(key_file, trusted_keys)
    try:
        check_task_sets(runs)
        check_rankable(runs, allow_partial)
        verified, problems = verify_runs(runs, ring, allow_unverified, allow_self_signed)
    except (LeaderboardError, RankingError) as exc:
        raise fail(str(exc)) from None
    for problem in problems:
        console.print(f"unverified: {problem}", markup=False, highlight=False)
    site = parse_location(out)
    if site.local is not None and site.local.exists() and not site.local.is_dir():
        raise fail(f"--out {out} is a file; give a folder for the site")
    with _progress(quiet) as bar, _site_folder(site) as folder:
        bar.add_task("pages", total=None)
        ranked = asyncio.run(write_site(runs, folder, verified))
    for entry in ranked:
        console.print(f"{entry.rank}. {entry.run}: Avg@k {entry.avg_at_k:.3f}")
    took = time.perf_counter() - started
    console.print(f"wrote {site.shown('index.html')} and {len(ranked)} run pages in {took:.1f} s")


@contextmanager
def _site_folder(site: RunLocation) -> Iterator[Path]:
    """The folder to write the site into: `site` itself, or a temporary one uploaded to the store."""
    if site.local is not None:
        yield site.local
        return

    from taue.runner.storage import StorageError

    with tempfile.TemporaryDirectory(prefix="taue-site-") as folder:
        yield Path(folder)
        try:
            site.upload(Path(folder))
        except StorageError as exc:
            raise fail(str(exc)) from None


def _load(run_dirs: list[str], expand: bool = False):

    from taue.report.run_data import RunError, load_runs, runs_under
    from taue.runner.storage import StorageError

    if not run_dirs:
        raise fail("give at least one run directory")
    locations = [parse_location(run_dir) for run_dir in run_dirs]
    try:
        if expand:
            locations = [run for location in locations for run in runs_under(location)]
        return load_runs(locations)
    except (RunError, StorageError) as exc:
        raise fail(str(exc)) from None


def _progress(quiet: bool) -> Progress:
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    return Progress(*columns, console=console, disable=quiet or not console.is_terminal, transient=True)


def _write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)
