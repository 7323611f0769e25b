"""The task schema (docs/tasks.md) and task-file loading.

A task file is a JSON array of `Task` objects. Every emotional task has a neutral twin in the same
file: identical goal, scenario, initial state and evaluation, with `emotion` null and
`neutral_twin_of` naming the emotional task.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from taue.contracts.emotions import FAMILY_OF, Politeness, Trust, Urgency, condition_id

GoalKind = Literal["action", "information"]
"""An `action` goal is a change the service must make; an `information` goal, something to be told."""


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Action(Strict):
    """One tool call: a ground-truth step or an initial-state step."""

    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)


class Target(Strict):
    """A write that carries out (part of) an action goal: a successful call of `tool` whose arguments
    include every key argument (equal values) is the service's confirmation of it."""

    tool: str
    arguments: dict[str, Any] = Field(
        min_length=1, description="Key arguments: the ones that identify this goal among the task's goals."
    )


class Goal(Strict):
    """One thing the user wants, in the order the user brings it up.

    An `action` goal is done when the service has confirmed a write matching each of its `targets`
    (the runner passes the successful writes of each agent turn to the user as notifications) and the
    agent has told the user so; a `refusal_expected` action goal is settled instead when the agent refuses it
    giving one of the `refusal_reason` phrases. An `information` goal is done when an agent statement
    contains every evidence string (its evidence are the task's expected outputs).
    """

    id: str
    kind: GoalKind = "action"
    request: str = Field(description="How the user asks for it, first person.")
    evidence: list[str] = Field(
        default_factory=list,
        description="Information goals: what the agent must tell the user. Action goals: what a report "
        "of the write would name (kept for readers; the target decides).",
    )
    targets: list[Target] = Field(
        default_factory=list,
        description="Action goals: the writes that do it (all of them, e.g. 'cancel both').",
    )
    refusal_expected: bool = Field(
        default=False, description="The policy forbids it: the gold end state leaves it undone."
    )
    refusal_reason: list[str] = Field(
        default_factory=list,
        description="Refusal-expected goals: phrases of the policy reason; a refusal naming one is accepted.",
    )

    @model_validator(mode="after")
    def _kind_fields(self) -> Goal:
        if self.kind == "information" and not self.evidence:
            raise ValueError("an information goal needs evidence (what the agent must say)")
        if self.kind == "action" and not self.targets:
            raise ValueError("an action goal needs targets (the writes that do it)")
        if self.refusal_expected and (self.kind != "action" or not self.refusal_reason):
            raise ValueError("a refusal-expected goal must be an action goal with a refusal_reason")
        return self


class UserScenario(Strict):
    persona: str
    reason_for_call: str
    known_info: dict[str, str] = Field(
        default_factory=dict, description="Facts the user can state when asked: fact name -> value."
    )
    volunteered: list[str] = Field(
        default_factory=list, description="Names of known facts the user states in the first message."
    )
    unknown_info: list[str] = Field(default_factory=list, description="Facts the user does not know.")
    discoverable: dict[str, str] = Field(
        default_factory=dict,
        description="Facts the agent's tools can find (name -> value); asking the user for them is needless.",
    )
    goals: list[Goal] = Field(min_length=1)
    preferences: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _volunteered_are_known(self) -> UserScenario:
        missing = [name for name in self.volunteered if name not in self.known_info]
        if missing:
            raise ValueError(f"volunteered facts {missing} are not in known_info")
        return self


class Emotion(Strict):
    family: str
    emotion: str
    politeness: Politeness
    urgency: Urgency
    trust: Trust
    instruction: str = Field(description="How the user feels and behaves, second person.")

    @model_validator(mode="after")
    def _emotion_in_family(self) -> Emotion:
        family = FAMILY_OF.get(self.emotion)
        if family is None:
            raise ValueError(f"unknown emotion {self.emotion!r}")
        if family != self.family:
            raise ValueError(f"emotion {self.emotion!r} belongs to family {family!r}, not {self.family!r}")
        return self

    @property
    def condition_id(self) -> str:
        return condition_id(self.emotion, self.politeness, self.urgency, self.trust)


class Evaluation(Strict):
    actions: list[Action] = Field(description="Ground-truth tool calls, replayed to get the expected state.")
    outputs: list[str] = Field(default_factory=list, description="Strings the agent must tell the user.")
    policy_assertions: list[str] = Field(default_factory=list)


class Provenance(Strict):
    source: str = Field(description="Where the task came from: 'hand-written', a file path, 'tracer'.")
    index: int | None = None
    seed: int | None = None
    original_family: str | None = Field(
        default=None, description="Imported tasks: the published emotion family, where it differed."
    )
    flags: list[str] = Field(default_factory=list, description="What an importer changed, and why.")
    stages: dict[str, Any] = Field(
        default_factory=dict,
        description="Tracer tasks: each stage's decisions (intents, workflow paths, customer, feeling, "
        "condition), enough to see how the task was made.",
    )


class Task(Strict):
    id: str
    domain: str
    user_scenario: UserScenario
    instruction: str = Field(description="The user's goal in natural language, for an LLM user.")
    emotion: Emotion | None = None
    initial_state: list[Action] = Field(default_factory=list)
    evaluation: Evaluation
    neutral_twin_of: str | None = Field(
        default=None, description="Set on a neutral twin: its emotional task."
    )
    twin: str | None = Field(default=None, description="The id of the other task of the twin pair.")
    provenance: Provenance = Field(default_factory=lambda: Provenance(source="hand-written"))

    @model_validator(mode="after")
    def _twin_fields_agree(self) -> Task:
        if self.neutral_twin_of is not None and self.emotion is not None:
            raise ValueError("a neutral twin (neutral_twin_of set) must have emotion null")
        return self

    @property
    def condition_id(self) -> str | None:
        return None if self.emotion is None else self.emotion.condition_id


class TaskFileError(ValueError):
    """A task file that cannot be used; the message names the file, the task and the field."""


def parse_tasks(raw: Any, source: str) -> list[Task]:
    if not isinstance(raw, list):
        raise TaskFileError(f"{source}: expected a JSON array of tasks, got {type(raw).__name__}")
    tasks = []
    for index, item in enumerate(raw):
        task_id = item.get("id", f"#{index}") if isinstance(item, dict) else f"#{index}"
        try:
            tasks.append(Task.model_validate(item))
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in err['loc']) or '(task)'}: {err['msg']}" for err in exc.errors()
            )
            raise TaskFileError(f"{source}: task {task_id!r}: {problems}") from None
    ids = [task.id for task in tasks]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise TaskFileError(f"{source}: duplicate task ids {duplicates}")
    return tasks


def load_tasks(path: Path) -> list[Task]:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise TaskFileError(f"{path}: not valid JSON: {exc}") from None
    except UnicodeDecodeError as exc:
        raise TaskFileError(f"{path}: not UTF-8 text: {exc.reason} at byte {exc.start}") from None
    except OSError as exc:
        raise TaskFileError(f"cannot read {path}: {exc.strerror or type(exc).__name__}") from None
    return parse_tasks(raw, str(path))


def twin_mismatches(tasks: list[Task]) -> list[str]:
    """Problems with the twin links of a task list (empty when every pair matches)."""
    by_id = {task.id: task for task in tasks}
    problems = []
    for task in tasks:
        if task.emotion is None:
            continue
        twin = by_id.get(task.twin or "")
        if twin is None:
            problems.append(f"task {task.id!r}: neutral twin {task.twin!r} not found")
            continue
        if twin.neutral_twin_of != task.id or twin.emotion is not None:
            problems.append(f"task {task.id!r}: {twin.id!r} is not its neutral twin")
        for field in ("domain", "user_scenario", "initial_state", "evaluation", "instruction"):
            if getattr(task, field) != getattr(twin, field):
                problems.append(f"task {task.id!r}: twin {twin.id!r} differs in {field}")
    for task in tasks:
        if task.neutral_twin_of is not None and task.neutral_twin_of not in by_id:
            problems.append(f"task {task.id!r}: emotional twin {task.neutral_twin_of!r} not found")
    return problems


def neutral_twin(task: Task, twin_id: str | None = None) -> Task:
    """The neutral twin of an emotional task (what a task author writes beside it)."""
    return task.model_copy(
        update={
            "id": twin_id or f"{task.id}-neutral",
            "emotion": None,
            "neutral_twin_of": task.id,
            "twin": task.id,
        }
    )


def matches(target: Target, tool: str, arguments: dict[str, Any]) -> bool:
    """Whether a successful call `tool(arguments)` is the write that `target` describes."""
    return tool == target.tool and all(
        name in arguments and same_value(arguments[name], value) for name, value in target.arguments.items()
    )


def same_value(a: Any, b: Any) -> bool:
    if isinstance(a, int | float) and isinstance(b, int | float) and not isinstance(a, bool | type(None)):
        return float(a) == float(b)
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
