"""Conversions between the scorer's pydantic models and its taue.v1 protobuf messages."""

from __future__ import annotations

import json
from typing import Any

from taue.contracts.episode import LoggedCall, Message, RewardBreakdown
from taue.proto.terminations import TERMINATION_NAMES, TERMINATIONS
from taue.proto.v1 import common_pb2, scorer_pb2
from taue.scorer.metrics import BREAKDOWNS, EpisodeOutcome
from taue.scorer.scorer import ScoreRequest


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


def outcome_message(outcome: EpisodeOutcome) -> scorer_pb2.EpisodeOutcome:
    return scorer_pb2.EpisodeOutcome(
        task_id=outcome.task_id,
        domain=outcome.domain,
        trial=outcome.trial,
        condition=outcome.condition or "",
        family=outcome.family or "",
        politeness=outcome.politeness or "",
        urgency=outcome.urgency or "",
        trust=outcome.trust or "",
        reward=outcome.reward,
        termination=TERMINATIONS[outcome.termination],
    )


def outcome_from_message(message: scorer_pb2.EpisodeOutcome) -> EpisodeOutcome:
    return EpisodeOutcome(
        task_id=message.task_id,
        domain=message.domain,
        trial=message.trial,
        condition=message.condition or None,
        family=message.family or None,
        politeness=message.politeness or None,
        urgency=message.urgency or None,
        trust=message.trust or None,
        reward=message.reward,
        termination=TERMINATION_NAMES.get(message.termination, "infra_error"),
    )


def metrics_message(metrics: dict[str, Any]) -> scorer_pb2.Metrics:
    """A run summary (`scorer.metrics.summarize`) as a `Metrics` message."""
    message = _group_message(metrics)
    message.headline = metrics["headline"]
    if metrics["neutral"] is not None:
        message.neutral.CopyFrom(_group_message(metrics["neutral"]))
    if metrics["emotion_delta"] is not None:
        message.emotion_delta.CopyFrom(scorer_pb2.EmotionDelta(**metrics["emotion_delta"]))
    for field in BREAKDOWNS:
        for name, group in metrics[field].items():
            getattr(message, field)[name].CopyFrom(_group_message(group))
    return message


def _group_message(metrics: dict[str, Any]) -> scorer_pb2.Metrics:
    return scorer_pb2.Metrics(
        episodes=metrics["episodes"],
        tasks=metrics["tasks"],
        trials=metrics["trials"],
        avg_reward=metrics["avg_reward"],
        avg_at_k=metrics["avg_at_k"],
        pass_hat_k=metrics["pass_hat_k"],
        at_least_k_of_n=metrics["at_least_k_of_n"],
        unsatisfied_rate=metrics["unsatisfied_rate"],
        terminations=metrics["terminations"],
    )


def metrics_from_message(message: scorer_pb2.Metrics) -> dict[str, Any]:
    """The run summary a `Metrics` message carries, as `scorer.metrics.summarize` returns it."""
    delta = message.emotion_delta
    metrics: dict[str, Any] = {
        "headline": message.headline,
        **_group_from_message(message),
        "neutral": _group_from_message(message.neutral) if message.HasField("neutral") else None,
        "emotion_delta": {
            "delta": delta.delta,
            "ci_low": delta.ci_low,
            "ci_high": delta.ci_high,
            "pairs": delta.pairs,
        }
        if message.HasField("emotion_delta")
        else None,
    }
    for field in BREAKDOWNS:
        groups = getattr(message, field)
        metrics[field] = {name: _group_from_message(groups[name]) for name in sorted(groups)}
    return metrics


def _group_from_message(message: scorer_pb2.Metrics) -> dict[str, Any]:
    return {
        "episodes": message.episodes,
        "tasks": message.tasks,
        "trials": message.trials,
        "avg_reward": message.avg_reward,
        "avg_at_k": message.avg_at_k,
        "pass_hat_k": dict(sorted(message.pass_hat_k.items())),
        "at_least_k_of_n": dict(sorted(message.at_least_k_of_n.items())),
        "unsatisfied_rate": message.unsatisfied_rate,
        "terminations": dict(sorted(message.terminations.items())),
    }
