"""HTTP client of a domain server's control port: all the runner knows about a domain comes from it."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx2

from taue.contracts.domain import DomainCard, EpisodeCreated, ExpectedOutcome, TaskList
from taue.contracts.episode import TimedCall
from taue.contracts.tasks import Task

IDEMPOTENT = frozenset({"GET", "DELETE"})
REQUEST_RETRY_DELAYS = (0.05, 0.25)
"""Waits before rerunning an idempotent request that lost its connection (a pooled keep-alive
connection closed by the server just as it was reused): cheaper than rerunning the episode."""
RETRYABLE = (httpx2.NetworkError, httpx2.RemoteProtocolError)
"""Connection failures only: a timeout is not retried, the request may still be running."""


class InfraError(RuntimeError):
    """The harness (not the agent) failed: a server unreachable or answering 5xx. Retried."""


class ControlClient:
    """Talks to one domain's control port; shares the runner's connection pool."""

    def __init__(self, base_url: str, http: httpx2.AsyncClient, admin_token: str | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.http = http
        self.headers = {"Authorization": f"Bearer {admin_token}"} if admin_token else {}

    async def _send(self, method: str, path: str, **kwargs: Any) -> httpx2.Response:
        delays = REQUEST_RETRY_DELAYS if method in IDEMPOTENT else ()
        for delay in delays:
            try:
                return await self.http.request(method, self.base_url + path, headers=self.headers, **kwargs)
            except RETRYABLE:
                await asyncio.sleep(delay)
        return await self.http.request(method, self.base_url + path, headers=self.headers, **kwargs)

    async def _request(self, method: str, path: str, **kwargs: Any) -> httpx2.Response:
        return self._checked(method, path, await self._response(method, path, **kwargs))

    async def _response(self, method: str, path: str, **kwargs: Any) -> httpx2.Response:
        try:
            return await self._send(method, path, **kwargs)
        except httpx2.HTTPError as exc:
            raise InfraError(f"{method} {self.base_url}{path}: {type(exc).__name__}: {exc}") from exc

    def _checked(self, method: str, path: str, response: httpx2.Response) -> httpx2.Response:
        if response.status_code >= 500:
            raise InfraError(
                f"{method} {self.base_url}{path}: HTTP {response.status_code}: {response.text[:200]}"
            )
        if response.status_code >= 400:
            raise ValueError(
                f"{method} {self.base_url}{path}: HTTP {response.status_code}: {response.text[:500]}"
            )
        return response

    async def create_episode(
        self, task_id: str | None, seed: int, run_id: str | None = None
    ) -> EpisodeCreated:
        body: dict[str, Any] = {"task_id": task_id, "seed": seed}
        if run_id is not None:
            body["run_id"] = run_id
        response = await self._request("POST", "/episodes", json=body)
        return EpisodeCreated.model_validate_json(response.content)

    async def state_hash(self, episode_id: str) -> str:
        response = await self._request(
            "GET", f"/episodes/{episode_id}/state", params={"include_state": "false"}
        )
        return response.json()["sha256"]

    async def state(self, episode_id: str) -> dict[str, Any]:
        return (await self._request("GET", f"/episodes/{episode_id}/state")).json()

    async def tool_log(self, episode_id: str) -> list[TimedCall]:
        calls = (await self._request("GET", f"/episodes/{episode_id}/tool-log")).json()["calls"]
        return [TimedCall.model_validate(call) for call in calls]

    async def tool_log_since(self, episode_id: str, since: int) -> tuple[list[TimedCall], bool]:
        """The calls logged from index `since` on, and whether a conversation-ending tool ran."""
        body = (
            await self._request("GET", f"/episodes/{episode_id}/tool-log", params={"since": since})
        ).json()
        return [TimedCall.model_validate(call) for call in body["calls"]], bool(body["ended"])

    async def delete_episode(self, episode_id: str) -> None:
        await self._request("DELETE", f"/episodes/{episode_id}")

    async def delete_run_episodes(self, run_id: str) -> int | None:
        """Delete every live episode of the run; None when the server cannot (an older server)."""
        response = await self._response("DELETE", "/episodes", params={"run_id": run_id})
        if response.status_code in (404, 405):
            return None
        return int(self._checked("DELETE", "/episodes", response).json()["deleted"])

    async def card(self) -> DomainCard:
        return DomainCard.model_validate_json((await self._request("GET", "/domain")).content)

    async def tasks(self, split: str = "eval") -> list[Task]:
        response = await self._request("GET", "/tasks", params={"split": split})
        return TaskList.model_validate_json(response.content).tasks

    async def task(self, task_id: str) -> Task:
        return Task.model_validate_json((await self._request("GET", f"/tasks/{task_id}")).content)

    async def expected(self, task_id: str) -> ExpectedOutcome:
        response = await self._request("GET", f"/tasks/{task_id}/expected")
        return ExpectedOutcome.model_validate_json(response.content)
