"""The results file: one JSON line per episode, keyed by (run, task, trial), append-only.

Each record is written with a single `write` on a file opened for appending,
so a killed process loses at most the line being written; a torn last line is dropped when the file is
reopened. At the end of a run the file is rewritten in (task, trial) order through a temporary
file and an atomic rename, so two runs with the same seed produce the same records apart from the
wall-clock fields (`EpisodeRecord.without_clock`: each record's `timings`, each event's `timestamp` and
`duration_ms`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from taue.contracts.episode import Event, LoggedCall, Message, RewardBreakdown
from taue.runner.timeline import timeline
from taue.scorer.metrics import EpisodeOutcome

RESULTS = "results.jsonl"
ERRORS = "errors.jsonl"
CONFIG = "run.json"


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
    def __init__(self, run_dir: Path) -> None:
        self.run_dir = run_dir
        self.path = run_dir / RESULTS
        self.errors_path = run_dir / ERRORS

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
