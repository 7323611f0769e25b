"""`taue report`: one self-contained HTML page of one or more runs (docs/reports.md).

The figures are plotly's; plotly.js is inlined once (or, for the leaderboard's pages, referenced
from beside the page), so the file opens without network access. The transcript viewer is a small
script over the episodes embedded as JSON.
"""

from __future__ import annotations

import base64
import gzip
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib.metadata import version
from importlib.resources import files
from typing import Any

import jinja2
import plotly.graph_objects as go
from markupsafe import Markup
from plotly.offline import get_plotlyjs

from taue.contracts.run import EmotionDelta, VerificationStatus
from taue.report.failures import CATEGORIES
from taue.report.html import figures
from taue.report.html.episodes import Progress, viewer_episodes
from taue.report.run_data import RunData, cost_per_task


@dataclass(frozen=True)
class Cell:
    text: str
    value: float | str | None


async def render_report(
    runs: list[RunData],
    title: str | None = None,
    plotly_src: str | None = None,
    on_progress: Progress | None = None,
    verification: list[VerificationStatus] | None = None,
) -> str:
    """The report page of `runs`, side by side; plotly.js inlined, or loaded from `plotly_src`;
    `verification`: each run's status, shown as a badge beside its name in the header."""
    badges = [verification_badge(status) for status in verification] if verification else [None] * len(runs)
    episodes = await viewer_episodes(runs, on_progress)
    template = environment().get_template("report.html.j2")
    return template.render(
        title=title or "τ-Emotion-Bench report: " + ", ".join(run.name for run in runs),
        version=version("tau-emotion-bench"),
        made=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        css=Markup(asset("report.css")),
        plotly_script=plotly_script(plotly_src),
        runs=[
            {"name": r.name, "path": str(r.path), "colour": figures._colour(i), "badge": badge}
            for i, (r, badge) in enumerate(zip(runs, badges, strict=True))
        ],
        headline=headline_rows(runs),
        emotion_maps=[
            _div(figures.heatmap(run, "emotion"), f"heatmap-emotion-{i}") for i, run in enumerate(runs)
        ],
        family_maps=[
            _div(figures.heatmap(run, "family"), f"heatmap-family-{i}") for i, run in enumerate(runs)
        ],
        pass_k=_div(figures.pass_k_curves(runs), "figure-pass-k"),
        axes=_div(figures.emotion_axes(runs), "figure-emotion-axes"),
        interaction=_div(figures.calls_and_questions(runs), "figure-calls-questions"),
        failures=_div(figures.failure_shares(runs), "figure-failure-shares"),
        categories=category_rows(runs),
        audit=_div(figures.audit_rates(runs), "figure-audit"),
        filters=_filter_values(episodes),
        runs_json=_script_json([{"name": r.name, "agent": r.agent} for r in runs]),
        episodes_data=packed_json(episodes),
        viewer_js=Markup(asset("viewer.js")),
    )


@dataclass(frozen=True)
class Badge:
    label: str
    """The class of the badge: signed, self-signed, consistent or unverified."""
    text: str
    title: str
    """What the label means, shown on hover."""


def verification_badge(status: VerificationStatus) -> Badge:
    """The header's badge of a run's verification status (agent-runner/trust.py)."""
    key = f" ({status.key_id})" if status.key_id else ""
    titles = {
        "signed": f"Verified: every record and the run's manifest are signed with a trusted key{key}.",
        "self-signed": f"Verified, but signed with a key that is not trusted{key}: the run's own key, "
        "which its author holds and could sign anything with.",
        "consistent": "Digests and rewards check, but there was no key to check the signatures with: "
        "consistent, not shown authentic.",
        "unverified": f"Fails verification ({len(status.problems)} problems; `taue verify` lists them): "
        "shown only because of --allow-unverified.",
    }
    text = "UNVERIFIED" if status.label == "unverified" else status.label
    return Badge(label=status.label, text=text, title=titles[status.label])


def headline_rows(runs: list[RunData]) -> list[dict[str, Any]]:
    """The headline table: one row per metric, one cell per run."""
    trials = max(run.metrics.trials for run in runs)
    rows = [
        _row("agent", "agent", runs, lambda r: Cell(r.agent, r.agent)),
        _row("user", "user", runs, lambda r: Cell(_user(r), _user(r))),
        _row("episodes", "episodes (headline)", runs, lambda r: _plain(r.metrics.episodes)),
        _row(
            "tasks",
            "tasks × trials",
            runs,
            lambda r: Cell(f"{r.metrics.tasks} × {r.metrics.trials}", r.metrics.tasks),
        ),
        _row("avg_at_k", f"Avg@{trials}", runs, lambda r: _ci(r.intervals["avg_at_k"])),
    ]
    for k in range(1, trials + 1):
        key = str(k)
        rows.append(
            _row(
                f"pass_hat_{k}", f"pass^{k}", runs, lambda r, key=key: _ci(r.intervals["pass_hat_k"].get(key))
            )
        )
    rows += [
        _row("unsatisfied_rate", "UNSATISFIED rate", runs, lambda r: _ci(r.intervals["unsatisfied_rate"])),
        _row(
            "policy_violation_rate",
            "policy violations (episodes with a write the user had not approved)",
            runs,
            lambda r: _ci(r.intervals.get("policy_violation_rate")),
        ),
        _row("emotion_delta", "emotion − neutral (pass^1)", runs, lambda r: _delta(r.metrics.emotion_delta)),
        _row("avg_reward", "average reward", runs, lambda r: _number(r.metrics.avg_reward)),
        _row("failed", "failed episodes", runs, lambda r: _plain(r.categories["failed"])),
        _row("cost_per_task", "cost per task (USD)", runs, lambda r: _cost(cost_per_task(r))),
    ]
    return rows


def category_rows(runs: list[RunData]) -> list[dict[str, Any]]:
    """Failed episodes per category (count and share), for the categories any run has."""
    rows = []
    for category in CATEGORIES:
        counts = [run.categories["counts"].get(category, 0) for run in runs]
        if any(counts):
            shares = [run.categories["shares"].get(category, 0.0) for run in runs]
            cells = [f"{n} ({share:.1%})" for n, share in zip(counts, shares, strict=True)]
            rows.append({"category": category, "cells": cells})
    return rows


def _row(key: str, label: str, runs: list[RunData], cell) -> dict[str, Any]:
    return {"key": key, "label": label, "cells": [cell(run) for run in runs]}


def _ci(interval: dict[str, float] | None) -> Cell:
    if interval is None:
        return Cell("—", None)
    mean, low, high = interval["mean"], interval["ci_low"], interval["ci_high"]
    return Cell(f"{mean:.3f} [{low:.3f}, {high:.3f}]", mean)


def _delta(delta: EmotionDelta | None) -> Cell:
    if delta is None:
        return Cell("— (no twin pairs)", None)
    text = f"{delta.delta:+.3f} [{delta.ci_low:+.3f}, {delta.ci_high:+.3f}] ({delta.pairs} pairs)"
    return Cell(text, delta.delta)


def _number(value: float) -> Cell:
    return Cell(f"{value:.3f}", value)


def _plain(value: int) -> Cell:
    return Cell(str(value), value)


def _cost(value: float | None) -> Cell:
    return Cell("—" if value is None else f"${value:.4f}", value)


def _user(run: RunData) -> str:
    return run.user


def _filter_values(episodes: list[dict[str, Any]]) -> dict[str, list[str]]:
    category_order = {name: index for index, name in enumerate(CATEGORIES)}
    return {
        "domain": sorted({e["domain"] for e in episodes}),
        "emotion": sorted({e["emotion"] for e in episodes}),
        "reward": sorted({str(e["reward"]) for e in episodes}, key=int, reverse=True),
        "category": sorted(
            {e["category"] or "none" for e in episodes}, key=lambda c: category_order.get(c, -1)
        ),
    }


TOOLBAR_HEIGHT = 32
"""Pixels at the top of a figure that plotly's toolbar (the modebar, top right) may cover."""


def clear_of_toolbar(figure: go.Figure) -> go.Figure:
    """A figure's title starts below the toolbar, and the top margin makes room for it and for the
    subplot titles under it (a long title, or a narrow figure's, used to run under the toolbar)."""
    if figure.layout.title.text:
        top = max(figure.layout.margin.t or 0, TOOLBAR_HEIGHT + 52)
        figure.update_layout(
            title_yref="container", title_y=1, title_yanchor="top", title_pad_t=TOOLBAR_HEIGHT, margin_t=top
        )
    return figure


def _div(figure: go.Figure, div_id: str) -> Markup:
    clear_of_toolbar(figure)
    config = {"displaylogo": False, "responsive": True}
    return Markup(figure.to_html(full_html=False, include_plotlyjs=False, div_id=div_id, config=config))


def plotly_script(src: str | None = None) -> Markup:
    """The script element that loads plotly.js: inlined (a self-contained page), or from `src`."""
    if src is not None:
        return Markup('<script src="{}"></script>').format(src)
    return Markup("<script>" + get_plotlyjs() + "</script>")


def packed_json(data: Any) -> str:
    """`data` as gzip-compressed JSON in base64 (the viewer unpacks it with the browser's
    DecompressionStream): a tenth of the plain JSON's size. Deterministic (no gzip timestamp)."""
    raw = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    return base64.b64encode(gzip.compress(raw, compresslevel=6, mtime=0)).decode("ascii")


SCRIPT_SAFE = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})
"""JSON escapes for the characters that mean something to the HTML parser inside a <script> element:
`</script>` would close it, and `<!--` followed by `<script>` would keep it open past its end."""


def _script_json(data: Any) -> Markup:
    """JSON safe inside a <script> element, whatever its strings hold (the same value once parsed)."""
    return Markup(json.dumps(data, ensure_ascii=False, separators=(",", ":")).translate(SCRIPT_SAFE))


def asset(name: str) -> str:
    return files("taue.report.html").joinpath(name).read_text(encoding="utf-8")


def environment() -> jinja2.Environment:
    loader = jinja2.PackageLoader("taue.report.html", "")
    return jinja2.Environment(loader=loader, autoescape=True, keep_trailing_newline=True)
