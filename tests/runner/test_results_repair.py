"""The results and errors files against corruption and a full disk: a bad line in the middle is named
(file and line) by every reader, `drop_bad_lines` (`taue run --repair`) drops such lines after keeping
a copy, a torn last line is still dropped silently, and a write or compaction that fails (the OS error
faked here; tests/cli/test_file_faults.py fills a real tmpfs) leaves the files as they were, without
a temporary file beside them."""

from __future__ import annotations

import errno
import json
import os
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from taue.cli import app
from taue.runner.results import ERRORS, RESULTS, ResultsFile, ResultsFileError
from taue.runner.storage import RunDirError

pytestmark = pytest.mark.xdist_group("results-repair")

BAD_JSON = b'{"task_id": "airline-001", "rew\n'
NOT_A_RECORD = b'{"task_id": "airline-001", "trial": 0}\n'


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real run of two airline episodes (oracle agent, scripted user)."""
    out = tmp_path_factory.mktemp("results-repair") / "run"
    args = ["run", "--domains", "airline", "--agent", "oracle", "--trials", "1", "--limit", "2", "--quiet"]
    result = CliRunner().invoke(app, [*args, "--out", str(out)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture
def run_dir(finished: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(finished, tmp_path / "run"))


def lines_of(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


def insert_line(path: Path, index: int, line: bytes) -> None:
    lines = lines_of(path)
    path.write_bytes(b"".join([*lines[:index], line, *lines[index:]]))


def test_a_bad_line_in_the_middle_is_named_with_its_file_and_line(run_dir: Path) -> None:
    results = ResultsFile(run_dir)
    insert_line(results.path, 1, BAD_JSON)
    with pytest.raises(ResultsFileError) as caught:
        results.load()
    message = str(caught.value)
    assert message.startswith(f"{results.path}, line 2: not an episode record (Invalid JSON")
    assert "--repair" in message and "\n" not in message

    insert_line(results.path, 1, NOT_A_RECORD)  # valid JSON, not a record: now line 2, the other line 3
    with pytest.raises(ResultsFileError, match=r"line 2: not an episode record \(run: Field required"):
        results.load()


def test_a_torn_last_line_is_still_dropped_without_a_word(run_dir: Path) -> None:
    results = ResultsFile(run_dir)
    whole = results.path.read_bytes()
    results.path.write_bytes(whole + b'{"run": "torn by a kill')
    assert len(results.load()) == 2
    results.repair()
    assert results.path.read_bytes() == whole


def test_drop_bad_lines_keeps_a_copy_and_every_good_line(run_dir: Path) -> None:
    results = ResultsFile(run_dir)
    records = results.path.read_bytes()
    insert_line(results.path, 1, BAD_JSON)
    insert_line(results.path, 0, NOT_A_RECORD)
    entry = json.dumps({"domain": "airline", "task_id": "airline-001", "trial": 0, "kind": "retry"})
    results.errors_path.write_bytes(f"{entry}\n[1, 2]\n{entry}\n".encode())
    corrupt_results, corrupt_errors = results.path.read_bytes(), results.errors_path.read_bytes()

    dropped = {Path(d.shown).name: d for d in results.drop_bad_lines()}

    assert {name: d.count for name, d in dropped.items()} == {RESULTS: 2, ERRORS: 1}
    assert Path(dropped[RESULTS].backup).read_bytes() == corrupt_results
    assert Path(dropped[ERRORS].backup).read_bytes() == corrupt_errors
    assert Path(dropped[RESULTS].backup).name.startswith(f"{RESULTS}.bak-")
    assert results.path.read_bytes() == records
    assert len(results.load()) == 2 and len(results.errors()) == 2
    before = sorted(run_dir.iterdir())
    assert results.drop_bad_lines() == [] and sorted(run_dir.iterdir()) == before, "nothing left to drop"


def test_a_bad_line_of_errors_jsonl_is_named_too(run_dir: Path) -> None:
    results = ResultsFile(run_dir)
    results.errors_path.write_bytes(b'{"domain": "airline"}\nnot json\n{"domain": "airline"}\n{"torn')
    with pytest.raises(ResultsFileError, match=r"errors\.jsonl, line 2: not an error entry \(invalid JSON"):
        results.errors()
    results.errors_path.write_bytes(b'{"domain": "airline"}\n{"torn')
    assert results.errors() == [{"domain": "airline"}]


def raise_no_space(*args: object) -> None:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_compaction_that_fails_leaves_the_file_as_it_was(
    run_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    results = ResultsFile(run_dir)
    before = results.path.read_bytes()
    monkeypatch.setattr(os, "fsync", raise_no_space)  # the disk fills while the sorted copy is written
    with pytest.raises(RunDirError) as caught:
        results.compact()
    monkeypatch.undo()
    message = str(caught.value)
    assert message.startswith(f"cannot write {results.path}: no space left on device; free space")
    assert str(run_dir) in message and "rerun" in message
    assert results.path.read_bytes() == before
    assert not (run_dir / f"{RESULTS}.tmp").exists()
    assert len(results.compact()) == 2


def test_an_append_that_does_not_fit_is_undone(run_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    results = ResultsFile(run_dir)
    record = results.load()[0]
    before = results.path.read_bytes()
    real_write = os.write

    def half_write(fd: int, data: bytes) -> int:  # what write(2) does when only part of it fits
        return real_write(fd, data[: len(data) // 2])

    monkeypatch.setattr(os, "write", half_write)
    with pytest.raises(RunDirError, match="no space left on device"):
        results.append(record)
    monkeypatch.undo()
    assert results.path.read_bytes() == before, "no half line left for the next append to follow"
    results.append(record)
    assert results.path.read_bytes() == before + record.model_dump_json().encode() + b"\n"


def test_a_temporary_file_left_by_a_crashed_compaction_is_removed_on_start(run_dir: Path) -> None:
    (run_dir / f"{RESULTS}.tmp").write_bytes(b"half of a compaction")
    ResultsFile(run_dir).repair()
    assert not (run_dir / f"{RESULTS}.tmp").exists()


def test_object_store_runs_name_bad_objects_and_repair_them(finished: Path) -> None:
    records = ResultsFile(finished).load()
    results = ResultsFile(f"memory://taue-repair-test/{os.getpid()}/run")
    results.replace(records[:1])
    results.append(records[1])
    location = results.location
    location.write_text("episodes/broken.0.json", "{")
    location.write_text(RESULTS, location.read_text(RESULTS) + "[]\n")
    with pytest.raises(ResultsFileError, match=r"results\.jsonl, line 2: not an episode record"):
        results.load()

    dropped = {d.shown.rsplit("/", 1)[-1]: d.count for d in results.drop_bad_lines()}

    assert dropped == {RESULTS: 1, "episodes": 1}
    assert sorted(r.key for r in results.load()) == sorted(r.key for r in records)
    assert any(name.endswith("broken.0.json") for name in location.list(dropped_backup(results)))
    assert results.compact() == sorted(records, key=lambda r: r.key)


def dropped_backup(results: ResultsFile) -> str:
    [folder] = {name.split("/", 1)[0] for name in results.location.list("") if name.startswith("bak-")}
    return folder
