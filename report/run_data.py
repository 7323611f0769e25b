"""One run directory read for reporting: its settings, records, metrics with confidence intervals,
interaction statistics, failures and the simulator audit."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC
from pathlib import Path
from statistics import fmean
from typing import Any

from taue.contracts.run import EpisodeOutcome, EpisodeRecord, LoadedRun, RunConfig, RunMetrics, Split
from taue.report.failures import Failure, attribute_records, failure_categories
from taue.runner.audit import AuditReport, audit_run
from taue.runner.interaction import interaction_stats
from taue.runner.results import CONFIG, RESULTS, ResultsFile
from taue.runner.results import load_run as read_run
from taue.runner.storage import RunLocation, StorageError
from taue.scorer.metrics import LEVEL, RESAMPLES, bootstrap_ci, pass_hat_k, summarize


class RunError(ValueError):
    """A path that is not a readable run directory."""


@dataclass
class RunData:
    name: str
    path: RunLocation
    """The run directory: a local folder or an object-store prefix (agent-runner/storage.py)."""
    config: RunConfig | None
    """run.json (every setting, defaults filled in); None for a run without one."""
    records: list[EpisodeRecord]
    metrics: RunMetrics
    intervals: dict[str, Any]
    interaction: dict[str, Any]
    failures: list[Failure]
    categories: dict[str, Any]
    audit: AuditReport
    errors: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def headline(self) -> list[EpisodeRecord]:
        """The records the headline is over: the emotional ones, or all of a neutral-only run."""
        emotional = [r for r in self.records if r.condition is not None]
        return emotional or self.records

    @property
    def task_set_hash(self) -> str | None:
        return self.config.task_set_hash if self.config else None

    @property
    def agent(self) -> str:
        """The agent the run played ("?" without a run.json)."""
        return self.config.agent if self.config else "?"

    @property
    def model(self) -> str:
        """The model agent's model, else the agent."""
        if self.config and self.config.agent == "model":
            return self.config.model or "?"
        return self.agent

    @property
    def user(self) -> str:
        """The user simulator, with its model when it has one: "llm (Qwen/Qwen3-8B)"."""
        user, model = (self.config.user, self.config.user_model) if self.config else ("scripted", None)
        return f"{user} ({model})" if model else user

    @property
    def split(self) -> Split:
        return self.config.split if self.config else "eval"


def load_run(path: Path | str | RunLocation) -> RunData:
    """Read a run directory (a folder or an object-store URL); raises `RunError` with a one-line
    reason when it is not one."""
    try:
        return _load_run(RunLocation.parse(path))
    except StorageError as exc:
        raise RunError(str(exc)) from None


def _load_run(path: RunLocation) -> RunData:
    if not path.exists():
        raise RunError(path.absent)
    if not ResultsFile(path).exists():
        raise RunError(f"{path} holds no {RESULTS}")
    try:
        run = read_run(path)
    except StorageError:
        raise
    except ValueError as exc:
        raise RunError(f"{path}: unreadable run ({str(exc).splitlines()[0]})") from exc
    records = run.records
    if not records:
        raise RunError(f"{path} holds no finished episode")
    failures = attribute_records(records, run.split)
    errors = len(open_infra_errors(run, records))
    metrics = summarize(record.outcome() for record in records)
    return RunData(
        name=run.config.run if run.config is not None else path.name,
        path=path,
        config=run.config,
        records=records,
        metrics=metrics,
        intervals=headline_intervals([r.outcome() for r in records], metrics.trials),
        interaction=interaction_stats(records),
        failures=failures,
        categories=failure_categories(failures, infra_errors=errors),
        audit=audit_run(path),
        errors=errors,
    )


def load_runs(paths: list[Path] | list[str] | list[RunLocation]) -> list[RunData]:
    """Several runs; runs with the same name get their folder name added, so each is told apart."""
    runs = [load_run(path) for path in paths]
    names = [run.name for run in runs]
    for run in runs:
        if names.count(run.name) > 1:
            run.name = f"{run.name} ({run.path.name})" if run.path.name != run.name else str(run.path)
    return runs


def runs_under(location: RunLocation) -> list[RunLocation]:
    """The location itself when it holds a run, else the runs (folders with run.json) just below it,
    by name; the location itself when there are none, for `load_run` to say what is missing."""
    if location.exists(CONFIG) or ResultsFile(location).exists():
        return [location]
    return [child for child in location.children() if child.exists(CONFIG)] or [location]


def open_infra_errors(
    run: Path | RunLocation | LoadedRun, records: list[EpisodeRecord]
) -> list[tuple[str, str, int]]:
    """(domain, task, trial) of each episode of errors.jsonl (of a loaded run, or read from a run
    directory) that failed for infrastructure reasons and was not rerun since: it has no record."""
    done = {record.key for record in records}
    failed = set()
    entries = run.errors if isinstance(run, LoadedRun) else ResultsFile(run).errors()
    for entry in entries:
        if entry.get("kind") == "retry":
            continue  # the episode was run again: its give-up, if any, is a line of its own
        try:
            failed.add((str(entry["domain"]), str(entry["task_id"]), int(entry["trial"])))
        except (ValueError, KeyError, TypeError):
            continue  # an entry without its episode
    return sorted(key for key in failed if key[1:] not in done)


def headline_intervals(outcomes: list[EpisodeOutcome], trials: int, seed: int = 0) -> dict[str, Any]:
    """95 % bootstrap intervals over tasks for Avg@k and pass^1..k, and over episodes for the
    UNSATISFIED rate and the policy violation rate, of the headline episodes (the emotional ones, else
    all)."""
    headline = [o for o in outcomes if o.emotional] or outcomes
    by_task: dict[str, list[EpisodeOutcome]] = {}
    for outcome in headline:
        by_task.setdefault(outcome.task_id, []).append(outcome)
    successes = [(sum(o.reward == 1 for o in ts), len(ts)) for ts in by_task.values()]
    intervals = {
        "avg_at_k": _interval([c / n for c, n in successes], seed),
        "pass_hat_k": {
            str(k): _interval([pass_hat_k(c, n, k) for c, n in successes], seed) for k in range(1, trials + 1)
        },
        "unsatisfied_rate": _interval([float(o.termination == "user_unsatisfied") for o in headline], seed),
        "policy_violation_rate": _interval([float(o.policy_violations > 0) for o in headline], seed),
    }
    return intervals


def _interval(values: list[float], seed: int) -> dict[str, float]:
    if not values:
        return {"mean": 0.0, "ci_low": 0.0, "ci_high": 0.0}
    low, high = bootstrap_ci(values, RESAMPLES, LEVEL, seed)
    return {"mean": round(fmean(values), 6), "ci_low": round(low, 6), "ci_high": round(high, 6)}


def cost_per_task(run: RunData) -> float | None:
    """What the agent and the LLM user cost per headline task (from each record's `usage.*.cost_usd`);
    None when no record is priced."""
    costs = [
        part["cost_usd"]
        for record in run.headline
        for part in record.usage.values()
        if isinstance(part, dict) and "cost_usd" in part
    ]
    tasks = len({record.task_id for record in run.headline})
    return round(sum(costs) / tasks, 6) if costs and tasks else None


def run_date(run: RunData) -> str:
    """The day the run's results were last written (UTC)."""
    return ResultsFile(run.path).modified().astimezone(UTC).date().isoformat()
