"""The judge matrix: every reference behaviour of `agents/judge_agents.py` against the scripted user,
on every emotional task of the chosen domains; average reward and UNSATISFIED rate per cell."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel

from taue.runner.agents.judge_agents import JUDGE_AGENTS
from taue.runner.results import EpisodeRecord
from taue.runner.runner import RunConfig, execute_run

MATRIX_AGENTS = ("oracle", *JUDGE_AGENTS)
MARKERS = ("<!-- judge-matrix:start -->", "<!-- judge-matrix:end -->")


class Cell(BaseModel):
    episodes: int
    avg_reward: float
    unsatisfied_rate: float
    rewards: dict[str, int]
    """Task id -> reward."""


def cell(records: list[EpisodeRecord]) -> Cell:
    count = len(records) or 1
    return Cell(
        episodes=len(records),
        avg_reward=round(sum(r.reward for r in records) / count, 4),
        unsatisfied_rate=round(sum(r.termination == "user_unsatisfied" for r in records) / count, 4),
        rewards={r.task_id: r.reward for r in records},
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


def replace_between_markers(text: str, body: str) -> str:
    start, end = MARKERS
    if start not in text or end not in text:
        raise ValueError(f"the file has no {start} … {end} block")
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    return f"{head}{start}\n{body}\n{end}{tail}"
