"""The transcript viewer's data: every episode of the report's runs as a compact JSON object, with
its events in order, its task's gold actions and, for a failed episode whose database did not match,
the rows that differ from the expected end state."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from taue.contracts.run import EpisodeRecord
from taue.report.db_diff import DiffCache, db_diff
from taue.report.failures import Failure, find_task
from taue.report.run_data import RunData

Progress = Callable[[int, int], None]
"""Told (episodes done, episodes in all) as the viewer's data is made."""
MAX_TEXT = 4000
"""Longer tool outputs are cut in the viewer (the results file keeps them whole)."""


async def viewer_episodes(runs: list[RunData], on_progress: Progress | None = None) -> list[dict[str, Any]]:
    """One object per episode of every run, in run order then (task, trial) order."""
    cache = DiffCache()
    total = sum(len(run.records) for run in runs)
    episodes: list[dict[str, Any]] = []
    for index, run in enumerate(runs):
        failures = {(f.task_id, f.trial): f for f in run.failures}
        split = run.split
        for record in sorted(run.records, key=lambda r: r.key):
            episodes.append(await _episode(index, record, failures.get(record.key), split, cache))
            if on_progress is not None:
                on_progress(len(episodes), total)
    return episodes


async def _episode(
    run: int, record: EpisodeRecord, failure: Failure | None, split: str, cache: DiffCache
) -> dict[str, Any]:
    task = find_task(record.domain, record.task_id, split)
    emotion = record.emotion or {}
    diff = []
    if task is not None and record.reward != 1 and record.breakdown.db_match is not True:
        diff = [row.model_dump() for row in await db_diff(record, task, cache)]
    return {
        "run": run,
        "domain": record.domain,
        "task": record.task_id,
        "trial": record.trial,
        "condition": record.condition,
        "emotion": emotion.get("emotion") or "neutral",
        "family": record.family or "neutral",
        "reward": record.reward,
        "termination": record.termination,
        "category": failure.category if failure else None,
        "labels": failure.labels if failure else [],
        "details": failure.details if failure else {},
        "scenario": task.user_scenario.reason_for_call if task else None,
        "gold": [{"name": a.name, "arguments": a.arguments} for a in task.evaluation.actions]
        if task
        else None,
        "outputs": list(task.evaluation.outputs) if task else [],
        "events": [_event(event) for event in record.timeline()],
        "diff": diff,
        "error": record.error,
    }


def _event(event) -> dict[str, Any]:
    data = {"kind": event.kind, "turn": event.turn, "at": event.timestamp}
    if event.kind == "tool_call":
        output = event.output or ""
        data |= {
            "name": event.name,
            "arguments": event.arguments,
            "output": output if len(output) <= MAX_TEXT else output[:MAX_TEXT] + " …",
            "error": event.error,
            "writes": event.writes,
            "ms": event.duration_ms,
        }
    else:
        data["text"] = event.content
    return data
