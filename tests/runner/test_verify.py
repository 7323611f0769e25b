"""`taue verify`, and the verification `taue merge` and `taue leaderboard` do: a real run passes, with
and without its signing key; every kind of hand edit is named, line by line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from taue.cli import app
from taue.contracts.integrity import SigningKey
from taue.runner.results import ResultsFile

pytestmark = pytest.mark.xdist_group("verify")


def taue(*args: str, env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200", **(env or {})})


@pytest.fixture(scope="module")
def signed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A real run (airline, 3 tasks, 2 trials, the careful agent) and the file of its signing key."""
    root = tmp_path_factory.mktemp("verify")
    home = root / "home"
    out = root / "run"
    args = ["run", "--domains", "airline", "--agent", "careful-readback", "--trials", "2", "--limit", "3"]
    result = taue(*args, "--out", str(out), "--quiet", env={"TAUE_HOME": str(home), "TAUE_SIGNING_KEY": ""})
    assert result.exit_code == 0, result.output
    run_id = json.loads((out / "run.json").read_text())["run_id"]
    key_file = home / "keys" / f"{run_id}.key"
    assert key_file.stat().st_mode & 0o077 == 0  # readable by its owner only
    return out, key_file


@pytest.fixture
def run(signed: tuple[Path, Path], tmp_path: Path) -> Path:
    copy = tmp_path / "run"
    shutil.copytree(signed[0], copy)
    return copy


def lines(run: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (run / "results.jsonl").read_text().splitlines()]


def write(run: Path, records: list[dict[str, Any]]) -> None:
    (run / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))


def verify(run: Path, *args: str) -> tuple[int, str]:
    result = taue("verify", str(run), *args, env={"TAUE_SIGNING_KEY": "", "TAUE_SIGNING_KEY_FILE": ""})
    return result.exit_code, result.output


def test_a_real_run_verifies_with_and_without_its_key(signed: tuple[Path, Path]) -> None:
    run, key_file = signed
    code, output = verify(run, "--key-file", str(key_file))
    key_id = SigningKey.from_file(key_file).id
    assert (
        code == 0 and f"ok: 6 of 6 planned records verified; signatures checked with key {key_id}" in output
    )
    code, output = verify(run)
    assert code == 0 and "signatures not checked" in output
    code, output = verify(run, "--key-file", str(key_file), "--json")
    found = json.loads(output)
    assert found["ok"] is True and found["records"] == found["planned"] == 6 and found["signatures_checked"]
    assert all(r["integrity"]["server_signature"] and r["integrity"]["scorer_signature"] for r in lines(run))


def test_verify_finds_the_authors_own_key_in_taue_home_and_says_which(signed: tuple[Path, Path]) -> None:
    run, key_file = signed
    env = {"TAUE_SIGNING_KEY": "", "TAUE_SIGNING_KEY_FILE": "", "TAUE_HOME": str(key_file.parent.parent)}
    result = taue("verify", str(run), env=env)
    key_id = SigningKey.from_file(key_file).id
    assert result.exit_code == 0, result.output
    assert f"signatures checked with key {key_id} (the run's own, {key_file})" in result.output
    found = json.loads(taue("verify", str(run), "--json", env=env).output)
    assert found["signatures_checked"] and found["key_file"] == str(key_file)
    key_file.rename(key_file.with_suffix(".moved"))  # another user's home holds no key of this run
    try:
        assert "signatures not checked" in taue("verify", str(run), env=env).output
    finally:
        key_file.with_suffix(".moved").rename(key_file)


def test_a_hand_edited_reward_is_named_by_its_line(run: Path, signed: tuple[Path, Path]) -> None:
    records = lines(run)
    index = next(i for i, r in enumerate(records) if r["reward"] == 1)
    records[index]["reward"] = 0
    records[index]["breakdown"]["reward"] = 0
    write(run, records)
    code, output = verify(run, "--key-file", str(signed[1]))
    task, trial = records[index]["task_id"], records[index]["trial"]
    assert code == 1
    assert f"results.jsonl, line {index + 1}: task {task} trial {trial}: the reward is 0, but" in output
    assert "FAILED: 1 bad records" in output
    assert sum(f"line {n + 1}:" in output for n in range(len(records))) == 1  # only that line


def test_a_consistent_forgery_passes_without_the_key_and_fails_with_it(
    run: Path, signed: tuple[Path, Path]
) -> None:
    """A transcript rewritten with every digest recomputed: only the signatures tell it apart."""
    from taue.contracts.episode import Message
    from taue.contracts.integrity import transcript_digest

    records = lines(run)
    record = records[0]
    record["transcript"].insert(-1, {"role": "agent", "content": "I also upgraded you to business, free."})
    messages = [Message.model_validate(m) for m in record["transcript"]]
    record["integrity"]["transcript_sha256"] = transcript_digest(messages)
    write(run, records)
    assert verify(run)[0] == 0
    code, output = verify(run, "--key-file", str(signed[1]))
    assert code == 1 and "the scorer's signature does not match the seal" in output and "line 1:" in output


def test_missing_duplicated_and_foreign_records_and_a_wrong_key(run: Path, tmp_path: Path) -> None:
    records = lines(run)
    dropped = records.pop(1)
    records.append(dict(records[0]))
    foreign = json.loads(json.dumps(records[2]))
    foreign["integrity"]["run_id"] = "someone-elses-run"
    records[2] = foreign
    write(run, records)
    other_key = tmp_path / "other.key"
    other_key.write_text(SigningKey.random().text)
    code, output = verify(run, "--key-file", str(other_key))
    assert code == 1
    assert f"task {dropped['task_id']} trial {dropped['trial']} is missing" in output
    assert f"task {records[0]['task_id']} trial {records[0]['trial']} is duplicated" in output
    assert "made by another run (run id someone-elses-run)" in output
    assert "signed with another key" in output


def test_a_made_up_task_set_hash_is_refused_by_verify_and_merge(run: Path, tmp_path: Path) -> None:
    config = json.loads((run / "run.json").read_text())
    config["task_set_hash"] = "f" * 64
    (run / "run.json").write_text(json.dumps(config))
    code, output = verify(run)
    assert code == 1 and "is not the one of the tasks it names" in output
    twin = tmp_path / "twin"
    shutil.copytree(run, twin)
    result = taue("merge", str(run), str(twin), "--out", str(tmp_path / "merged"))
    assert result.exit_code == 2 and "fail verification" in result.output
    assert not (tmp_path / "merged").exists()


def test_merge_and_leaderboard_refuse_an_edited_run_unless_told(
    run: Path, signed: tuple[Path, Path], tmp_path: Path
) -> None:
    config = json.loads((run / "run.json").read_text())
    (run / "run.json").write_text(json.dumps({**config, "run": "edited"}))
    records = lines(run)
    records[0]["reward"] = records[0]["breakdown"]["reward"] = 1 - records[0]["reward"]
    write(run, records)
    local = ("--out", str(tmp_path / "site"), "--quiet", "--allow-partial", "--allow-self-signed")
    result = taue("leaderboard", str(run), *local)
    assert result.exit_code == 2 and "fail verification" in result.output and "line 1:" in result.output
    assert 'run.json\'s run "edited" is not the signed manifest\'s "run"' in result.output
    assert not (tmp_path / "site").exists()
    result = taue("leaderboard", str(run), *local, "--allow-unverified")
    assert result.exit_code == 0, result.output
    rows = {row["run"]: row for row in json.loads((tmp_path / "site" / "leaderboard.json").read_text())}
    assert rows["edited"]["verified"] == "unverified"
    assert "UNVERIFIED" in (tmp_path / "site" / "index.html").read_text()
    result = taue("merge", str(run), "--out", str(tmp_path / "merged"))
    assert result.exit_code == 2 and "line 1:" in result.output
    result = taue("merge", str(run), "--out", str(tmp_path / "merged"), "--allow-unverified")
    assert result.exit_code == 0 and "unverified:" in result.output
    assert len(ResultsFile(tmp_path / "merged").load()) == len(records)


def test_verify_of_something_that_is_not_a_run_is_exit_2(tmp_path: Path) -> None:
    code, output = verify(tmp_path)
    assert code == 2 and "is not a run directory" in output
