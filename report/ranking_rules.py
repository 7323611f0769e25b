"""Which runs may share a leaderboard: the same plan, the same user and limits, each run once.

Two runs are ranked together only when they played the same planned (task, trial) set — same task
set, split, task selection, condition, trials — with the same user backend and model and the same
limits; a run that plays part of the plan (`--limit`, `--task-id`, one shard) is ranked only with
`allow_partial`. Every rule fails closed with one line naming the runs and the difference.
"""

from __future__ import annotations

import json
from typing import Any

from taue.report.run_data import RunData

PLAN_SETTINGS = ("task_set_hash", "domains", "split", "tasks", "condition", "trials", "limit", "task_ids")
USER_SETTINGS = ("user", "user_model", "enable_thinking")
LIMIT_SETTINGS = ("max_turns", "max_tool_calls", "turn_timeout", "max_tool_calls_per_turn", "strict_policy")
COMPARED = (*PLAN_SETTINGS, *USER_SETTINGS, *LIMIT_SETTINGS)


class RankingError(ValueError):
    """Runs that cannot be ranked on one board: one line."""


def check_rankable(runs: list[RunData], allow_partial: bool = False) -> None:
    """Raise `RankingError` for a run id that appears twice, a partial run (unless `allow_partial`),
    or two runs that differ in a compared setting."""
    _check_run_ids(runs)
    if not allow_partial:
        for run in runs:
            if (why := partial(run)) is not None:
                raise RankingError(f"{run.name} is a partial run ({why}); --allow-partial ranks it")
    first = runs[0] if runs else None
    for run in runs[1:]:
        assert first is not None
        differing = [key for key in COMPARED if _setting(first, key) != _setting(run, key)]
        if differing:
            key = differing[0]
            raise RankingError(
                f"{first.name} and {run.name} are not comparable: {key} {_shown(_setting(first, key))} vs "
                f"{_shown(_setting(run, key))}; rank them on separate boards"
            )


def partial(run: RunData) -> str | None:
    """Why a run plays only part of its task set's plan, or None."""
    config = run.config
    if config is None:
        return "no run.json"
    if config.limit is not None:
        return f"--limit {config.limit}"
    if config.task_ids is not None:
        return f"--task-id: {len(config.task_ids)} tasks"
    if config.shard is not None:
        return f"shard {config.shard[0]}/{config.shard[1]}"
    return None


def run_id(run: RunData) -> str | None:
    """The run's id: its signed manifest's (the merged runs' ids, sorted, for a merge), else run.json's."""
    from taue.runner.run_seal import SealError, stored_seal

    try:
        seal = stored_seal(run.path)
    except SealError:
        seal = None
    if seal is not None:
        return "+".join(sorted(m.run_id for m in seal.manifests))
    return run.config.run_id if run.config else None


def _check_run_ids(runs: list[RunData]) -> None:
    seen: dict[str, str] = {}
    for run in runs:
        ids = run_id(run)
        if ids is None:
            continue
        for one in ids.split("+"):
            if one in seen:
                raise RankingError(
                    f"run id {one} appears twice ({seen[one]} and {run.name}): a run is ranked once"
                )
            seen[one] = run.name


def _setting(run: RunData, key: str) -> Any:
    return getattr(run.config, key, None) if run.config is not None else None


def _shown(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= 40 else text[:37] + "..."
