"""The results file: one JSON line per episode, keyed by (run, task, trial), append-only.

Each record is written with a single `write` on a file opened for appending,
so a killed process loses at most the line being written; a torn last line is dropped when the file is
reopened. At the end of a run the file is rewritten in (task, trial) order through a temporary
file and an atomic rename (a failure, such as a full disk, leaves the file as it was and removes the
temporary file), so two runs with the same seed produce the same records apart from the
wall-clock fields (`EpisodeRecord.without_clock`: each record's `timings`, each event's `timestamp` and
`duration_ms`).

A line in the middle that is not a record (or, in errors.jsonl, not a JSON object) stops every reader
with a `ResultsFileError` naming the file and the line; `drop_bad_lines` (`taue run --repair`) drops
such lines after keeping a copy of the file. Writes that fail (a full disk, no permission) raise a
one-line `RunDirError` naming the path.

A run in an object store (`s3://…`, agent-runner/storage.py) cannot append: `ResultsFile` then gives
an `ObjectResults`, which writes each record as its own object and compacts them at the end.
"""

from __future__ import annotations

import errno
import json
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

from pydantic import ValidationError

from taue.contracts.run import CONFIG, ERRORS, RESULTS, EpisodeRecord, LoadedRun, RunConfig
from taue.runner.storage import ObjectRun, RunDirError, RunLocation, file_fault, write_atomically

EPISODES = "episodes"
"""In an object store: the folder of one object per finished episode, until they are compacted."""
ERROR_OBJECTS = "errors"
"""In an object store: the folder of one object per infrastructure failure (errors.jsonl's lines)."""


def write_config(location: RunLocation, stored: dict[str, Any]) -> None:
    """Write run.json (sorted, indented); a resume that changes nothing writes nothing (on a full disk
    the run then gets as far as its results)."""
    text = json.dumps(stored, indent=2, sort_keys=True) + "\n"
    if not location.exists(CONFIG) or location.read_text(CONFIG) != text:
        location.write_text(CONFIG, text)


def stored_config(location: RunLocation) -> RunConfig:
    """The run.json of a run directory; a damaged one is a one-line error naming it."""
    try:
        return RunConfig.model_validate_json(location.read_text(CONFIG))
    except ValidationError as exc:
        problem = exc.errors()[0]
        where = ".".join(str(part) for part in problem["loc"])
        first = f"{where}: {problem['msg']}" if where else problem["msg"]
        raise ValueError(
            f"{location.shown(CONFIG)} is not a run's settings ({first}); move it away or use another --out"
        ) from None


def load_run(run_dir: str | Path | RunLocation) -> LoadedRun:
    """What a run directory (or object-store prefix) holds: run.json (None without one), the records
    and the entries of errors.jsonl. A `ResultsFileError` names a bad line, a `ValueError` a damaged
    run.json, a `StorageError` an unreachable store."""
    location = RunLocation.parse(run_dir)
    results = ResultsFile(location)
    config = stored_config(location) if location.exists(CONFIG) else None
    return LoadedRun(shown=str(location), config=config, records=results.load(), errors=results.errors())


class ResultsFileError(ValueError):
    """A results or errors file with a line (or an object) that is not what it should hold; the one-line
    message names the file, the line and what to do (`taue run --repair`)."""


REPAIR_HINT = (
    "rerun the command that made the run with --repair to drop the bad lines (a backup is kept) "
    "and run their episodes again"
)


@dataclass(frozen=True)
class Dropped:
    """What `drop_bad_lines` removed from one file (or folder of objects), and where the original is."""

    shown: str
    count: int
    backup: str


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
        """The entries of errors.jsonl (a torn last line left out); a `ResultsFileError` for a bad line."""
        if not self.errors_path.exists():
            return []
        lines, _ = split_lines(self.errors_path.read_bytes())
        return [_entry(line, f"{self.errors_path}, line {number}") for number, line in enumerate(lines, 1)]

    def replace(self, records: list[EpisodeRecord]) -> None:
        """Make `records` the whole content, in (task, trial) order."""
        self.path.unlink(missing_ok=True)
        for record in records:
            self.append(record)
        self.compact()

    def load(self) -> list[EpisodeRecord]:
        """Every complete record, the last one winning for a repeated key; a `ResultsFileError` naming
        the line for one that is not a record (a torn last line, from a killed writer, is left out)."""
        return list({record.key: record for _, record in self.located()}.values())

    def located(self) -> list[tuple[str, EpisodeRecord]]:
        """Every complete record with where it is (`results.jsonl, line N`), repeated keys included."""
        if not self.path.exists():
            return []
        found = []
        with self.path.open("rb") as handle:
            for number, line in enumerate(handle, 1):
                if not line.endswith(b"\n"):
                    break  # a torn final line from an interrupted write
                where = f"{self.path}, line {number}"
                found.append((where, _record(line[:-1], where)))
        return found

    def repair(self) -> None:
        """Before appending: drop torn last lines, and a temporary file a crashed compaction left."""
        try:
            drop_torn_line(self.path)
            drop_torn_line(self.errors_path)
            self.path.with_name(RESULTS + ".tmp").unlink(missing_ok=True)
        except OSError as exc:
            raise file_fault(self.path, exc) from None

    def drop_bad_lines(self) -> list[Dropped]:
        """Drop every line of results.jsonl that is not a record and every line of errors.jsonl that is
        not a JSON object, each file first copied to `<file>.bak-<UTC time>`; what was dropped."""
        checks = ((self.path, _record_problem), (self.errors_path, _entry_problem))
        return [dropped for path, problem in checks if (dropped := _drop_bad_lines(path, problem))]

    def append(self, record: EpisodeRecord) -> None:
        self._append(self.path, record.model_dump_json())

    def append_error(self, entry: dict[str, Any]) -> None:
        self._append(self.errors_path, json.dumps(entry, sort_keys=True))

    def _append(self, path: Path, text: str) -> None:
        try:
            append_line(path, text)
        except OSError as exc:
            raise file_fault(path, exc) from None

    def compact(self) -> list[EpisodeRecord]:
        """Rewrite the file sorted by (task, trial), atomically; returns the records. On a failure (a
        full disk) the file is left as it was, without a temporary file beside it."""
        records = sorted(self.load(), key=lambda r: r.key)
        write_atomically(self.path, (record.model_dump_json().encode() + b"\n" for record in records))
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
        return [_entry(text, self.location.shown(name)) for name, text in data.items()]

    def load(self) -> list[EpisodeRecord]:
        return self._load(self.location.list(EPISODES))

    def located(self) -> list[tuple[str, EpisodeRecord]]:
        return self._located(self.location.list(EPISODES))

    def _load(self, episodes: list[str]) -> list[EpisodeRecord]:
        return list({record.key: record for _, record in self._located(episodes)}.values())

    def _located(self, episodes: list[str]) -> list[tuple[str, EpisodeRecord]]:
        found = []
        if self.location.exists(RESULTS):
            lines, _ = split_lines(self.location.read_bytes(RESULTS))
            for number, line in enumerate(lines, 1):
                where = f"{self.shown}, line {number}"
                found.append((where, _record(line, where)))
        for name, data in self.location.read_many(episodes).items():
            where = self.location.shown(name)
            found.append((where, _record(data, where)))
        return found

    def repair(self) -> None:
        return None  # objects are written whole or not at all

    def drop_bad_lines(self) -> list[Dropped]:
        """Drop the bad lines of results.jsonl and the bad episode and error objects, each first copied
        under `bak-<UTC time>/`."""
        backup = f"bak-{_stamp()}"
        dropped = []
        if self.location.exists(RESULTS):
            data = self.location.read_bytes(RESULTS)
            lines, _ = split_lines(data)
            kept = [line for line in lines if _record_problem(line) is None]
            if len(kept) < len(lines):
                self.location.write_bytes(f"{backup}/{RESULTS}", data)
                self.location.write_bytes(RESULTS, b"".join(line + b"\n" for line in kept))
                count = len(lines) - len(kept)
                dropped.append(Dropped(self.shown, count, self.location.shown(f"{backup}/{RESULTS}")))
        for folder, problem in ((EPISODES, _record_problem), (ERROR_OBJECTS, _entry_problem)):
            objects = self.location.read_many(self.location.list(folder))
            bad = [name for name, data in objects.items() if problem(data) is not None]
            for name in bad:
                self.location.write_bytes(f"{backup}/{name}", objects[name])
            self.location.delete(bad)
            if bad:
                dropped.append(Dropped(self.location.shown(folder), len(bad), self.location.shown(backup)))
        return dropped

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


def _record_problem(line: bytes) -> str | None:
    """Why a line is not an episode record (None when it is one)."""
    try:
        EpisodeRecord.model_validate_json(line)
    except ValidationError as exc:
        return _first_problem(exc)
    return None


def _record(line: bytes, where: str) -> EpisodeRecord:
    try:
        return EpisodeRecord.model_validate_json(line)
    except ValidationError as exc:
        raise ResultsFileError(
            f"{where}: not an episode record ({_first_problem(exc)}); {REPAIR_HINT}"
        ) from None


def _entry_problem(line: bytes) -> str | None:
    """Why a line of errors.jsonl is not an entry (a JSON object); None when it is one."""
    try:
        entry = json.loads(line)
    except ValueError as exc:  # UnicodeDecodeError too
        return f"invalid JSON: {exc}"
    return None if isinstance(entry, dict) else f"a JSON {type(entry).__name__}, not an object"


def _entry(line: bytes, where: str) -> dict[str, Any]:
    problem = _entry_problem(line)
    if problem is not None:
        raise ResultsFileError(f"{where}: not an error entry ({problem}); {REPAIR_HINT}")
    return json.loads(line)


def _first_problem(exc: ValidationError) -> str:
    errors = exc.errors()
    first = errors[0]
    where = ".".join(str(part) for part in first["loc"])
    more = f"; {len(errors) - 1} more" if len(errors) > 1 else ""
    message = re.sub(r" at line 1 column (\d+)", r" at column \1", first["msg"])  # lines are one line
    return f"{where + ': ' if where else ''}{message}{more}"


def split_lines(data: bytes) -> tuple[list[bytes], bytes]:
    """The complete lines of JSON-lines data (without their newline) and a torn last line (or b"")."""
    *lines, torn = data.split(b"\n")
    return lines, torn


def _stamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")


def _drop_bad_lines(path: Path, problem: Callable[[bytes], str | None]) -> Dropped | None:
    """Rewrite `path` without its bad complete lines (and without a torn last one), after copying it to
    `<path>.bak-<UTC time>`; None, and nothing written, when every complete line is good."""
    if not path.exists():
        return None
    data = path.read_bytes()
    lines, _ = split_lines(data)
    kept = [line for line in lines if problem(line) is None]
    if len(kept) == len(lines):
        return None
    backup = path.with_name(f"{path.name}.bak-{_stamp()}")
    while backup.exists():
        backup = backup.with_name(backup.name + "-1")
    write_atomically(backup, data)
    try:
        write_atomically(path, b"".join(line + b"\n" for line in kept))
    except RunDirError:
        backup.unlink(missing_ok=True)  # nothing changed: the file is as it was
        raise
    return Dropped(str(path), len(lines) - len(kept), str(backup))


def drop_torn_line(path: Path) -> None:
    """Drop a torn final line of a JSON-lines file so appends start on a line boundary."""
    if not path.exists():
        return
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        with path.open("r+b") as handle:
            handle.truncate(data.rfind(b"\n") + 1)


def append_line(path: Path, text: str) -> None:
    """Append one line with a single `write` on a file opened for appending. A write that does not
    complete (a full disk) is undone, so the file never holds part of a line followed by more lines."""
    data = text.encode("utf-8") + b"\n"
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        size = os.fstat(fd).st_size
        try:
            written = os.write(fd, data)  # in the page cache at once: survives the process being killed
            if written < len(data):  # only part of it fitted
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        except OSError:
            os.ftruncate(fd, size)
            raise
    finally:
        os.close(fd)
