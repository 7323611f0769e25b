"""The runner's side of agent protocol v1: a black-box agent behind `--agent http://HOST:PORT`.

Error semantics (docs/agent-protocol.md):
- the agent cannot be reached when the episode starts (no connection, connection dropped before any
  answer) -> `InfraError`: the runner retries the episode, it is not the agent's failure;
- anything else that goes wrong -> `AgentError`: an HTTP error status, a reply that is not a valid
  `TurnReply`, no reply within the turn timeout, a connection lost mid-episode. The episode ends as
  `agent_error` with the reason in the record's `error`.
The adapter gives up slightly before the runner's own per-turn timeout, so a silent agent is
recorded as `agent_error` ("no reply within …") rather than the runner's generic `timeout`.
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx2
from pydantic import ValidationError

from taue.runner.agent_protocol import (
    EPISODES_PATH,
    START_STATUSES,
    McpServer,
    StartEpisode,
    TurnReply,
    TurnRequest,
    episode_path,
    problems,
    turns_path,
)
from taue.runner.agents import AgentOptions
from taue.runner.agents.base import AgentError, EpisodeContext
from taue.runner.control import InfraError

CLOSE_TIMEOUT = 5.0


def reply_deadline(turn_timeout: float) -> float:
    """The adapter's own deadline: a little under the runner's, so the adapter's reason wins."""
    return max(turn_timeout - min(1.0, 0.1 * turn_timeout), 0.01)


def _body_excerpt(response: httpx2.Response) -> str:
    text = response.text.strip().replace("\n", " ")
    return f": {text[:200]}" if text else ""


class HttpAgent:
    """One episode with a remote agent speaking protocol v1."""

    def __init__(self, spec: str, options: AgentOptions) -> None:
        self.base_url = spec.rstrip("/")
        self.deadline = reply_deadline(options.turn_timeout)
        self.http = httpx2.AsyncClient(
            base_url=self.base_url,
            timeout=httpx2.Timeout(self.deadline, connect=min(10.0, self.deadline)),
            limits=httpx2.Limits(max_connections=2, max_keepalive_connections=1),
        )
        self.episode_id: str | None = None
        self.turn_index = 0
        self.usage: dict[str, Any] = {}

    async def start(self, context: EpisodeContext) -> None:
        body = StartEpisode(
            episode_id=context.episode_id,
            domain=context.domain,
            mcp_servers=[McpServer.model_validate(s.model_dump()) for s in context.mcp_servers],
            policy=context.policy,
        )
        where = f"POST {self.base_url}{EPISODES_PATH}"
        try:
            response = await self._post(EPISODES_PATH, body.model_dump(mode="json"))
        except (httpx2.TimeoutException, TimeoutError) as exc:
            if isinstance(exc, httpx2.ConnectTimeout):
                raise InfraError(f"{where}: cannot connect to the agent: {exc!r}") from exc
            raise AgentError(f"{where}: no answer within {self.deadline:g}s") from exc
        except httpx2.TransportError as exc:
            raise InfraError(f"{where}: cannot reach the agent: {type(exc).__name__}: {exc}") from exc
        if response.status_code not in START_STATUSES:
            raise AgentError(f"{where}: HTTP {response.status_code}{_body_excerpt(response)}")
        self.episode_id = context.episode_id

    async def respond(self, user_message: str) -> str:
        if self.episode_id is None:
            raise AgentError("the episode was not started")
        path = turns_path(self.episode_id)
        where = f"turn {self.turn_index}: POST {self.base_url}{path}"
        request = TurnRequest(user_message=user_message, turn_index=self.turn_index)
        try:
            response = await self._post(path, request.model_dump())
        except (httpx2.TimeoutException, TimeoutError) as exc:
            raise AgentError(f"{where}: no reply within {self.deadline:g}s") from exc
        except httpx2.HTTPError as exc:
            raise AgentError(f"{where}: {type(exc).__name__}: {exc}") from exc
        if response.status_code != 200:
            raise AgentError(f"{where}: HTTP {response.status_code}{_body_excerpt(response)}")
        try:
            reply = TurnReply.model_validate_json(response.content)
        except ValidationError as exc:
            raise AgentError(f"{where}: malformed reply ({problems(exc)})") from exc
        self.turn_index += 1
        if reply.usage is not None:
            self.usage = reply.usage.model_dump(exclude_none=True)
        return reply.message

    async def close(self) -> None:
        try:
            if self.episode_id is not None:
                # Any answer will do: `taue agent check` reports a wrong DELETE status.
                await asyncio.wait_for(self.http.delete(episode_path(self.episode_id)), CLOSE_TIMEOUT)
        except (httpx2.HTTPError, TimeoutError):
            pass  # the episode's outcome is already decided; a failed goodbye must not hide it
        finally:
            await self.http.aclose()

    async def _post(self, path: str, body: dict[str, Any]) -> httpx2.Response:
        # httpx's timeouts are per read; the deadline bounds the whole exchange.
        return await asyncio.wait_for(self.http.post(path, json=body), self.deadline)
