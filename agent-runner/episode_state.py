"""The bookkeeping of an episode driven by hand (`taue episode new|say|score`), kept between commands."""

from __future__ import annotations

from pydantic import BaseModel, Field

from taue.contracts.episode import Message, UserTermination


class EpisodeState(BaseModel):
    episode_id: str
    domain: str
    task_id: str
    control_url: str
    simulator: str
    scorer: str
    session_id: str
    mcp_url: str
    token: str
    transcript: list[Message] = Field(default_factory=list)
    termination: UserTermination | None = None
    calls_seen: int = Field(default=0, description="Tool-log entries already passed to the user.")
