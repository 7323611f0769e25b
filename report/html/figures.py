"""The report's figures, built with plotly from loaded runs (`RunData`)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from taue.contracts.run import EpisodeRecord
from taue.report.failures import CATEGORIES
from taue.report.run_data import RunData

HEAT_SCALE = [(0.0, "#b2182b"), (0.5, "#f7f7f7"), (1.0, "#2166ac")]
LAYOUT: dict[str, Any] = {
    "template": "plotly_white",
    "margin": {"l": 60, "r": 20, "t": 50, "b": 50},
    "font": {"size": 12},
}


def success_matrix(
    records: list[EpisodeRecord], row: Callable[[EpisodeRecord], str | None]
) -> tuple[list[str], list[str], list[list[float | None]], list[list[int]]]:
    """(rows, domains, pass^1 per cell or None, episodes per cell): the share of successful
    episodes of each (row value, domain), over the records whose row value is known."""
    cells: dict[tuple[str, str], list[int]] = defaultdict(list)
    for record in records:
        name = row(record)
        if name is not None:
            cells[(name, record.domain)].append(int(record.reward == 1))
    rows = sorted({name for name, _ in cells})
    domains = sorted({domain for _, domain in cells})
    values = [[_share(cells.get((r, d))) for d in domains] for r in rows]
    counts = [[len(cells.get((r, d), [])) for d in domains] for r in rows]
    return rows, domains, values, counts


def heatmap(run: RunData, by: str) -> go.Figure:
    """pass^1 of each (emotion or family, domain) cell of the headline episodes, the value in the cell."""
    rows, domains, values, counts = success_matrix(run.headline, lambda r: (r.emotion or {}).get(by))
    figure = go.Figure(
        go.Heatmap(
            z=values,
            x=domains,
            y=rows,
            customdata=counts,
            zmin=0,
            zmax=1,
            colorscale=HEAT_SCALE,
            texttemplate="%{z:.2f}",
            hoverongaps=False,
            hovertemplate=f"{by} %{{y}}<br>domain %{{x}}<br>pass^1 %{{z:.3f}}<br>%{{customdata}} episodes"
            "<extra></extra>",
            colorbar={"title": "pass^1"},
        )
    )
    size: dict[str, Any] = {
        "height": 150 + 26 * len(rows),
        "width": 330 + 90 * len(domains),
        "autosize": False,
    }
    figure.update_layout(**LAYOUT, title=f"{run.name}: {by} × domain (pass^1)", **size)
    figure.update_xaxes(type="category", categoryorder="array", categoryarray=domains)
    figure.update_yaxes(type="category", categoryorder="array", categoryarray=rows, autorange="reversed")
    return figure


def pass_k_curves(runs: list[RunData]) -> go.Figure:
    """pass^k against k for each run, with 95 % intervals."""
    figure = go.Figure()
    for run in runs:
        points = run.intervals["pass_hat_k"]
        ks = sorted(points, key=int)
        figure.add_trace(
            go.Scatter(
                x=[int(k) for k in ks],
                y=[points[k]["mean"] for k in ks],
                error_y={
                    "type": "data",
                    "symmetric": False,
                    "array": [points[k]["ci_high"] - points[k]["mean"] for k in ks],
                    "arrayminus": [points[k]["mean"] - points[k]["ci_low"] for k in ks],
                },
                mode="lines+markers",
                name=run.name,
            )
        )
    figure.update_layout(**LAYOUT, title="pass^k (95 % CI over tasks)", height=380)
    figure.update_xaxes(title="k", dtick=1)
    figure.update_yaxes(title="pass^k", range=[0, 1.05])
    return figure


def emotion_axes(runs: list[RunData]) -> go.Figure:
    """Avg@k by politeness, urgency and trust, a bar per run."""
    axes = ("politeness", "urgency", "trust")
    # plotly takes any sequence of titles; its stubs say list
    # arg-type: plotly's annotations ask for a tuple of titles; it takes any sequence
    figure = make_subplots(rows=1, cols=3, subplot_titles=axes, shared_yaxes=True)  # type: ignore[arg-type]
    for index, run in enumerate(runs):
        for column, axis in enumerate(axes, start=1):
            groups = run.metrics.breakdown(axis)
            figure.add_trace(
                go.Bar(
                    x=list(groups),
                    y=[g.avg_at_k for g in groups.values()],
                    name=run.name,
                    legendgroup=run.name,
                    showlegend=column == 1,
                    marker_color=_colour(index),
                    hovertemplate="%{x}: Avg@k %{y:.3f}<extra>" + run.name + "</extra>",
                ),
                row=1,
                col=column,
            )
    figure.update_layout(
        **LAYOUT, title="Avg@k by politeness, urgency and trust", height=380, barmode="group"
    )
    figure.update_yaxes(range=[0, 1.05])
    return figure


def calls_and_questions(runs: list[RunData]) -> go.Figure:
    """Tool calls and questions to the user per episode, per domain; one panel per run."""
    figure = make_subplots(rows=1, cols=len(runs), subplot_titles=[r.name for r in runs], shared_yaxes=True)
    for column, run in enumerate(runs, start=1):
        domains = run.interaction["by_domain"]
        for measure, label, colour in (
            ("tool_calls_per_episode", "tool calls / episode", "#4c78a8"),
            ("questions_per_episode", "questions / episode", "#f58518"),
        ):
            figure.add_trace(
                go.Bar(
                    x=list(domains),
                    y=[d[measure] for d in domains.values()],
                    name=label,
                    legendgroup=label,
                    showlegend=column == 1,
                    marker_color=colour,
                ),
                row=1,
                col=column,
            )
    figure.update_layout(**LAYOUT, title="Tool calls vs questions per domain", height=380, barmode="group")
    return figure


def failure_shares(runs: list[RunData]) -> go.Figure:
    """Each run's failed episodes by category (shares of the failed episodes)."""
    figure = go.Figure()
    for index, category in enumerate(CATEGORIES):
        shares = [run.categories["shares"].get(category, 0.0) for run in runs]
        if any(shares):
            figure.add_trace(
                go.Bar(
                    y=[run.name for run in runs],
                    x=shares,
                    name=category,
                    orientation="h",
                    marker_color=_colour(index),
                    customdata=[run.categories["counts"].get(category, 0) for run in runs],
                    hovertemplate=category + ": %{x:.1%} (%{customdata} episodes)<extra>%{y}</extra>",
                )
            )
    figure.update_layout(**LAYOUT, title="Failure categories (share of failed episodes)", barmode="stack")
    figure.update_layout(height=160 + 40 * len(runs))
    figure.update_xaxes(tickformat=".0%", range=[0, 1])
    return figure


def audit_rates(runs: list[RunData]) -> go.Figure:
    """The simulator audit: share of user messages stating facts absent from the scenario, per emotion."""
    figure = go.Figure()
    for index, run in enumerate(runs):
        emotions = run.audit.by_emotion
        figure.add_trace(
            go.Bar(
                x=list(emotions),
                y=[e["rate"] for e in emotions.values()],
                name=f"{run.name} (overall {run.audit.rate:.2%})",
                marker_color=_colour(index),
                customdata=[e["flagged_messages"] for e in emotions.values()],
                hovertemplate="%{x}: %{y:.2%} (%{customdata} messages)<extra></extra>",
            )
        )
    figure.update_layout(**LAYOUT, title="Simulator audit: user messages with facts not in the scenario")
    figure.update_layout(height=380, barmode="group")
    figure.update_yaxes(tickformat=".1%", rangemode="tozero")
    return figure


def _share(values: list[int] | None) -> float | None:
    return round(sum(values) / len(values), 6) if values else None


def _colour(index: int) -> str:
    palette = ("#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2", "#b279a2", "#ff9da6", "#9d755d")
    return palette[index % len(palette)]
