"""Agent protocol v1: the schemas, and the runner's HTTP adapter against hand-written agents on loopback."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response

from taue.contracts.run import RunConfig
from taue.envs.runtime.discovery import get_domain
from taue.envs.runtime.server import bind_socket
from taue.runner import runner
from taue.runner.agent_protocol import json_schemas, schema_text
from taue.runner.agent_server import AppServer
from taue.runner.agents import AgentOptions
from taue.runner.agents.base import AgentError, EpisodeContext, McpServerInfo
from taue.runner.agents.http_agent import HttpAgent, reply_deadline
from taue.runner.control import InfraError
from taue.runner.mcp_session import episode_session
from taue.runner.runner import execute_run
from tests.paths import ROOT
from tests.task_picks import plain_task_id

SCHEMAS = ROOT / "docs" / "schemas"
TASK = plain_task_id("airline", neutral=True)


def test_committed_schemas_equal_the_generated_ones() -> None:
    generated = json_schemas()
    committed = {path.stem: path.read_text(encoding="utf-8") for path in SCHEMAS.glob("*.json")}
    assert set(committed) == set(generated), "run: python -m taue.runner.agent_protocol docs/schemas"
    for stem, schema in generated.items():
        assert committed[stem] == schema_text(schema), f"docs/schemas/{stem}.json is stale"
        jsonschema.Draft202012Validator.check_schema(schema)


def schema_validator(stem: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads((SCHEMAS / f"{stem}.json").read_text()))


FAILING_TURN_REPLIES: dict[str, Callable[[], Any]] = {
    "malformed": lambda: {"text": "Hello"},
    "not_json": lambda: PlainTextResponse("Hello"),
    "http_500": lambda: JSONResponse({"error": "boom"}, status_code=500),
}
"""The turn reply of each `protocol_agent` mode that answers a turn wrongly."""


async def call_a_tool(seen: list[tuple[str, Any]]) -> None:
    """One call to the episode's MCP server, with the address and headers the start request gave."""
    server = next(s for kind, s in seen if kind == "start")["mcp_servers"][0]
    async with episode_session(server["url"], server["headers"]) as client:
        await client.call_tool("list_all_airports", {})


def protocol_agent(mode: str, seen: list[tuple[str, Any]]) -> FastAPI:
    """A black-box agent written against the protocol doc; `mode` picks how its turns behave."""
    app = FastAPI()

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.post("/v1/episodes", status_code=201, response_model=None)
    async def start(request: Request) -> dict[str, str] | JSONResponse:
        body = await request.json()
        seen.append(("start", body))
        if mode == "start_503":
            return JSONResponse({"error": "warming up"}, status_code=503)
        return {"episode_id": body["episode_id"]}

    @app.post("/v1/episodes/{episode_id}/turns", response_model=None)
    async def turn(episode_id: str, request: Request) -> Any:
        body = await request.json()
        seen.append(("turn", {"episode_id": episode_id, **body}))
        failing = FAILING_TURN_REPLIES.get(mode)
        if failing is not None:
            return failing()
        if mode == "slow":
            await asyncio.sleep(1.5)
        if body["turn_index"] == 0:
            await call_a_tool(seen)
        return {
            "message": "Could you tell me a bit more?",
            "usage": {"prompt_tokens": 5, "completion_tokens": 2},
        }

    @app.delete("/v1/episodes/{episode_id}", status_code=204)
    async def delete(episode_id: str) -> Response:
        seen.append(("delete", episode_id))
        return Response(status_code=204)

    return app


def config(tmp: Path, agent: str, **extra: Any) -> RunConfig:
    return RunConfig(run=tmp.name, domains=["airline"], agent=agent, trials=1, task_ids=[TASK], **extra)


async def run_against(mode: str, tmp: Path, **extra: Any) -> tuple[Any, list[tuple[str, Any]], str]:
    seen: list[tuple[str, Any]] = []
    async with AppServer(protocol_agent(mode, seen)) as server:
        report = await execute_run(config(tmp, server.url, **extra), tmp, {}, 1)
    return report, seen, server.url


async def test_runner_speaks_protocol_v1_and_scores_the_agents_own_mcp_calls(tmp_path: Path) -> None:
    report, seen, url = await run_against("ok", tmp_path, max_turns=2)
    [record] = report.records
    kinds = [kind for kind, _ in seen]
    assert kinds == ["start", "turn", "turn", "delete"]
    start = seen[0][1]
    schema_validator("start-episode").validate(start)
    assert start["domain"] == "airline" and start["policy"] == get_domain("airline").policy
    [server] = start["mcp_servers"]
    episode_id = start["episode_id"]
    assert server["transport"] == "streamable-http" and server["name"] == "airline"
    assert re.fullmatch(rf"http://127\.0\.0\.1:\d+/episodes/{episode_id}/mcp", server["url"])
    assert re.fullmatch(r"Bearer \S{16,}", server["headers"]["Authorization"])
    turns = [body for kind, body in seen if kind == "turn"]
    for body in turns:
        schema_validator("turn-request").validate({k: v for k, v in body.items() if k != "episode_id"})
    assert [t["turn_index"] for t in turns] == [0, 1] and {t["episode_id"] for t in turns} == {episode_id}
    assert turns[0]["user_message"] == record.transcript[0].content
    assert seen[-1] == ("delete", episode_id)
    # Graded from what the server saw: the agent's own MCP call is in the server-side tool log.
    assert [(call.name, call.ok) for call in record.tool_log] == [("list_all_airports", True)]
    assert (record.agent, record.termination, record.reward) == (url, "max_turns", 0)
    assert record.transcript[1].content == "Could you tell me a bit more?"
    assert record.usage["agent"] == {"prompt_tokens": 5, "completion_tokens": 2}


@pytest.mark.parametrize(
    ("mode", "reason"),
    [
        ("malformed", r"malformed reply \(message: Field required\)"),
        ("not_json", r"malformed reply \(body: Invalid JSON: .+\)"),
        ("http_500", r'HTTP 500: \{"error":"boom"\}'),
    ],
)
async def test_bad_replies_end_the_episode_as_agent_error_with_the_reason(
    mode: str, reason: str, tmp_path: Path
) -> None:
    report, seen, url = await run_against(mode, tmp_path)
    [record] = report.records
    episode_id = seen[0][1]["episode_id"]
    assert (record.termination, record.reward) == ("agent_error", 0)
    assert record.error is not None
    assert re.fullmatch(rf"turn 0: POST {url}/v1/episodes/{episode_id}/turns: {reason}", record.error)
    assert seen[-1] == ("delete", episode_id)  # the agent is told the episode is over


async def test_a_silent_agent_is_an_agent_error_before_the_runner_timeout(tmp_path: Path) -> None:
    report, _, _ = await run_against("slow", tmp_path, turn_timeout=0.5)
    [record] = report.records
    assert (record.termination, record.reward) == ("agent_error", 0)
    assert record.error is not None and record.error.endswith(f"no reply within {reply_deadline(0.5):g}s")
    assert reply_deadline(0.5) == 0.45 and reply_deadline(120) == 119


async def test_an_http_error_at_start_is_the_agents_failure(tmp_path: Path) -> None:
    report, seen, url = await run_against("start_503", tmp_path)
    [record] = report.records
    assert record.termination == "agent_error" and [kind for kind, _ in seen] == ["start"]
    assert record.error == f'POST {url}/v1/episodes: HTTP 503: {{"error":"warming up"}}'


def unreachable_url() -> str:
    sock = bind_socket()  # a port that was free a moment ago and now has no listener
    port = sock.getsockname()[1]
    sock.close()
    return f"http://127.0.0.1:{port}"


async def test_an_unreachable_agent_is_an_infrastructure_error_and_retried(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = unreachable_url()
    agent = HttpAgent(url, AgentOptions())
    context = EpisodeContext(
        episode_id="e1",
        domain="airline",
        mcp_servers=[McpServerInfo(name="airline", url="http://127.0.0.1:1/episodes/e1/mcp", headers={})],
        policy="p",
    )
    with pytest.raises(InfraError, match=rf"POST {url}/v1/episodes: cannot reach the agent: ConnectError"):
        await agent.start(context)
    with pytest.raises(AgentError, match="not started"):
        await agent.respond("hi")
    await agent.close()

    monkeypatch.setattr(runner, "RETRY_DELAYS", (0.01, 0.01))
    report = await execute_run(config(tmp_path, url), tmp_path, {}, 1)
    assert report.failed == 1 and report.records == []
    *retries, entry = [json.loads(line) for line in (tmp_path / "errors.jsonl").read_text().splitlines()]
    assert entry["termination"] == "infra_error" and len(entry["errors"]) == 3
    assert [(r["kind"], r["attempt"], r["error"]) for r in retries] == [
        ("retry", 1, entry["errors"][0]),
        ("retry", 2, entry["errors"][1]),
    ]
    assert all("cannot reach the agent" in error for error in entry["errors"])
