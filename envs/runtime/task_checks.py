"""Checks a task must pass beyond its schema: it replays, its twin matches, its scenario is usable.

Used by `taue tasks validate` and by the tests of every domain.
"""

from __future__ import annotations

import json
import re

from taue.contracts.tasks import Action, Task, matches, twin_mismatches
from taue.contracts.text import contains, tokens
from taue.envs.runtime.database import EpisodeDatabase
from taue.envs.runtime.domain import Domain
from taue.envs.runtime.execution import ToolCall, execute_logged
from taue.envs.runtime.goal_targets import ambiguous_targets

_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_CURRENCY = "$€£"


async def replay(
    domain: Domain, actions: list[Action], db: EpisodeDatabase | None = None
) -> tuple[EpisodeDatabase, list[ToolCall]]:
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
    problems.extend(output_problems(task))
    problems.extend(target_problems(domain, task))
    for goal in task.user_scenario.goals:
        for evidence in goal.evidence:
            if goal.kind == "action" and not goal.refusal_expected and evidence.lower() not in writes_text:
                problems.append(f"goal {goal.id}: evidence {evidence!r} is in no ground-truth write")
            if goal.kind == "information" and evidence.lower() not in outputs:
                problems.append(f"goal {goal.id}: evidence {evidence!r} is not an expected output")
    overlap = set(task.user_scenario.known_info) & set(task.user_scenario.discoverable)
    if overlap:
        problems.append(f"facts both known and discoverable: {sorted(overlap)}")
    return problems


def target_problems(domain: Domain, task: Task) -> list[str]:
    """Goal targets the scripted user could never see confirmed, or could confuse with each other."""
    gold = [a for a in task.evaluation.actions if a.name in domain.write_tools]
    problems = list(ambiguous_targets(task.user_scenario.goals))
    for goal in task.user_scenario.goals:
        for target in goal.targets:
            if target.tool not in domain.write_tools:
                problems.append(f"goal {goal.id}: target tool {target.tool!r} is no write tool")
            done = any(matches(target, a.name, a.arguments) for a in gold)
            if goal.refusal_expected and done:
                problems.append(f"goal {goal.id}: refusal expected, but a ground-truth write carries it out")
            if not goal.refusal_expected and not done:
                problems.append(f"goal {goal.id}: no ground-truth write matches its target {target.tool}")
    return problems


def output_problems(task: Task) -> list[str]:
    """Expected outputs that could match by accident (too short) or that the user says themself."""
    scenario = task.user_scenario
    user_texts = [
        task.instruction,
        scenario.reason_for_call,
        *scenario.known_info.values(),
        *(goal.request for goal in scenario.goals),
    ]
    user_tokens = [tokens(text) for text in user_texts]
    problems = []
    for output in task.evaluation.outputs:
        if too_short(output):
            problems.append(
                f"output {output!r} is too short to show anything: it needs 4 characters, or a number "
                "of 2 or more digits written with a currency sign, a decimal point or 3 digits"
            )
        if any(contains(words, output) for words in user_tokens):
            problems.append(f"output {output!r} occurs in the user's own scenario text")
    return problems


def too_short(output: str) -> bool:
    """Whether an expected output could match an agent message by accident (docs/tasks.md).

    Judged on its tokens as the scorer reads them: it needs at least 4 characters once normalised
    ("HAT042", "1568", "speed test"), or a single number of at least 2 digits written with context:
    a currency sign, a decimal point or at least 3 digits ("$85", "8.71", "470").
    """
    words = tokens(output)
    if len(" ".join(words)) >= 4:
        return False
    if len(words) != 1 or not _NUMBER.fullmatch(words[0]) or _digits(words[0]) < 2:
        return True
    written = output.strip()
    return not (any(sign in written for sign in _CURRENCY) or "." in written or _digits(written) >= 3)


def _digits(text: str) -> int:
    return sum(c.isdigit() for c in text)


async def task_set_problems(domain: Domain, tasks: list[Task]) -> list[str]:
    problems = [f"twins: {p}" for p in twin_mismatches(tasks)]
    for task in tasks:
        problems.extend(f"task {task.id!r}: {p}" for p in await task_problems(domain, task))
    return problems
