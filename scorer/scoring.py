"""The scorer as a library: an episode's reward from what the domain server observed and expects.

The scorer imports no domain code: the runner brings the episode's end (final state hash, tool log,
transcript, termination) and the task's expected outcome, both read from the domain server.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from taue.contracts.domain import ExpectedOutcome
from taue.contracts.episode import LoggedCall, Message, RewardBreakdown, Termination
from taue.scorer.reward import score


class ScoreRequest(BaseModel):
    domain: str
    task_id: str
    final_hash: str | None
    transcript: list[Message]
    tool_log: list[LoggedCall] = Field(default_factory=list)
    termination: Termination
    expected: ExpectedOutcome
    """The task's expected outcome, as the domain server computed it (GET /tasks/{id}/expected)."""


def score_episode(request: ScoreRequest) -> RewardBreakdown:
    if request.expected.task_id != request.task_id:
        raise ValueError(
            f"the expected outcome is of task {request.expected.task_id!r}, not {request.task_id!r}"
        )
    return score(
        request.expected, request.final_hash, request.transcript, request.tool_log, request.termination
    )
