"""Our database state -> the published JSON layout (one file per table), for comparison with the
original implementation.

A state is the control port's canonical state (`{table: [row, ...]}` in primary-key order, every
column present). Each row becomes a model instance and then its published record with
`Model.to_record()`; an "object" table is `{primary key: record}`, an "array" table `[record, ...]`.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

from taue.envs.runtime.database import primary_key, table_name
from taue.envs.runtime.discovery import get_domain
from taue.envs.runtime.domain import Domain
from taue.envs.task_sets.loader import table_models
from taue.envs.task_sets.storage import TaskSetError, read_info

Layout = dict[str, str]


def layouts(domain: Domain) -> Layout:
    """Table -> "object" | "array": as imported for a task set; for a built-in domain, "array" for the
    tables its models module lists in `ARRAY_TABLES` (telehealth's telemetry tables), else "object"."""
    if domain.name != domain.base:
        return dict(read_info(domain.folder).tables)
    shapes = {}
    for model in domain.tables:
        name = table_name(model)
        module = importlib.import_module(model.__module__)
        arrays: frozenset[str] = getattr(module, "ARRAY_TABLES", frozenset())
        shapes[name] = "array" if name in arrays else "object"
    return shapes


def published_tables(domain: Domain, state: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """Table name -> the published JSON value of that table."""
    models = table_models(get_domain(domain.base))
    shapes = layouts(domain)
    missing = sorted(set(models) - set(state))
    if missing:
        raise TaskSetError(f"the state has no tables {missing} of the {domain.base} domain")
    files: dict[str, Any] = {}
    for name, model in sorted(models.items()):
        key = primary_key(model)
        records = [(row[key], model(**row).to_record()) for row in state[name]]
        if shapes.get(name, "object") == "array":
            files[name] = [record for _, record in records]
        else:
            files[name] = dict(records)
    return files


def seed_state(domain: Domain) -> dict[str, list[dict[str, Any]]]:
    """The canonical state of a fresh episode database (no task applied)."""
    db = domain.new_database()
    try:
        return json.loads(db.canonical_state())
    finally:
        db.close()


def write_tables(out_dir: Path, files: dict[str, Any]) -> list[Path]:
    """Write `<table>.json` files (4-space indent, non-ASCII kept) into `out_dir`."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, value in files.items():
        path = out_dir / f"{name}.json"
        path.write_text(json.dumps(value, indent=4, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(path)
    return written
