"""Conversions between the scorer's pydantic models and its taue.v1 protobuf messages."""

from __future__ import annotations

import json

from taue.contracts.domain import ExpectedOutcome, GoldCall
from taue.contracts.episode import LoggedCall, Message, RewardBreakdown
from taue.contracts.integrity import Integrity, Observation, canonical_json
from taue.proto.terminations import TERMINATION_NAMES, TERMINATIONS
from taue.proto.v1 import common_pb2, scorer_pb2
from taue.scorer.scoring import Scored, ScoreRequest


def score_request_message(request: ScoreRequest) -> scorer_pb2.ScoreRequest:
    return scorer_pb2.ScoreRequest(
        domain=request.domain,
        task_id=request.task_id,
        final_hash=request.final_hash or "",
        transcript=[common_pb2.ChatMessage(role=m.role, content=m.content) for m in request.transcript],
        tool_log=[
            scorer_pb2.ToolCall(
                name=c.name, arguments_json=json.dumps(c.arguments), ok=c.ok, output=c.output, writes=c.writes
            )
            for c in request.tool_log
        ],
        termination=TERMINATIONS[request.termination],
        expected=expected_message(request.expected),
        episode_id=request.episode_id or "",
        observation_json=_json(request.observation),
        policy_violations=request.policy_violations,
        policy_enforced=request.policy_enforced,
    )


def _json(model: Observation | None) -> str:
    return "" if model is None else canonical_json(model.model_dump(mode="json")).decode("ascii")


def expected_message(expected: ExpectedOutcome) -> scorer_pb2.ExpectedOutcome:
    return scorer_pb2.ExpectedOutcome(
        task_id=expected.task_id,
        state_hash=expected.state_hash,
        outputs=expected.outputs,
        gold=[
            scorer_pb2.ToolCall(name=g.name, arguments_json=json.dumps(g.arguments), writes=g.writes)
            for g in expected.gold
        ],
        transfer_expected=expected.transfer_expected,
    )


def expected_from_message(message: scorer_pb2.ExpectedOutcome) -> ExpectedOutcome:
    return ExpectedOutcome(
        task_id=message.task_id,
        state_hash=message.state_hash,
        outputs=list(message.outputs),
        gold=[
            GoldCall(name=g.name, arguments=json.loads(g.arguments_json or "{}"), writes=g.writes)
            for g in message.gold
        ],
        transfer_expected=message.transfer_expected,
    )


def score_request_from_message(message: scorer_pb2.ScoreRequest) -> ScoreRequest:
    if message.termination not in TERMINATION_NAMES:
        raise ValueError("termination is not set")
    if not message.HasField("expected") or not message.expected.state_hash:
        raise ValueError("expected is not set: send the task's expected outcome (GET /tasks/{id}/expected)")
    return ScoreRequest(
        domain=message.domain,
        task_id=message.task_id,
        final_hash=message.final_hash or None,
        transcript=[Message(role=m.role, content=m.content) for m in message.transcript],
        tool_log=[
            LoggedCall(
                name=c.name,
                arguments=json.loads(c.arguments_json or "{}"),
                ok=c.ok,
                output=c.output,
                writes=c.writes,
            )
            for c in message.tool_log
        ],
        termination=TERMINATION_NAMES[message.termination],
        expected=expected_from_message(message.expected),
        episode_id=message.episode_id or None,
        observation=Observation.model_validate_json(message.observation_json)
        if message.observation_json
        else None,
        policy_violations=list(message.policy_violations),
        policy_enforced=message.policy_enforced,
    )


def scored_message(scored: Scored) -> scorer_pb2.RewardBreakdown:
    message = breakdown_message(scored.breakdown)
    message.integrity_json = _json(scored.integrity)
    return message


def scored_from_message(message: scorer_pb2.RewardBreakdown) -> Scored:
    integrity = Integrity.model_validate_json(message.integrity_json) if message.integrity_json else None
    return Scored(breakdown=breakdown_from_message(message), integrity=integrity)


def breakdown_message(breakdown: RewardBreakdown) -> scorer_pb2.RewardBreakdown:
    message = scorer_pb2.RewardBreakdown(
        reward=breakdown.reward,
        termination=TERMINATIONS[breakdown.termination],
        outputs_found=breakdown.outputs_found,
        diagnostics_json=json.dumps(breakdown.diagnostics, sort_keys=True),
        policy_violations=breakdown.policy_violations,
        policy_enforced=breakdown.policy_enforced,
    )
    if breakdown.db_match is not None:
        message.db_match = breakdown.db_match
    return message


def breakdown_from_message(message: scorer_pb2.RewardBreakdown) -> RewardBreakdown:
    return RewardBreakdown(
        reward=message.reward,
        termination=TERMINATION_NAMES[message.termination],
        db_match=message.db_match if message.HasField("db_match") else None,
        outputs_found=dict(message.outputs_found),
        diagnostics=json.loads(message.diagnostics_json or "{}"),
        policy_violations=list(message.policy_violations),
        policy_enforced=message.policy_enforced,
    )
