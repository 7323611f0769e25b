"""The front door (issue 36): `--name` names the default run folder, and a `--base-url` without a
scheme is one line naming the expected form, exit 2, nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from taue.cli import app
from taue.runner.results import ResultsFile

ONE = ("run", "--domains", "airline", "--agent", "oracle", "--trials", "1", "--quiet")


def taue(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "300", "TAUE_SIGNING_KEY": "k" * 32})
    return result.exit_code, result.output


def test_name_sets_the_default_run_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, output = taue(*ONE, "--task-id", "airline-001", "--name", "my run")
    assert code == 0, output
    folder = tmp_path / "runs" / "my_run"
    assert [r.task_id for r in ResultsFile(folder).load()] == ["airline-001"]
    assert json.loads((folder / "run.json").read_text())["run"] == "my run"
    assert sorted(p.name for p in (tmp_path / "runs").iterdir()) == ["my_run"]


def test_a_named_shard_goes_to_its_own_folder_under_the_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    ids = ("--task-id", "airline-001", "--task-id", "airline-002")
    for shard in ("0/2", "1/2"):
        code, output = taue(*ONE, *ids, "--name", "demo", "--shard", shard)
        assert code == 0, output
    shards = [tmp_path / "runs" / "demo" / f"shard-{i}" for i in (0, 1)]
    assert [[r.task_id for r in ResultsFile(s).load()] for s in shards] == [["airline-001"], ["airline-002"]]


def test_a_name_of_dots_never_names_a_parent_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, output = taue(*ONE, "--task-id", "airline-001", "--name", "..")
    assert code == 0, output
    assert (tmp_path / "runs" / "_" / "results.jsonl").exists()


@pytest.mark.parametrize(
    ("flags", "flag"),
    [
        (("--agent", "model", "--model", "m", "--base-url", "localhost:8000/v1"), "--base-url"),
        (("--user", "llm", "--user-model", "m", "--user-base-url", "127.0.0.1:8000"), "--user-base-url"),
    ],
)
def test_a_base_url_without_a_scheme_is_one_line(
    flags: tuple[str, ...], flag: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    args = ["run", "--domains", "airline", "--out", str(tmp_path / "r"), *flags]
    code, output = taue(*args)
    assert code == 2 and "Traceback" not in output
    line = output.strip().splitlines()[-1]
    assert line.startswith(f"error: {flag} must be a URL like http://host:port/v1"), output
    assert not (tmp_path / "r").exists()


def test_agent_serve_names_the_expected_form_of_the_base_url() -> None:
    code, output = taue("agent", "serve", "--model", "m", "--base-url", "localhost:8000/v1")
    assert code == 2 and "--base-url must be a URL like http://host:port/v1" in output
