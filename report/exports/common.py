"""What both exports read from a run directory: its settings, its records grouped by domain, the
tasks they played, each failed episode's attribution and each episode's clock."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import UTC
from functools import cached_property
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from pydantic import BaseModel, ValidationError

from taue.contracts.run import EpisodeRecord, RunConfig
from taue.contracts.tasks import Task, TaskFileError
from taue.report.failures import Failure, attribute_records, installed_tasks
from taue.report.run_data import open_infra_errors
from taue.runner.results import CONFIG, ResultsFile
from taue.runner.results import load_run as read_run
from taue.runner.storage import RunLocation, StorageError

PACKAGE = "tau-emotion-bench"


class ExportError(ValueError):
    """A run directory that cannot be exported; the message says why in one line."""


class Written(BaseModel):
    """One file an export wrote: a domain's episodes."""

    domain: str
    episodes: int
    path: Path


@dataclass
class Run:
    """A run directory, loaded once for an export."""

    path: RunLocation
    config: RunConfig
    records: list[EpisodeRecord]
    infra_errors: list[tuple[str, str, int]] = field(default_factory=list)
    """(domain, task, trial) of each episode that failed for infrastructure reasons and was not
    rerun since (errors.jsonl): it has no record."""
    _tasks: dict[str, dict[str, Task]] = field(default_factory=dict)

    @property
    def domains(self) -> list[str]:
        """The run's domains that have records, in the run's order."""
        present = {record.domain for record in self.records}
        return [name for name in self.config.domains if name in present]

    def records_of(self, domain: str) -> list[EpisodeRecord]:
        """The domain's records in (task, trial) order."""
        return sorted((r for r in self.records if r.domain == domain), key=lambda r: r.key)

    def tasks_of(self, domain: str) -> dict[str, Task]:
        """The installed tasks of a domain (or task set) in the run's split, by id; empty when the
        domain is not installed here."""
        if domain not in self._tasks:
            self._tasks[domain] = installed_tasks(domain, self.config.split)
        return self._tasks[domain]

    def policy_of(self, domain: str) -> str | None:
        """The policy the domain's agents are given, or None when the domain is not installed here."""
        from taue.envs.runtime.discovery import get_domain

        try:
            return get_domain(domain).policy
        except (KeyError, TaskFileError):
            return None

    @cached_property
    def failures(self) -> dict[tuple[str, int], Failure]:
        """Each failed episode's attribution, by (task, trial)."""
        found = attribute_records(self.records, self.config.split)
        return {(failure.task_id, failure.trial): failure for failure in found}

    def stable_id(self, *parts: str) -> str:
        """An id derived from the run and `parts`: the same for every export of the run."""
        text = "\0".join((self.config.run, *parts))
        return hashlib.sha256(text.encode()).hexdigest()[:22]


def load_run(run_dir: Path | str | RunLocation) -> Run:
    """The run in `run_dir` (a folder or an object-store URL), or an `ExportError` when it is not a
    run directory with records."""
    try:
        return _load_run(RunLocation.parse(run_dir))
    except StorageError as exc:
        raise ExportError(str(exc)) from None


def _load_run(run_dir: RunLocation) -> Run:
    if not run_dir.exists():
        raise ExportError(run_dir.absent)
    results = ResultsFile(run_dir)
    if not results.exists():
        raise ExportError(f"{results.shown} does not exist (not a run directory)")
    if not run_dir.exists(CONFIG):
        raise ExportError(f"{run_dir.shown(CONFIG)} does not exist (not a run directory)")
    try:
        run = read_run(run_dir)
    except StorageError:
        raise
    except (ValidationError, ValueError) as exc:
        raise ExportError(f"{run_dir} holds an unreadable run: {_first_line(exc)}") from None
    if not run.records:
        raise ExportError(f"{results.shown} holds no episodes")
    assert run.config is not None  # checked above
    if unknown := [name for name in run.config.domains if not _installed(name)]:
        raise ExportError(
            f"{run_dir.shown(CONFIG)} names {unknown[0]!r}, neither a registered domain nor an imported "
            "task set: not exported"
        )
    return Run(
        path=run_dir, config=run.config, records=run.records, infra_errors=open_infra_errors(run, run.records)
    )


def _installed(name: str) -> bool:
    """A registered domain or a task set under the task-set folder (exports name files after it)."""
    from taue.envs.runtime.discovery import domain_names
    from taue.envs.task_sets.loader import is_task_set

    return name in domain_names() or is_task_set(name)


def episode_clock(record: EpisodeRecord) -> tuple[str | None, str | None]:
    """When the episode's first and last events happened (ISO-8601 UTC), or None for records made
    before events carried a clock."""
    stamps = [event.timestamp for event in record.timeline() if event.timestamp]
    return (min(stamps), max(stamps)) if stamps else (None, None)


def run_started(run: Run, records: list[EpisodeRecord]) -> str:
    """The earliest event time of `records`; for records without a clock, the results file's
    modification time (the one field that then depends on the file rather than on the run)."""
    starts = [start for start, _ in map(episode_clock, records) if start]
    if starts:
        return min(starts)
    modified = ResultsFile(run.path).modified().astimezone(UTC)
    return modified.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def first_user_message(record: EpisodeRecord) -> str:
    return next((m.content for m in record.transcript if m.role == "user"), "")


def package_version() -> str:
    try:
        return version(PACKAGE)
    except PackageNotFoundError:
        return "unknown"


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
