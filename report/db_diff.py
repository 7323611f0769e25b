"""Which database rows an episode left different from the task's expected end state.

Records hold no database, only whether it matched. Both end states are rebuilt by replay, which the
domains' determinism makes exact: the expected one from the task's setup and gold actions, the
agent's from the task's setup and the agent's write calls in the order the server logged them
(a failed call changes nothing, as in the episode). Rows are compared in the comparable state the
scorer hashes, so ids the episode created are named by content on both sides.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel

from taue.contracts.run import EpisodeRecord
from taue.contracts.tasks import Action, Task
from taue.envs.runtime.discovery import get_domain
from taue.envs.runtime.domain import Domain
from taue.envs.runtime.task_checks import replay


class RowDiff(BaseModel):
    table: str
    key: str
    """The row's primary key value."""
    expected: dict[str, Any] | None
    """The row in the expected end state; None when the agent made a row the task does not."""
    actual: dict[str, Any] | None
    """The row the agent left; None when an expected row is missing."""
    fields: list[str]
    """The columns that differ (every column for a missing or extra row)."""


State = dict[str, dict[str, Any]]
"""table -> primary key -> row."""


class DiffCache:
    """End states by the actions that made them, computed once per report: trials that made the
    same writes (often none) share one replay."""

    def __init__(self) -> None:
        self._states: dict[tuple[str, str], State] = {}

    async def end_state(self, domain: Domain, actions: list[Action]) -> State:
        key = (domain.name, json.dumps([a.model_dump(mode="json") for a in actions], sort_keys=True))
        if key not in self._states:
            self._states[key] = await _end_state(domain, actions)
        return self._states[key]


async def db_diff(record: EpisodeRecord, task: Task, cache: DiffCache) -> list[RowDiff]:
    """The rows that differ between the expected end state and the one the agent left."""
    domain = get_domain(record.domain)
    writes = [
        Action(name=call.name, arguments=call.arguments)
        for call in record.tool_log
        if call.name in domain.write_tools and call.name not in domain.terminal_tools
    ]
    gold = [a for a in task.evaluation.actions if a.name not in domain.terminal_tools]
    expected = await cache.end_state(domain, [*task.initial_state, *gold])
    actual = await cache.end_state(domain, [*task.initial_state, *writes])
    return _differing_rows(expected, actual)


async def _end_state(domain: Domain, actions: list[Action]) -> State:
    """The state after replaying `actions` on a fresh database."""
    db, _ = await replay(domain, actions)
    try:
        state = json.loads(db.comparable_state())
        keys = {table: text.key for table, text in db.seed.texts.items()}
    finally:
        db.close()
    return {
        table: {str(row.get(keys.get(table, ""), i)): row for i, row in enumerate(rows)}
        for table, rows in state.items()
    }


def _differing_rows(expected: State, actual: State) -> list[RowDiff]:
    diffs = []
    for table in sorted(set(expected) | set(actual)):
        want, got = expected.get(table, {}), actual.get(table, {})
        for key in sorted(set(want) | set(got)):
            before, after = want.get(key), got.get(key)
            if before == after:
                continue
            columns = sorted(set(before or {}) | set(after or {}))
            fields = [c for c in columns if (before or {}).get(c) != (after or {}).get(c)]
            diffs.append(RowDiff(table=table, key=key, expected=before, actual=after, fields=fields))
    return diffs
