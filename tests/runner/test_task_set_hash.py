"""run.json keeps the hash of the tasks a run played and the run's id: a run resumes only on the same
tasks, runs from before the hash was kept still resume (and get it), shards of other task sets do not
merge; the run id is kept on resume and never compared."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from taue.contracts.run import RunConfig
from taue.runner.catalog import local_catalog
from taue.runner.merge import MergeError, merge_runs
from taue.runner.runner import execute_run, task_set_hash

pytestmark = pytest.mark.xdist_group("task-set-hash")


def config(**changes) -> RunConfig:
    return RunConfig(
        **{"run": "hash", "domains": ["airline"], "agent": "oracle", "trials": 1, "limit": 1, **changes}
    )


async def test_a_run_keeps_the_hash_of_its_domains_tasks(tmp_path: Path) -> None:
    report = await execute_run(config(), tmp_path, None, 4)
    stored = json.loads((tmp_path / "run.json").read_text())["task_set_hash"]
    assert report.completed == 1
    assert stored == task_set_hash({"airline": local_catalog("airline")}, ["airline"])
    assert stored != task_set_hash({"retail": local_catalog("retail")}, ["retail"])
    assert stored != task_set_hash({"airline": local_catalog("airline", "train")}, ["airline"])


async def test_old_runs_resume_and_other_tasks_are_refused(tmp_path: Path) -> None:
    await execute_run(config(), tmp_path, None, 4)
    path = tmp_path / "run.json"
    current = json.loads(path.read_text())
    path.write_text(json.dumps({k: v for k, v in current.items() if k != "task_set_hash"}))
    again = await execute_run(config(), tmp_path, None, 4)
    assert again.skipped == 1 and json.loads(path.read_text()) == current
    path.write_text(json.dumps({**current, "task_set_hash": "0" * 64}))
    with pytest.raises(ValueError, match=r"was run on other tasks.*000000000000"):
        await execute_run(config(), tmp_path, None, 4)
    assert json.loads(path.read_text())["task_set_hash"] == "0" * 64  # nothing changed


async def test_shards_of_other_task_sets_do_not_merge(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    await execute_run(config(shard=(0, 2), limit=2), first, None, 4)
    await execute_run(config(shard=(1, 2), limit=2), second, None, 4)
    stored = json.loads((second / "run.json").read_text())
    (second / "run.json").write_text(json.dumps({**stored, "task_set_hash": "f" * 64}))
    with pytest.raises(MergeError, match=r"other tasks.*ffffffffffff"):
        merge_runs([first, second], tmp_path / "merged")


async def test_run_json_holds_the_manifest_of_the_first_session(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("TAUE_IMAGE_DIGEST", "sha256:" + "1" * 64)
    await execute_run(config(user_base_url="https://key:secret@llm.example/v1?key=abc"), tmp_path, None, 4)
    manifest = json.loads((tmp_path / "run.json").read_text())["manifest"]
    assert manifest["taue_version"] != "unknown" and manifest["image_digest"] == "sha256:" + "1" * 64
    assert manifest["user"]["base_url"] == "https://llm.example/v1"  # no credentials, no query
    assert manifest["python"] and manifest["platform"]
    assert manifest["git_commit"] is None or len(manifest["git_commit"]) == 40
    monkeypatch.setenv("TAUE_IMAGE_DIGEST", "sha256:" + "2" * 64)
    again = await execute_run(
        config(user_base_url="https://key:secret@llm.example/v1?key=abc"), tmp_path, None, 4
    )
    assert again.skipped == 1
    assert json.loads((tmp_path / "run.json").read_text())["manifest"] == manifest  # resumes, keeps the first


async def test_the_run_id_is_made_once_kept_on_resume_and_never_compared(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    await execute_run(config(shard=(0, 2), limit=2), first, None, 4)
    path = first / "run.json"
    run_id = json.loads(path.read_text())["run_id"]
    assert re.fullmatch(r"[A-Za-z0-9_.:-]{1,128}", run_id)
    assert (await execute_run(config(shard=(0, 2), limit=2), first, None, 4)).skipped == 1
    assert json.loads(path.read_text())["run_id"] == run_id
    before_ids = {k: v for k, v in json.loads(path.read_text()).items() if k != "run_id"}
    path.write_text(json.dumps(before_ids))  # a run made before run ids resumes, and gets one
    await execute_run(config(shard=(0, 2), limit=2), first, None, 4)
    assert json.loads(path.read_text())["run_id"] not in (None, run_id)
    await execute_run(config(shard=(1, 2), limit=2), second, None, 4)
    ids = {json.loads((shard / "run.json").read_text())["run_id"] for shard in (first, second)}
    # Shards' own run ids: they still merge. (The first shard's records were made under the manifest of
    # the run id it had before its run.json lost it; the resumed run sealed a new one, so they no longer
    # verify as that run's: merged as unverified.)
    report = merge_runs([first, second], tmp_path / "merged", allow_unverified=True)
    assert len(ids) == 2 and report.missing == 0
    assert report.unverified and all(
        "made by another run" in line or "made under another run's manifest" in line
        for line in report.unverified
    )
    assert json.loads((tmp_path / "merged" / "run.json").read_text())["run_id"] not in ids
