"""`taue export`: real runs written as Inspect AI eval logs (read back with inspect-ai's own reader)
and as τ²-bench results files (checked field by field against τ²-bench's data model).

Two small runs, made once: a pester run on airline and retail (a success and an UNSATISFIED failure
per domain, two trials each) and a model-agent episode against the scripted OpenAI double that
calls a tool with an unknown user id (a tool error) before a call that works."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from taue.cli import app
from taue.contracts.run import EpisodeRecord, RunConfig
from taue.envs.runtime.discovery import get_domain
from taue.report.failures import attribute_records
from taue.runner.results import ResultsFile
from taue.runner.runner import execute_run
from tests.openai_double import OpenAIDouble
from tests.task_picks import pester_task_id, plain_task_id

pytestmark = pytest.mark.xdist_group("exports")

TAU2_TERMINATIONS = {
    "user_stop",
    "agent_stop",
    "max_steps",
    "timeout",
    "too_many_errors",
    "agent_error",
    "user_error",
    "infrastructure_error",
    "context_window_exceeded",
    "unexpected_error",
}
"""τ²-bench's TerminationReason values."""
BAD_USER = {"user_id": "nobody_0000"}


def taue(*args: str):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})


def export(run_dir: Path, format: str, out: Path) -> list[Path]:
    result = taue("export", str(run_dir), "--format", format, "--out", str(out))
    assert result.exit_code == 0, result.output
    lines = result.stdout.strip().splitlines()
    paths = [Path(line.rsplit(" -> ", 1)[1]) for line in lines]
    assert all(path.parent == out and path.exists() for path in paths), lines
    return paths


@pytest.fixture(scope="module")
def pester_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("exports") / "pester"
    leaves, stays = pester_task_id("airline", leaves=True), pester_task_id("retail", leaves=False)
    picks = ["--task-id", leaves, "--task-id", stays]
    args = ["--domains", "airline,retail", "--agent", "pester", "--trials", "2", *picks]
    result = taue("run", *args, "--out", str(out), "--quiet")
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
async def tool_error_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("exports") / "model"
    replies = [
        {"tool_calls": [{"name": "get_user_details", "arguments": BAD_USER}]},
        {"tool_calls": [{"name": "list_all_airports", "arguments": {}}]},
        {"content": "Sorry, I could not find you."},
    ]
    async with OpenAIDouble(replies) as double:
        config = RunConfig(
            run="model",
            domains=["airline"],
            agent="model",
            model="double-model",
            base_url=double.base_url,
            trials=1,
            task_ids=[plain_task_id("airline", neutral=True)],
            max_turns=3,
        )
        report = await execute_run(config, out, {}, 1)
    [record] = report.records
    assert [(call.name, call.ok) for call in record.tool_log] == [
        ("get_user_details", False),
        ("list_all_airports", True),
    ]
    return out


@pytest.fixture(scope="module")
def inspect_api():
    return pytest.importorskip("inspect_ai.log", reason="inspect-ai (the `inspect` extra) is not installed")


def records_of(run_dir: Path, domain: str | None = None) -> list[EpisodeRecord]:
    return [r for r in ResultsFile(run_dir).load() if domain is None or r.domain == domain]


def test_inspect_logs_are_listed_and_read_back_one_per_domain(
    pester_run: Path, tmp_path: Path, inspect_api
) -> None:
    export(pester_run, "inspect", tmp_path)
    listed = inspect_api.list_eval_logs(str(tmp_path))
    logs = {log.eval.task: log for log in map(inspect_api.read_eval_log, (info.name for info in listed))}
    assert set(logs) == {"tau_emotion_bench/airline", "tau_emotion_bench/retail"}
    failures = {(f.task_id, f.trial): f for f in attribute_records(records_of(pester_run))}
    for task, log in logs.items():
        records = records_of(pester_run, task.split("/")[1])
        assert log.status == "success" and log.eval.model == "taue/pester"
        assert log.eval.config.epochs == 2 and len(log.samples) == len(records) == 2
        scores = {
            (s.id, s.epoch): (s.scores["reward"].value, s.scores["reward"].explanation) for s in log.samples
        }
        assert scores == {(r.task_id, r.trial + 1): (r.reward, r.termination) for r in records}
        for sample in log.samples:
            failure = failures.get((sample.id, sample.epoch - 1))
            assert sample.metadata["failure_category"] == (failure.category if failure else None)
            assert sample.metadata["condition"] == next(
                r.condition for r in records if r.task_id == sample.id
            )
        metrics = log.results.scores[0].metrics
        assert metrics["avg_reward"].value == sum(r.reward for r in records) / len(records)
        assert log.results.completed_samples == len(records)
    assert {s.scores["reward"].value for s in logs["tau_emotion_bench/airline"].samples} == {-1}
    airline = logs["tau_emotion_bench/airline"].samples[0]
    assert airline.metadata["failure_category"] == "unsatisfied"


def test_an_inspect_sample_holds_the_episode_with_its_tool_calls_in_order(
    tool_error_run: Path, tmp_path: Path, inspect_api
) -> None:
    [path] = export(tool_error_run, "inspect", tmp_path)
    [sample] = inspect_api.read_eval_log(str(path)).samples
    [record] = records_of(tool_error_run)
    messages = sample.messages
    assert messages[0].role == "system" and messages[0].text == get_domain("airline").policy
    assert sample.input == record.transcript[0].content == messages[1].text
    assert [m.text for m in messages if m.role == "user"] == [
        m.content for m in record.transcript if m.role == "user"
    ]
    assert [m.text for m in messages if m.role == "assistant" and not m.tool_calls] == [
        m.content for m in record.transcript if m.role == "agent"
    ]
    requests = [i for i, m in enumerate(messages) if m.role == "assistant" and m.tool_calls]
    assert len(requests) == len(record.tool_log) == 2
    bad, good = ((messages[i].tool_calls[0], messages[i + 1]) for i in requests)
    assert (bad[0].function, bad[0].arguments) == ("get_user_details", BAD_USER)
    assert bad[1].role == "tool" and bad[1].tool_call_id == bad[0].id and bad[1].error is not None
    assert bad[1].text == record.tool_log[0].output and bad[1].error.message == bad[1].text
    assert good[0].function == "list_all_airports" and good[1].tool_call_id == good[0].id != bad[0].id
    assert good[1].error is None
    assert (
        requests[0]
        < requests[1]
        < next(i for i, m in enumerate(messages) if m.role == "assistant" and not m.tool_calls)
    )
    assert sample.messages[requests[0]].model == "double-model"
    assert sample.model_usage["double-model"].input_tokens == record.usage["agent"]["prompt_tokens"]


def test_the_same_run_exports_to_the_same_bytes(pester_run: Path, tmp_path: Path, inspect_api) -> None:
    for format in ("inspect", "tau2"):
        first = export(pester_run, format, tmp_path / f"{format}-1")
        second = export(pester_run, format, tmp_path / f"{format}-2")
        assert [p.name for p in first] == [p.name for p in second]
        assert all(a.read_bytes() == b.read_bytes() for a, b in zip(first, second, strict=True))


def tau2_results(run_dir: Path, out: Path) -> dict[str, dict[str, Any]]:
    return {path.stem: json.loads(path.read_text()) for path in export(run_dir, "tau2", out)}


def check_messages(messages: list[dict[str, Any]]) -> None:
    """τ²-bench's message rules: roles, `turn_idx` in order, each tool call followed by its tool
    message (same id) and every tool message answering one."""
    assert messages and {m["role"] for m in messages} <= {"user", "assistant", "tool"}
    assert [m["turn_idx"] for m in messages] == list(range(len(messages)))
    pending: list[str] = []
    for message in messages:
        if message["role"] == "tool":
            assert pending and message["id"] == pending.pop(0), message
            assert message["requestor"] == "assistant" and isinstance(message["error"], bool)
            assert isinstance(message["content"], str)
            continue
        assert not pending, "a tool call without its tool message"
        for call in message.get("tool_calls") or []:
            assert set(call) >= {"id", "name", "arguments", "requestor"} and call["requestor"] == "assistant"
            assert isinstance(call["arguments"], dict)
            pending.append(call["id"])
        assert message.get("tool_calls") or isinstance(message["content"], str)
    assert not pending


def test_tau2_results_have_tau2_benchs_shape(pester_run: Path, tmp_path: Path) -> None:
    results = tau2_results(pester_run, tmp_path)
    assert set(results) == {"airline", "retail"}
    for domain, result in results.items():
        records = {r.key: r for r in records_of(pester_run, domain)}
        assert {"timestamp", "info", "tasks", "simulations"} <= set(result)
        info = result["info"]
        assert {"git_commit", "num_trials", "max_steps", "max_errors"} <= set(info)
        assert info["num_trials"] == 2 and isinstance(info["max_steps"], int) and info["seed"] == 0
        assert info["agent_info"]["implementation"] == "pester"
        assert info["user_info"]["implementation"] == "scripted"
        assert info["environment_info"] == {
            "domain_name": domain,
            "policy": get_domain(domain).policy,
            "tool_defs": None,
        }
        tasks = {task["id"]: task for task in result["tasks"]}
        assert set(tasks) == {task_id for task_id, _ in records}
        for task_id, task in tasks.items():
            gold = get_domain(domain).task_index[task_id]
            instructions = task["user_scenario"]["instructions"]
            assert instructions["domain"] == domain and instructions["task_instructions"].startswith(
                gold.instruction
            )
            actions = task["evaluation_criteria"]["actions"]
            assert [(a["name"], a["arguments"]) for a in actions] == [
                (a.name, a.arguments) for a in gold.evaluation.actions
            ]
            assert all(a["requestor"] == "assistant" for a in actions)
            assert len({a["action_id"] for a in actions}) == len(actions)
        assert len(result["simulations"]) == len(records) == 2
        for run in result["simulations"]:
            record = records[(run["task_id"], run["trial"])]
            assert {"id", "start_time", "end_time", "duration", "termination_reason", "reward_info"} <= set(
                run
            )
            assert run["start_time"] <= run["end_time"] and isinstance(run["duration"], float)
            assert run["termination_reason"] in TAU2_TERMINATIONS
            reward = run["reward_info"]
            assert reward["reward"] == (1.0 if record.reward == 1 else 0.0)
            assert reward["info"]["taue_reward"] == record.reward
            assert run["info"]["termination"] == record.termination
            check_messages(run["messages"])
            assert [m["content"] for m in run["messages"] if m["role"] == "user"] == [
                m.content for m in record.transcript if m.role == "user"
            ]
    unsatisfied = results["airline"]["simulations"][0]
    assert (unsatisfied["termination_reason"], unsatisfied["reward_info"]["reward"]) == ("user_stop", 0.0)
    assert unsatisfied["info"]["failure_category"] == "unsatisfied"
    solved = results["retail"]["simulations"][0]
    assert solved["reward_info"]["db_check"] == {"db_match": True, "db_reward": 1.0}
    assert all(check["action_match"] for check in solved["reward_info"]["action_checks"])


def test_a_tau2_tool_error_is_a_tool_message_marked_as_an_error(tool_error_run: Path, tmp_path: Path) -> None:
    [result] = tau2_results(tool_error_run, tmp_path).values()
    [run] = result["simulations"]
    check_messages(run["messages"])
    tools = [m for m in run["messages"] if m["role"] == "tool"]
    assert [m["error"] for m in tools] == [True, False]
    request = next(m for m in run["messages"] if m.get("tool_calls"))
    assert request["tool_calls"][0]["arguments"] == BAD_USER and request["content"] is None
    assert result["info"]["agent_info"]["llm"] == "double-model"


def test_bad_input_is_a_one_line_error_and_writes_nothing(pester_run: Path, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    no_records = tmp_path / "no-records"
    no_records.mkdir()
    (no_records / "run.json").write_text((pester_run / "run.json").read_text())
    (no_records / "results.jsonl").write_text("")
    out = tmp_path / "out"
    cases = [
        (tmp_path / "missing", "tau2", "is not a directory"),
        (empty, "tau2", "results.jsonl does not exist"),
        (no_records, "inspect", "holds no episodes"),
        (pester_run, "csv", "--format must be one of inspect, tau2"),
    ]
    for run_dir, format, message in cases:
        result = taue("export", str(run_dir), "--format", format, "--out", str(out))
        assert result.exit_code == 2, result.output
        assert message in result.output and len(result.output.strip().splitlines()) == 1, result.output
        assert not out.exists()


def test_without_inspect_ai_the_inspect_format_says_how_to_install_it(
    pester_run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "inspect_ai", None)  # what `import inspect_ai` meets when absent
    monkeypatch.setitem(sys.modules, "inspect_ai.log", None)
    out = tmp_path / "out"
    result = taue("export", str(pester_run), "--format", "inspect", "--out", str(out))
    assert result.exit_code == 2, result.output
    assert 'pip install -e ".[inspect]"' in result.output and len(result.output.strip().splitlines()) == 1
    assert not out.exists()


def test_the_formats_written_out_for_the_cli_match_the_exporters() -> None:
    from taue.cli.commands.export import FORMATS
    from taue.report.exports import FORMATS as EXPORTERS

    assert FORMATS == EXPORTERS
    assert taue("export", "--help").exit_code == 0


def hostile_copy(pester_run: Path, folder: Path, domain: str, in_records: bool) -> Path:
    """The pester run with its airline domain renamed `domain` in run.json (and in its records)."""
    folder.mkdir(parents=True)
    config = json.loads((pester_run / "run.json").read_text())
    config["domains"] = [domain if name == "airline" else name for name in config["domains"]]
    (folder / "run.json").write_text(json.dumps(config))
    records = [json.loads(line) for line in (pester_run / "results.jsonl").read_text().splitlines()]
    for record in records:
        if in_records and record["domain"] == "airline":
            record["domain"] = domain
    (folder / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    return folder


@pytest.mark.parametrize("in_records", [True, False])
@pytest.mark.parametrize("name", ["../../x", "ABSOLUTE", "..", "a/b", "x"])
def test_a_hostile_domain_name_is_refused_and_nothing_is_written(
    pester_run: Path, tmp_path: Path, name: str, in_records: bool
) -> None:
    domain = str(tmp_path / "x") if name == "ABSOLUTE" else name
    run_dir = hostile_copy(pester_run, tmp_path / "deep" / "er" / "run", domain, in_records)
    out = tmp_path / "deep" / "er" / "out"
    for format in ("tau2", "inspect"):
        result = taue("export", str(run_dir), "--format", format, "--out", str(out))
        assert result.exit_code == 2, result.output
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in result.output
        assert ("not a plain name" if name != "x" else "neither a registered domain") in lines[0], lines
        assert not out.exists() and not list(tmp_path.rglob("*x.json")) and not list(tmp_path.rglob("*.eval"))
    for command in (["summary", str(run_dir)], ["report", str(run_dir), "--out", str(tmp_path / "r.html")]):
        if name == "x":
            continue  # a plain name of no installed domain: summary and report show what the run holds
        result = taue(*command)
        assert result.exit_code == 2 and "not a plain name" in result.output, result.output
        assert "Traceback" not in result.output and not (tmp_path / "r.html").exists()
