"""The published τ-bench-family task shape, and reading it from JSON task files.

A published task is `{user_id, instruction, actions: [{name, kwargs}], outputs}` plus, in
τ-Emotion-Bench, five emotion fields (`emotion_family`, `emotion_leaf`, `dimension_politeness`,
`dimension_urgency`, `dimension_trust_in_agent`). τ-bench also has an `annotator`, which is ignored.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from taue.envs.task_sets.storage import TaskSetError

MAX_TASK_FILE_BYTES = 64 * 1024 * 1024
MAX_TASKS = 100_000
EMOTION_FIELDS = (
    "emotion_family",
    "emotion_leaf",
    "dimension_politeness",
    "dimension_urgency",
    "dimension_trust_in_agent",
)


class PublishedAction(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    kwargs: dict[str, Any] = Field(default_factory=dict)


class PublishedTask(BaseModel):
    model_config = ConfigDict(extra="forbid")

    user_id: str
    instruction: str
    actions: list[PublishedAction]
    outputs: list[str] = Field(default_factory=list)
    emotion_family: str | None = None
    emotion_leaf: str | None = None
    dimension_politeness: str | None = None
    dimension_urgency: str | None = None
    dimension_trust_in_agent: str | None = None
    annotator: str | int | None = None
    """τ-bench's annotator id: read and ignored."""

    @property
    def has_emotion(self) -> bool:
        return any(getattr(self, name) is not None for name in EMOTION_FIELDS)


def check_size(path: Path, limit: int) -> None:
    size = path.stat().st_size
    if size > limit:
        raise TaskSetError(f"{path}: {size} bytes is more than the limit of {limit} bytes")


def validate_tasks(raw: list[Any], source: str) -> list[PublishedTask]:
    """Published tasks from parsed values; errors name the file and the task's index."""
    if len(raw) > MAX_TASKS:
        raise TaskSetError(f"{source}: {len(raw)} tasks is more than the limit of {MAX_TASKS}")
    tasks = []
    for index, item in enumerate(raw):
        try:
            tasks.append(PublishedTask.model_validate(item))
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in err['loc']) or '(task)'}: {err['msg']}" for err in exc.errors()
            )
            raise TaskSetError(f"{source}: task {index}: {problems}") from None
    return tasks


def read_json_tasks(path: Path) -> list[PublishedTask]:
    """A JSON task file: an array of published tasks."""
    check_size(path, MAX_TASK_FILE_BYTES)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise TaskSetError(f"{path}: not valid JSON: {exc}") from None
    if not isinstance(raw, list):
        raise TaskSetError(f"{path}: expected a JSON array of tasks, found {type(raw).__name__}")
    return validate_tasks(raw, str(path))
