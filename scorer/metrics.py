"""Run-level metrics: Avg@k, pass^k, at-least-k-of-n, average reward, UNSATISFIED rate, the episodes
with policy violations, breakdowns.

pass^k uses τ-bench's unbiased estimator: for a task with c successes in n trials,
C(c, k) / C(n, k), averaged over tasks.

The headline is over the emotional tasks (outcomes with a condition); neutral twins get their own
block, and `emotion_delta` pairs each emotional task with its neutral twin (named
`<emotional id>-neutral`): the mean of (emotional − neutral) pass^1 over the pairs, with a
bootstrap percentile interval over resampled pairs. A run of neutral tasks only has them as its
headline (`"headline": "neutral"`).
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Callable, Iterable
from math import comb
from statistics import fmean
from typing import Any

from taue.contracts.run import EpisodeOutcome, RunMetrics

NEUTRAL_SUFFIX = "-neutral"
RESAMPLES = 2000
LEVEL = 0.95


def pass_hat_k(successes: int, trials: int, k: int) -> float:
    return comb(successes, k) / comb(trials, k) if trials >= k else 0.0


def summarize(outcomes: Iterable[EpisodeOutcome], seed: int = 0) -> RunMetrics:
    """The headline metrics (emotional tasks, or the neutral ones when there are none), the neutral
    block, the emotion delta and the breakdowns of the headline's episodes."""
    outcomes = list(outcomes)
    emotional = [o for o in outcomes if o.emotional]
    neutral = [o for o in outcomes if not o.emotional]
    headline = emotional if emotional or not neutral else neutral
    summary: dict[str, Any] = {
        "headline": "emotional" if headline is emotional else "neutral",
        **group_metrics(headline),
        "neutral": group_metrics(neutral) if neutral else None,
        "emotion_delta": emotion_delta(emotional, neutral, seed),
    }
    keys: dict[str, Callable[[EpisodeOutcome], str | None]] = {
        "by_domain": lambda o: o.domain,
        "by_family": lambda o: o.family or "neutral",  # twins, in a neutral-only run
        "by_politeness": lambda o: o.politeness,
        "by_urgency": lambda o: o.urgency,
        "by_trust": lambda o: o.trust,
    }
    for field, key in keys.items():
        summary[field] = _breakdown(headline, key)
    return RunMetrics.model_validate(summary)


def group_metrics(outcomes: list[EpisodeOutcome]) -> dict[str, Any]:
    """The metrics of one group of episodes (no breakdowns)."""
    by_task = _by_task(outcomes)
    n = min((len(trials) for trials in by_task.values()), default=0)
    successes = {task: _successes(trials) for task, trials in by_task.items()}
    trials = {task: len(ts) for task, ts in by_task.items()}
    return {
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
        "policy_violations": sum(1 for o in outcomes if o.policy_violations),
        "policy_violation_rate": _mean(float(o.policy_violations > 0) for o in outcomes),
    }


def emotion_delta(
    emotional: list[EpisodeOutcome], neutral: list[EpisodeOutcome], seed: int = 0
) -> dict[str, Any] | None:
    """Mean over twin pairs of (emotional − neutral) pass^1 with a 95 % bootstrap interval; None
    without pairs. pass^1 of a task is its share of successful trials."""
    twins = _by_task(neutral)
    deltas = []
    for task, trials in sorted(_by_task(emotional).items()):
        twin = twins.get(task + NEUTRAL_SUFFIX)
        if twin:
            deltas.append(_successes(trials) / len(trials) - _successes(twin) / len(twin))
    if not deltas:
        return None
    low, high = bootstrap_ci(deltas, RESAMPLES, LEVEL, seed)
    return {
        "delta": round(fmean(deltas), 6),
        "ci_low": round(low, 6),
        "ci_high": round(high, 6),
        "pairs": len(deltas),
    }


def bootstrap_ci(values: list[float], resamples: int, level: float, seed: int) -> tuple[float, float]:
    """Percentile interval of the mean of `values` resampled with replacement (seeded)."""
    rng = random.Random(seed)
    means = sorted(fmean(rng.choices(values, k=len(values))) for _ in range(resamples))
    tail = (1 - level) / 2
    low = means[max(0, math.floor(tail * resamples))]
    high = means[min(resamples - 1, math.ceil((1 - tail) * resamples) - 1)]
    return low, high


def _breakdown(outcomes: list[EpisodeOutcome], key: Callable[[EpisodeOutcome], str | None]) -> dict[str, Any]:
    """Metrics per group; outcomes whose key is None (a twin has no politeness) are left out."""
    groups: dict[str, list[EpisodeOutcome]] = defaultdict(list)
    for outcome in outcomes:
        name = key(outcome)
        if name is not None:
            groups[name].append(outcome)
    return {name: group_metrics(group) for name, group in sorted(groups.items())}


def _by_task(outcomes: list[EpisodeOutcome]) -> dict[str, list[EpisodeOutcome]]:
    by_task: dict[str, list[EpisodeOutcome]] = defaultdict(list)
    for outcome in outcomes:
        by_task[outcome.task_id].append(outcome)
    return by_task


def _successes(trials: list[EpisodeOutcome]) -> int:
    return sum(1 for o in trials if o.reward == 1)


def _mean(values: Iterable[float]) -> float:
    values = list(values)
    return round(sum(values) / len(values), 6) if values else 0.0


def _counts(values: Iterable[str]) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for value in values:
        counts[value] += 1
    return dict(sorted(counts.items()))
