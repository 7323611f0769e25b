"""`taue run --workers N|auto`: auto gives a worker per usable core only when each gets enough episodes."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from taue.cli import app
from taue.cli.commands import run


@pytest.mark.parametrize(
    ("cores", "concurrency", "expected"),
    [(2, 1, 1), (2, 32, 1), (2, 63, 1), (2, 64, 2), (2, 256, 2), (8, 128, 4), (1, 256, 1)],
)
def test_auto_is_one_worker_per_core_with_enough_episodes_each(
    monkeypatch: pytest.MonkeyPatch, cores: int, concurrency: int, expected: int
) -> None:
    monkeypatch.setattr(run, "usable_cores", lambda: cores)
    assert run.resolve_workers("auto", concurrency) == expected


def test_a_number_is_taken_as_it_is() -> None:
    assert run.resolve_workers("3", 1) == 3


def test_usable_cores_are_at_most_the_affinity() -> None:
    import os

    assert 1 <= run.usable_cores() <= len(os.sched_getaffinity(0))


@pytest.mark.parametrize("value", ["0", "65", "two", "-1", ""])
def test_a_bad_value_is_a_one_line_error_before_anything_is_made(tmp_path: Path, value: str) -> None:
    out = tmp_path / "run"
    result = CliRunner().invoke(app, ["run", "--domains", "airline", "--workers", value, "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert "--workers must be a number from 1 to 64 or auto" in result.output
    assert len(result.output.strip().splitlines()) == 1 and not out.exists()


def test_auto_counts_only_the_episodes_a_small_run_can_have_in_flight(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    seen: list[int] = []

    def stop_after_resolving(value: str, concurrency: int) -> int:
        seen.append(concurrency)
        raise typer.Exit(0)

    monkeypatch.setattr(run, "resolve_workers", stop_after_resolving)
    for extra in (["--limit", "2", "--trials", "3"], ["--trials", "1"]):
        out = str(tmp_path / "r")
        command = ["run", "--domains", "airline", "--concurrency", "256", "--out", out, *extra]
        assert CliRunner().invoke(app, command).exit_code == 0
    assert seen == [6, 256]
