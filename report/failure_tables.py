"""The failure categories of a run as `taue summary` shows them: its records' failures counted with
its infrastructure errors not rerun since, the optional LLM judge's labels, and their table."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from taue.contracts.run import FailureCategories, JudgeBlock

if TYPE_CHECKING:
    from rich.table import Table

    from taue.contracts.run import LoadedRun
    from taue.report.llm_judge import JudgeSettings


class JudgeCacheError(Exception):
    """The judge's answers file cannot be read or written."""


@dataclass(frozen=True)
class JudgeUse:
    """What the LLM judge did for a summary: requests sent, answers reused from its cache file."""

    model: str
    asked: int
    reused: int
    cache_file: Path

    def line(self) -> str:
        return f"llm judge {self.model}: {self.asked} asked, {self.reused} from {self.cache_file}"


@dataclass(frozen=True)
class RunFailures:
    """A run's failure categories, and the judge's use when it was asked."""

    categories: FailureCategories
    judge: JudgeUse | None = None


def run_failure_categories(run: LoadedRun, judge: JudgeSettings | None = None) -> RunFailures:
    """The failure categories of a run: its records, plus its infrastructure errors not rerun since;
    with `judge`, the LLM judge's labels too. Raises `JudgeUnavailable` when the judge's endpoint
    fails and `JudgeCacheError` when its answers file cannot be used."""
    from taue.report.failures import attribute_records, failure_categories
    from taue.report.run_data import open_infra_errors

    infra_errors = len(open_infra_errors(run, run.records))
    failures = attribute_records(run.records, run.split)
    if judge is None:
        return RunFailures(FailureCategories.model_validate(failure_categories(failures, infra_errors)))
    from taue.report.llm_judge import judge_failures

    try:
        result = judge_failures(run.records, failures, judge, run.split)
    except OSError as exc:
        problem = exc.strerror or exc
        raise JudgeCacheError(f"cannot use the judge cache {judge.cache_file}: {problem}") from exc
    stats = failure_categories(result.failures, infra_errors)
    categories = FailureCategories.model_validate({**stats, "llm_judge": result.block()})
    reused = len(result.failures) - result.asked
    return RunFailures(categories, JudgeUse(judge.model, result.asked, reused, judge.cache_file))


def failures_table(stats: FailureCategories) -> Table | None:
    """Why the failed episodes failed: one category each (docs/reports.md); then the LLM judge's
    labels, as shares of the failures it judged, when it was asked. None when nothing failed."""
    from rich.table import Table

    if not stats.failed:
        return None
    table = Table(title=f"failure categories ({stats.failed} failed episodes)")
    for column in ("category", "episodes", "share"):
        table.add_column(column, justify="left" if column == "category" else "right")
    for name, count in stats.counts.items():
        table.add_row(name, str(count), f"{stats.shares[name]:.1%}")
    if stats.llm_judge is not None:
        _add_judge_rows(table, stats.llm_judge)
    return table


def _add_judge_rows(table: Table, judge: JudgeBlock) -> None:
    table.caption = f"judge: {judge.model}, {judge.judged} judged, {judge.errors} judge errors"
    table.rows[-1].end_section = True
    for label, count in judge.counts.items():
        table.add_row(f"judge: {label}", str(count), f"{judge.shares[label]:.1%}")
