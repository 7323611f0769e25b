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


@pytest.mark.parametrize(("concurrency", "expected"), [(1, 1), (64, 1), (127, 1), (128, 2), (256, 2)])
def test_auto_gives_each_worker_more_episodes_when_they_wait_on_models(
    monkeypatch: pytest.MonkeyPatch, concurrency: int, expected: int
) -> None:
    monkeypatch.setattr(run, "usable_cores", lambda: 2)
    assert run.resolve_workers("auto", concurrency, waiting=True) == expected


@pytest.mark.parametrize(
    ("agent", "user", "waiting"),
    [("oracle", "scripted", False), ("pester", "scripted", False), ("model", "scripted", True),
     ("oracle", "llm", True), ("http://127.0.0.1:8000", "scripted", True), ("a2a://h:1", "scripted", True)],
)  # fmt: skip
def test_model_and_remote_agents_and_the_llm_user_wait(agent: str, user: str, waiting: bool) -> None:
    assert run.episodes_wait(agent, user) is waiting


def test_a_number_is_taken_as_it_is() -> None:
    assert run.resolve_workers("3", 1) == 3 and run.resolve_workers("3", 1, waiting=True) == 3


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
    seen: list[tuple[int, bool]] = []

    def stop_after_resolving(value: str, concurrency: int, waiting: bool) -> int:
        seen.append((concurrency, waiting))
        raise typer.Exit(0)

    monkeypatch.setattr(run, "resolve_workers", stop_after_resolving)
    llm_user = ["--user", "llm", "--user-model", "m", "--user-base-url", "http://127.0.0.1:9/v1"]
    for extra in (["--limit", "2", "--trials", "3"], ["--trials", "1"], llm_user):
        out = str(tmp_path / "r")
        command = ["run", "--domains", "airline", "--concurrency", "256", "--out", out, *extra]
        assert CliRunner().invoke(app, command).exit_code == 0
    assert seen == [(6, False), (256, False), (256, True)]
