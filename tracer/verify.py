"""Verification and filtering (stage 6): what a candidate task must pass to be kept.

Per task: the reference trajectory replays without an error and the task passes the checks every
task file must pass (`taue tasks validate`: scenario, outputs, targets specific and unique); every
argument of every gold call is derivable (it is a fact the user knows, or it occurs in the output of
an earlier gold call); no near-duplicate of a task already kept. Per set: a careful agent with the
scripted user solves each task (`careful_failures`), else it is replaced.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from taue.contracts.tasks import Task
from taue.envs.runtime.domain import Domain
from taue.envs.runtime.goal_targets import scalars
from taue.envs.runtime.task_checks import replay, task_problems

CAREFUL_AGENT = "careful-readback"


async def task_rejection(domain: Domain, task: Task) -> str | None:
    """Why the task cannot be kept (a short reason the builder counts), or None."""
    problems = await task_problems(domain, task)
    if problems:
        return _reason(problems[0])
    underived = await underivable_arguments(domain, task)
    if underived:
        return "argument not derivable"
    return None


def _reason(problem: str) -> str:
    if "fails:" in problem:
        return "gold call fails"
    if "could match both" in problem:
        return "goals not specific"
    return "task check: " + problem.split(":")[0].split("'")[0].strip()


async def underivable_arguments(domain: Domain, task: Task) -> list[str]:
    """Gold-call argument values that neither the user's facts nor an earlier call's output give."""
    _, log = await replay(domain, task.initial_state + task.evaluation.actions)
    offset = len(task.initial_state)
    scenario = task.user_scenario
    known = " ".join([*scenario.known_info.values(), *(g.request for g in scenario.goals)]).lower()
    missing = []
    for index, action in enumerate(task.evaluation.actions):
        seen = known + " " + " ".join(call.output for call in log[: offset + index]).lower()
        for name, value in scalars(action.arguments):
            if not _derivable(value, seen):
                missing.append(f"{action.name}.{name}={value!r}")
    return missing


def _derivable(value: Any, seen: str) -> bool:
    if isinstance(value, bool) or value in ("", None):
        return True
    text = value if isinstance(value, str) else json.dumps(value)
    return text.lower() in seen


def duplicate_key(task: Task, write_tools: frozenset[str]) -> str:
    """Tasks with the same writes (or the same refused requests) for the same customer are duplicates."""
    writes = [(a.name, a.arguments) for a in task.evaluation.actions if a.name in write_tools]
    refused = [
        (t.tool, t.arguments) for g in task.user_scenario.goals if g.refusal_expected for t in g.targets
    ]
    asked = [g.request for g in task.user_scenario.goals if g.kind == "information"]
    return json.dumps([writes, refused, asked], sort_keys=True)


async def careful_failures(domain: Domain, tasks: list[Task], seed: int) -> dict[str, int]:
    """Task id -> reward, for every task the careful agent with the scripted user does not solve."""
    from taue.envs.runtime.server import DomainServer
    from taue.runner.embedded import Services
    from taue.runner.runner import RunConfig, execute_run

    server = DomainServer(domain, tasks=tasks)
    await server.start()
    try:
        with tempfile.TemporaryDirectory(prefix="taue-tracer-") as scratch:
            config = RunConfig(
                run="tracer-verify", domains=[domain.name], agent=CAREFUL_AGENT, trials=1, seed=seed
            )
            services = Services(env={domain.name: server.control_url})
            report = await execute_run(config, Path(scratch), services, concurrency=16)
    finally:
        await server.stop()
    if report.failed:
        raise RuntimeError(f"{report.failed} verification episodes failed for infrastructure reasons")
    return {record.task_id: record.reward for record in report.records if record.reward != 1}
