"""HTTP client of a domain server's control port: all the runner knows about a domain comes from it."""

from __future__ import annotations

from typing import Any

import httpx2

from taue.contracts.domain import DomainCard, EpisodeCreated, ExpectedOutcome, TaskList
from taue.contracts.episode import TimedCall
from taue.contracts.tasks import Task


class InfraError(RuntimeError):
    """The harness (not the agent) failed: a server unreachable or answering 5xx. Retried."""


class ControlClient:
    """Talks to one domain's control port; shares the runner's connection pool."""

    def __init__(self, base_url: str, http: httpx2.AsyncClient, admin_token: str | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.http = http
        self.headers = {"Authorization": f"Bearer {admin_token}"} if admin_token else {}

    async def _request(self, method: str, path: str, **kwargs: Any) -> httpx2.Response:
        try:
            response = await self.http.request(method, self.base_url + path, headers=self.headers, **kwargs)
        except httpx2.HTTPError as exc:
            raise InfraError(f"{method} {self.base_url}{path}: {type(exc).__name__}: {exc}") from exc
        if response.status_code >= 500:
            raise InfraError(
                f"{method} {self.base_url}{path}: HTTP {response.status_code}: {response.text[:200]}"
            )
        if response.status_code >= 400:
            raise ValueError(
                f"{method} {self.base_url}{path}: HTTP {response.status_code}: {response.text[:500]}"
            )
        return response

    async def create_episode(self, task_id: str | None, seed: int) -> EpisodeCreated:
        response = await self._request("POST", "/episodes", json={"task_id": task_id, "seed": seed})
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
