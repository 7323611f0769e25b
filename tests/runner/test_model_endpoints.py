"""An endpoint that is down is not an agent that failed: `taue run` checks every model endpoint before
its first episode (one line, exit 2, nothing written), and a model lost during the run makes its
episodes infrastructure errors (errors.jsonl, exit 1, run again on rerun), resumable at a new URL
with `--allow-endpoint-change`. Against the scripted OpenAI-compatible server on loopback."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from taue.cli import app
from taue.envs.runtime.server import bind_socket
from taue.runner import runner as runner_module
from tests.openai_double import OpenAIDouble

pytestmark = pytest.mark.xdist_group("model-endpoints")
PONG = {"content": "pong"}


async def taue(*args: str) -> tuple[int, str]:
    """The real CLI in a thread: it runs its own event loop while the doubles serve from this one."""
    env = {"COLUMNS": "200", "TAUE_AGENT_API_KEY": "agent-key", "TAUE_USER_API_KEY": "user-key"}
    result = await asyncio.to_thread(CliRunner().invoke, app, list(args), env=env)
    return result.exit_code, result.output


def model_run(base_url: str, out: Path, *extra: str) -> list[str]:
    args = ["run", "--domains", "airline", "--agent", "model", "--model", "m", "--base-url", base_url]
    return [*args, "--limit", "1", "--trials", "1", "--out", str(out), "--quiet", *extra]


def closed_port_url() -> str:
    sock = bind_socket()  # free a moment ago, no listener now
    port = sock.getsockname()[1]
    sock.close()
    return f"http://127.0.0.1:{port}/v1"


async def test_an_unreachable_endpoint_is_one_line_exit_2_and_nothing_written(tmp_path: Path) -> None:
    nobody = closed_port_url()
    code, output = await taue(*model_run(nobody, tmp_path / "run"))
    assert code == 2 and output.strip().splitlines() == [
        f"error: cannot reach the agent's model endpoint {nobody}: connection refused (nothing listens there)"
    ]
    assert not (tmp_path / "run").exists()
    user = ["--user", "llm", "--user-model", "u", "--user-base-url", "http://no-such-host.invalid/v1"]
    code, output = await taue(*model_run(nobody, tmp_path / "run"), *user)
    assert code == 2 and "the LLM user's model endpoint http://no-such-host.invalid/v1" in output
    assert "its host name does not resolve" in output and not (tmp_path / "run").exists()


@pytest.mark.parametrize(
    ("status", "said"),
    [(401, "refused the key (HTTP 401): set TAUE_AGENT_API_KEY"), (404, "has no model 'm' (HTTP 404)")],
)
async def test_a_refused_key_or_an_unknown_model_is_exit_2(tmp_path: Path, status: int, said: str) -> None:
    async with OpenAIDouble([{"status": status}]) as double:
        code, output = await taue(*model_run(double.base_url, tmp_path / "run"))
        assert len(double.requests) == 1 and double.headers[0]["authorization"] == "Bearer agent-key"
        assert double.requests[0]["max_tokens"] == 1
    assert code == 2 and f"the agent's model endpoint {double.base_url} {said}" in output
    assert not (tmp_path / "run").exists()


async def test_a_model_lost_mid_run_is_an_infrastructure_error_and_resumes_at_a_new_url(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runner_module, "RETRY_DELAYS", (0.01,))
    out = tmp_path / "run"
    async with OpenAIDouble([PONG, {"status": 503}]) as failing:  # up for the check, then down
        code, output = await taue(*model_run(failing.base_url, out))
    assert code == 1, output
    assert "0 episodes run, 0 already done, 1 failed (infrastructure; rerun to retry), 1 retried" in output
    assert not (out / "results.jsonl").exists() or not (out / "results.jsonl").read_text()
    errors = [json.loads(line) for line in (out / "errors.jsonl").read_text().splitlines()]
    [given_up] = [e for e in errors if e.get("termination") == "infra_error"]
    assert all("InternalServerError: Error code: 503" in cause for cause in given_up["errors"]), given_up

    async with OpenAIDouble([PONG, {"content": "Sorry, I cannot help with that."}]) as working:
        code, output = await taue(*model_run(working.base_url, out))
        assert code == 2 and "--allow-endpoint-change" in output and "base_url" in output
        code, output = await taue(*model_run(working.base_url, out, "--allow-endpoint-change"))
    assert code == 0, output
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert len(records) == 1 and records[0]["termination"] != "agent_error"
    stored: dict[str, Any] = json.loads((out / "run.json").read_text())
    assert stored["base_url"] == working.base_url
    [change] = stored["endpoint_changes"]
    assert (change["setting"], change["before"], change["after"]) == (
        "base_url",
        failing.base_url,
        working.base_url,
    )


async def test_a_bad_answer_of_a_reachable_model_is_still_the_agents_failure(tmp_path: Path) -> None:
    async with OpenAIDouble([PONG, {"content": ""}]) as double:  # up, then answers with nothing
        code, output = await taue(*model_run(double.base_url, tmp_path / "run"))
    assert code == 0, output
    records = [json.loads(line) for line in (tmp_path / "run" / "results.jsonl").read_text().splitlines()]
    assert [r["termination"] for r in records] == ["agent_error"]
    assert all("neither text nor tool calls" in r["error"] for r in records)
