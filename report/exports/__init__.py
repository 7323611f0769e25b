"""A run in the formats other tools read: Inspect AI eval logs (`inspect view`) and τ²-bench results
files (docs/reports.md). `export_run` checks the run, then writes one file per domain."""

from __future__ import annotations

from pathlib import Path

from taue.report.exports.common import ExportError, Written

FORMATS = ("inspect", "tau2")


def export_run(run_dir: Path | str, format: str, out: Path) -> list[Written]:
    """Write `run_dir` under `out` in `format`; an `ExportError` (nothing written) when the format
    is unknown, its package is missing or `run_dir` holds no run."""
    if format not in FORMATS:
        raise ExportError(f"--format must be one of {', '.join(FORMATS)}, not {format!r}")
    from taue.report.exports.common import load_run

    if format == "inspect":
        from taue.report.exports.inspect_log import require_inspect, write_inspect_logs

        require_inspect()
        return write_inspect_logs(load_run(run_dir), out)
    from taue.report.exports.tau2_results import write_tau2_results

    return write_tau2_results(load_run(run_dir), out)


__all__ = ["FORMATS", "ExportError", "Written", "export_run"]
