"""`taue leaderboard`: a static site ranking comparable runs, a report page per run.

Every run is verified first and labelled (agent-runner/trust.py): `signed` runs (checked with a
trusted key) are ranked; `self-signed` and `consistent` ones only with `allow_self_signed`, and
`unverified` ones only with `allow_unverified`, each marked on its row. Which runs are comparable
(the same plan, user and limits; each run id once; no partial run unless allowed):
report/ranking_rules.py."""

from __future__ import annotations

import re
from pathlib import Path

from markupsafe import Markup
from plotly.offline import get_plotlyjs
from pydantic import BaseModel

from taue.report.html.page import asset, environment, render_report
from taue.report.run_data import RunData, cost_per_task, run_date
from taue.runner.trust import KeyRing, RunTrust, run_trust

PLOTLY_FILE = "plotly.min.js"
BUILT_IN_AGENTS = {"oracle", "pester"}


class LeaderboardError(ValueError):
    """Runs that cannot be ranked together."""


class Entry(BaseModel):
    rank: int
    run: str
    page: str
    model: str
    agent_kind: str
    user: str
    trials: int
    avg_at_k: float
    pass_hat_k: dict[str, float]
    unsatisfied_rate: float
    policy_violation_rate: float = 0.0
    """Headline episodes with a write the user had not approved (`taue.contracts.policy`)."""
    cost_per_task: float | None
    date: str
    task_set_hash: str | None
    tasks: int = 0
    """Tasks the run played (each `trials` times)."""
    verified: str = "consistent"
    """signed (verified with a trusted key), self-signed (verified with a key that is not trusted),
    consistent (verified without a key) or unverified (failed verification, let through with
    --allow-unverified): agent-runner/trust.py."""
    key_id: str | None = None
    """The key the run's records name."""


def verify_runs(
    runs: list[RunData], ring: KeyRing, allow_unverified: bool, allow_self_signed: bool = False
) -> tuple[dict[str, RunTrust], list[str]]:
    """Each run's verification, and the problems found; raises `LeaderboardError` when a run fails
    (unless `allow_unverified`) or is not signed with a trusted key (unless `allow_self_signed`)."""
    found = {run.name: run_trust(run.path, ring) for run in runs}
    problems = [line for trust in found.values() for line in trust.verification.lines()]
    if problems and not allow_unverified:
        listed = "\n".join(problems)
        raise LeaderboardError(
            f"runs that fail verification (--allow-unverified ranks them anyway):\n{listed}"
        )
    untrusted = [(name, t) for name, t in found.items() if t.label in ("self-signed", "consistent")]
    if untrusted and not allow_self_signed:
        name, trust = untrusted[0]
        why = (
            f"signed with key {trust.key_id}, which is not a trusted key (--trusted-keys)"
            if trust.label == "self-signed"
            else "its signatures cannot be checked (no key: --key-file or $TAUE_SIGNING_KEY)"
        )
        raise LeaderboardError(
            f"{name} is {trust.label}: {why}; --allow-self-signed ranks it, marked as such"
        )
    return found, problems


def check_task_sets(runs: list[RunData]) -> str | None:
    """The one task-set hash of `runs`; raises `LeaderboardError` naming the runs that differ."""
    hashes = {run.task_set_hash for run in runs}
    if len(hashes) > 1:
        first = runs[0]
        other = next(run for run in runs if run.task_set_hash != first.task_set_hash)
        raise LeaderboardError(
            f"runs made on different task sets cannot be ranked together: {first.name} "
            f"({_short(first.task_set_hash)}) and {other.name} ({_short(other.task_set_hash)})"
        )
    return hashes.pop() if hashes else None


def entries(runs: list[RunData], verified: dict[str, RunTrust] | None = None) -> list[Entry]:
    """One row per run, best first: by Avg@k, then pass^k at the largest k, then fewer UNSATISFIED."""
    found = verified or {}
    rows = [
        _entry(run).model_copy(
            update={"verified": found[run.name].label, "key_id": found[run.name].key_id}
            if run.name in found
            else {}
        )
        for run in runs
    ]
    rows.sort(key=lambda e: (-e.avg_at_k, -_last(e.pass_hat_k), e.unsatisfied_rate, e.run))
    return [row.model_copy(update={"rank": index}) for index, row in enumerate(rows, start=1)]


async def write_site(
    runs: list[RunData], out: Path, verified: dict[str, RunTrust] | None = None
) -> list[Entry]:
    """index.html (the ranking), runs/<name>.html (each run's report) and plotly.min.js under `out`;
    `verified`: each run's verification label (`verify_runs`)."""
    task_set = check_task_sets(runs)
    pages = _page_names(runs)
    (out / "runs").mkdir(parents=True, exist_ok=True)
    (out / PLOTLY_FILE).write_text(get_plotlyjs(), encoding="utf-8")
    for run in runs:
        html = await render_report(
            [run], title=f"τ-Emotion-Bench: {run.name}", plotly_src=f"../{PLOTLY_FILE}"
        )
        (out / pages[run.name]).write_text(html, encoding="utf-8")
    ranked = entries(runs, verified)
    ranked = [entry.model_copy(update={"page": pages[entry.run]}) for entry in ranked]
    (out / "index.html").write_text(render_index(ranked, task_set), encoding="utf-8")
    (out / "leaderboard.json").write_text(
        "[\n" + ",\n".join(entry.model_dump_json() for entry in ranked) + "\n]\n", encoding="utf-8"
    )
    return ranked


def render_index(ranked: list[Entry], task_set: str | None) -> str:
    trials = max((entry.trials for entry in ranked), default=0)
    return (
        environment()
        .get_template("leaderboard.html.j2")
        .render(
            entries=ranked,
            ks=[str(k) for k in range(1, trials + 1)],
            task_set=task_set,
            css=Markup(asset("report.css")),
        )
    )


def _entry(run: RunData) -> Entry:
    return Entry(
        rank=0,
        run=run.name,
        page="",
        model=run.model,
        agent_kind=_agent_kind(run.agent),
        user=run.user,
        trials=run.metrics.trials,
        tasks=len({record.task_id for record in run.records}),
        avg_at_k=run.metrics.avg_at_k,
        pass_hat_k=run.metrics.pass_hat_k,
        unsatisfied_rate=run.metrics.unsatisfied_rate,
        policy_violation_rate=run.metrics.policy_violation_rate,
        cost_per_task=cost_per_task(run),
        date=run_date(run),
        task_set_hash=run.task_set_hash,
    )


def _agent_kind(agent: str) -> str:
    if agent.startswith(("http://", "https://")):
        return "http"
    if agent.startswith("a2a://"):
        return "a2a"
    if agent == "model":
        return "model"
    return "built-in"


def _page_names(runs: list[RunData]) -> dict[str, str]:
    names: dict[str, str] = {}
    for run in runs:
        slug = re.sub(r"[^A-Za-z0-9._-]+", "-", run.name).strip("-") or "run"
        candidate, n = slug, 2
        while f"runs/{candidate}.html" in names.values():
            candidate, n = f"{slug}-{n}", n + 1
        names[run.name] = f"runs/{candidate}.html"
    return names


def _last(values: dict[str, float]) -> float:
    return values[max(values, key=int)] if values else 0.0


def _short(value: str | None) -> str:
    return value[:12] if value else "unknown: made before task-set hashes were kept"
