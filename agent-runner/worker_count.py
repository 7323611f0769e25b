"""How many worker processes a run gets under `taue run --workers auto` (light: the CLI imports it to
write its help, so it loads nothing else)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from taue.contracts.run import RunConfig

WORKER_CONCURRENCY = 32
"""Episodes in flight each worker gets under `--workers auto`: a worker costs its start-up (seconds of
CPU) and its own servers, which fewer episodes in flight do not pay back (docs/performance.md)."""
WAITING_WORKER_CONCURRENCY = 64
"""The same for episodes that wait on a model or a remote agent: each takes little CPU, so a second
worker pays back only from about 128 in flight (at 64 it matched one process's rate at 1.7x the CPU
per episode; docs/performance.md)."""


def episodes_wait(agent: str, user: str) -> bool:
    """Whether the run's episodes spend their time waiting: on a model (the model agent, the LLM
    user) or on a remote agent."""
    return agent == "model" or user == "llm" or "://" in agent


def episodes_in_flight(
    concurrency: int, trials: int, domains: int, limit: int | None, task_ids: list[str] | None
) -> int:
    """The episodes a run can have in flight: --concurrency, fewer in a run of few tasks (--limit N per
    domain, or the --task-id list)."""
    tasks_at_most = limit * domains if limit else len(task_ids) if task_ids else None
    return concurrency if tasks_at_most is None else min(concurrency, tasks_at_most * trials)


def auto_workers(in_flight: int, waiting: bool, cores: int) -> int:
    """`--workers auto`: one per usable core, each with WORKER_CONCURRENCY episodes in flight,
    WAITING_WORKER_CONCURRENCY when the episodes wait (`episodes_wait`)."""
    per_worker = WAITING_WORKER_CONCURRENCY if waiting else WORKER_CONCURRENCY
    return max(1, min(cores, in_flight // per_worker))


def usable_cores() -> int:
    """The cores this process may run on, fewer when a cgroup CPU quota (a container's) says so."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    try:
        quota, period = Path("/sys/fs/cgroup/cpu.max").read_text().split()
        if quota != "max":
            cores = min(cores, max(1, -(-int(quota) // int(period))))
    except (OSError, ValueError):
        pass
    return cores


def run_workers(requested: int | None, concurrency: int, config: RunConfig) -> int:
    """The worker processes of a run: `requested` (`--workers N`), or under `--workers auto` (None)
    `auto_workers` over the episodes the run can have in flight at `concurrency`, on the usable cores."""
    if requested is not None:
        return requested
    domains, limit, task_ids = len(config.domains), config.limit, config.task_ids
    in_flight = episodes_in_flight(concurrency, config.trials, domains, limit, task_ids)
    return auto_workers(in_flight, episodes_wait(config.agent, config.user), usable_cores())
