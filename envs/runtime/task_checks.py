"""Checks a task must pass beyond its schema: it replays, its twin matches, its scenario is usable.

Used by `taue tasks validate` and by the tests of every domain.
"""

from __future__ import annotations

import json

from envs.runtime.domain import Domain
from envs.runtime.execution import ToolCall, execute_logged
from envs.runtime.tasks import Task, twin_mismatches


async def replay(domain: Domain, actions: list, db=None) -> tuple[object, list[ToolCall]]:
    """Run `actions` in order on `db` (a fresh episode database when None); returns (db, log)."""
    db = db or domain.new_database()
    log: list[ToolCall] = []
    for action in actions:
        await execute_logged(domain, db, log, action.name, dict(action.arguments), None)
    return db, log


async def task_problems(domain: Domain, task: Task) -> list[str]:
    """Everything wrong with one task; empty when it is usable."""
    problems = []
    if task.domain not in (domain.name, domain.base):
        problems.append(f"domain is {task.domain!r}, expected {domain.name!r}")
    unknown = [a.name for a in task.initial_state + task.evaluation.actions if a.name not in domain.mcp_tools]
    if unknown:
        problems.append(f"unknown tools {unknown}")
        return problems
    db, log = await replay(domain, task.initial_state + task.evaluation.actions)
    db.close()
    for call in log:
        if not call.ok:
            problems.append(f"action {call.seq} {call.name} fails: {call.output}")
    problems.extend(_scenario_problems(domain, task))
    return problems


def _scenario_problems(domain: Domain, task: Task) -> list[str]:
    problems = []
    writes_text = json.dumps(
        [a.arguments for a in task.evaluation.actions if a.name in domain.write_tools]
    ).lower()
    outputs = [o.lower() for o in task.evaluation.outputs]
    for output in task.evaluation.outputs:
        if "," in output:
            problems.append(f"output {output!r} contains a comma and could never match")
    for goal in task.user_scenario.goals:
        for evidence in goal.evidence:
            if goal.kind == "action" and evidence.lower() not in writes_text:
                problems.append(f"goal {goal.id}: evidence {evidence!r} is in no ground-truth write")
            if goal.kind == "information" and evidence.lower() not in outputs:
                problems.append(f"goal {goal.id}: evidence {evidence!r} is not an expected output")
    overlap = set(task.user_scenario.known_info) & set(task.user_scenario.discoverable)
    if overlap:
        problems.append(f"facts both known and discoverable: {sorted(overlap)}")
    return problems


async def task_set_problems(domain: Domain, tasks: list[Task]) -> list[str]:
    problems = [f"twins: {p}" for p in twin_mismatches(tasks)]
    for task in tasks:
        problems.extend(f"task {task.id!r}: {p}" for p in await task_problems(domain, task))
    return problems
