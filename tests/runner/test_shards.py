"""Shards through the real CLI: task ids are checked against the whole run (a shard may hold none of
them), and shards run without --name merge whatever their folders are called, while runs that
really differ are refused with the differing settings named."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from taue.cli import app
from taue.runner.results import ResultsFile

pytestmark = pytest.mark.xdist_group("shards")

TINY = ("--domains", "airline", "--agent", "oracle", "--trials", "1", "--quiet")


def taue(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "300"})
    return result.exit_code, result.output


def run(out: Path, *args: str) -> Path:
    code, output = taue("run", *TINY, "--out", str(out), *args)
    assert code == 0, output
    return out


def task_ids(run_dir: Path) -> list[str]:
    return [record.task_id for record in ResultsFile(run_dir).load()]


def comparable(run_dir: Path) -> list[dict]:
    return [{**r.without_clock(), "run": None} for r in ResultsFile(run_dir).load()]


@dataclass(frozen=True)
class Shards:
    whole: Path
    first: Path
    second: Path


@pytest.fixture(scope="module")
def shards(tmp_path_factory: pytest.TempPathFactory) -> Shards:
    """One unsharded run and its two shards, all named after their folders (no --name)."""
    root = tmp_path_factory.mktemp("shards")
    return Shards(
        whole=run(root / "whole", "--limit", "2"),
        first=run(root / "left", "--limit", "2", "--shard", "0/2"),
        second=run(root / "right", "--limit", "2", "--shard", "1/2"),
    )


def test_task_ids_are_checked_against_the_whole_run_not_the_shard(tmp_path: Path) -> None:
    ids = ("--task-id", "airline-001", "--task-id", "airline-002")
    assert task_ids(run(tmp_path / "a", *ids, "--shard", "0/2")) == ["airline-001"]
    assert task_ids(run(tmp_path / "b", *ids, "--shard", "1/2")) == ["airline-002"]
    assert task_ids(run(tmp_path / "c", "--task-id", "airline-001", "--shard", "1/2")) == []

    code, output = taue(
        "run", *TINY, "--out", str(tmp_path / "d"), *ids, "--task-id", "nope-1", "--shard", "1/2"
    )
    assert code == 2 and "unknown task ids: nope-1" in output, output
    assert not (tmp_path / "d").exists()


def test_a_task_id_of_another_domain_says_which_domain_it_belongs_to(tmp_path: Path) -> None:
    code, output = taue("run", *TINY, "--out", str(tmp_path / "r"), "--task-id", "retail-004")
    assert code == 2 and "retail-004 is a retail task, not airline" in output, output
    assert "unknown" not in output and not (tmp_path / "r").exists()


def test_task_ids_left_out_by_the_limit_are_not_called_unknown(tmp_path: Path) -> None:
    ids = ("--task-id", "airline-001", "--task-id", "airline-002")
    code, output = taue("run", *TINY, "--out", str(tmp_path / "x"), *ids, "--limit", "1")
    assert code == 2 and "task ids that --tasks all --limit 1 leaves out: airline-002" in output, output
    assert not (tmp_path / "x").exists()


def test_shards_named_after_their_folders_merge_into_the_unsharded_run(
    shards: Shards, tmp_path: Path
) -> None:
    assert task_ids(shards.first) and task_ids(shards.second)
    out = tmp_path / "merged"
    code, output = taue("merge", str(shards.first), str(shards.second), "--out", str(out))
    assert code == 0, output
    assert "2 episodes from 2 runs" in output and "(run merged)" in output
    assert comparable(out) == comparable(shards.whole)
    assert {record.run for record in ResultsFile(out).load()} == {"merged"}
    assert json.loads((out / "run.json").read_text())["run"] == "merged"

    code, output = taue("merge", str(shards.first), str(shards.second), "--out", str(out), "--name", "final")
    assert code == 0, output
    assert {record.run for record in ResultsFile(out).load()} == {"final"}


def test_runs_with_other_settings_are_refused_naming_them(shards: Shards, tmp_path: Path) -> None:
    other = run(tmp_path / "other", "--limit", "2", "--shard", "1/2", "--seed", "7", "--max-turns", "50")
    out = tmp_path / "merged"
    code, output = taue("merge", str(shards.first), str(other), "--out", str(out))
    assert code == 2, output
    assert f"{other} has other settings than {shards.first}: " in output
    assert "seed 7 vs 0, max_turns 50 vs 200; only shards of one run merge" in output
    assert not out.exists()
