"""`taue export`: a run in the formats other tools read (Inspect AI eval logs, τ²-bench results)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from taue.cli.options import fail
from taue.cli.trust_options import AllowUnverified, KeyFile, TrustedKeys, check_runs, key_ring, print_status

if TYPE_CHECKING:
    from taue.runner.storage import RunLocation
    from taue.runner.trust import KeyRing

FORMATS = ("inspect", "tau2")
"""The values of `taue.report.exports.FORMATS`, written out so that `taue --help` need not import the
exporters (a test compares them)."""


def register(app: typer.Typer) -> None:
    app.command("export")(export_command)


def export_command(
    run_dir: Annotated[
        str,
        typer.Argument(help="A run directory (holding run.json and results.jsonl), or its object-store URL."),
    ],
    format: Annotated[
        str,
        typer.Option(
            "--format",
            help="inspect: Inspect AI eval logs (`inspect view`; needs the `inspect` extra); "
            "tau2: τ²-bench results files.",
        ),
    ],
    out: Annotated[Path, typer.Option(help="Directory to write into (created if missing).")],
    key_file: KeyFile = None,
    trusted_keys: TrustedKeys = None,
    allow_unverified: AllowUnverified = False,
) -> None:
    """Write a run in another tool's format, one file per domain: Inspect AI eval logs that `inspect
    view` lists, or τ²-bench results JSON (docs/reports.md). The same run gives the same bytes. Its
    verification status goes to stderr; a run that fails verification is refused (exit 2, nothing
    written) unless --allow-unverified."""
    from taue.report.exports import ExportError, export_run

    if format not in FORMATS:
        raise fail(f"--format must be one of {', '.join(FORMATS)}, not {format!r}")
    ring = key_ring(key_file, trusted_keys)
    try:
        written = export_run(run_dir, format, out, _verified(ring, allow_unverified))
    except ExportError as exc:
        raise fail(str(exc)) from None  # the message may hold brackets: `.[inspect]`
    for file in written:
        typer.echo(f"{file.domain}: {file.episodes} episodes -> {file.path}")


def _verified(ring: KeyRing, allow_unverified: bool) -> Callable[[RunLocation], None]:
    """The check before anything is written: the run's status on stderr, or the run refused."""

    def check(location: RunLocation) -> None:
        (trust,) = check_runs([location], ring, allow_unverified, "exports")
        print_status(location, trust)

    return check
