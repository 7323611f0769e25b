"""`taue agent check`: does an agent speak protocol v1? One short, real episode plus a few probes.

The checker starts an airline server in this process, plays a neutral task with the scripted user,
and checks every exchange against docs/agent-protocol.md: routes present, status codes, JSON bodies
matching the schemas, replies within the turn timeout, unknown and deleted episodes answered 404.
Each check has a level. A failed MUST (what the runner relies on: the routes, the status and shape of
answers to valid requests, 404 for turns of an episode that is not open) is a violation; a failed
SHOULD (refusing a malformed start, 404 for DELETE of an unknown episode) is a warning. Both are
written in plain words.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from dataclasses import dataclass
from typing import Any, Literal

import httpx2
from pydantic import BaseModel, ValidationError

from taue.contracts.tasks import Task
from taue.runner.agent_protocol import (
    DELETE_STATUSES,
    EPISODES_PATH,
    HEALTH_PATH,
    START_STATUSES,
    McpServer,
    StartEpisode,
    TurnReply,
    TurnRequest,
    episode_path,
    problems,
    turns_path,
)
from taue.runner.control import ControlClient, control_session
from taue.runner.episode import agent_turn
from taue.simulator.session import UserOptions, make_user

HEALTH_TIMEOUT = 5.0
CHECK_DOMAIN = "airline"
BAD_REQUEST = frozenset({400, 422})
UNKNOWN_EPISODE = "taue-check-never-started"


Level = Literal["must", "should"]
"""must: the runner relies on it (a failure is a violation); should: good practice (a warning)."""


class CheckResult(BaseModel):
    check: str
    ok: bool
    detail: str
    level: Level = "must"


class CheckReport(BaseModel):
    url: str
    task_id: str | None = None
    results: list[CheckResult] = []
    turns: int = 0
    turn_seconds: list[float] = []
    tool_calls: int = 0
    ended_by: str | None = None
    """How the conversation ended: user_stop, user_unsatisfied, turn_limit or protocol_violation."""

    @property
    def violations(self) -> list[CheckResult]:
        """Failed MUST checks: the agent cannot join a run."""
        return [r for r in self.results if not r.ok and r.level == "must"]

    @property
    def warnings(self) -> list[CheckResult]:
        """Failed SHOULD checks: listed, but the agent conforms."""
        return [r for r in self.results if not r.ok and r.level == "should"]

    @property
    def ok(self) -> bool:
        return not self.violations

    def as_json(self) -> dict[str, Any]:
        """Every field, the verdict, and the failed checks by level."""
        data = self.model_dump()
        data["ok"] = self.ok
        data["violations"] = [r.model_dump() for r in self.violations]
        data["warnings"] = [r.model_dump() for r in self.warnings]
        return data


@dataclass
class Answer:
    """One HTTP exchange: a response, or why there was none."""

    response: httpx2.Response | None
    seconds: float
    failure: str | None = None


def short_task(task_id: str | None) -> Task:
    """The requested airline task, else the neutral task with the fewest gold actions (a short episode)."""
    from taue.envs.runtime.discovery import get_domain

    domain = get_domain(CHECK_DOMAIN)
    if task_id is not None:
        if task_id not in domain.task_index:
            raise ValueError(f"unknown {CHECK_DOMAIN} task {task_id!r}")
        return domain.task_index[task_id]
    neutral = [t for t in domain.tasks if t.emotion is None] or domain.tasks
    return min(neutral, key=lambda t: (len(t.evaluation.actions), t.id))


def _status_problem(route: str, status: int, expected: str) -> str:
    if status in (404, 405):
        return f"{route} answered HTTP {status}: the route is missing (expected {expected})"
    return f"{route} answered HTTP {status} (expected {expected})"


def _excerpt(response: httpx2.Response) -> str:
    text = response.text.strip().replace("\n", " ")
    return f"; body: {text[:160]!r}" if text else ""


class Checker:
    def __init__(self, url: str, turn_timeout: float, max_turns: int) -> None:
        self.url = url.rstrip("/")
        self.turn_timeout = turn_timeout
        self.max_turns = max_turns
        self.report = CheckReport(url=self.url)
        self.http = httpx2.AsyncClient(base_url=self.url, timeout=httpx2.Timeout(turn_timeout, connect=5.0))

    def record(self, check: str, ok: bool, detail: str, level: Level = "must") -> bool:
        self.report.results.append(CheckResult(check=check, ok=ok, detail=detail, level=level))
        return ok

    async def send(self, method: str, path: str, timeout: float, body: dict | None = None) -> Answer:
        started = time.perf_counter()
        try:
            request = self.http.request(method, path, json=body)
            response = await asyncio.wait_for(request, timeout)
        except (httpx2.ConnectError, httpx2.ConnectTimeout) as exc:
            return Answer(None, time.perf_counter() - started, f"cannot connect to {self.url} ({exc!r})")
        except (httpx2.TimeoutException, TimeoutError):
            return Answer(None, time.perf_counter() - started, f"no answer within {timeout:g} s")
        except httpx2.HTTPError as exc:
            return Answer(None, time.perf_counter() - started, f"{type(exc).__name__}: {exc}")
        return Answer(response, time.perf_counter() - started)

    async def health(self) -> bool:
        route = f"GET {HEALTH_PATH}"
        answer = await self.send("GET", HEALTH_PATH, HEALTH_TIMEOUT)
        if answer.response is None:
            self.record("healthz", False, f"{route}: {answer.failure}")
            return not (answer.failure or "").startswith("cannot connect")  # nothing more to check
        status = answer.response.status_code
        ok = status == 200
        detail = (
            f"{route} answered 200 in {answer.seconds * 1000:.0f} ms"
            if ok
            else _status_problem(route, status, "200")
        )
        self.record("healthz", ok, detail)
        return True

    async def probes(self) -> None:
        """Requests a conforming agent refuses: a malformed start (SHOULD), an unknown episode's turn
        (MUST: the runner relies on turns reaching only open episodes) and DELETE (SHOULD).
        """
        route = f"POST {EPISODES_PATH}"
        answer = await self.send("POST", EPISODES_PATH, self.turn_timeout, {"episode_id": "malformed"})
        self._expect(
            "rejects a malformed start",
            route + " with a body missing domain/mcp_servers/policy",
            answer,
            BAD_REQUEST,
            "400 or 422",
            "should",
        )
        unknown = UNKNOWN_EPISODE
        body = TurnRequest(user_message="hello", turn_index=0).model_dump()
        answer = await self.send("POST", turns_path(unknown), self.turn_timeout, body)
        self._expect(
            "unknown episode turn",
            f"POST {turns_path(unknown)} (an episode never started)",
            answer,
            {404},
            "404",
        )
        answer = await self.send("DELETE", episode_path(unknown), self.turn_timeout)
        self._expect(
            "unknown episode delete",
            f"DELETE {episode_path(unknown)} (an episode never started)",
            answer,
            {404},
            "404",
            "should",
        )

    def _expect(
        self,
        check: str,
        route: str,
        answer: Answer,
        statuses: set[int] | frozenset[int],
        expected: str,
        level: Level = "must",
    ) -> bool:
        if answer.response is None:
            return self.record(check, False, f"{route}: {answer.failure}", level)
        status = answer.response.status_code
        if status in statuses:
            return self.record(check, True, f"{route} answered {status}", level)
        problem = _status_problem(route, status, expected) + _excerpt(answer.response)
        return self.record(check, False, problem, level)

    async def episode(self, task: Task) -> None:
        from taue.envs.runtime.discovery import get_domain  # the check serves its domain in-process
        from taue.envs.runtime.server import DomainServer

        admin_token = secrets.token_urlsafe(16)
        server = DomainServer(get_domain(CHECK_DOMAIN), admin_token=admin_token)
        await server.start()
        try:
            async with control_session(timeout=30) as control_http:
                control = ControlClient(server.control_url, control_http, admin_token)
                created = await control.create_episode(task.id, 0)
                try:
                    await self._converse(task, created.episode_id, created.mcp_url, created.token, control)
                    self.report.tool_calls = len(await control.tool_log(created.episode_id))
                finally:
                    await control.delete_episode(created.episode_id)
        finally:
            await server.stop()

    async def _converse(
        self, task: Task, episode_id: str, mcp_url: str, token: str, control: ControlClient
    ) -> None:
        from taue.envs.runtime.discovery import get_domain

        self.report.task_id = task.id
        start = StartEpisode(
            episode_id=episode_id,
            domain=CHECK_DOMAIN,
            mcp_servers=[
                McpServer(name=CHECK_DOMAIN, url=mcp_url, headers={"Authorization": f"Bearer {token}"})
            ],
            policy=get_domain(CHECK_DOMAIN).policy,
        )
        route = f"POST {EPISODES_PATH}"
        answer = await self.send("POST", EPISODES_PATH, self.turn_timeout, start.model_dump(mode="json"))
        if not self._expect("start episode", route, answer, START_STATUSES, "200 or 201"):
            self.report.ended_by = "protocol_violation"
            return
        try:
            await self._turns(task, episode_id, control)
        finally:
            await self._end(episode_id)

    async def _turns(self, task: Task, episode_id: str, control: ControlClient) -> None:
        user = make_user(task, 0, UserOptions())
        message = await user.first_message()
        self.report.ended_by = "turn_limit"
        seen = 0
        for index in range(self.max_turns):
            reply = await self._turn(episode_id, index, message)
            if reply is None:
                self.report.ended_by = "protocol_violation"
                return
            calls, _ = await control.tool_log_since(episode_id, seen)
            seen += len(calls)
            turn = await user.respond(agent_turn(reply, calls))
            if turn.done:
                self.report.ended_by = turn.termination
                return
            message = turn.message

    async def _turn(self, episode_id: str, index: int, message: str) -> str | None:
        route = f"turn {index}: POST {turns_path(episode_id)}"
        body = TurnRequest(user_message=message, turn_index=index).model_dump()
        answer = await self.send("POST", turns_path(episode_id), self.turn_timeout, body)
        self.report.turns += 1
        self.report.turn_seconds.append(round(answer.seconds, 3))
        if answer.response is None:
            detail = answer.failure or ""
            if detail.startswith("no answer"):
                detail = f"slow reply: no answer within {self.turn_timeout:g} s (the turn timeout)"
            self.record(f"turn {index}", False, f"{route}: {detail}")
            return None
        response = answer.response
        if response.status_code != 200:
            self.record(
                f"turn {index}",
                False,
                _status_problem(route, response.status_code, "200") + _excerpt(response),
            )
            return None
        try:
            json.loads(response.content)
        except ValueError:
            self.record(f"turn {index}", False, f"{route}: the reply is not JSON{_excerpt(response)}")
            return None
        try:
            reply = TurnReply.model_validate_json(response.content)
        except ValidationError as exc:
            self.record(
                f"turn {index}", False, f"{route}: the reply does not match TurnReply ({problems(exc)})"
            )
            return None
        self.record(f"turn {index}", True, f"{route} answered 200 with a message in {answer.seconds:.2f} s")
        return reply.message

    async def _end(self, episode_id: str) -> None:
        route = f"DELETE {episode_path(episode_id)}"
        answer = await self.send("DELETE", episode_path(episode_id), self.turn_timeout)
        if not self._expect("end episode", route, answer, DELETE_STATUSES, "200 or 204"):
            return
        body = TurnRequest(user_message="are you still there?", turn_index=self.report.turns).model_dump()
        answer = await self.send("POST", turns_path(episode_id), self.turn_timeout, body)
        self._expect(
            "deleted episode turn", f"POST {turns_path(episode_id)} after DELETE", answer, {404}, "404"
        )


async def check_agent(
    url: str, turn_timeout: float = 30.0, max_turns: int = 4, task_id: str | None = None
) -> CheckReport:
    """Run every protocol check against the agent at `url`; `report.ok` is True when no MUST failed."""
    task = short_task(task_id)
    checker = Checker(url, turn_timeout, max_turns)
    try:
        if await checker.health():
            await checker.probes()
            await checker.episode(task)
    finally:
        await checker.http.aclose()
    return checker.report
