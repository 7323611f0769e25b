"""Run-level metrics: Avg@k, pass^k, at-least-k-of-n, average reward, UNSATISFIED rate, breakdowns.

pass^k uses τ-bench's unbiased estimator: for a task with c successes in n trials,
C(c, k) / C(n, k), averaged over tasks.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from math import comb
from typing import Any

from pydantic import BaseModel


class EpisodeOutcome(BaseModel):
    """The part of an episode record the metrics need."""

    task_id: str
    domain: str
    trial: int
    family: str | None
    reward: int
    termination: str


def pass_hat_k(successes: int, trials: int, k: int) -> float:
    return comb(successes, k) / comb(trials, k) if trials >= k else 0.0


def summarize(outcomes: Iterable[EpisodeOutcome], breakdowns: bool = True) -> dict[str, Any]:
    outcomes = list(outcomes)
    by_task: dict[str, list[EpisodeOutcome]] = defaultdict(list)
    for outcome in outcomes:
        by_task[outcome.task_id].append(outcome)
    n = min((len(trials) for trials in by_task.values()), default=0)
    successes = {task: sum(1 for o in trials if o.reward == 1) for task, trials in by_task.items()}
    trials = {task: len(ts) for task, ts in by_task.items()}
    summary: dict[str, Any] = {
        "episodes": len(outcomes),
        "tasks": len(by_task),
        "trials": n,
        "avg_reward": _mean(o.reward for o in outcomes),
        "avg_at_k": _mean(successes[t] / trials[t] for t in by_task),
        "pass_hat_k": {
            str(k): _mean(pass_hat_k(successes[t], trials[t], k) for t in by_task) for k in range(1, n + 1)
        },
        "at_least_k_of_n": {
            str(k): _mean(float(successes[t] >= k) for t in by_task) for k in range(1, n + 1)
        },
        "unsatisfied_rate": _mean(float(o.termination == "user_unsatisfied") for o in outcomes),
        "terminations": _counts(o.termination for o in outcomes),
    }
    if breakdowns:
        summary["by_domain"] = _breakdown(outcomes, lambda o: o.domain)
        summary["by_family"] = _breakdown(outcomes, lambda o: o.family or "neutral")
    return summary


def _breakdown(outcomes: list[EpisodeOutcome], key) -> dict[str, Any]:
    groups: dict[str, list[EpisodeOutcome]] = defaultdict(list)
    for outcome in outcomes:
        groups[key(outcome)].append(outcome)
    return {name: summarize(group, breakdowns=False) for name, group in sorted(groups.items())}


def _mean(values: Iterable[float]) -> float:
    values = list(values)
    return round(sum(values) / len(values), 6) if values else 0.0


def _counts(values: Iterable[str]) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for value in values:
        counts[value] += 1
    return dict(sorted(counts.items()))
