"""The judge matrix: every reference behaviour of `agents/judge_agents.py` and `agents/style_agents.py`
against the scripted user, on every emotional task of the chosen domains; average reward and
UNSATISFIED rate per cell."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel

from taue.contracts.run import EpisodeRecord, RunConfig
from taue.runner.agents.judge_agents import CAREFUL, FAIR, JUDGE_AGENTS
from taue.runner.agents.style_agents import STYLE_AGENTS, STYLE_FAIR, STYLE_UNFAIR, STYLE_WORDED
from taue.runner.agents.wordings import WORDINGS
from taue.runner.runner import execute_run

MATRIX_AGENTS = ("oracle", *JUDGE_AGENTS, *STYLE_AGENTS)
MARKERS = ("<!-- judge-matrix:start -->", "<!-- judge-matrix:end -->")
WORDING_MARKERS = ("<!-- wording-matrix:start -->", "<!-- wording-matrix:end -->")


class Cell(BaseModel):
    episodes: int
    avg_reward: float
    unsatisfied_rate: float
    rewards: dict[str, int]
    """Task id -> reward."""
    policy_violation_rate: float = 0.0
    """Episodes with a write the user had not approved beforehand."""


def cell(records: list[EpisodeRecord]) -> Cell:
    count = len(records) or 1
    return Cell(
        episodes=len(records),
        avg_reward=round(sum(r.reward for r in records) / count, 4),
        unsatisfied_rate=round(sum(r.termination == "user_unsatisfied" for r in records) / count, 4),
        rewards={r.task_id: r.reward for r in records},
        policy_violation_rate=round(sum(bool(r.breakdown.policy_violations) for r in records) / count, 4),
    )


def sampled_tasks(domains: list[str], every: int) -> list[str] | None:
    """Every `every`-th emotional task of each domain (all of them, None, when `every` is 1)."""
    if every == 1:
        return None
    from taue.runner.catalog import local_catalog

    return [
        task.id
        for name in domains
        for task in [t for t in local_catalog(name).tasks if t.emotion is not None][::every]
    ]


async def judge_matrix(
    domains: list[str],
    agents: list[str],
    out: Path,
    concurrency: int = 32,
    seed: int = 0,
    workers: int = 1,
    every: int = 1,
) -> dict[str, dict[str, Cell]]:
    """agent -> domain -> cell, one trial of every emotional task (or of every `every`-th one); runs
    resume from `out`."""
    matrix: dict[str, dict[str, Cell]] = {}
    task_ids = sampled_tasks(domains, every)
    for agent in agents:
        config = RunConfig(
            run=f"judge-{agent}",
            domains=domains,
            agent=agent,
            trials=1,
            seed=seed,
            tasks="emotional",
            task_ids=task_ids,
        )
        report = await execute_run(config, out / agent, {}, concurrency=concurrency, workers=workers)
        if report.failed:
            raise RuntimeError(f"{report.failed} episodes of {agent} failed for infrastructure reasons")
        by_domain: dict[str, list[EpisodeRecord]] = {}
        for record in report.records:
            by_domain.setdefault(record.domain, []).append(record)
        matrix[agent] = {domain: cell(by_domain.get(domain, [])) for domain in domains}
    return matrix


def matrix_markdown(matrix: dict[str, dict[str, Cell]]) -> str:
    """Average reward per agent and domain, with the UNSATISFIED rate in brackets."""
    domains = list(next(iter(matrix.values())))
    lines = [
        "| agent | " + " | ".join(domains) + " |",
        "|---|" + "---|" * len(domains),
    ]
    for agent, row in matrix.items():
        cells = [f"{row[d].avg_reward:+.2f} ({row[d].unsatisfied_rate:.0%})" for d in domains]
        lines.append(f"| {agent} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def replace_between_markers(text: str, body: str, markers: tuple[str, str] = MARKERS) -> str:
    start, end = markers
    if start not in text or end not in text:
        raise ValueError(f"the file has no {start} … {end} block")
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    return f"{head}{start}\n{body}\n{end}{tail}"


# ----------------------------------------------------------------- the wording matrix

GAMING = tuple(a for a in JUDGE_AGENTS if a not in CAREFUL)


def worded_agents(wordings: list[str], agents: tuple[str, ...] = FAIR) -> list[str]:
    """Every fair agent (of `agents`) in each of `wordings`."""
    return [f"{agent}@{wording}" for agent in agents for wording in wordings]


def wording_matrix_agents(wordings: list[str]) -> list[str]:
    """What `taue judge matrix --wordings` plays: the oracle, every fair agent in each wording (the style
    agents that have wordings too), the style agents that have none, and every unfair agent."""
    fixed = [agent for agent in STYLE_FAIR if agent not in STYLE_WORDED]
    return ["oracle", *worded_agents(wordings, (*FAIR, *STYLE_WORDED)), *fixed, *GAMING, *STYLE_UNFAIR]


def parse_wordings(text: str) -> list[str]:
    """`all` or comma-separated wording names; a ValueError names the unknown ones."""
    chosen = list(WORDINGS) if text.strip() == "all" else [w.strip() for w in text.split(",") if w.strip()]
    unknown = [w for w in chosen if w not in WORDINGS]
    if unknown or not chosen:
        raise ValueError(f"unknown wording(s) {unknown}; known: all, {', '.join(WORDINGS)}")
    return chosen


class Row(BaseModel):
    """One agent's line of the wording matrix, over every domain played."""

    agent: str
    episodes: int
    avg_reward: float
    vs_oracle: float
    """avg_reward minus the oracle's."""
    pass_rate: float
    """Share of episodes with reward 1, tasks whose goals are all refusals left out."""
    unsatisfied_rate: float
    by_domain: dict[str, float]
    policy_violation_rate: float = 0.0
    """Episodes with a write the user had not approved beforehand."""


def refusal_only(task_ids: set[str], domains: list[str]) -> set[str]:
    """The tasks whose every goal is one the policy forbids (passing them means refusing well)."""
    from taue.runner.catalog import local_catalog

    return {
        task.id
        for name in domains
        for task in local_catalog(name).tasks
        if task.id in task_ids and all(g.refusal_expected for g in task.user_scenario.goals)
    }


def wording_rows(matrix: dict[str, dict[str, Cell]], domains: list[str]) -> list[Row]:
    oracle = _overall(matrix["oracle"]) if "oracle" in matrix else None
    task_ids = {t for row in matrix.values() for c in row.values() for t in c.rewards}
    excluded = refusal_only(task_ids, domains)
    rows = []
    for agent, cells in matrix.items():
        rewards = {t: r for c in cells.values() for t, r in c.rewards.items()}
        counted = [r for t, r in rewards.items() if t not in excluded] or [0]
        average = _overall(cells)
        rows.append(
            Row(
                agent=agent,
                episodes=len(rewards),
                avg_reward=average,
                vs_oracle=round(average - oracle, 4) if oracle is not None else 0.0,
                pass_rate=round(sum(r == 1 for r in counted) / len(counted), 4),
                unsatisfied_rate=_weighted(cells, "unsatisfied_rate"),
                by_domain={d: cells[d].avg_reward for d in domains if d in cells},
                policy_violation_rate=_weighted(cells, "policy_violation_rate"),
            )
        )
    return rows


def _weighted(cells: dict[str, Cell], rate: str) -> float:
    """A rate of the cells over all their episodes."""
    episodes = max(1, sum(c.episodes for c in cells.values()))
    return round(sum(getattr(c, rate) * c.episodes for c in cells.values()) / episodes, 4)


def _overall(cells: dict[str, Cell]) -> float:
    episodes = sum(c.episodes for c in cells.values())
    return round(sum(c.avg_reward * c.episodes for c in cells.values()) / max(1, episodes), 4)


def rows_markdown(rows: list[Row]) -> str:
    domains = list(rows[0].by_domain) if rows else []
    lines = [
        "| agent | episodes | average | vs oracle | pass | UNSATISFIED | violations | "
        + " | ".join(domains)
        + " |",
        "|---|---|---|---|---|---|---|" + "---|" * len(domains),
    ]
    for row in rows:
        cells = " | ".join(f"{row.by_domain[d]:+.2f}" for d in domains)
        lines.append(
            f"| {row.agent} | {row.episodes} | {row.avg_reward:+.3f} | {row.vs_oracle:+.3f} | "
            f"{row.pass_rate:.0%} | {row.unsatisfied_rate:.0%} | {row.policy_violation_rate:.0%} | {cells} |"
        )
    return "\n".join(lines)
