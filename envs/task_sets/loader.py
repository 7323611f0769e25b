"""A task set as a `Domain`: the base domain's tools and tables over the task set's own database.

`envs.runtime.registry.get_domain(NAME)` falls back to `find_task_set(NAME)`, so a task set runs on
the same servers, runner and scorer as a built-in domain. Domains are cached per folder and
`task_set.json` modification time: one seed image per process, rebuilt after a re-import.
"""

from __future__ import annotations

import dataclasses
import json
from functools import partial
from pathlib import Path
from typing import Any

from sqlmodel import SQLModel

from taue.envs.runtime.database import DomainTable
from taue.envs.runtime.domain import Domain
from taue.envs.task_sets.published import check_size
from taue.envs.task_sets.storage import (
    DB_FOLDER,
    FOLDER_VARIABLE,
    INFO_FILE,
    NAME_PATTERN,
    TaskSetError,
    TaskSetInfo,
    read_info,
    task_sets_root,
)

MAX_DB_FILE_BYTES = 512 * 1024 * 1024
_cache: dict[tuple[str, int], Domain] = {}


def table_models(base: Domain) -> dict[str, type[DomainTable]]:
    """Table name -> model of a domain (each one reads and writes the published records)."""
    models = {}
    for model in base.tables:
        if not issubclass(model, DomainTable):
            raise TaskSetError(f"table {model.__name__} of the {base.name} domain has no published records")
        models[model.__tablename__] = model
    return models


def read_table(path: Path, model: type[DomainTable]) -> tuple[list[SQLModel], str]:
    """The rows of one published table file and its layout: "object" (keyed) or "array"."""
    check_size(path, MAX_DB_FILE_BYTES)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise TaskSetError(f"{path}: not valid JSON: {exc}") from None
    if isinstance(data, dict):
        items: list[tuple[Any, Any]] = list(data.items())
        layout = "object"
    elif isinstance(data, list):
        items, layout = list(enumerate(data)), "array"
    else:
        raise TaskSetError(f"{path}: expected a JSON object or array, found {type(data).__name__}")
    rows: list[SQLModel] = []
    for key, record in items:
        try:
            rows.append(model.from_record(key, record))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise TaskSetError(
                f"{path}: record {key!r} does not fit table {model.__tablename__!r}: "
                f"{type(exc).__name__}: {exc}"
            ) from None
    return rows, layout


def seed_rows(db_folder: Path, tables: dict[str, type[DomainTable]], seed: int = 0) -> list[SQLModel]:
    """Every row of a task set's database (the seed is ignored: the database is fixed)."""
    rows: list[SQLModel] = []
    for name, model in sorted(tables.items()):
        rows.extend(read_table(db_folder / f"{name}.json", model)[0])
    return rows


def build_domain(name: str, folder: Path, info: TaskSetInfo) -> Domain:
    from taue.envs.runtime.discovery import domain_names, get_domain

    if info.base_domain not in domain_names():
        raise TaskSetError(
            f"task set {name!r}: base domain {info.base_domain!r} is not installed "
            f"(installed: {', '.join(domain_names())})"
        )
    base = get_domain(info.base_domain)
    tables = table_models(base)
    return dataclasses.replace(
        base, name=name, folder=folder, generate=partial(seed_rows, folder / DB_FOLDER, tables)
    )


def find_task_set(name: str) -> Domain | None:
    """The task set called `name` under the task-set folder, or None when there is none."""
    if not NAME_PATTERN.match(name):
        return None
    folder = task_sets_root() / name
    try:
        stamp = (folder / INFO_FILE).stat().st_mtime_ns
    except OSError:
        return None
    key = (str(folder.resolve()), stamp)
    if key not in _cache:
        _cache[key] = build_domain(name, folder.resolve(), read_info(folder))
    return _cache[key]


def is_task_set(name: str) -> bool:
    """Whether a task set called `name` exists (its description is read only when it is used)."""
    return bool(NAME_PATTERN.match(name)) and (task_sets_root() / name / INFO_FILE).is_file()


def task_set_names() -> list[str]:
    root = task_sets_root()
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if (p / INFO_FILE).is_file() and NAME_PATTERN.match(p.name))


def require_task_set(name: str) -> Domain:
    """The task set `name`, or a `TaskSetError` saying where it was looked for."""
    domain = find_task_set(name)
    if domain is None:
        known = ", ".join(task_set_names()) or "none"
        raise TaskSetError(
            f"no task set {name!r} in {task_sets_root().resolve()} (set {FOLDER_VARIABLE} to look "
            f"elsewhere); task sets there: {known}"
        )
    return domain
