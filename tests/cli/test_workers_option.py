"""`taue run --workers N|auto`: auto gives a worker per usable core only when each gets enough episodes
(the policy is the runner's, `taue.runner.worker_count`; the CLI only parses the flag)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from taue.cli import app
from taue.cli.options import parse_workers
from taue.contracts.run import RunConfig
from taue.runner import worker_count


def config(**fields: object) -> RunConfig:
    return RunConfig.model_validate({"run": "r", "domains": ["airline"], "agent": "oracle", **fields})


@pytest.mark.parametrize(
    ("cores", "concurrency", "expected"),
    [(2, 1, 1), (2, 32, 1), (2, 63, 1), (2, 64, 2), (2, 256, 2), (8, 128, 4), (1, 256, 1)],
)
def test_auto_is_one_worker_per_core_with_enough_episodes_each(
    monkeypatch: pytest.MonkeyPatch, cores: int, concurrency: int, expected: int
) -> None:
    monkeypatch.setattr(worker_count, "usable_cores", lambda: cores)
    assert worker_count.run_workers(None, concurrency, config()) == expected


@pytest.mark.parametrize(("concurrency", "expected"), [(1, 1), (64, 1), (127, 1), (128, 2), (256, 2)])
def test_auto_gives_each_worker_more_episodes_when_they_wait_on_models(
    monkeypatch: pytest.MonkeyPatch, concurrency: int, expected: int
) -> None:
    monkeypatch.setattr(worker_count, "usable_cores", lambda: 2)
    waiting = config(user="llm", user_model="m", user_base_url="http://127.0.0.1:9/v1")
    assert worker_count.run_workers(None, concurrency, waiting) == expected


@pytest.mark.parametrize(
    ("agent", "user", "waiting"),
    [("oracle", "scripted", False), ("pester", "scripted", False), ("model", "scripted", True),
     ("oracle", "llm", True), ("http://127.0.0.1:8000", "scripted", True), ("a2a://h:1", "scripted", True)],
)  # fmt: skip
def test_model_and_remote_agents_and_the_llm_user_wait(agent: str, user: str, waiting: bool) -> None:
    assert worker_count.episodes_wait(agent, user) is waiting


def test_a_number_is_taken_as_it_is() -> None:
    assert parse_workers("3") == 3 and parse_workers("auto") is None
    assert worker_count.run_workers(3, 1, config()) == 3
    assert worker_count.run_workers(3, 1, config(agent="model")) == 3


def test_usable_cores_are_at_most_the_affinity() -> None:
    assert 1 <= worker_count.usable_cores() <= len(os.sched_getaffinity(0))


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

    def stop_after_counting(in_flight: int, waiting: bool, cores: int) -> int:
        seen.append((in_flight, waiting))
        raise SystemExit(0)

    monkeypatch.setattr(worker_count, "auto_workers", stop_after_counting)
    llm_user = ["--user", "llm", "--user-model", "m", "--user-base-url", "http://127.0.0.1:9/v1"]
    for extra in (["--limit", "2", "--trials", "3"], ["--trials", "1"], llm_user):
        out = str(tmp_path / "r")
        command = ["run", "--domains", "airline", "--concurrency", "256", "--out", out, *extra]
        assert CliRunner().invoke(app, command).exit_code == 0
    assert seen == [(6, False), (256, False), (256, True)]
