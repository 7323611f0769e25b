"""A run as τ²-bench results files, one per domain (`<domain>.json`): the shape of τ²-bench's
`Results` (`timestamp`, `info`, `tasks`, `simulations`), so that its viewers and analysis read it.

τ²-bench's reward lies in [0, 1]: a success (reward 1) is 1.0 and every failure 0.0; our signed
reward (−1 when the user left unsatisfied) and our termination are kept in each simulation's
`reward_info.info` and `info`. Terminations map to τ²-bench's reasons (the user ending it,
satisfied or not: `user_stop`; a transfer: `agent_stop`; the turn and tool-call caps: `max_steps`).
The agent's tool calls are its assistant messages, one call each, each followed by the tool message
with the same id. `info.max_errors` holds the run's tool-call cap (`--max-tool-calls`): the run has
no cap on consecutive tool errors.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from taue.contracts.episode import Event
from taue.contracts.run import EpisodeRecord
from taue.contracts.tasks import Task
from taue.report.exports.common import Run, Written, episode_clock, package_version, run_started

TERMINATION_REASONS = {
    "user_stop": "user_stop",
    "user_unsatisfied": "user_stop",
    "agent_transfer": "agent_stop",
    "max_turns": "max_steps",
    "max_tool_calls": "max_steps",
    "timeout": "timeout",
    "agent_error": "agent_error",
    "infra_error": "infrastructure_error",
}
REWARD_BASIS = ["DB", "COMMUNICATE"]
Requestor = Literal["user", "assistant"]


class ToolCall(BaseModel):
    id: str
    name: str
    arguments: dict[str, Any]
    requestor: Requestor = "assistant"


class UserMessage(BaseModel):
    role: Literal["user"] = "user"
    content: str | None
    tool_calls: list[ToolCall] | None = None
    turn_idx: int
    timestamp: str | None


class AssistantMessage(BaseModel):
    role: Literal["assistant"] = "assistant"
    content: str | None
    tool_calls: list[ToolCall] | None = None
    turn_idx: int
    timestamp: str | None


class ToolMessage(BaseModel):
    id: str
    role: Literal["tool"] = "tool"
    content: str | None
    requestor: Requestor = "assistant"
    error: bool = False
    turn_idx: int
    timestamp: str | None


Message = UserMessage | AssistantMessage | ToolMessage


class Tau2Action(BaseModel):
    action_id: str
    requestor: Requestor = "assistant"
    name: str
    arguments: dict[str, Any]
    info: str | None = None
    compare_args: list[str] | None = None


class DBCheck(BaseModel):
    db_match: bool
    db_reward: float


class ActionCheck(BaseModel):
    action: Tau2Action
    action_match: bool
    action_reward: float


class CommunicateCheck(BaseModel):
    info: str
    met: bool
    justification: str


class RewardInfo(BaseModel):
    reward: float
    db_check: DBCheck | None = None
    env_assertions: list[dict[str, Any]] | None = None
    action_checks: list[ActionCheck] | None = None
    nl_assertions: list[dict[str, Any]] | None = None
    communicate_checks: list[CommunicateCheck] | None = None
    reward_basis: list[str] = Field(default_factory=lambda: list(REWARD_BASIS))
    reward_breakdown: dict[str, float] | None = None
    info: dict[str, Any] | None = None


class SimulationRun(BaseModel):
    id: str
    task_id: str
    timestamp: str
    start_time: str
    end_time: str
    duration: float
    termination_reason: str
    agent_cost: float | None = None
    user_cost: float | None = None
    reward_info: RewardInfo
    messages: list[Message]
    trial: int
    seed: int
    info: dict[str, Any]


class StructuredUserInstructions(BaseModel):
    domain: str
    reason_for_call: str
    known_info: str | None = None
    unknown_info: str | None = None
    task_instructions: str


class UserScenario(BaseModel):
    persona: str | None = None
    instructions: StructuredUserInstructions | str


class Description(BaseModel):
    purpose: str | None = None
    relevant_policies: str | None = None
    notes: str | None = None


class EnvFunctionCall(BaseModel):
    env_type: Requestor = "assistant"
    func_name: str
    arguments: dict[str, Any]


class InitialState(BaseModel):
    initialization_data: dict[str, Any] | None = None
    initialization_actions: list[EnvFunctionCall] | None = None
    message_history: list[Message] | None = None


class EvaluationCriteria(BaseModel):
    actions: list[Tau2Action] | None = None
    env_assertions: list[dict[str, Any]] | None = None
    communicate_info: list[str] | None = None
    nl_assertions: list[str] | None = None
    reward_basis: list[str] = Field(default_factory=lambda: list(REWARD_BASIS))


class Tau2Task(BaseModel):
    id: str
    description: Description | None = None
    user_scenario: UserScenario
    initial_state: InitialState | None = None
    evaluation_criteria: EvaluationCriteria | None = None


class AgentInfo(BaseModel):
    implementation: str
    llm: str | None = None
    llm_args: dict[str, Any] | None = None


class UserInfo(BaseModel):
    implementation: str
    llm: str | None = None
    llm_args: dict[str, Any] | None = None
    global_simulation_guidelines: str | None = None


class EnvironmentInfo(BaseModel):
    domain_name: str
    policy: str
    tool_defs: dict[str, Any] | None = None


class Info(BaseModel):
    git_commit: str
    num_trials: int
    max_steps: int
    max_errors: int
    user_info: UserInfo
    agent_info: AgentInfo
    environment_info: EnvironmentInfo
    seed: int | None = None


class Results(BaseModel):
    timestamp: str
    info: Info
    tasks: list[Tau2Task]
    simulations: list[SimulationRun]


def write_tau2_results(run: Run, out: Path) -> list[Written]:
    """One results file per domain of the run under `out`."""
    results = {domain: domain_results(run, domain) for domain in run.domains}
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for domain, result in results.items():
        path = out / f"{domain}.json"
        path.write_text(result.model_dump_json(indent=2) + "\n", encoding="utf-8")
        written.append(Written(domain=domain, episodes=len(result.simulations), path=path))
    return written


def domain_results(run: Run, domain: str) -> Results:
    records = run.records_of(domain)
    tasks = run.tasks_of(domain)
    played = sorted({record.task_id for record in records})
    return Results(
        timestamp=run_started(run, records),
        info=run_info(run, domain),
        tasks=[tau2_task(tasks[t]) if t in tasks else unknown_task(t) for t in played],
        simulations=[simulation(run, record) for record in records],
    )


def run_info(run: Run, domain: str) -> Info:
    config = run.config
    return Info(
        git_commit=f"tau-emotion-bench {package_version()}",
        num_trials=config.trials,
        max_steps=config.max_turns,
        max_errors=config.max_tool_calls,
        user_info=UserInfo(
            implementation=config.user,
            llm=config.user_model,
            llm_args={"base_url": config.user_base_url} if config.user_base_url else None,
        ),
        agent_info=AgentInfo(
            implementation=config.agent,
            llm=config.model,
            llm_args={"base_url": config.base_url} if config.base_url else None,
        ),
        environment_info=EnvironmentInfo(domain_name=domain, policy=run.policy_of(domain) or ""),
        seed=config.seed,
    )


def tau2_task(task: Task) -> Tau2Task:
    scenario = task.user_scenario
    instructions = task.instruction
    if task.emotion is not None:
        instructions = f"{instructions}\n\n{task.emotion.instruction}"
    known = "\n".join(f"{name}: {value}" for name, value in scenario.known_info.items())
    setup = [EnvFunctionCall(func_name=a.name, arguments=a.arguments) for a in task.initial_state]
    return Tau2Task(
        id=task.id,
        description=Description(purpose=_purpose(task), notes=_twin_note(task)),
        user_scenario=UserScenario(
            persona=scenario.persona,
            instructions=StructuredUserInstructions(
                domain=task.domain,
                reason_for_call=scenario.reason_for_call,
                known_info=known or None,
                unknown_info=", ".join(scenario.unknown_info) or None,
                task_instructions=instructions,
            ),
        ),
        initial_state=InitialState(initialization_actions=setup) if setup else None,
        evaluation_criteria=EvaluationCriteria(
            actions=gold_actions(task),
            communicate_info=list(task.evaluation.outputs),
            nl_assertions=list(task.evaluation.policy_assertions) or None,
        ),
    )


def unknown_task(task_id: str) -> Tau2Task:
    """A task whose domain is not installed where the run is exported: its id only."""
    return Tau2Task(id=task_id, user_scenario=UserScenario(instructions="(task definition not available)"))


def gold_actions(task: Task) -> list[Tau2Action]:
    return [
        Tau2Action(action_id=f"{action.name}_{index}", name=action.name, arguments=action.arguments)
        for index, action in enumerate(task.evaluation.actions)
    ]


def simulation(run: Run, record: EpisodeRecord) -> SimulationRun:
    started, ended = episode_clock(record)
    fallback = run_started(run, [record])
    usage = record.usage
    return SimulationRun(
        id=f"{record.task_id}-trial-{record.trial}",
        task_id=record.task_id,
        timestamp=ended or fallback,
        start_time=started or fallback,
        end_time=ended or fallback,
        duration=float(record.timings.get("episode_s", 0.0)),
        termination_reason=TERMINATION_REASONS.get(record.termination, "agent_error"),
        agent_cost=(usage.get("agent") or {}).get("cost_usd"),
        user_cost=(usage.get("user") or {}).get("cost_usd"),
        reward_info=reward_info(run, record),
        messages=tau2_messages(record.timeline()),
        trial=record.trial,
        seed=record.seed,
        info=simulation_info(run, record),
    )


def reward_info(run: Run, record: EpisodeRecord) -> RewardInfo:
    breakdown = record.breakdown
    task = run.tasks_of(record.domain).get(record.task_id)
    parts: dict[str, float] = {}
    db_check = None
    if breakdown.db_match is not None:
        parts["DB"] = float(breakdown.db_match)
        db_check = DBCheck(db_match=breakdown.db_match, db_reward=parts["DB"])
    checks = [
        CommunicateCheck(info=output, met=found, justification=_said(found))
        for output, found in breakdown.outputs_found.items()
    ]
    if checks:
        parts["COMMUNICATE"] = float(all(check.met for check in checks))
    return RewardInfo(
        reward=1.0 if record.reward == 1 else 0.0,
        db_check=db_check,
        action_checks=action_checks(task, record) if task is not None else None,
        communicate_checks=checks or None,
        reward_breakdown=parts or None,
        info={"taue_reward": record.reward, "termination": record.termination, **breakdown.diagnostics},
    )


def action_checks(task: Task, record: EpisodeRecord) -> list[ActionCheck]:
    """Each gold action, matched when the agent made a call with its name and arguments."""
    made = [(call.name, call.arguments) for call in record.tool_log]
    return [
        ActionCheck(action=action, action_match=matched, action_reward=float(matched))
        for action, matched in ((a, (a.name, a.arguments) in made) for a in gold_actions(task))
    ]


def simulation_info(run: Run, record: EpisodeRecord) -> dict[str, Any]:
    failure = run.failures.get(record.key)
    return {
        "domain": record.domain,
        "condition": record.condition,
        "family": record.family,
        "emotion": record.emotion,
        "termination": record.termination,
        "reward": record.reward,
        "failure_category": failure.category if failure else None,
        "failure_labels": failure.labels if failure else [],
        "failure_details": failure.details if failure else {},
        "user_state": record.user_state,
        "usage": record.usage,
        "error": record.error,
    }


def tau2_messages(events: list[Event]) -> list[Message]:
    """The episode as τ²-bench messages: `turn_idx` is the message's position, each tool call an
    assistant message followed by its tool message (same id)."""
    messages: list[Message] = []
    calls = 0
    for event in events:
        at = {"turn_idx": len(messages), "timestamp": event.timestamp}
        if event.kind == "user":
            messages.append(UserMessage(content=event.content, **at))
        elif event.kind == "agent":
            messages.append(AssistantMessage(content=event.content, **at))
        else:
            call = ToolCall(id=f"call_{calls}", name=event.name or "", arguments=event.arguments or {})
            calls += 1
            messages.append(AssistantMessage(content=None, tool_calls=[call], **at))
            messages.append(
                ToolMessage(
                    id=call.id,
                    content=event.output,
                    error=bool(event.error),
                    turn_idx=len(messages),
                    timestamp=event.timestamp,
                )
            )
    return messages


def _purpose(task: Task) -> str:
    if task.emotion is None:
        return f"τ-Emotion-Bench {task.domain} task, neutral user"
    return f"τ-Emotion-Bench {task.domain} task, user condition {task.condition_id}"


def _twin_note(task: Task) -> str | None:
    if task.neutral_twin_of:
        return f"neutral twin of {task.neutral_twin_of}"
    return f"its neutral twin is {task.twin}" if task.twin else None


def _said(found: bool) -> str:
    return "said in an agent message" if found else "never said in an agent message"
