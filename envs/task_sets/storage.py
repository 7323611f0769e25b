"""Where task sets live and what `task_set.json` says."""

from __future__ import annotations

import json
import os
import re
import sys
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from taue.contracts.tasks import TaskFileError

INFO_FILE = "task_set.json"
TASKS_FILE = "tasks.json"
POLICY_FILE = "policy.md"
DB_FOLDER = "db"
NAME_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
FOLDER_VARIABLE = "TAUE_TASK_SETS_DIR"
LEGACY_VARIABLE = "TAUE_HOME"
"""Named the task-set folder before; now only `taue episode`'s state folder (default ~/.taue)."""


class TaskSetError(TaskFileError):
    """An import, export or lookup that cannot be done; the message says what and where.

    A `TaskFileError`, so everything that reports an unusable task file reports this too."""


class FlaggedTask(BaseModel):
    """One task the importer changed or could not replay, with the reasons."""

    task_id: str
    source: str
    index: int
    flags: list[str]


class TaskSetInfo(BaseModel):
    """The contents of `task_set.json`."""

    model_config = ConfigDict(extra="forbid")

    name: str
    base_domain: str
    source: Literal["checkout", "folder"] = Field(
        description="checkout: a τ-bench-family repository (Python task files); folder: the JSON layout."
    )
    split: str
    created_from: str = Field(description="The PATH given to `taue import tau-bench`.")
    task_files: list[str] = Field(description="Task files read, relative to created_from.")
    tables: dict[str, Literal["object", "array"]] = Field(
        description="Database files (db/<table>.json) and their top-level JSON shape."
    )
    tasks: int
    emotional: int
    neutral_twins: int
    replay_failures: list[str] = Field(
        default_factory=list, description="Tasks with a ground-truth action that fails on replay."
    )
    flagged: list[FlaggedTask] = Field(default_factory=list)


def task_sets_root() -> Path:
    """The folder holding task sets: `$TAUE_TASK_SETS_DIR` when set, else `./task-sets`.

    A `$TAUE_HOME` that already holds task sets (where earlier versions put them) is still used,
    with a deprecation line on stderr; one that holds none (e.g. only episode state) is not."""
    if explicit := os.environ.get(FOLDER_VARIABLE):
        return Path(explicit)
    legacy = os.environ.get(LEGACY_VARIABLE)
    if legacy and any(Path(legacy).glob(f"*/{INFO_FILE}")):
        _warn_legacy_folder(legacy)
        return Path(legacy)
    return Path("task-sets")


@cache
def _warn_legacy_folder(folder: str) -> None:
    sys.stderr.write(
        f"warning: task sets found in {LEGACY_VARIABLE}={folder}; {LEGACY_VARIABLE} will stop naming the "
        f"task-set folder: set {FOLDER_VARIABLE}={folder} instead\n"
    )


def check_name(name: str) -> str:
    if not NAME_PATTERN.match(name):
        raise TaskSetError(
            f"invalid task set name {name!r}: use lower-case letters, digits, '-' and '_' (at most 64)"
        )
    return name


def task_set_folder(name: str) -> Path:
    return task_sets_root() / check_name(name)


def read_info(folder: Path) -> TaskSetInfo:
    path = folder / INFO_FILE
    try:
        return TaskSetInfo.model_validate_json(path.read_bytes())
    except (OSError, ValidationError) as exc:
        raise TaskSetError(f"{path}: not a usable task set description: {exc}") from None


def write_info(folder: Path, info: TaskSetInfo) -> None:
    text = json.dumps(info.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"
    (folder / INFO_FILE).write_text(text, encoding="utf-8")
