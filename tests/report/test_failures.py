"""Failure attribution on real records: one oracle episode and one pester run, changed where a test
needs another kind of failure (the judge suite checks the attribution of its sloppy agents)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from taue.cli import app
from taue.contracts.episode import LoggedCall
from taue.contracts.run import EpisodeRecord
from taue.envs.runtime.discovery import get_domain
from taue.report.failures import attribute, attribute_records, domain_policy, failure_categories
from taue.runner.results import ResultsFile

pytestmark = pytest.mark.xdist_group("failures")
TASK = "airline-004"


def taue(*args: str):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("failures")
    dirs = {}
    for agent, extra in (
        ("oracle", ["--task-id", TASK]),
        ("pester", ["--tasks", "emotional", "--limit", "12"]),
    ):
        dirs[agent] = root / agent
        args = ["run", "--domains", "airline", "--agent", agent, "--trials", "1", *extra, "--quiet"]
        assert taue(*args, "--out", str(dirs[agent])).exit_code == 0
    return dirs


@pytest.fixture(scope="module")
def success(runs: dict[str, Path]) -> EpisodeRecord:
    (record,) = ResultsFile(runs["oracle"]).load()
    assert record.reward == 1
    return record


def failed(record: EpisodeRecord, **changes) -> EpisodeRecord:
    breakdown = record.breakdown.model_copy(update=changes.pop("breakdown", {}))
    return record.model_copy(update={"reward": 0, "breakdown": breakdown, **changes})


def first_write(record: EpisodeRecord) -> LoggedCall:
    return next(call for call in record.tool_log if call.writes)


def diagnostics(record: EpisodeRecord, missing: list[LoggedCall], extra: list[LoggedCall]) -> dict:
    as_dicts = lambda calls: [{"name": c.name, "arguments": c.arguments} for c in calls]  # noqa: E731
    return {
        **record.breakdown.diagnostics,
        "missing_writes": as_dicts(missing),
        "extra_writes": as_dicts(extra),
    }


def test_a_success_is_no_failure(success: EpisodeRecord) -> None:
    assert attribute(success, get_domain("airline").task_index[TASK]) is None


def test_a_write_with_other_arguments_names_them(success: EpisodeRecord) -> None:
    gold = first_write(success)
    key = next(iter(gold.arguments))
    made = gold.model_copy(update={"arguments": {**gold.arguments, key: "something else"}})
    record = failed(
        success, breakdown={"db_match": False, "diagnostics": diagnostics(success, [gold], [made])}
    )
    failure = attribute(record, None)
    assert failure.category == "wrong_arguments"
    assert failure.details["wrong_arguments"] == [{"tool": gold.name, "arguments": [key]}]
    assert "missing_action" not in failure.labels and "extra_write" not in failure.labels


def test_missing_and_extra_writes(success: EpisodeRecord) -> None:
    gold = first_write(success)
    other = LoggedCall(name="send_certificate", arguments={"user_id": "x", "amount": 5}, ok=True, writes=True)
    record = failed(
        success, breakdown={"db_match": False, "diagnostics": diagnostics(success, [gold], [other])}
    )
    failure = attribute(record, None)
    assert failure.category == "missing_action" and "extra_write" in failure.labels
    assert failure.details["missing_actions"] == [gold.name] and failure.details["extra_writes"] == [
        other.name
    ]


def test_the_right_writes_in_the_wrong_order(success: EpisodeRecord) -> None:
    record = failed(success, breakdown={"db_match": False})
    assert attribute(record, None).category == "wrong_order"


def test_a_right_database_with_an_unsaid_answer(success: EpisodeRecord) -> None:
    record = failed(success, breakdown={"db_match": True, "outputs_found": {"1,250": False}})
    failure = attribute(record, None)
    assert failure.category == "missing_output" and failure.details["missing_outputs"] == ["1,250"]


def test_a_user_that_stops_with_goals_left(success: EpisodeRecord) -> None:
    state = {**success.user_state, "goals_confirmed": []}
    record = failed(success, user_state=state, breakdown={"db_match": True})
    failure = attribute(record, get_domain("airline").task_index[TASK])
    assert failure.category == "premature_stop"
    assert failure.details["goals_left"] == [
        g.id for g in get_domain("airline").task_index[TASK].user_scenario.goals
    ]


@pytest.mark.parametrize(
    ("termination", "category"),
    [("max_turns", "turn_limit"), ("max_tool_calls", "tool_call_limit"), ("agent_error", "agent_error"),
     ("timeout", "timeout"), ("agent_transfer", "unwanted_transfer")],
)  # fmt: skip
def test_endings_come_before_the_database(success: EpisodeRecord, termination: str, category: str) -> None:
    gold = first_write(success)
    changes = {"db_match": False, "diagnostics": diagnostics(success, [gold], [])}
    failure = attribute(failed(success, termination=termination, breakdown=changes), None)
    assert failure.category == category and "missing_action" in failure.labels


def test_a_write_the_policy_forbids(success: EpisodeRecord) -> None:
    reservation = next(
        c.arguments["reservation_id"] for c in success.tool_log if "reservation_id" in c.arguments
    )
    forbidden = LoggedCall(
        name="update_reservation_passengers",
        arguments={"reservation_id": reservation, "passengers": []},
        ok=True,
        writes=True,
        turn=0,
    )
    record = failed(success, tool_log=[*success.tool_log, forbidden], breakdown={"db_match": False})
    failure = attribute(record, None, domain_policy("airline"))
    assert failure.category == "policy_violation" and failure.details["policy_rules"] == ["passenger-count"]
    assert attribute(
        failed(success, breakdown={"db_match": False}), None, domain_policy("airline")
    ).category != ("policy_violation")


def test_a_pester_run_fails_by_exhausting_users_with_needless_questions(runs: dict[str, Path]) -> None:
    records = ResultsFile(runs["pester"]).load()
    failures = attribute_records(records)
    assert failures and len(failures) == sum(r.reward < 1 for r in records)
    assert {f.category for f in failures} == {"unsatisfied"}
    for failure in failures:
        assert "needless_question" in failure.details["unsatisfied_reason"]
    summary = failure_categories(failures)
    assert summary["shares"] == {"unsatisfied": 1.0} and summary["failed"] == len(failures)
    assert summary["unsatisfied_reasons"]["needless_question_answered"] > 0


def test_summary_shows_the_failure_categories(runs: dict[str, Path]) -> None:
    import json

    result = taue("summary", str(runs["pester"]), "--json")
    assert result.exit_code == 0, result.output
    categories = json.loads(result.output)["failure_categories"]
    assert categories == json.loads(
        json.dumps(failure_categories(attribute_records(ResultsFile(runs["pester"]).load())))
    )
    assert "failure categories" in taue("summary", str(runs["pester"])).output
    assert (
        json.loads(taue("summary", str(runs["oracle"]), "--json").output)["failure_categories"]["failed"] == 0
    )


def test_infrastructure_errors_not_rerun_count_as_failures(runs: dict[str, Path], tmp_path: Path) -> None:
    import json
    import shutil

    copy = tmp_path / "run"
    shutil.copytree(runs["oracle"], copy)
    error = {
        "domain": "airline",
        "task_id": "airline-005",
        "trial": 0,
        "termination": "infra_error",
        "errors": ["x"],
    }
    (copy / "errors.jsonl").write_text(json.dumps(error) + "\n")
    categories = json.loads(taue("summary", str(copy), "--json").output)["failure_categories"]
    assert categories["counts"] == {"infra_error": 1} and categories["failed"] == 1
