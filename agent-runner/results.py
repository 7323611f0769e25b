"""The results file: one JSON line per episode, keyed by (run, task, trial), append-only.

Each record is written with a single `write` on a file opened for appending,
so a killed process loses at most the line being written; a torn last line is dropped when the file is
reopened. At the end of a run the file is rewritten in (task, trial) order through a temporary
file and an atomic rename, so two runs with the same seed produce the same records apart from the
wall-clock fields (`EpisodeRecord.without_clock`: each record's `timings`, each event's `timestamp` and
`duration_ms`).

A run in an object store (`s3://…`, agent-runner/storage.py) cannot append: `ResultsFile` then gives
an `ObjectResults`, which writes each record as its own object and compacts them at the end.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

from pydantic import BaseModel, Field

from taue.contracts.episode import Event, LoggedCall, Message, RewardBreakdown
from taue.runner.storage import ObjectRun, RunLocation
from taue.runner.timeline import timeline
from taue.scorer.metrics import EpisodeOutcome

RESULTS = "results.jsonl"
ERRORS = "errors.jsonl"
CONFIG = "run.json"
EPISODES = "episodes"
"""In an object store: the folder of one object per finished episode, until they are compacted."""
ERROR_OBJECTS = "errors"
"""In an object store: the folder of one object per infrastructure failure (errors.jsonl's lines)."""


class EpisodeRecord(BaseModel):
    run: str
    task_id: str
    domain: str
    trial: int
    seed: int
    condition: str | None
    family: str | None
    emotion: dict[str, Any] | None
    agent: str
    user: str
    transcript: list[Message]
    tool_log: list[LoggedCall]
    events: list[Event] = Field(default_factory=list)
    """The episode in order: messages and tool calls with turn and clock (empty in records made
    before events were recorded; `timeline()` rebuilds them without the clock)."""
    termination: str
    reward: int
    breakdown: RewardBreakdown
    user_state: dict[str, Any] = Field(default_factory=dict)
    error: str | None = None
    usage: dict[str, Any] = Field(default_factory=dict)
    """Tokens (and cost where a price table is known) of the agent and the user simulator."""
    timings: dict[str, float] = Field(default_factory=dict)
    """Wall-clock figures; the only part of a record that differs between identical runs."""

    def timeline(self) -> list[Event]:
        """The ordered events, rebuilt from the transcript and the tool log for older records."""
        return self.events or timeline(self.transcript, self.tool_log)

    def without_clock(self) -> dict[str, Any]:
        """The record as a dict without its wall-clock fields: equal for two runs with the same seed."""
        data = self.model_dump(exclude={"timings"})
        for event in data["events"]:
            event.pop("timestamp"), event.pop("duration_ms")
        return data

    @property
    def key(self) -> tuple[str, int]:
        return (self.task_id, self.trial)

    def outcome(self) -> EpisodeOutcome:
        emotion = self.emotion or {}
        return EpisodeOutcome(
            task_id=self.task_id,
            domain=self.domain,
            trial=self.trial,
            condition=self.condition,
            family=self.family,
            politeness=emotion.get("politeness"),
            urgency=emotion.get("urgency"),
            trust=emotion.get("trust"),
            reward=self.reward,
            termination=self.termination,
        )


class ResultsFile:
    """The results of a local run directory; for a run in an object store, an `ObjectResults`
    (which has no `path`, `errors_path` or `run_dir`: those name local files)."""

    def __new__(cls, run_dir: Path | RunLocation) -> ResultsFile:
        if cls is ResultsFile and RunLocation.parse(run_dir).local is None:
            return super().__new__(ObjectResults)
        return super().__new__(cls)

    def __init__(self, run_dir: Path | RunLocation) -> None:
        self.location = RunLocation.parse(run_dir)
        self.run_dir = self.location.local or Path()
        self.path = self.run_dir / RESULTS
        self.errors_path = self.run_dir / ERRORS

    @property
    def shown(self) -> str:
        """The results file as a message names it."""
        return str(self.path)

    def exists(self) -> bool:
        return self.path.exists()

    def modified(self) -> datetime:
        """When a record was last written."""
        return self.location.modified(RESULTS)

    def errors(self) -> list[dict[str, Any]]:
        """The entries of errors.jsonl (torn or unreadable lines left out)."""
        if not self.errors_path.exists():
            return []
        return _entries(self.errors_path.read_text().splitlines())

    def replace(self, records: list[EpisodeRecord]) -> None:
        """Make `records` the whole content, in (task, trial) order."""
        self.path.unlink(missing_ok=True)
        for record in records:
            self.append(record)
        self.compact()

    def load(self) -> list[EpisodeRecord]:
        """Every complete record, the last one winning for a repeated key."""
        if not self.path.exists():
            return []
        records: dict[tuple[str, int], EpisodeRecord] = {}
        with self.path.open("rb") as handle:
            for line in handle:
                if not line.endswith(b"\n"):
                    break  # a torn final line from an interrupted write
                record = EpisodeRecord.model_validate_json(line)
                records[record.key] = record
        return list(records.values())

    def repair(self) -> None:
        drop_torn_line(self.path)

    def append(self, record: EpisodeRecord) -> None:
        append_line(self.path, record.model_dump_json())

    def append_error(self, entry: dict[str, Any]) -> None:
        append_line(self.errors_path, json.dumps(entry, sort_keys=True))

    def compact(self) -> list[EpisodeRecord]:
        """Rewrite the file sorted by (task, trial), atomically; returns the records."""
        records = sorted(self.load(), key=lambda r: r.key)
        temporary = self.path.with_suffix(".jsonl.tmp")
        with temporary.open("wb") as handle:
            for record in records:
                handle.write(record.model_dump_json().encode() + b"\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, self.path)
        return records


class ObjectResults(ResultsFile):
    """The results of a run in an object store, which has no appends: each finished episode is one
    object (`episodes/<task id>.<trial>.json`, one PUT, so a killed process loses at most the
    episodes in flight), each infrastructure failure too (`errors/…`). `compact` writes every record
    to `results.jsonl` in one PUT and only then removes the episode objects it holds; a load reads
    `results.jsonl` and the episode objects, the episode objects winning for a repeated key."""

    location: ObjectRun

    def __init__(self, run_dir: Path | RunLocation) -> None:
        location = RunLocation.parse(run_dir)
        assert isinstance(location, ObjectRun)
        self.location = location

    @property
    def shown(self) -> str:
        return self.location.shown(RESULTS)

    def exists(self) -> bool:
        return self.location.exists(RESULTS) or bool(self.location.list(EPISODES))

    def modified(self) -> datetime:
        stamps = [self.location.modified(name) for name in self.location.list(EPISODES)]
        if self.location.exists(RESULTS):
            stamps.append(self.location.modified(RESULTS))
        return max(stamps)

    def errors(self) -> list[dict[str, Any]]:
        data = self.location.read_many(self.location.list(ERROR_OBJECTS))
        return _entries(text.decode("utf-8") for text in data.values())

    def load(self) -> list[EpisodeRecord]:
        return self._load(self.location.list(EPISODES))

    def _load(self, episodes: list[str]) -> list[EpisodeRecord]:
        records: dict[tuple[str, int], EpisodeRecord] = {}
        if self.location.exists(RESULTS):
            for line in self.location.read_bytes(RESULTS).splitlines():
                record = EpisodeRecord.model_validate_json(line)
                records[record.key] = record
        for data in self.location.read_many(episodes).values():
            record = EpisodeRecord.model_validate_json(data)
            records[record.key] = record
        return list(records.values())

    def repair(self) -> None:
        return None  # objects are written whole or not at all

    def append(self, record: EpisodeRecord) -> None:
        self.location.write_text(episode_object(record.key), record.model_dump_json())

    def append_error(self, entry: dict[str, Any]) -> None:
        task = quote(str(entry.get("task_id", "episode")), safe="")
        name = f"{ERROR_OBJECTS}/{task}.{entry.get('trial', 0)}.{time.time_ns()}.json"
        self.location.write_text(name, json.dumps(entry, sort_keys=True))

    def compact(self) -> list[EpisodeRecord]:
        episodes = self.location.list(EPISODES)
        records = sorted(self._load(episodes), key=lambda r: r.key)
        self._write(records)
        self.location.delete(episodes)  # only now: every one of them is in results.jsonl
        return records

    def replace(self, records: list[EpisodeRecord]) -> None:
        self._write(sorted(records, key=lambda r: r.key))
        self.location.delete(self.location.list(EPISODES))

    def _write(self, records: list[EpisodeRecord]) -> None:
        text = "".join(record.model_dump_json() + "\n" for record in records)
        self.location.write_text(RESULTS, text)


def episode_object(key: tuple[str, int]) -> str:
    """The object of one episode's record in a run in an object store."""
    task_id, trial = key
    return f"{EPISODES}/{quote(task_id, safe='')}.{trial}.json"


def _entries(lines: Iterable[str]) -> list[dict[str, Any]]:
    entries = []
    for line in lines:
        try:
            entry = json.loads(line)
        except ValueError:
            continue  # a torn line
        if isinstance(entry, dict):
            entries.append(entry)
    return entries


def drop_torn_line(path: Path) -> None:
    """Drop a torn final line of a JSON-lines file so appends start on a line boundary."""
    if not path.exists():
        return
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        with path.open("r+b") as handle:
            handle.truncate(data.rfind(b"\n") + 1)


def append_line(path: Path, text: str) -> None:
    """Append one line with a single `write` on a file opened for appending."""
    data = text.encode("utf-8") + b"\n"
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, data)  # in the page cache at once: survives the process being killed
    finally:
        os.close(fd)
