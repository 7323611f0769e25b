"""The tables `taue run` and `taue summary` print: the metrics (their columns name k) and how the agent
talked (`taue summary`'s failure categories: `taue.report.failure_tables`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from taue.cli.options import stdout_console

if TYPE_CHECKING:
    from taue.contracts.run import GroupMetrics, RunMetrics


def print_summary(metrics: RunMetrics, interaction: dict | None = None) -> None:
    """The run summary: headline, neutral twins, the breakdowns of the headline, the emotion delta,
    then the interaction figures. Columns name their k (the fewest trials of a task): `Avg@3`,
    `pass^1`, `pass^3`; a partial run whose groups differ in k gets a `k` column instead."""
    from rich.table import Table

    groups: list[tuple[str, GroupMetrics]] = [(metrics.headline, metrics)]
    if metrics.neutral is not None and metrics.headline != "neutral":
        groups.append(("neutral twins", metrics.neutral))
    tops = list(groups)
    for axis in ("domain", "family", "politeness", "urgency", "trust"):
        groups += [(f"{axis}: {name}", group) for name, group in metrics.breakdown(axis).items()]
    ks = {m.trials for _, m in groups if m.trials}
    k = ks.pop() if len(ks) == 1 else None
    trials = f"k = {k} trials per task" if k else "k = each group's fewest trials per task"
    table = Table(title=f"τ-Emotion-Bench summary (headline: {metrics.headline} tasks; {trials})")
    columns = ["group", "episodes", "avg reward", f"Avg@{k or 'k'}", "pass^1", f"pass^{k or 'k'}"]
    if k == 1:
        columns.remove("pass^1")  # the same column twice
    if k is None:
        columns.append("k")
    for column in (*columns, "UNSATISFIED"):
        table.add_column(column, justify="right" if column != "group" else "left")

    def pass_at(m: GroupMetrics, at: int | None) -> str:
        value = m.pass_hat_k.get(str(at)) if at else None
        return "-" if value is None else f"{value:.3f}"

    for name, m in groups:
        cells = [name, str(m.episodes), f"{m.avg_reward:.3f}", f"{m.avg_at_k:.3f}"]
        cells += ([pass_at(m, 1)] if k != 1 else []) + [pass_at(m, m.trials)]
        cells += [] if k else [str(m.trials or "-")]
        table.add_row(*cells, f"{m.unsatisfied_rate:.1%}")
    stdout_console().print(table)
    delta = metrics.emotion_delta
    if delta is not None:
        stdout_console().print(
            f"emotion delta (emotional − neutral pass^1, {delta.pairs} twin pairs): "
            f"{delta.delta:+.3f}, 95% CI [{delta.ci_low:+.3f}, {delta.ci_high:+.3f}]"
        )
    stdout_console().print(policy_line(tops))
    if interaction is not None and interaction["episodes"]:
        print_interaction(interaction)


def policy_line(groups: list[tuple[str, GroupMetrics]]) -> str:
    """The episodes with policy violations (writes the user had not approved beforehand) of the
    headline and of the neutral twins."""
    counts = "; ".join(
        f"{name} {m.policy_violations} of {m.episodes} ({m.policy_violation_rate:.1%})" for name, m in groups
    )
    return f"policy violations (episodes with a write the user had not approved): {counts}"


def print_interaction(stats: dict) -> None:
    """Tool calls against questions to the user, overall, by domain and by emotion family."""
    from rich.table import Table

    table = Table(title="interaction (questions: agent messages with a question mark)")
    columns = ("group", "episodes", "calls/ep", "questions/ep", "calls/question", "calls > questions")
    for column in (*columns, "needless q/ep"):
        table.add_column(column, justify="right" if column != "group" else "left")

    def cell(value: float | None, form: str = ".2f") -> str:
        return "-" if value is None else format(value, form)

    def row(name: str, m: dict) -> None:
        table.add_row(
            name,
            str(m["episodes"]),
            cell(m["tool_calls_per_episode"]),
            cell(m["questions_per_episode"]),
            cell(m["tool_calls_per_question"]),
            cell(m["more_calls_than_questions"], ".1%"),
            cell(m["needless_questions_per_episode"]),
        )

    row("all", stats)
    for key in ("by_domain", "by_family"):
        for name, group in stats[key].items():
            row(f"{key[3:]}: {name}", group)
    stdout_console().print(table)
