"""The scorer as a library: score an episode from what the servers observed."""

from __future__ import annotations

from pydantic import BaseModel, Field

from taue.contracts.episode import LoggedCall, Message, RewardBreakdown, Termination
from taue.envs.runtime.discovery import get_domain
from taue.scorer.replay import ExpectedStates
from taue.scorer.reward import score


class ScoreRequest(BaseModel):
    domain: str
    task_id: str
    final_hash: str | None
    transcript: list[Message]
    tool_log: list[LoggedCall] = Field(default_factory=list)
    termination: Termination


class Scorer:
    """Owns the tasks' ground truth; caches each task's expected end state."""

    def __init__(self) -> None:
        self.expected = ExpectedStates()

    async def score(self, request: ScoreRequest) -> RewardBreakdown:
        domain = get_domain(request.domain)
        task = domain.task_index.get(request.task_id)
        if task is None:
            raise KeyError(f"unknown task {request.task_id!r} in domain {request.domain!r}")
        expected = await self.expected.hash_for(domain, task)
        return score(
            domain,
            task,
            expected,
            request.final_hash,
            request.transcript,
            request.tool_log,
            request.termination,
        )
