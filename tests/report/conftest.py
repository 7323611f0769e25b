"""Runs the report tests share: a careful agent (every episode succeeds) and a liar (claims work it
never did: every episode fails, UNSATISFIED, with the gold writes missing from the database)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from taue.cli import app

REPORT_AGENTS = ("careful-readback", "liar")


def taue(*args: str):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})


@pytest.fixture(scope="session")
def report_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """agent -> its run directory: airline and retail, the first 4 tasks of each (2 emotional tasks
    and their neutral twins), 2 trials."""
    root = tmp_path_factory.mktemp("report-runs")
    dirs = {}
    for agent in REPORT_AGENTS:
        dirs[agent] = root / agent
        args = ["run", "--domains", "airline,retail", "--agent", agent, "--trials", "2", "--limit", "4"]
        result = taue(*args, "--quiet", "--out", str(dirs[agent]))
        assert result.exit_code == 0, result.output
    return dirs
