"""Conversions between the scorer's pydantic models and its taue.v1 protobuf messages."""

from __future__ import annotations

import json

from taue.contracts.episode import LoggedCall, Message, RewardBreakdown
from taue.proto.terminations import TERMINATION_NAMES, TERMINATIONS
from taue.proto.v1 import common_pb2, scorer_pb2
from taue.scorer.scoring import ScoreRequest


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
    )


def score_request_from_message(message: scorer_pb2.ScoreRequest) -> ScoreRequest:
    if message.termination not in TERMINATION_NAMES:
        raise ValueError("termination is not set")
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
    )


def breakdown_message(breakdown: RewardBreakdown) -> scorer_pb2.RewardBreakdown:
    message = scorer_pb2.RewardBreakdown(
        reward=breakdown.reward,
        termination=TERMINATIONS[breakdown.termination],
        outputs_found=breakdown.outputs_found,
        diagnostics_json=json.dumps(breakdown.diagnostics, sort_keys=True),
    )
    if breakdown.db_match is not None:
        message.db_match = breakdown.db_match
    return message


def breakdown_from_message(message: scorer_pb2.RewardBreakdown) -> RewardBreakdown:
    return RewardBreakdown(
        reward=message.reward,
        termination=TERMINATION_NAMES[message.termination],  # type: ignore[arg-type]
        db_match=message.db_match if message.HasField("db_match") else None,
        outputs_found=dict(message.outputs_found),
        diagnostics=json.loads(message.diagnostics_json or "{}"),
    )
