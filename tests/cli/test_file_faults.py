"""File-system faults and bad paths are one-line errors, exit 2, with nothing changed: bad or unwritable
`--out`, an unreadable or corrupt task file, a corrupt results or errors file (named with its line;
`taue run --repair` drops the bad lines, keeping a copy, and reruns their episodes), a full disk while
appending or compacting (a real 64 KiB tmpfs), a temporary file left by a crash. The entry point turns
such errors that no command caught into one line too; help and tables into a pipe are plain and uncut."""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from taue.cli import app
from taue.cli.options import user_fault
from taue.envs.runtime.discovery import get_domain
from taue.runner import results as results_module
from taue.runner.results import RESULTS, ResultsFile
from tests.deploy.helpers import taue_command

pytestmark = pytest.mark.xdist_group("file-faults")

RUN = ["run", "--domains", "airline", "--agent", "oracle", "--trials", "1", "--quiet"]
TAUE = [sys.executable, "-m", "taue"]


def taue(*args: str, env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "400", **(env or {})})


def one_line_error(result: Any) -> str:
    """The single `error: …` line of a command that failed with exit 2 (no traceback)."""
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit | None), result.output
    assert "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    return lines[0]


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real finished run: two airline episodes."""
    out = tmp_path_factory.mktemp("file-faults") / "run"
    result = taue(*RUN, "--limit", "2", "--out", str(out))
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture
def run_dir(finished: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(finished, tmp_path / "run"))


@pytest.mark.parametrize(
    ("out", "expected"),
    [
        ("/dev/null", "error: /dev/null exists and is not a directory; give a directory path"),
        ("{tmp}/a-file/run", "error: cannot create {tmp}/a-file/run: a part of the path is a file, not a"),
        ("", "error: an empty path names no run directory"),
        ("/proc/taue-run", "error: cannot create /proc/taue-run: No such file or directory"),
        ("/sys/taue-run", "error: cannot create /sys/taue-run: "),
    ],
)
def test_a_bad_out_is_one_line_and_changes_nothing(
    out: str, expected: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a-file").write_text("a file, not a folder")
    monkeypatch.chdir(tmp_path)  # `--out ''` once wrote into the current directory (runs/…)
    line = one_line_error(taue(*RUN, "--limit", "1", "--out", out.format(tmp=tmp_path)))
    assert line.startswith(expected.format(tmp=tmp_path)), line
    assert [p.name for p in tmp_path.iterdir()] == ["a-file"]


@pytest.fixture
def read_only_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder this process cannot write: read-only bind mount for root (which ignores permissions),
    permissions 0555 for anyone else."""
    folder = tmp_path / "read-only"
    folder.mkdir()
    if os.geteuid() != 0:
        folder.chmod(0o555)
        yield folder
        folder.chmod(0o755)
        return
    mounted = subprocess.run(["mount", "--bind", str(folder), str(folder)], capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"running as root without the right to mount a read-only folder: {mounted.stderr}")
    try:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(folder)], check=True, capture_output=True)
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def test_an_unwritable_out_is_one_line(read_only_folder: Path) -> None:
    line = one_line_error(taue(*RUN, "--limit", "1", "--out", str(read_only_folder / "run")))
    assert line.startswith(f"error: cannot create {read_only_folder / 'run'}: "), line
    assert line.endswith("give a path you can write to")


def bad_task_set(root: Path, tasks: bytes | None) -> None:
    """A task set `bad` whose tasks.json holds `tasks` (None: tasks.json is a folder, unreadable)."""
    folder = root / "bad"
    folder.mkdir(parents=True)
    info = {
        "name": "bad", "base_domain": "airline", "source": "folder", "split": "eval", "created_from": "x",
        "task_files": ["tasks.json"], "tables": {}, "tasks": 0, "emotional": 0, "neutral_twins": 0,
    }  # fmt: skip
    (folder / "task_set.json").write_text(json.dumps(info))
    if tasks is None:
        (folder / "tasks.json").mkdir()
    else:
        (folder / "tasks.json").write_bytes(tasks)


@pytest.mark.parametrize(
    ("tasks", "problem"),
    [
        (None, "error: cannot read {file}: Is a directory"),
        (b"\xff\xfe[", "error: {file}: not UTF-8 text: invalid start byte at byte 0"),
        (b'[{"id": "x"', "error: {file}: not valid JSON: "),
    ],
)
def test_an_unreadable_or_corrupt_task_file_is_one_line(
    tasks: bytes | None, problem: str, tmp_path: Path
) -> None:
    sets = tmp_path / "task-sets"
    bad_task_set(sets, tasks)
    expected = problem.format(file=sets / "bad" / "tasks.json")
    env = {"TAUE_TASK_SETS_DIR": str(sets)}
    for args in (["tasks", "list"], ["tasks", "validate"], [*RUN, "--out", str(tmp_path / "run")]):
        line = one_line_error(taue(*args, "--task-set", "bad", env=env))
        assert line.startswith(expected), (args, line)
    assert not (tmp_path / "run").exists()


def test_a_corrupt_results_line_is_named_and_repair_reruns_its_episode(run_dir: Path) -> None:
    results = ResultsFile(run_dir)
    original = {r.key: r.without_clock() for r in results.load()}
    lines = results.path.read_bytes().splitlines(keepends=True)
    results.path.write_bytes(b'{"run": "half a rec\n' + lines[1])  # the first record lost, then a good one
    corrupt = results.path.read_bytes()

    for args in ([*RUN, "--limit", "2", "--out", str(run_dir)], ["summary", str(run_dir)]):
        line = one_line_error(taue(*args))
        assert line.startswith(f"error: {results.path}, line 1: not an episode record (Invalid JSON: "), line
        assert "--repair" in line
        assert results.path.read_bytes() == corrupt, "nothing changed"

    repaired = taue(*RUN, "--limit", "2", "--out", str(run_dir), "--repair")

    assert repaired.exit_code == 0, repaired.output
    [backup] = run_dir.glob(f"{RESULTS}.bak-*")
    assert f"repair: dropped 1 bad entry of {results.path} (a copy: {backup})" in repaired.output
    assert "1 episodes run, 1 already done" in repaired.output
    assert backup.read_bytes() == corrupt
    assert {r.key: r.without_clock() for r in results.load()} == original


def test_a_corrupt_errors_line_is_named_by_summary(run_dir: Path) -> None:
    (run_dir / "errors.jsonl").write_text('{"domain": "airline", "ta\n{"domain": "airline"}\n')
    line = one_line_error(taue("summary", str(run_dir)))
    assert line.startswith(f"error: {run_dir / 'errors.jsonl'}, line 1: not an error entry (invalid JSON")


def test_a_temporary_file_left_by_a_crash_does_not_break_a_rerun(run_dir: Path) -> None:
    (run_dir / f"{RESULTS}.tmp").write_text("half of a compaction a crash interrupted")
    result = taue(*RUN, "--limit", "2", "--out", str(run_dir))
    assert result.exit_code == 0, result.output
    assert not (run_dir / f"{RESULTS}.tmp").exists()


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A 64 KiB tmpfs: a real full disk (the same faults are faked without root in
    tests/runner/test_results_repair.py)."""
    folder = tmp_path / "tiny"
    folder.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root; test_results_repair.py fakes the ENOSPC instead")
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)], capture_output=True, text=True
    )
    if mounted.returncode != 0:
        pytest.skip(f"root without the right to mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def grow(disk: Path) -> None:
    subprocess.run(["mount", "-o", "remount,size=2m", str(disk)], check=True)


def assert_full_disk_line(line: str, path: Path) -> None:
    assert line.startswith(f"error: cannot write {path}: no space left on device; free space on the file")
    assert line.endswith("and rerun: the episodes stored so far are kept"), line


def test_a_disk_that_fills_while_appending_is_one_line_and_a_rerun_completes(tiny_disk: Path) -> None:
    out = tiny_disk / "run"
    line = one_line_error(taue(*RUN, "--limit", "4", "--out", str(out)))
    assert_full_disk_line(line, out / RESULTS)
    assert not (out / f"{RESULTS}.tmp").exists()
    data = (out / RESULTS).read_bytes()
    assert data.endswith(b"\n"), "no half line"
    stored = len(ResultsFile(out).load())
    assert 1 <= stored < 4

    grow(tiny_disk)
    result = taue(*RUN, "--limit", "4", "--out", str(out))

    assert result.exit_code == 0, result.output
    assert f"{4 - stored} episodes run, {stored} already done" in result.output
    assert len(ResultsFile(out).load()) == 4


def test_a_compaction_without_room_leaves_the_run_usable(finished: Path, tiny_disk: Path) -> None:
    out = Path(shutil.copytree(finished, tiny_disk / "run"))
    before = (out / RESULTS).read_bytes()
    assert len(before) > 32 * 1024, "the sorted copy must not fit beside it"
    for _ in range(2):  # and the rerun meets the same fault, not a leftover of the first
        line = one_line_error(taue(*RUN, "--limit", "2", "--out", str(out)))
        assert_full_disk_line(line, out / RESULTS)
        assert (out / RESULTS).read_bytes() == before
        assert sorted(p.name for p in out.iterdir()) == ["manifest.json", RESULTS, "run.json"]

    grow(tiny_disk)
    result = taue(*RUN, "--limit", "2", "--out", str(out))
    assert result.exit_code == 0, result.output


def test_the_entry_point_turns_an_uncaught_user_os_error_into_one_line(run_dir: Path) -> None:
    results = run_dir / RESULTS
    results.unlink()
    results.mkdir()  # a results "file" that is a folder: no command checks for that
    done = subprocess.run([*TAUE, "summary", str(run_dir)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == f"error: {results}: Is a directory"


def test_user_faults_are_told_from_bugs(tmp_path: Path) -> None:
    full = OSError(errno.ENOSPC, "No space left on device", str(tmp_path / RESULTS))
    assert (user_fault(full) or "").startswith(f"cannot write {tmp_path / RESULTS}: no space left")
    assert user_fault(PermissionError(errno.EACCES, "Permission denied", "/x")) == "/x: Permission denied"
    missing_user_file = FileNotFoundError(errno.ENOENT, "No such file or directory", str(tmp_path / "t"))
    assert user_fault(missing_user_file) == f"{tmp_path / 't'}: No such file or directory"
    ours = Path(results_module.__file__).parent / "missing.json"
    assert user_fault(FileNotFoundError(errno.ENOENT, "No such file", str(ours))) is None, "a bug"
    assert user_fault(ConnectionRefusedError(errno.ECONNREFUSED, "Connection refused")) is None
    assert user_fault(ValueError("a bug")) is None


def normalized(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_help_and_tables_into_a_pipe_are_plain_and_uncut() -> None:
    help_text = subprocess.run([*TAUE, "run", "--help"], capture_output=True, text=True, timeout=120)
    assert help_text.returncode == 0, help_text.stderr
    helps = [p.help for p in taue_command(["run"]).params if getattr(p, "help", None)]
    assert len(helps) > 30
    for text in helps:
        assert normalized(text) in normalized(help_text.stdout), text
    assert help_text.stdout.count("…") == sum(text.count("…") for text in helps), "only the help's own"
    assert "╭" not in help_text.stdout and "│" not in help_text.stdout, "no boxes in a pipe"

    table = subprocess.run(
        [*TAUE, "tasks", "list", "--domain", "airline"], capture_output=True, text=True, timeout=120
    )
    assert table.returncode == 0, table.stderr
    assert "…" not in table.stdout
    for task in get_domain("airline").tasks:
        assert re.search(rf"│ {re.escape(task.id)} +│", table.stdout), task.id
        assert task.condition_id is None or f" {task.condition_id} " in table.stdout


def test_a_damaged_run_json_is_named_and_left_alone(tmp_path: Path) -> None:
    (tmp_path / "run.json").write_text("{broken")
    line = one_line_error(taue(*RUN, "--limit", "1", "--out", str(tmp_path)))
    assert line.startswith(f"error: {tmp_path / 'run.json'} is not a run's settings (Invalid JSON"), line
    assert (tmp_path / "run.json").read_text() == "{broken"
    assert [path.name for path in tmp_path.iterdir()] == ["run.json"]
