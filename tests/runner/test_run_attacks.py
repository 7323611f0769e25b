"""A submitter with the operator's key hands in a results folder: every trick that once ranked a
failing agent as `signed` now fails closed in `verify`, `merge` and `leaderboard`, naming the field.

Three real runs signed with one key (as compose and Kubernetes sign every run with one Secret): the
`liar` agent twice and the `oracle` once, three airline tasks, one trial each; and a run in the
embedded default, signed with its own key in $TAUE_HOME/keys (which an agent running as the same
user could read)."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from taue.cli import app
from taue.contracts.episode import Message
from taue.contracts.integrity import Integrity, SigningKey, transcript_digest

pytestmark = pytest.mark.xdist_group("run-attacks")

LOCAL = ("--allow-partial",)
"""The runs play three tasks (--limit 3): every board here is told they may."""


@dataclass
class Runs:
    key: SigningKey
    key_file: Path
    liar: Path
    liar_again: Path
    oracle: Path
    own: Path
    """The liar in the embedded default: signed with its own key."""
    own_key: Path
    home: Path


def taue(*args: str, env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "250", **(env or {})})


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Runs:
    root = tmp_path_factory.mktemp("attacks")
    key = SigningKey.random()
    key_file = root / "operator.key"
    key_file.write_text(key.text)
    home = root / "home"
    tiny = ["--domains", "airline", "--trials", "1", "--limit", "3", "--quiet"]

    def run(out: Path, agent: str, signing_key: str) -> Path:
        env = {"TAUE_HOME": str(home), "TAUE_SIGNING_KEY": signing_key}
        result = taue("run", *tiny, "--agent", agent, "--out", str(out), env=env)
        assert result.exit_code == 0, result.output
        return out

    own = run(root / "own", "liar", "")
    own_id = json.loads((own / "run.json").read_text())["run_id"]
    return Runs(
        key=key,
        key_file=key_file,
        liar=run(root / "liar", "liar", key.text),
        liar_again=run(root / "liar-again", "liar", key.text),
        oracle=run(root / "oracle", "oracle", key.text),
        own=own,
        own_key=home / "keys" / f"{own_id}.key",
        home=home,
    )


def copy(run: Path, tmp_path: Path, name: str = "copy") -> Path:
    target = tmp_path / name
    shutil.copytree(run, target)
    return target


def records(run: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (run / "results.jsonl").read_text().splitlines()]


def write_records(run: Path, rows: list[dict[str, Any]]) -> None:
    (run / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))


def edit_config(folder: Path, **changes: Any) -> None:
    config = json.loads((folder / "run.json").read_text())
    (folder / "run.json").write_text(json.dumps({**config, **changes}))


def checked(runs: Runs, *args: str) -> tuple[int, str]:
    """A command as the operator runs it: with the operator's key, no run's own key at hand."""
    env = {"TAUE_SIGNING_KEY": "", "TAUE_SIGNING_KEY_FILE": "", "TAUE_HOME": str(runs.home / "elsewhere")}
    result = taue(*args, "--key-file", str(runs.key_file), env=env)
    return result.exit_code, result.output


def board(runs: Runs, tmp_path: Path, *folders: Path, flags: tuple[str, ...] = LOCAL) -> tuple[int, str]:
    return checked(
        runs, "leaderboard", *map(str, folders), "--out", str(tmp_path / "site"), "--quiet", *flags
    )


def test_honest_runs_verify_signed_and_rank(runs: Runs, tmp_path: Path) -> None:
    for run in (runs.liar, runs.oracle):
        code, output = checked(runs, "verify", str(run))
        assert code == 0 and "ok: 3 of 3 planned records verified" in output, output
    code, output = board(runs, tmp_path, runs.oracle, runs.liar)
    assert code == 0, output
    rows = json.loads((tmp_path / "site" / "leaderboard.json").read_text())
    assert [(r["run"], r["verified"], r["tasks"], r["trials"]) for r in rows] == [
        ("oracle", "signed", 3, 1),
        ("liar", "signed", 3, 1),
    ]
    assert {r["key_id"] for r in rows} == {runs.key.id}
    assert "3 × 1" in (tmp_path / "site" / "index.html").read_text()


def test_laundering_another_runs_records_through_merged_run_ids_fails(runs: Runs, tmp_path: Path) -> None:
    laundered = copy(runs.liar, tmp_path)
    shutil.copy(runs.oracle / "results.jsonl", laundered / "results.jsonl")
    oracle_id = json.loads((runs.oracle / "run.json").read_text())["run_id"]
    liar_id = json.loads((runs.liar / "run.json").read_text())["run_id"]
    edit_config(laundered, merged_run_ids=[liar_id, oracle_id])
    code, output = checked(runs, "verify", str(laundered))
    assert code == 1
    assert "run.json lists merged_run_ids, but its manifest is of one run, not a merge" in output
    assert "made under another run's manifest" in output
    code, output = checked(runs, "merge", str(laundered), "--out", str(tmp_path / "merged"))
    assert code == 2 and "made under another run's manifest" in output
    assert not (tmp_path / "merged").exists()
    code, output = board(runs, tmp_path, laundered)
    assert code == 2 and "fail verification" in output and not (tmp_path / "site").exists()


def test_merging_two_attempts_at_one_plan_is_refused(runs: Runs, tmp_path: Path) -> None:
    """Best of two: keep each episode from whichever run did better, drop the rest."""
    first, second = copy(runs.liar, tmp_path, "first"), copy(runs.liar_again, tmp_path, "second")
    write_records(first, records(first)[:1])
    write_records(second, records(second)[1:])
    code, output = checked(runs, "merge", str(first), str(second), "--out", str(tmp_path / "merged"))
    assert code == 2 and "both ran the whole plan: a merge may hold one run of each slice" in output
    assert not (tmp_path / "merged").exists()
    code, output = checked(runs, "merge", str(runs.liar), str(runs.oracle), "--out", str(tmp_path / "mixed"))
    assert code == 2 and "agent" in output and "only shards of one run merge" in output


def test_relabelling_a_run_is_named_by_its_field(runs: Runs, tmp_path: Path) -> None:
    relabelled = copy(runs.oracle, tmp_path)
    edit_config(relabelled, agent="model", model="gpt-99", run="gpt-99")
    code, output = checked(runs, "verify", str(relabelled))
    assert code == 1
    for field in ("agent", "model", "run"):
        assert f"run.json's {field} " in output and "is not the signed manifest's" in output
    code, output = board(runs, tmp_path, relabelled)
    assert code == 2 and 'run.json\'s agent "model" is not the signed manifest\'s "oracle"' in output


def test_a_run_ranked_twice_is_refused(runs: Runs, tmp_path: Path) -> None:
    twin = copy(runs.oracle, tmp_path, "gpt-99")
    code, output = board(runs, tmp_path, runs.oracle, twin)
    assert code == 2 and "appears twice" in output and "a run is ranked once" in output


def test_cherry_picking_the_good_episodes_fails(runs: Runs, tmp_path: Path) -> None:
    picked = copy(runs.liar, tmp_path)
    kept = [r for r in records(picked) if r["reward"] == 1] or records(picked)[:1]
    write_records(picked, kept)
    edit_config(picked, task_ids=[r["task_id"] for r in kept], limit=None)
    code, output = checked(runs, "verify", str(picked))
    assert code == 1 and "run.json's limit null is not the signed manifest's 3" in output
    assert "run.json's task_ids" in output and "is missing" in output
    manifest = json.loads((picked / "manifest.json").read_text())
    manifest["manifests"][0]["planned"] = [[r["task_id"], r["trial"]] for r in kept]
    (picked / "manifest.json").write_text(json.dumps(manifest))
    code, output = checked(runs, "verify", str(picked))
    assert code == 1 and "does not match its signature" in output
    code, output = board(runs, tmp_path, picked)
    assert code == 2 and "fail verification" in output


def test_runs_of_other_plans_users_or_limits_are_not_ranked_together(runs: Runs, tmp_path: Path) -> None:
    code, output = board(runs, tmp_path, runs.oracle, flags=())
    assert code == 2 and "oracle is a partial run (--limit 3); --allow-partial ranks it" in output
    other = copy(runs.liar, tmp_path)
    edit_config(other, max_turns=5)  # fails verification too, but the boards differ first
    code, output = board(runs, tmp_path, runs.oracle, other)
    assert code == 2 and "are not comparable: max_turns 200 vs 5; rank them on separate boards" in output


def test_a_run_signed_with_its_own_key_is_self_signed(runs: Runs, tmp_path: Path) -> None:
    """The agent read the run's own key and re-signed a forged record with it: the signatures hold
    under that key, so the run is only ever `self-signed`, and ranked only when told."""
    forged = copy(runs.own, tmp_path)
    own = SigningKey.from_file(runs.own_key)
    rows = records(forged)
    row = rows[0]
    row["transcript"].insert(-1, {"role": "agent", "content": "I also gave you a free upgrade."})
    integrity = Integrity.model_validate(row["integrity"])
    integrity = integrity.model_copy(
        update={
            "transcript_sha256": transcript_digest([Message.model_validate(m) for m in row["transcript"]])
        }
    )
    observation = integrity.observation().signed_by(own)
    resigned = Integrity.model_validate(integrity.model_dump() | observation.model_dump()).sealed_by(own)
    row["integrity"] = resigned.model_dump(mode="json")
    write_records(forged, rows)
    env = {"TAUE_SIGNING_KEY": "", "TAUE_HOME": str(runs.home)}
    result = taue("verify", str(forged), env=env)  # the author's own key: the forgery holds under it
    assert result.exit_code == 0 and "(the run's own" in result.output
    code, output = checked(runs, "verify", str(forged))  # the operator's key: not the operator's run
    assert code == 1 and "signed with another key" in output
    site = ("--out", str(tmp_path / "site"), "--quiet", *LOCAL)
    result = taue("leaderboard", str(forged), *site, env=env)
    assert result.exit_code == 2 and f"is self-signed: signed with key {own.id}" in result.output
    result = taue("leaderboard", str(forged), *site, "--allow-self-signed", env=env)
    assert result.exit_code == 0, result.output
    rows = json.loads((tmp_path / "site" / "leaderboard.json").read_text())
    assert rows[0]["verified"] == "self-signed"
    result = taue("leaderboard", str(forged), *site, "--trusted-keys", own.id, env=env)
    assert (
        result.exit_code == 0
        and json.loads((tmp_path / "site" / "leaderboard.json").read_text())[0]["verified"] == "signed"
    )


def test_shards_signed_with_the_operators_key_merge_verify_and_rank(runs: Runs, tmp_path: Path) -> None:
    env = {"TAUE_HOME": str(runs.home), "TAUE_SIGNING_KEY": runs.key.text}
    tiny = ["--domains", "airline", "--trials", "1", "--limit", "3", "--agent", "oracle", "--quiet"]
    for index in (0, 1):
        out = tmp_path / f"shard-{index}"
        result = taue("run", *tiny, "--shard", f"{index}/2", "--out", str(out), env=env)
        assert result.exit_code == 0, result.output
    shards = [str(tmp_path / "shard-0"), str(tmp_path / "shard-1")]
    code, output = checked(runs, "merge", *shards, "--out", str(tmp_path / "merged"))
    assert code == 0, output
    code, output = checked(runs, "verify", str(tmp_path / "merged"))
    assert code == 0 and "ok: 3 of 3 planned records verified" in output, output
    seal = json.loads((tmp_path / "merged" / "manifest.json").read_text())
    merged_ids = json.loads((tmp_path / "merged" / "run.json").read_text())["merged_run_ids"]
    assert seal["merged"] and sorted(m["run_id"] for m in seal["manifests"]) == merged_ids
    code, output = board(runs, tmp_path, tmp_path / "merged", runs.liar)
    assert code == 0, output
    code, output = checked(runs, "merge", shards[0], shards[0], str(runs.liar), "--out", str(tmp_path / "x"))
    assert code == 2 and "only shards of one run merge" in output
