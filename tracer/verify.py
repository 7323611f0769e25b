"""Verification and filtering (stage 6): what a candidate task must pass to be kept.

Per task: the reference trajectory replays without an error and the task passes the checks every
task file must pass (`taue tasks validate`: scenario, outputs, targets specific and unique); every
argument of every gold call is derivable (it is a fact the user knows, or it occurs in the output of
an earlier gold call); no near-duplicate of a task already kept. Per set: a careful agent with the
scripted user solves each task (`careful_failures`), else it is replaced.
"""

from __future__ import annotations

import json
import re
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
    decided = set(task.provenance.stages.get("decided", [])) if task.provenance else set()
    missing = []
    for index, action in enumerate(task.evaluation.actions):
        seen = known + " " + " ".join(call.output for call in log[: offset + index]).lower()
        for name, value in scalars(action.arguments):
            if f"{action.name}.{name.split('.')[0].split('[')[0]}" in decided:
                continue
            if not _derivable(value, seen):
                missing.append(f"{action.name}.{name}={value!r}")
    return missing


TOOL_WORD = re.compile(r"[a-z]+(?:_[a-z]+)+")
"""A tool value in snake_case ("credit_card", "follow_up"): the customer says it in words."""


def _derivable(value: Any, seen: str) -> bool:
    """Whether the value occurs in what the agent has seen; a tool value said in words ("credit
    card", "follow-up"; `refine.customer_words`) counts, the agent maps it to the tool's value."""
    if isinstance(value, bool) or value in ("", None):
        return True
    text = value if isinstance(value, str) else json.dumps(value)
    if text.lower() in seen:
        return True
    said = rf"\b{text.replace('_', '[ -]')}\b"
    return bool(TOOL_WORD.fullmatch(text)) and re.search(said, seen) is not None


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
    from taue.contracts.run import RunConfig
    from taue.envs.runtime.server import DomainServer
    from taue.runner.embedded import Services
    from taue.runner.runner import execute_run

    server = DomainServer(domain, tasks=tasks)
    await server.start()
    try:
        with tempfile.TemporaryDirectory(prefix="taue-tracer-") as scratch:
            config = RunConfig(
                run="tracer-verify", domains=[domain.name], agent=CAREFUL_AGENT, trials=1, seed=seed
            )
            services = Services(
                env={domain.name: server.control_url}, tokens={domain.name: str(server.admin_token)}
            )
            report = await execute_run(config, Path(scratch), services, concurrency=16)
    finally:
        await server.stop()
    if report.failed:
        raise RuntimeError(f"{report.failed} verification episodes failed for infrastructure reasons")
    return {record.task_id: record.reward for record in report.records if record.reward != 1}


async def verify_domain(domain: Domain, rebuild: bool = False) -> list[str]:
    """Everything wrong with a domain's committed sets (empty when they pass)."""
    from taue.contracts.tasks import twin_mismatches
    from taue.tracer.stats import read_report, set_problems

    problems = set_problems(domain) + twin_mismatches(domain.tasks)
    from taue.tracer.lints import instruction_lints

    for task in [*domain.tasks, *domain.train_tasks]:
        reason = await task_rejection(domain, task)
        if reason is not None:
            problems.append(f"{task.id}: {reason}")
        problems += [f"{task.id}: {lint}" for lint in instruction_lints(task)]
    if rebuild:
        problems += await _rebuild_differences(domain, read_report(domain))
    return problems


async def _rebuild_differences(domain: Domain, report: dict[str, Any]) -> list[str]:
    from taue.tracer.build import EVAL_FILE, TRAIN_FILE, Builder, task_file_text, train_file_text

    if "seed" not in report:
        return ["no tracer_report.json: the sets were not built by the Tracer"]
    kept = report.get("kept", {})
    result = await Builder(domain, report["seed"]).build(kept.get("eval", 0) // 2, kept.get("train", 0))
    fresh = {EVAL_FILE: task_file_text(result.eval_tasks), TRAIN_FILE: train_file_text(result.train_tasks)}
    return [
        f"{name} differs from a fresh build with seed {report['seed']}"
        for name, text in fresh.items()
        if (domain.folder / name).read_text(encoding="utf-8") != text
    ]
