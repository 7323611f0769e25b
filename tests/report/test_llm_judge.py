"""The optional LLM judge through `taue summary`, against the scripted OpenAI-compatible server on
loopback: one small real run of the silent transferer (two failed airline episodes that make every
gold call, then hand the user to a human), judged in a fresh copy per test."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from taue.cli import app
from taue.contracts.episode import Event
from taue.envs.runtime.discovery import get_domain
from taue.envs.runtime.server import bind_socket
from taue.report import llm_judge
from taue.report.llm_judge import JUDGE_FILE, SYSTEM_PROMPT, read_answer, render_timeline
from taue.runner.results import EpisodeRecord, ResultsFile
from tests.openai_double import OpenAIDouble

pytestmark = pytest.mark.xdist_group("llm-judge")
MODEL = "judge-model"
YES = {"answer": True, "evidence": "Turn 0 shows it."}
NO = {"answer": False, "evidence": "Nothing shows it."}


@pytest.fixture(scope="module")
def made_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("llm-judge") / "run"
    args = ["run", "--domains", "airline", "--agent", "silent-transferer", "--trials", "1", "--limit", "2"]
    result = CliRunner().invoke(app, [*args, "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture
def run_dir(made_run: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "run"
    shutil.copytree(made_run, copy)
    return copy


async def taue(*args: str, key: str = "judge-key") -> tuple[int, str, str]:
    """The real CLI, in a thread: it runs its own event loop while the double serves from this one."""
    env = {"COLUMNS": "200", "TAUE_JUDGE_API_KEY": key}
    result = await asyncio.to_thread(CliRunner().invoke, app, list(args), env=env)
    return result.exit_code, result.stdout, result.output


def judged(run_dir: Path, base_url: str) -> list[str]:
    return ["summary", str(run_dir), "--judge-model", MODEL, "--judge-base-url", base_url]


def emotional(body: dict[str, Any]) -> bool:
    return "None: a neutral customer." not in body["messages"][1]["content"]


def by_emotion(body: dict[str, Any]) -> dict[str, Any]:
    """Both labels for the emotional episode, neither for its neutral twin."""
    verdict = YES if emotional(body) else NO
    return {"content": json.dumps({"intent_misread": verdict, "emotion_ignored": verdict})}


def files(run_dir: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in run_dir.iterdir()}


def cache_lines(run_dir: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (run_dir / JUDGE_FILE).read_text().splitlines()]


async def test_the_judge_labels_failures_and_reuses_its_answers(run_dir: Path) -> None:
    records = ResultsFile(run_dir).load()
    assert [r.reward for r in records] == [0, 0]
    async with OpenAIDouble([by_emotion]) as double:
        code, stdout, output = await taue(*judged(run_dir, double.base_url), "--json")
        assert code == 0, output
        assert len(double.requests) == 2
        for request, headers in zip(double.requests, double.headers, strict=True):
            assert request["model"] == MODEL and request["temperature"] == 0 and request["seed"] == 0
            assert request["messages"][0] == {"role": "system", "content": SYSTEM_PROMPT}
            assert request["response_format"] == {"type": "json_object"}
            assert headers["authorization"] == "Bearer judge-key"
        by_kind = {record.emotion is not None: record for record in records}
        for request in double.requests:
            assert_prompt_shows(by_kind[emotional(request)], request["messages"][1]["content"])
        categories = json.loads(stdout)["failure_categories"]
        assert categories["counts"] == {"unwanted_transfer": 2}
        assert categories["labels"]["intent_misread"] == 1 and categories["labels"]["emotion_ignored"] == 1
        assert categories["llm_judge"] == {
            "model": MODEL,
            "judged": 2,
            "errors": 0,
            "counts": {"intent_misread": 1, "emotion_ignored": 1},
            "shares": {"intent_misread": 0.5, "emotion_ignored": 0.5},
        }
        assert {(line["task_id"], line["model"]) for line in cache_lines(run_dir)} == {
            ("airline-001", MODEL),
            ("airline-001-neutral", MODEL),
        }

        code, again, _ = await taue(*judged(run_dir, double.base_url), "--json")
        assert code == 0 and json.loads(again)["failure_categories"] == categories
        code, _, table = await taue(*judged(run_dir, double.base_url))
        assert code == 0 and len(double.requests) == 2
    for label in ("intent_misread", "emotion_ignored"):
        assert re.search(rf"judge: {label} +│ +1 │ +50\.0% │", table), table
    assert f"judge: {MODEL}, 2 judged, 0 judge errors" in table
    assert "0 asked, 2 from" in table and len(cache_lines(run_dir)) == 2


def assert_prompt_shows(record: EpisodeRecord, prompt: str) -> None:
    """The prompt holds the task's goal, the emotion, the attribution and the episode in order (its
    tool calls with their arguments)."""
    assert get_domain("airline").task_index[record.task_id].instruction in prompt
    assert all(f"{key} {value}" in prompt for key, value in (record.emotion or {}).items())
    positions = [prompt.index("# The conversation, in order")]
    for event in record.timeline():
        if event.kind == "tool_call":
            text = f"{event.name}({json.dumps(event.arguments)})"[:150]  # long arguments are clipped
        else:
            text = event.content[:200]
        assert text in prompt
        positions.append(prompt.index(text, positions[-1]))
    assert "transfer_to_human_agents(" in prompt and "Category: unwanted_transfer." in prompt
    assert positions == sorted(positions)


async def test_an_unparseable_answer_is_a_judge_error(run_dir: Path) -> None:
    def reply(body: dict[str, Any]) -> dict[str, Any]:
        if emotional(body):
            return {"content": "Yes, the agent misread the request."}
        fenced = json.dumps({"intent_misread": YES, "emotion_ignored": NO})
        return {"content": f"```json\n{fenced}\n```"}

    async with OpenAIDouble([reply]) as double:
        code, stdout, output = await taue(*judged(run_dir, double.base_url), "--json")
        assert code == 0, output
        block = json.loads(stdout)["failure_categories"]["llm_judge"]
        assert block["judged"] == 1 and block["errors"] == 1
        assert block["counts"] == {"intent_misread": 1, "emotion_ignored": 0}
        assert block["shares"] == {"intent_misread": 1.0, "emotion_ignored": 0.0}
        (error,) = [line for line in cache_lines(run_dir) if "error" in line]
        assert error["task_id"] == "airline-001" and error["error"].startswith("unparseable answer")
        assert error["reply"] == "Yes, the agent misread the request."
        assert (await taue(*judged(run_dir, double.base_url), "--json"))[0] == 0
        assert len(double.requests) == 2


def test_answers_are_parsed_strictly() -> None:
    def error(content: str | None) -> str | None:
        return read_answer(content, ("t", 0), MODEL, "sha").error

    good = {"intent_misread": YES, "emotion_ignored": NO}
    assert error(json.dumps(good)) is None
    assert error("<think>hmm</think>\n" + json.dumps(good)) is None
    assert error(json.dumps({**good, "intent_misread": {"answer": "yes", "evidence": "x"}})) is not None
    assert error(json.dumps({**good, "extra": 1})) is not None
    assert error(json.dumps({"intent_misread": YES})) is not None
    assert error(json.dumps({**good, "emotion_ignored": {"answer": False, "evidence": ""}})) is not None
    assert error(None) == "empty reply"


async def test_a_failing_endpoint_exits_1_keeping_only_the_answers_received(run_dir: Path) -> None:
    before = files(run_dir)

    def neutral_fails(body: dict[str, Any]) -> dict[str, Any]:
        return by_emotion(body) if emotional(body) else {"status": 500}

    async with OpenAIDouble([neutral_fails]) as double:
        code, stdout, output = await taue(*judged(run_dir, double.base_url), "--json")
    assert code == 1 and stdout == "" and "Traceback" not in output
    assert f"error: the judge endpoint {double.base_url} failed: HTTP 500 (scripted failure)" in output
    assert [line["task_id"] for line in cache_lines(run_dir)] == ["airline-001"]
    assert {k: v for k, v in files(run_dir).items() if k != JUDGE_FILE} == before

    async with OpenAIDouble([by_emotion]) as double:
        code, stdout, _ = await taue(*judged(run_dir, double.base_url), "--json")
        assert code == 0 and len(double.requests) == 1 and emotional(double.requests[0]) is False
    assert json.loads(stdout)["failure_categories"]["llm_judge"]["judged"] == 2

    sock = bind_socket()  # a port that was free a moment ago and now has no listener
    nobody = f"http://127.0.0.1:{sock.getsockname()[1]}/v1"
    sock.close()
    code, _, output = await taue(
        "summary", str(run_dir), "--judge-model", "other", "--judge-base-url", nobody
    )
    assert code == 1 and f"error: the judge endpoint {nobody} failed: cannot connect" in output
    assert "Traceback" not in output and len(cache_lines(run_dir)) == 2


async def test_judge_flags_go_together(run_dir: Path) -> None:
    before = files(run_dir)
    for flags in (["--judge-model", MODEL], ["--judge-base-url", "http://127.0.0.1:9/v1"]):
        code, _, output = await taue("summary", str(run_dir), *flags)
        assert code == 2 and "error: --judge-model and --judge-base-url go together" in output
        assert len(output.strip().splitlines()) == 1
    code, _, output = await taue("summary", str(run_dir), "--judge-model", MODEL, "--judge-base-url", "x:1")
    assert code == 2 and "--judge-base-url must start with http:// or https://" in output
    assert files(run_dir) == before


async def test_without_the_flags_no_judge_is_asked(run_dir: Path) -> None:
    async with OpenAIDouble([by_emotion]) as double:
        code, stdout, output = await taue("summary", str(run_dir), "--json")
        assert code == 0, output
        code, _, table = await taue("summary", str(run_dir))
        assert code == 0 and double.requests == []
    categories = json.loads(stdout)["failure_categories"]
    assert "llm_judge" not in categories and "intent_misread" not in categories["labels"]
    assert categories["counts"] == {"unwanted_transfer": 2}
    assert "judge" not in table and not (run_dir / JUDGE_FILE).exists()


def test_a_long_episode_keeps_its_head_and_tail() -> None:
    kinds = ("agent", "user")
    events = [Event(kind=kinds[i % 2], turn=i // 2, content=f"m{i} " + "x" * 500) for i in range(200)]
    text = render_timeline(events)
    assert len(text) <= llm_judge.TIMELINE_CHARS + 100
    assert text.startswith("[turn 0] AGENT: m0 ") and "AGENT: m198 " in text and "CUSTOMER: m199 " in text
    left_out = int(text.split("[... ")[1].split(" events")[0])
    assert 100 < left_out < 200 and text.count("\n") == 200 - left_out
