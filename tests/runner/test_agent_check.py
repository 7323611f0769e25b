"""`taue agent check`: passes reference agents, fails deliberately broken ones with precise messages."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from pydantic import BaseModel
from typer.testing import CliRunner

from taue.cli import app
from taue.runner.agent_server import AgentServer, AppServer
from taue.runner.agents import AgentOptions
from taue.runner.agents.model_agent import ModelAgent
from taue.runner.conformance import CheckReport, check_agent
from tests.openai_double import OpenAIDouble
from tests.runner.test_http_agent import unreachable_url

UNKNOWN = "taue-check-never-started"
EPISODE = r"[A-Za-z0-9_-]+"


def failures(report: CheckReport) -> list[str]:
    return [v.detail for v in report.violations]


def warnings(report: CheckReport) -> list[str]:
    return [w.detail for w in report.warnings]


def assert_matches(details: list[str], patterns: list[str]) -> None:
    assert len(details) == len(patterns), details
    for detail, pattern in zip(details, patterns, strict=True):
        assert re.fullmatch(pattern, detail), (pattern, detail)


async def test_the_model_agent_served_over_protocol_v1_conforms() -> None:
    replies = [
        {"tool_calls": [{"name": "get_user_details", "arguments": {"user_id": "mia_li_3668"}}]},
        {"content": "Thanks, I found your profile. What can I do for you?"},
    ]
    async with OpenAIDouble(replies) as double:
        options = AgentOptions(model="m", base_url=double.base_url)
        async with AgentServer(lambda: ModelAgent("model", options)) as server:
            report = await check_agent(server.url, turn_timeout=20, max_turns=3)
    assert report.ok, failures(report)
    assert report.turns == 3 and report.ended_by == "turn_limit" and report.tool_calls >= 1
    checks = [r.check for r in report.results]
    assert checks == [
        "healthz",
        "rejects a malformed start",
        "unknown episode turn",
        "unknown episode delete",
        "start episode",
        "turn 0",
        "turn 1",
        "turn 2",
        "end episode",
        "deleted episode turn",
    ]


class Turn(BaseModel):
    user_message: str
    turn_index: int


def sloppy_agent() -> FastAPI:
    """No /healthz, no DELETE, accepts any start and any episode id; its turn replies are fine."""
    app = FastAPI()

    @app.post("/v1/episodes")
    async def start(request: Request) -> dict[str, bool]:
        return {"ok": True}

    @app.post("/v1/episodes/{episode_id}/turns")
    async def turn(episode_id: str, body: Turn) -> dict[str, str]:
        return {"message": "Could you give me your user id?"}

    return app


async def test_a_sloppy_agent_fails_with_every_violation_named() -> None:
    async with AppServer(sloppy_agent()) as server:
        report = await check_agent(server.url, turn_timeout=10, max_turns=2)
    assert not report.ok and report.turns == 2
    assert_matches(
        warnings(report),
        [
            r"POST /v1/episodes with a body missing domain/mcp_servers/policy answered HTTP 200 "
            r"\(expected 400 or 422\); body: '\{\"ok\":true\}'"
        ],
    )
    assert_matches(
        failures(report),
        [
            r"GET /healthz answered HTTP 404: the route is missing \(expected 200\)",
            rf"POST /v1/episodes/{UNKNOWN}/turns \(an episode never started\) answered HTTP 200 "
            r"\(expected 404\); body: .*",
            # (DELETE of an unknown episode answers 404 by accident: no route matches at all.)
            rf"DELETE /v1/episodes/{EPISODE} answered HTTP 404: the route is missing "
            r"\(expected 200 or 204\); body: '\{\"detail\":\"Not Found\"\}'",
        ],
    )


class Start(BaseModel):
    episode_id: str
    domain: str
    mcp_servers: list[dict[str, Any]]
    policy: str


BROKEN_TURN_REPLIES: dict[str, Callable[[], Any]] = {
    "not_json": lambda: PlainTextResponse("<html>hello</html>"),
    "wrong_schema": lambda: {"reply": "hello"},
    "empty_message": lambda: {"message": ""},
    "server_error": lambda: JSONResponse({"error": "model crashed"}, status_code=500),
}
"""The turn reply of each way `turn_breaking_agent` breaks (but "slow")."""


def turn_breaking_agent(mode: str) -> FastAPI:
    """Right everywhere except in its turn replies."""
    app = FastAPI()
    episodes: set[str] = set()

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.post("/v1/episodes", status_code=201)
    async def start(body: Start) -> dict[str, str]:
        episodes.add(body.episode_id)
        return {"episode_id": body.episode_id}

    @app.post("/v1/episodes/{episode_id}/turns", response_model=None)
    async def turn(episode_id: str, body: Turn) -> Any:
        if episode_id not in episodes:
            return JSONResponse({"error": "unknown episode"}, status_code=404)
        broken = BROKEN_TURN_REPLIES.get(mode)
        if broken is not None:
            return broken()
        await asyncio.sleep(1.5)  # slow
        return {"message": "hello"}

    @app.delete("/v1/episodes/{episode_id}", status_code=204, response_model=None)
    async def delete(episode_id: str) -> Response:
        if episode_id not in episodes:
            return JSONResponse({"error": "unknown episode"}, status_code=404)
        episodes.discard(episode_id)
        return Response(status_code=204)

    return app


TURN_FAILURES = {
    "not_json": r"the reply is not JSON; body: '<html>hello</html>'",
    "wrong_schema": r"the reply does not match TurnReply \(message: Field required\)",
    "empty_message": r"the reply does not match TurnReply "
    r"\(message: String should have at least 1 character\)",
    "server_error": r"answered HTTP 500 \(expected 200\); body: '\{\"error\":\"model crashed\"\}'",
    "slow": r"slow reply: no answer within 0\.5 s \(the turn timeout\)",
}


async def test_bad_turn_replies_are_reported_precisely() -> None:
    for mode, reason in TURN_FAILURES.items():
        async with AppServer(turn_breaking_agent(mode)) as server:
            report = await check_agent(server.url, turn_timeout=0.5, max_turns=3)
        sep = ": " if not reason.startswith("answered") else " "
        assert_matches(failures(report), [rf"turn 0: POST /v1/episodes/{EPISODE}/turns{sep}{reason}"])
        assert report.turns == 1 and report.ended_by == "protocol_violation", mode
        assert [r.check for r in report.results][-2:] == ["end episode", "deleted episode turn"]


async def test_an_unreachable_agent_is_one_violation() -> None:
    url = unreachable_url()
    report = await check_agent(url, turn_timeout=2)
    assert_matches(failures(report), [rf"GET /healthz: cannot connect to {url} \(ConnectError.*\)"])


async def taue(*args: str) -> tuple[int, str]:
    """The real CLI, in a thread: it runs its own event loop while the agents serve from this one."""
    result = await asyncio.to_thread(CliRunner().invoke, app, list(args), env={"COLUMNS": "300"})
    return result.exit_code, result.output


async def test_the_cli_exit_codes_and_plain_words() -> None:
    async with AppServer(sloppy_agent()) as server:
        code, output = await taue("agent", "check", server.url, "--max-turns", "1", "--turn-timeout", "10")
    assert code == 1, output
    assert "FAIL GET /healthz answered HTTP 404: the route is missing (expected 200)" in output
    assert "3 protocol violations (MUST points), 1 warning (SHOULD points)" in output
    assert "warn POST /v1/episodes with a body missing" in output
    assert "ok   POST /v1/episodes answered 200" in output

    async with OpenAIDouble([{"content": "Hello, how can I help?"}]) as double:
        options = AgentOptions(model="m", base_url=double.base_url)
        async with AgentServer(lambda: ModelAgent("model", options)) as server:
            code, output = await taue("agent", "check", server.url, "--max-turns", "1", "--json")
    assert code == 0, output
    verdict = json.loads(output)
    assert verdict["ok"] is True and verdict["violations"] == [] and verdict["warnings"] == []
    assert {r["level"] for r in verdict["results"]} == {"must", "should"}

    code, output = await taue("agent", "check", "localhost:8080")
    assert code == 2 and "URL must start with http:// or https://" in output


def lenient_agent(forget_on_delete: bool = True) -> FastAPI:
    """Written from the protocol's MUST points alone: it never validates a start and answers 204 to
    every DELETE, known episode or not."""
    app = FastAPI()
    episodes: set[str] = set()

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.post("/v1/episodes", status_code=201)
    async def start(request: Request) -> dict[str, bool]:
        episodes.add(str((await request.json()).get("episode_id")))
        return {"ok": True}

    @app.post("/v1/episodes/{episode_id}/turns", response_model=None)
    async def turn(episode_id: str, body: Turn) -> Any:
        if episode_id not in episodes:
            return JSONResponse({"error": "unknown episode"}, status_code=404)
        return {"message": "Could you give me your user id?"}

    @app.delete("/v1/episodes/{episode_id}", status_code=204)
    async def delete(episode_id: str) -> None:
        if forget_on_delete:
            episodes.discard(episode_id)

    return app


async def test_an_agent_keeping_only_the_musts_passes_with_two_warnings() -> None:
    async with AppServer(lenient_agent()) as server:
        report = await check_agent(server.url, turn_timeout=10, max_turns=2)
        code, output = await taue("agent", "check", server.url, "--max-turns", "1", "--turn-timeout", "10")
        json_code, json_output = await taue("agent", "check", server.url, "--max-turns", "1", "--json")
    assert report.ok and failures(report) == []
    assert_matches(
        warnings(report),
        [
            r"POST /v1/episodes with a body missing domain/mcp_servers/policy answered HTTP 201 "
            r"\(expected 400 or 422\); body: '\{\"ok\":true\}'",
            rf"DELETE /v1/episodes/{UNKNOWN} \(an episode never started\) answered HTTP 204 \(expected 404\)",
        ],
    )
    assert [w.check for w in report.warnings] == ["rejects a malformed start", "unknown episode delete"]
    assert code == 0, output
    assert "conforms to agent protocol v1, 2 warnings (SHOULD points)" in output
    assert "warn DELETE /v1/episodes/taue-check-never-started (an episode never started)" in output
    assert json_code == 0, json_output
    verdict = json.loads(json_output)
    assert verdict["ok"] is True and verdict["violations"] == []
    assert [w["level"] for w in verdict["warnings"]] == ["should", "should"]


async def test_answering_turns_after_delete_is_a_violation() -> None:
    async with AppServer(lenient_agent(forget_on_delete=False)) as server:
        code, output = await taue("agent", "check", server.url, "--max-turns", "1", "--json")
    assert code == 1, output
    verdict = json.loads(output)
    assert verdict["ok"] is False and len(verdict["warnings"]) == 2
    [violation] = verdict["violations"]
    assert violation["check"] == "deleted episode turn" and violation["level"] == "must"
    assert re.fullmatch(
        rf"POST /v1/episodes/{EPISODE}/turns after DELETE answered HTTP 200 \(expected 404\); body: .*",
        violation["detail"],
    )
