"""Conversions between the simulator's pydantic models and its taue.v1 protobuf messages."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping

from taue.contracts.episode import AgentTurn, Notification, UserTurn
from taue.contracts.tasks import Emotion, Evaluation, Goal, Target, Task, UserScenario
from taue.proto.terminations import TERMINATION_NAMES, TERMINATIONS
from taue.proto.v1 import common_pb2, simulator_pb2
from taue.simulator.session import UserOptions


def user_task_message(task: Task, tools: Mapping[str, str] | None = None) -> simulator_pb2.UserTask:
    """The user-facing part of a task: scenario, instruction, emotion, and what the tools of its goals
    do (`tools`: name -> description). Never the ground truth."""
    scenario = task.user_scenario
    message = simulator_pb2.UserTask(
        task_id=task.id,
        domain=task.domain,
        instruction=task.instruction,
        scenario=simulator_pb2.UserScenario(
            persona=scenario.persona,
            reason_for_call=scenario.reason_for_call,
            known_info=scenario.known_info,
            volunteered=scenario.volunteered,
            unknown_info=scenario.unknown_info,
            discoverable=scenario.discoverable,
            goals=[goal_message(goal) for goal in scenario.goals],
            preferences=scenario.preferences,
        ),
    )
    if task.emotion is not None:
        message.emotion.CopyFrom(simulator_pb2.EmotionCondition(**task.emotion.model_dump()))
    targets = {t.tool for goal in scenario.goals for t in goal.targets}
    message.tools.update({name: text for name, text in (tools or {}).items() if name in targets})
    return message


def tools_from_message(message: simulator_pb2.UserTask) -> dict[str, str]:
    return dict(sorted(message.tools.items()))


def task_from_message(message: simulator_pb2.UserTask) -> Task:
    """A `Task` for the user backends, with an empty evaluation (the simulator never sees it)."""
    s = message.scenario
    scenario = UserScenario(
        persona=s.persona,
        reason_for_call=s.reason_for_call,
        known_info=dict(s.known_info),
        volunteered=list(s.volunteered),
        unknown_info=list(s.unknown_info),
        discoverable=dict(s.discoverable),
        goals=[goal_from_message(g) for g in s.goals],
        preferences=list(s.preferences),
    )
    emotion = None
    if message.HasField("emotion"):
        e = message.emotion
        emotion = Emotion(
            family=e.family,
            emotion=e.emotion,
            politeness=e.politeness,
            urgency=e.urgency,
            trust=e.trust,
            instruction=e.instruction,
        )
    return Task(
        id=message.task_id,
        domain=message.domain,
        user_scenario=scenario,
        instruction=message.instruction,
        emotion=emotion,
        evaluation=Evaluation(actions=[]),
    )


def goal_message(goal: Goal) -> simulator_pb2.Goal:
    message = simulator_pb2.Goal(
        id=goal.id,
        kind=goal.kind,
        request=goal.request,
        evidence=goal.evidence,
        refusal_expected=goal.refusal_expected,
        refusal_reason=goal.refusal_reason,
    )
    message.targets.extend(
        simulator_pb2.GoalTarget(tool=t.tool, arguments_json=json.dumps(t.arguments)) for t in goal.targets
    )
    return message


def goal_from_message(message: simulator_pb2.Goal) -> Goal:
    targets = [Target(tool=t.tool, arguments=json.loads(t.arguments_json)) for t in message.targets]
    return Goal(
        id=message.id,
        kind=message.kind,
        request=message.request,
        evidence=list(message.evidence),
        targets=targets,
        refusal_expected=message.refusal_expected,
        refusal_reason=list(message.refusal_reason),
    )


def respond_request(session_id: str, turn: AgentTurn) -> simulator_pb2.RespondRequest:
    return simulator_pb2.RespondRequest(
        session_id=session_id,
        agent_message=turn.message,
        notifications=notification_messages(turn.notifications),
        successful_calls=turn.successful_calls,
    )


def notification_messages(notifications: Iterable[Notification]) -> list[simulator_pb2.Notification]:
    return [
        simulator_pb2.Notification(tool=n.tool, arguments_json=json.dumps(n.arguments), output=n.output)
        for n in notifications
    ]


def notifications_from_messages(messages: Iterable[simulator_pb2.Notification]) -> list[Notification]:
    """The notifications of a request; malformed JSON raises ValueError."""
    return [
        Notification(tool=n.tool, arguments=json.loads(n.arguments_json or "{}"), output=n.output)
        for n in messages
    ]


def agent_turn_from_request(request: simulator_pb2.RespondRequest) -> AgentTurn:
    """The agent's turn as the user backends take it; malformed notification JSON raises ValueError."""
    return AgentTurn(
        message=request.agent_message,
        notifications=notifications_from_messages(request.notifications),
        successful_calls=request.successful_calls,
    )


def options_message(options: UserOptions) -> simulator_pb2.UserOptions:
    return simulator_pb2.UserOptions(
        backend=options.backend,
        model=options.model or "",
        base_url=options.base_url or "",
        temperature=options.temperature,
        enable_thinking=options.enable_thinking,
    )


def options_from_message(message: simulator_pb2.UserOptions) -> UserOptions:
    return UserOptions(
        backend=message.backend or "scripted",
        model=message.model or None,
        base_url=message.base_url or None,
        temperature=message.temperature,
        enable_thinking=message.enable_thinking if message.HasField("enable_thinking") else None,
    )


def turn_message(turn: UserTurn) -> simulator_pb2.RespondResponse:
    state = simulator_pb2.SatisfactionState(
        goals_confirmed=turn.goals_confirmed,
        events=turn.events,
        reason=turn.reason or "",
        policy_violations=turn.policy_violations,
    )
    if turn.patience is not None:
        state.patience = turn.patience
    return simulator_pb2.RespondResponse(
        message=turn.message,
        done=turn.done,
        termination=TERMINATIONS.get(turn.termination or "", common_pb2.TERMINATION_UNSPECIFIED),
        state=state,
    )


def turn_from_message(message: simulator_pb2.RespondResponse) -> UserTurn:
    state = message.state
    return UserTurn(
        message=message.message,
        done=message.done,
        termination=TERMINATION_NAMES.get(message.termination),
        patience=state.patience if state.HasField("patience") else None,
        goals_confirmed=list(state.goals_confirmed),
        events=list(state.events),
        reason=state.reason or None,
        policy_violations=list(state.policy_violations),
    )
