"""CI gating: did a run get worse than a baseline run by more than a threshold, beyond noise?

Both runs are compared **paired per task** (tasks present in both). For each task the metric's
per-task score is computed from its trials; the drop is the mean over paired tasks of
(baseline score − run score), so a positive drop means the run is worse.

- **Bootstrap CI** of the drop: resample the paired tasks with replacement (`resamples` times, a
  seeded `random.Random`), take the mean per-task drop of each resample, report the percentile
  interval at `level`. It says how much the drop could differ on another sample of tasks.
- **Noise band**: how far the drop moves between two runs of the *same* agents on the *same* tasks,
  estimated from the spread of each task's trials within each run. With `v_t` the variance of task
  t's score under a rerun (for Avg@k and average reward, the per-trial sample variance / trials;
  for pass^k, n/(n−1) × the variance of the score when the task's trials are resampled),
  `noise_band = z · sqrt(Σ_t (v_run,t + v_baseline,t)) / T` with z the normal quantile of `level`.
  A deterministic agent with the scripted user repeats its trials exactly: the band is 0.
- **Rule**: the gate fails when `drop > max_drop + noise_band`.

See docs/ci-gating.md.
"""

from __future__ import annotations

import math
from collections import defaultdict
from enum import StrEnum
from pathlib import Path
from statistics import NormalDist, fmean, variance
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from taue.scorer.metrics import bootstrap_ci, pass_hat_k

if TYPE_CHECKING:
    from taue.runner.storage import RunLocation

MUST_MATCH = ("user", "user_model", "condition", "max_turns", "max_tool_calls", "task_set_hash")
"""Run settings that change what is measured: comparing runs that differ here is refused (a missing
task-set hash, in a run made before it was kept, is only a warning)."""
NOT_SETTINGS = ("run", "manifest", "run_id")
"""run.json entries that say nothing about what was measured."""
EPSILON = 1e-9
WORST = 10


class Metric(StrEnum):
    avg_at_k = "avg_at_k"
    pass_hat_k = "pass_hat_k"
    avg_reward = "avg_reward"


class GateError(ValueError):
    """Bad input: a missing or empty run, runs that cannot be compared, an impossible k."""


class Interval(BaseModel):
    low: float
    high: float
    level: float
    resamples: int
    seed: int


class TaskDrop(BaseModel):
    task_id: str
    baseline: float
    run: float
    drop: float


class GateResult(BaseModel):
    metric: str
    k: int | None
    run_dir: str
    baseline_dir: str
    paired_tasks: int
    only_in_run: list[str]
    only_in_baseline: list[str]
    baseline: float
    run: float
    drop: float
    ci: Interval
    noise_band: float
    max_drop: float
    threshold: float
    """The drop above which the gate fails: max_drop + noise_band."""
    failed: bool
    regressed_tasks: int
    """Paired tasks whose score dropped."""
    worst_tasks: list[TaskDrop]
    """The largest per-task drops (at most ten)."""
    warnings: list[str]


class RunTrials(BaseModel):
    path: str
    rewards: dict[str, list[int]]
    """Task id -> rewards of its trials, in trial order."""
    settings: dict[str, Any] | None


def load_run(run_dir: Path | str, role: str) -> RunTrials:
    """The per-task rewards and settings of a run directory (a folder or an object-store URL), or a
    `GateError` saying what is wrong."""
    from taue.runner.storage import RunLocation, StorageError

    try:
        return _read_run(RunLocation.parse(run_dir), role)
    except StorageError as exc:
        raise GateError(f"{role} {exc}") from None


def _read_run(location: RunLocation, role: str) -> RunTrials:
    from taue.runner.results import RESULTS, ResultsFile, ResultsFileError  # records: only here
    from taue.runner.results import load_run as read_run

    results = ResultsFile(location)
    if not location.exists():
        raise GateError(f"{role} {location.absent}")
    if not results.exists():
        raise GateError(f"{role} {location} has no {RESULTS} (is it a `taue run` output?)")
    try:
        run = read_run(location)
    except ResultsFileError as exc:
        raise GateError(f"{role} {results.shown} is not a valid results file: {exc}") from None
    except ValueError as exc:  # a damaged run.json
        raise GateError(f"{role} {exc}") from None
    if not run.records:
        raise GateError(f"{role} {results.shown} holds no episodes")
    by_task: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for record in run.records:
        by_task[record.task_id].append((record.trial, record.reward))
    rewards = {task: [reward for _, reward in sorted(trials)] for task, trials in sorted(by_task.items())}
    settings = run.config.model_dump(mode="json") if run.config is not None else None
    return RunTrials(path=str(location), rewards=rewards, settings=settings)


def task_score(rewards: list[int], metric: Metric, k: int | None) -> float:
    successes = sum(1 for reward in rewards if reward == 1)
    if metric is Metric.avg_at_k:
        return successes / len(rewards)
    if metric is Metric.avg_reward:
        return fmean(rewards)
    assert k is not None
    return pass_hat_k(successes, len(rewards), k)


def rerun_variance(rewards: list[int], metric: Metric, k: int | None) -> float:
    """Variance of the task's score between two runs, estimated from its own trials (0 with one trial)."""
    n = len(rewards)
    if n < 2:
        return 0.0
    if metric is Metric.avg_at_k:
        return variance([float(reward == 1) for reward in rewards]) / n
    if metric is Metric.avg_reward:
        return variance([float(reward) for reward in rewards]) / n
    assert k is not None
    p = sum(1 for reward in rewards if reward == 1) / n
    weights = [math.comb(n, c) * p**c * (1 - p) ** (n - c) for c in range(n + 1)]
    scores = [pass_hat_k(c, n, k) for c in range(n + 1)]
    mean = sum(w * s for w, s in zip(weights, scores, strict=True))
    resampled = sum(w * (s - mean) ** 2 for w, s in zip(weights, scores, strict=True))
    return resampled * n / (n - 1)  # the plug-in bootstrap variance is short by (n-1)/n


def bootstrap_interval(drops: list[float], resamples: int, level: float, seed: int) -> Interval:
    """Percentile interval of the mean drop over tasks resampled with replacement."""
    low, high = bootstrap_ci(drops, resamples, level, seed)
    return Interval(low=low, high=high, level=level, resamples=resamples, seed=seed)


def settings_problems(run: RunTrials, baseline: RunTrials) -> tuple[list[str], list[str]]:
    """(differences that make the comparison meaningless, other differences worth knowing)."""
    if run.settings is None or baseline.settings is None:
        return [], ["a run.json is missing: the runs' settings could not be compared"]
    keys = sorted(set(run.settings) | set(baseline.settings))
    differ = [key for key in keys if run.settings.get(key) != baseline.settings.get(key)]

    ours, theirs = run.settings, baseline.settings  # closures keep a local's narrowing (not None)

    def describe(key: str) -> str:
        return f"{key}: run {ours.get(key)!r}, baseline {theirs.get(key)!r}"

    def unknown(key: str) -> bool:
        return key == "task_set_hash" and None in (ours.get(key), theirs.get(key))

    fatal = [describe(key) for key in differ if key in MUST_MATCH and not unknown(key)]
    other = [
        describe(key) for key in differ if (key not in MUST_MATCH or unknown(key)) and key not in NOT_SETTINGS
    ]
    return fatal, other


def choose_k(
    metric: Metric, k: int | None, paired: list[str], run: RunTrials, baseline: RunTrials
) -> int | None:
    if metric is not Metric.pass_hat_k:
        if k is not None:
            raise GateError(f"--k applies to pass_hat_k only, not to {metric.value}")
        return None
    fewest = min(len(trials[task]) for trials in (run.rewards, baseline.rewards) for task in paired)
    if k is None:
        return fewest
    if k < 1:
        raise GateError(f"--k must be at least 1, not {k}")
    if k > fewest:
        raise GateError(f"pass^{k} needs at least {k} trials per task; some paired task has only {fewest}")
    return k


def gate(
    run_dir: Path | str,
    baseline_dir: Path | str,
    metric: Metric = Metric.avg_at_k,
    max_drop: float = 0.02,
    k: int | None = None,
    seed: int = 0,
    resamples: int = 2000,
    level: float = 0.95,
    allow_mismatch: bool = False,
) -> GateResult:
    """Compare `run_dir` with `baseline_dir`; raises `GateError` on bad input."""
    if not 0 < level < 1:
        raise GateError(f"--confidence must be between 0 and 1, not {level}")
    if resamples < 1:
        raise GateError(f"--resamples must be at least 1, not {resamples}")
    run, baseline = load_run(run_dir, "run"), load_run(baseline_dir, "baseline")
    fatal, warnings = settings_problems(run, baseline)
    if fatal and not allow_mismatch:
        raise GateError(
            "the runs were measured differently ("
            + "; ".join(fatal)
            + "); pass --allow-mismatch to compare anyway"
        )
    warnings = [f"settings differ: {item}" for item in fatal + warnings]
    paired = sorted(set(run.rewards) & set(baseline.rewards))
    if not paired:
        raise GateError(f"the run and the baseline have no task in common ({run_dir} vs {baseline_dir})")
    k = choose_k(metric, k, paired, run, baseline)
    warnings += _coverage_warnings(run, baseline, paired)
    run_scores = {task: task_score(run.rewards[task], metric, k) for task in paired}
    base_scores = {task: task_score(baseline.rewards[task], metric, k) for task in paired}
    drops = [base_scores[task] - run_scores[task] for task in paired]
    drop = fmean(drops)
    z = NormalDist().inv_cdf((1 + level) / 2)
    spread = sum(
        rerun_variance(run.rewards[task], metric, k) + rerun_variance(baseline.rewards[task], metric, k)
        for task in paired
    )
    noise = z * math.sqrt(spread) / len(paired)
    regressed = sorted(
        (
            TaskDrop(task_id=t, baseline=base_scores[t], run=run_scores[t], drop=d)
            for t, d in zip(paired, drops, strict=True)
            if d > 0
        ),
        key=lambda item: (-item.drop, item.task_id),
    )
    return GateResult(
        metric=metric.value,
        k=k,
        run_dir=str(run_dir),
        baseline_dir=str(baseline_dir),
        paired_tasks=len(paired),
        only_in_run=sorted(set(run.rewards) - set(paired)),
        only_in_baseline=sorted(set(baseline.rewards) - set(paired)),
        baseline=fmean(base_scores.values()),
        run=fmean(run_scores.values()),
        drop=drop,
        ci=bootstrap_interval(drops, resamples, level, seed),
        noise_band=noise,
        max_drop=max_drop,
        threshold=max_drop + noise,
        failed=drop - (max_drop + noise) > EPSILON,
        regressed_tasks=len(regressed),
        worst_tasks=regressed[:WORST],
        warnings=warnings,
    )


def _coverage_warnings(run: RunTrials, baseline: RunTrials, paired: list[str]) -> list[str]:
    warnings = []
    for role, trials in (("run", run), ("baseline", baseline)):
        unpaired = len(trials.rewards) - len(paired)
        if unpaired:
            warnings.append(f"{unpaired} task(s) only in the {role} are left out of the comparison")
        planned = (trials.settings or {}).get("trials")
        short = [task for task in paired if planned and len(trials.rewards[task]) < planned]
        if short:
            warnings.append(
                f"the {role} is incomplete: {len(short)} task(s) have fewer than {planned} trials "
                "(rerun `taue run` to finish it)"
            )
        if all(len(trials.rewards[task]) < 2 for task in paired):
            warnings.append(f"the {role} has one trial per task: its run-to-run noise cannot be estimated")
    return warnings


def render(result: GateResult) -> str:
    """The gate's verdict as plain text lines."""
    name = f"pass^{result.k}" if result.k is not None else result.metric
    ci = result.ci
    lines = [
        f"gate: {name} over {result.paired_tasks} paired tasks",
        f"  baseline {result.baseline:.4f}   run {result.run:.4f}   drop {result.drop:+.4f} (baseline - run)",
        f"  {ci.level:.0%} bootstrap CI of the drop: [{ci.low:+.4f}, {ci.high:+.4f}] "
        f"({ci.resamples} task resamples, seed {ci.seed})",
        f"  run-to-run noise band: ±{result.noise_band:.4f}",
        f"  fails when drop > max-drop + noise = {result.max_drop:.4f} + {result.noise_band:.4f} "
        f"= {result.threshold:.4f}",
    ]
    for item in result.worst_tasks:
        lines.append(f"  regressed: {item.task_id}  {item.baseline:.3f} -> {item.run:.3f}")
    if result.regressed_tasks > len(result.worst_tasks):
        lines.append(f"  ... and {result.regressed_tasks - len(result.worst_tasks)} more regressed tasks")
    lines += [f"  warning: {warning}" for warning in result.warnings]
    if result.failed:
        lines.append(f"FAIL: the drop {result.drop:+.4f} exceeds {result.threshold:.4f}")
    else:
        lines.append(f"PASS: the drop {result.drop:+.4f} is within {result.threshold:.4f}")
    return "\n".join(lines)
