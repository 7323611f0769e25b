"""A run in the formats other tools read: Inspect AI eval logs (`inspect view`) and τ²-bench results
files (docs/reports.md). `export_run` checks the run, then writes one file per domain."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from taue.report.exports.common import ExportError, Written

if TYPE_CHECKING:
    from taue.runner.storage import RunLocation

FORMATS = ("inspect", "tau2")


def export_run(
    run_dir: Path | str, format: str, out: Path, before_writing: Callable[[RunLocation], None] | None = None
) -> list[Written]:
    """Write `run_dir` under `out` in `format`; an `ExportError` (nothing written) when the format
    is unknown, its package is missing or `run_dir` holds no run. `before_writing` is called with the
    run's location once it is read, before anything is written (to refuse it: raise)."""
    if format not in FORMATS:
        raise ExportError(f"--format must be one of {', '.join(FORMATS)}, not {format!r}")
    from taue.report.exports.common import load_run

    if format == "inspect":
        from taue.report.exports.inspect_log import require_inspect, write_inspect_logs

        require_inspect()
        writer = write_inspect_logs
    else:
        from taue.report.exports.tau2_results import write_tau2_results

        writer = write_tau2_results
    run = load_run(run_dir)
    if before_writing is not None:
        before_writing(run.path)
    return writer(run, out)


__all__ = ["FORMATS", "ExportError", "Written", "export_run"]
