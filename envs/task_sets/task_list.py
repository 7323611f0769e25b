"""`taue import tau-bench --tasks FILE`: the tasks of a split from one JSON file of its own.

The file holds either a list of published tasks (`{user_id, instruction, actions, outputs, ...}`, each
keeping its position as its index) or a list of recorded τ-bench trajectories (`{task_id, trial,
reward, info: {task: {...}}, traj}`, as τ-bench publishes its historical runs): then each distinct
`info.task` is one task, its index the trajectory's `task_id`, in `task_id` order. So the τ-bench
test tasks, published only inside recorded runs, import with the ids a test split file would give.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from taue.envs.task_sets.published import (
    MAX_TASK_FILE_BYTES,
    PublishedTask,
    check_size,
    validate_tasks,
)
from taue.envs.task_sets.storage import TaskSetError

TRAJECTORY_KEYS = ("traj", "info")
"""A list item with either key is read as a recorded trajectory."""


def read_task_list(path: Path) -> list[tuple[int, PublishedTask]]:
    """(original index, task) for every task of the file, in index order."""
    if not path.is_file():
        raise TaskSetError(f"--tasks {path}: no such file")
    check_size(path, MAX_TASK_FILE_BYTES)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise TaskSetError(f"{path}: not valid JSON: {exc}") from None
    if not isinstance(raw, list) or not raw:
        found = "an empty array" if raw == [] else type(raw).__name__
        raise TaskSetError(
            f"{path}: expected a JSON array of published tasks or of recorded trajectories, found {found}"
        )
    if any(isinstance(item, dict) and any(k in item for k in TRAJECTORY_KEYS) for item in raw):
        return _from_trajectories(raw, path)
    return list(enumerate(validate_tasks(raw, str(path))))


def _from_trajectories(raw: list[Any], path: Path) -> list[tuple[int, PublishedTask]]:
    tasks: dict[int, tuple[int, Any]] = {}
    for position, item in enumerate(raw):
        where = f"{path}: trajectory {position}"
        if not isinstance(item, dict):
            raise TaskSetError(f"{where}: expected an object, found {type(item).__name__}")
        task_id, info = item.get("task_id"), item.get("info")
        if not isinstance(task_id, int) or isinstance(task_id, bool) or task_id < 0:
            raise TaskSetError(f"{where}: task_id must be a non-negative integer, found {task_id!r}")
        task = info.get("task") if isinstance(info, dict) else None
        if not isinstance(task, dict):
            raise TaskSetError(f"{where} (task_id {task_id}): no info.task object (the τ-bench task)")
        if task_id in tasks and tasks[task_id][1] != task:
            raise TaskSetError(
                f"{where}: task_id {task_id} holds a different info.task than trajectory {tasks[task_id][0]}"
            )
        tasks.setdefault(task_id, (position, task))
    found = []
    for index in sorted(tasks):
        position, task = tasks[index]
        try:
            found.append((index, PublishedTask.model_validate(task)))
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in err['loc']) or '(task)'}: {err['msg']}" for err in exc.errors()
            )
            raise TaskSetError(
                f"{path}: trajectory {position} (task_id {index}): info.task: {problems}"
            ) from None
    return found
