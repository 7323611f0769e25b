"""`taue tracer rollout`: the ordinary runner on the training split, served by the domain servers too."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import httpx2
import pytest

from taue.contracts.run import EpisodeRecord
from taue.envs.runtime.discovery import get_domain
from taue.runner.interaction import interaction_stats
from taue.runner.results import ResultsFile
from tests.tracer.conftest import TASKS_PER_DOMAIN, TRIALS, Rollouts, taue

pytestmark = pytest.mark.xdist_group("training-data")


def test_a_rollout_plays_the_first_training_tasks_of_each_domain(rollouts: Rollouts) -> None:
    config = json.loads((rollouts.oracle / "run.json").read_text())
    assert config["split"] == "train" and config["limit"] == TASKS_PER_DOMAIN and config["trials"] == TRIALS
    records = ResultsFile(rollouts.oracle).load()
    for domain in ("airline", "retail"):
        expected = sorted(t.id for t in get_domain(domain).train_tasks)[:TASKS_PER_DOMAIN]
        assert sorted({r.task_id for r in records if r.domain == domain}) == expected
    assert len(records) == 2 * TASKS_PER_DOMAIN * TRIALS
    assert {r.reward for r in records} == {1}


def test_every_tool_call_records_the_agent_turn_that_made_it(rollouts: Rollouts) -> None:
    for record in ResultsFile(rollouts.oracle).load():
        replies = sum(1 for m in record.transcript if m.role == "agent")
        turns = [call.turn for call in record.tool_log]
        assert turns and None not in turns
        assert turns == sorted(turns) and turns[0] >= 0 and turns[-1] < replies


def test_rerunning_a_rollout_runs_nothing_again(rollouts: Rollouts) -> None:
    before = (rollouts.pester / "results.jsonl").read_bytes()
    result = taue(
        "tracer", "rollout", "--domains", "airline,retail", "--agent", "pester",
        "--limit", str(TASKS_PER_DOMAIN), "--trials", str(TRIALS), "--out", str(rollouts.pester), "--quiet",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert f"0 episodes run, {2 * TASKS_PER_DOMAIN * TRIALS} already done" in result.output
    assert _without_timings(rollouts.pester / "results.jsonl") == _without_timings_of(before)


def test_a_run_directory_made_before_split_and_limit_existed_still_resumes(tmp_path: Path) -> None:
    args = ["run", "--domains", "airline", "--task-id", "airline-001", "--trials", "1"]
    args += ["--out", str(tmp_path)]
    assert taue(*args, "--quiet").exit_code == 0
    config = json.loads((tmp_path / "run.json").read_text())
    older = {key: value for key, value in config.items() if key not in ("split", "limit")}
    (tmp_path / "run.json").write_text(json.dumps(older))
    again = taue(*args, "--quiet")
    assert again.exit_code == 0, again.output
    assert "0 episodes run, 1 already done" in again.output


def test_summary_shows_how_the_agents_talked(rollouts: Rollouts) -> None:
    figures = {}
    for name, run_dir in (("oracle", rollouts.oracle), ("pester", rollouts.pester)):
        result = taue("summary", str(run_dir), "--json")
        assert result.exit_code == 0, result.output
        figures[name] = json.loads(result.output)["interaction"]
        assert figures[name] == json.loads(json.dumps(interaction_stats(ResultsFile(run_dir).load())))
        assert set(figures[name]["by_domain"]) == {"airline", "retail"}
    oracle, pester = figures["oracle"], figures["pester"]
    assert oracle["needless_questions"] == 0 and pester["needless_questions"] > 0
    assert oracle["more_calls_than_questions"] > pester["more_calls_than_questions"]
    assert pester["questions_per_episode"] > oracle["questions_per_episode"]
    table = taue("summary", str(rollouts.pester)).output
    assert "interaction" in table and "calls/question" in table


def test_split_bad_value_is_a_one_line_error() -> None:
    result = taue("run", "--split", "test", "--domains", "airline")
    assert result.exit_code == 2 and "--split must be eval or train" in result.output


async def test_a_domain_server_serves_the_training_split(servers, http: httpx2.AsyncClient) -> None:
    control = servers["airline"].control_url
    train = (await http.get(f"{control}/tasks", params={"split": "train"})).json()["tasks"]
    assert len(train) == len(get_domain("airline").train_tasks)
    assert train[0]["id"].startswith("airline-train-")
    evaluation = (await http.get(f"{control}/tasks")).json()["tasks"]
    assert {t["id"] for t in evaluation} == set(get_domain("airline").task_index)
    assert (await http.get(f"{control}/tasks", params={"split": "bogus"})).status_code == 422
    created = await http.post(f"{control}/episodes", json={"task_id": train[0]["id"], "seed": 1})
    assert created.status_code == 201, created.text
    await http.delete(f"{control}/episodes/{created.json()['episode_id']}")


async def test_a_rollout_against_a_remote_domain_server(servers, tmp_path: Path) -> None:
    url = servers["airline"].control_url
    args = ["tracer", "rollout", "--domains", "airline", "--env", f"airline={url}", "--limit", "2"]
    result = await asyncio.to_thread(taue, *args, "--out", str(tmp_path), "--quiet")
    assert result.exit_code == 0, result.output
    records = ResultsFile(tmp_path).load()
    assert sorted(r.task_id for r in records) == ["airline-train-0001", "airline-train-0002"]
    assert {r.reward for r in records} == {1}


def _without_timings(path: Path) -> list[dict]:
    return _without_timings_of(path.read_bytes())


def _without_timings_of(data: bytes) -> list[dict]:
    return [EpisodeRecord.model_validate_json(line).without_clock() for line in data.splitlines()]
