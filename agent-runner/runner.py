"""A run: every (task, trial) of the chosen domains, concurrently, resumable.

Episodes already in the results file are skipped, so rerunning a command completes only what is
missing. Infrastructure failures are retried with backoff; if they persist, the episode is logged
to errors.jsonl and left missing (a rerun retries it), never recorded as the agent's failure.
"""

from __future__ import annotations

import asyncio
import json
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
from agent_runner.control import ControlClient, InfraError
from agent_runner.episode import Harness, Limits, episode_seed, run_episode
from agent_runner.results import CONFIG, EpisodeRecord, ResultsFile
from pydantic import BaseModel

from envs.runtime.domain import Domain
from envs.runtime.registry import get_domain
from envs.runtime.tasks import Task
from scorer.scorer import Scorer
from simulator.session import Simulator
from simulator.taxonomy import condition

RETRY_DELAYS = (0.2, 1.0, 3.0)


class RunConfig(BaseModel):
    """What defines a run; stored as run.json and checked when a run directory is reused."""

    run: str
    domains: list[str]
    agent: str
    user: str = "scripted"
    trials: int = 3
    seed: int = 0
    tasks: str = "all"
    """Which tasks: all, emotional (no neutral twins) or neutral (twins only)."""
    task_ids: list[str] | None = None
    condition: str | None = None
    """Play every emotional task under this emotion condition instead of its own (a sweep)."""
    max_turns: int = 200
    max_tool_calls: int = 200
    turn_timeout: float = 120.0


@dataclass
class Plan:
    domains: dict[str, Domain]
    episodes: list[tuple[Domain, Task, int]] = field(default_factory=list)


def with_condition(task: Task, condition_id: str) -> Task:
    """The task played under another emotion condition (neutral twins stay neutral)."""
    if task.emotion is None:
        return task
    chosen = condition(condition_id)
    emotion = task.emotion.model_copy(update=chosen.model_dump())
    return task.model_copy(update={"emotion": emotion})


def select_tasks(domain: Domain, which: str, task_ids: list[str] | None) -> list[Task]:
    tasks = domain.tasks
    if which == "emotional":
        tasks = [t for t in tasks if t.emotion is not None]
    elif which == "neutral":
        tasks = [t for t in tasks if t.emotion is None]
    elif which != "all":
        raise ValueError(f"--tasks must be all, emotional or neutral, not {which!r}")
    if task_ids is not None:
        tasks = [t for t in tasks if t.id in set(task_ids)]
    return tasks


def make_plan(config: RunConfig) -> Plan:
    domains = {name: get_domain(name) for name in config.domains}
    plan = Plan(domains=domains)
    for domain in domains.values():
        for task in select_tasks(domain, config.tasks, config.task_ids):
            if config.condition is not None:
                task = with_condition(task, config.condition)
            plan.episodes.extend((domain, task, trial) for trial in range(config.trials))
    plan.episodes.sort(key=lambda item: (item[1].id, item[2]))
    if config.task_ids is not None:
        known = {task.id for _, task, _ in plan.episodes}
        missing = sorted(set(config.task_ids) - known)
        if missing:
            raise ValueError(f"unknown task ids: {', '.join(missing)}")
    return plan


def prepare_run_dir(run_dir: Path, config: RunConfig) -> None:
    """Create the run directory, or check that an existing one holds the same run."""
    run_dir.mkdir(parents=True, exist_ok=True)
    path = run_dir / CONFIG
    stored = config.model_dump(mode="json")
    if path.exists():
        previous = json.loads(path.read_text())
        if previous != stored:
            changed = sorted(k for k in stored if previous.get(k) != stored[k])
            raise ValueError(
                f"{run_dir} holds a run with different settings ({', '.join(changed)}); "
                "use another --out or the same settings"
            )
    else:
        path.write_text(json.dumps(stored, indent=2, sort_keys=True) + "\n")


@dataclass
class RunReport:
    planned: int
    skipped: int
    completed: int
    failed: int
    records: list[EpisodeRecord]


async def execute_run(
    config: RunConfig,
    run_dir: Path,
    env_urls: dict[str, str],
    concurrency: int,
    on_progress: Callable[[int, int], None] | None = None,
    admin_token: str | None = None,
) -> RunReport:
    """Run every missing episode of `config` against domain servers at `env_urls` (control URLs)."""
    plan = make_plan(config)
    prepare_run_dir(run_dir, config)
    results = ResultsFile(run_dir)
    results.repair()
    done = {record.key for record in results.load()}
    todo = [item for item in plan.episodes if (item[1].id, item[2]) not in done]
    limits_ = Limits(config.max_turns, config.max_tool_calls, config.turn_timeout)
    size = min(concurrency, 16) + 4  # httpcore scans every pooled connection per request: keep it small
    pool = httpx2.Limits(max_connections=size, max_keepalive_connections=size)
    transport = httpx2.AsyncHTTPTransport(limits=pool)
    completed = failed = 0
    async with httpx2.AsyncClient(transport=transport, timeout=httpx2.Timeout(60.0)) as http:
        harness = Harness(
            run=config.run,
            agent=config.agent,
            user=config.user,
            controls={name: ControlClient(env_urls[name], http, admin_token) for name in plan.domains},
            simulator=Simulator(),
            scorer=Scorer(),
            limits=limits_,
            transport=transport,
        )
        semaphore = asyncio.Semaphore(concurrency)

        async def one(domain: Domain, task: Task, trial: int) -> None:
            nonlocal completed, failed
            async with semaphore:
                record = await _with_retries(harness, domain, task, trial, config.seed, results)
            if record is None:
                failed += 1
            else:
                results.append(record)
                completed += 1
            if on_progress is not None:
                on_progress(completed + failed, len(todo))

        await asyncio.gather(*(one(*item) for item in todo))
    records = results.compact()
    return RunReport(len(plan.episodes), len(plan.episodes) - len(todo), completed, failed, records)


async def _with_retries(
    harness: Harness, domain: Domain, task: Task, trial: int, run_seed: int, results: ResultsFile
) -> EpisodeRecord | None:
    seed = episode_seed(run_seed, task.id, trial)
    errors: list[str] = []
    for delay in (*RETRY_DELAYS, None):
        try:
            return await run_episode(harness, domain, task, trial, seed)
        except (InfraError, httpx2.HTTPError, OSError) as exc:
            errors.append(f"{type(exc).__name__}: {exc}")
        except Exception as exc:  # a harness bug must not pass for the agent's failure
            errors.append("".join(traceback.format_exception_only(exc)).strip())
        if delay is not None:
            await asyncio.sleep(delay)
    results.append_error({"task_id": task.id, "trial": trial, "termination": "infra_error", "errors": errors})
    return None


def run_summary_rows(records: list[EpisodeRecord]) -> list[dict[str, Any]]:
    return [record.outcome().model_dump() for record in records]
