"""What the runner needs of an agent, whatever it is behind the adapter."""

from __future__ import annotations

from typing import Protocol

import httpx2
from pydantic import BaseModel, ConfigDict

from taue.contracts.tasks import Task


class McpServerInfo(BaseModel):
    name: str
    transport: str = "streamable-http"
    url: str
    headers: dict[str, str]


class EpisodeContext(BaseModel):
    """Everything an agent is given about its episode."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    episode_id: str
    domain: str
    mcp_servers: list[McpServerInfo]
    policy: str
    task: Task | None = None
    """Only for the reference baselines (oracle, pester) that replay the ground truth."""
    transport: httpx2.AsyncBaseTransport | None = None
    """The runner's shared connection pool, for in-process agents."""


class Agent(Protocol):
    """One conversation of an agent. `respond` may call the episode's MCP tools before answering.

    An agent may also have a `usage` attribute (dict: prompt_tokens, completion_tokens, cost_usd…)
    that the runner copies into the episode record.
    """

    async def start(self, context: EpisodeContext) -> None: ...
    async def respond(self, user_message: str) -> str: ...
    async def close(self) -> None: ...


class AgentError(RuntimeError):
    """The agent failed (bad reply, crash): the episode ends as `agent_error`."""
