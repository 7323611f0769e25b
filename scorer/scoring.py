"""The scorer as a library: an episode's reward from what the domain server observed and expects.

The scorer imports no domain code: the runner brings the episode's end (final state hash, tool log,
transcript, termination), the task's expected outcome and the server's signed observation of them, all
read from the domain server. With a signing key the scorer checks the observation's signature before
it seals the reward over it (taue/contracts/integrity.py).
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from taue.contracts.domain import ExpectedOutcome
from taue.contracts.episode import LoggedCall, Message, RewardBreakdown, Termination
from taue.contracts.integrity import (
    SERVER_LABEL,
    Integrity,
    Observation,
    SigningKey,
    observation_problems,
    transcript_digest,
)
from taue.scorer.reward import score


class ScoreRequest(BaseModel):
    domain: str
    task_id: str
    final_hash: str | None
    transcript: list[Message]
    tool_log: list[LoggedCall] = Field(default_factory=list)
    termination: Termination
    expected: ExpectedOutcome
    """The task's expected outcome, as the domain server computed it (POST /episodes/{id}/finish)."""
    episode_id: str | None = None
    observation: Observation | None = None
    """The domain server's signed observation of the episode's end; None for a bare score request."""
    policy_violations: list[str] = Field(default_factory=list)
    """What the user simulator observed against the domain policy (`taue.contracts.policy`)."""
    policy_enforced: bool = False
    """The violations cost the reward: the benchmark's own domains, imported task sets under
    `--strict-policy` (the runner decides, from the domain's card and the run's settings)."""


class Scored(BaseModel):
    breakdown: RewardBreakdown
    integrity: Integrity | None = None
    """The observation sealed with the reward; None when the request carried no observation."""


def score_episode(request: ScoreRequest) -> RewardBreakdown:
    if request.expected.task_id != request.task_id:
        raise ValueError(
            f"the expected outcome is of task {request.expected.task_id!r}, not {request.task_id!r}"
        )
    return score(
        request.expected,
        request.final_hash,
        request.transcript,
        request.tool_log,
        request.termination,
        request.policy_violations,
        request.policy_enforced,
    )


def score_and_seal(request: ScoreRequest, key: SigningKey | None = None) -> Scored:
    """The reward, and the observation sealed with it (signed when the scorer holds a key). A
    `ValueError` when the observation disagrees with the request or carries a bad signature."""
    breakdown = score_episode(request)
    observation = request.observation
    if observation is None:
        return Scored(breakdown=breakdown)
    problems = observation_problems(
        observation, request.task_id, request.final_hash, request.tool_log, request.expected
    )
    if key is not None and observation.server_signature is not None:
        if observation.key_id != key.id:
            problems.append(
                f"the observation is signed with another key ({observation.key_id}, not {key.id})"
            )
        elif not key.signed(SERVER_LABEL, observation.payload(), observation.server_signature):
            problems.append("the observation's signature is not valid")
    if problems:
        raise ValueError("; ".join(problems))
    integrity = Integrity(
        **observation.model_dump(),
        transcript_sha256=transcript_digest(request.transcript),
        termination=breakdown.termination,
        reward=breakdown.reward,
    )
    return Scored(breakdown=breakdown, integrity=integrity.sealed_by(key))
