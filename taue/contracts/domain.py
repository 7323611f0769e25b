"""What a domain server tells the runner and the scorer about its domain (docs/architecture.md).

The domain server owns the domain's code; everything else learns about the domain from these
models, served on its control port: the card (`GET /domain`), the tasks (`GET /tasks`), a task's
expected outcome (`GET /tasks/{id}/expected`) and a new episode (`POST /episodes`).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from taue.contracts.tasks import Task

DESIGN_DOMAINS = (
    "airline",
    "retail",
    "telecom",
    "telehealth",
    "school",
    "basketball",
    "restaurant",
    "travel",
    "movie",
    "bank",
)
"""The benchmark's ten domains in their order: the order their evaluation sets take blocks of the
Tracer's condition design (`taue.tracer.conditions`) and the deployment order (`taue deploy render`)."""


class ToolInfo(BaseModel):
    name: str
    writes: bool = False
    """The tool changes the database."""
    ends_conversation: bool = False
    """After this tool (a transfer to a human) the episode is over."""
    description: str = ""
    """What the tool does (the first paragraph of its description): how the scripted user learns what
    a write is called in words."""


class DomainCard(BaseModel):
    """A domain as its server describes it: its policy and its tools with their flags."""

    name: str
    base: str
    """The domain whose tools and tables these are (an imported task set names its base domain)."""
    policy: str
    tools: list[ToolInfo]
    tasks: int = 0
    """How many tasks the server holds."""

    @property
    def write_tools(self) -> frozenset[str]:
        return frozenset(tool.name for tool in self.tools if tool.writes)

    @property
    def terminal_tools(self) -> frozenset[str]:
        return frozenset(tool.name for tool in self.tools if tool.ends_conversation)


class TaskList(BaseModel):
    domain: str
    tasks: list[Task]


class GoldCall(BaseModel):
    """One action of a task's ground truth, with the domain's write flag of its tool."""

    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    writes: bool = False


class ExpectedOutcome(BaseModel):
    """What a task's ground truth leads to, computed by the server that owns the domain's code."""

    task_id: str
    state_hash: str
    """sha256 of the comparable end state after the ground-truth actions (as GET /episodes/{id}/state)."""
    outputs: list[str] = Field(default_factory=list)
    """Strings some agent message must contain."""
    gold: list[GoldCall] = Field(default_factory=list)
    """The ground-truth actions, for the score's diagnostics."""
    transfer_expected: bool = False
    """The ground truth ends with a conversation-ending tool (a transfer to a human)."""


class EpisodeCreated(BaseModel):
    """A new episode: where the agent reaches it (its MCP URL and bearer token)."""

    episode_id: str
    mcp_url: str
    token: str
    task_id: str | None
