"""What every registered domain must satisfy, whatever its business: a new domain passes these by
being registered (no edit here). Per-domain tests cover each tool's semantics."""

from __future__ import annotations

from pathlib import Path

import pytest

from taue.envs.runtime.database import SeedImage
from taue.envs.runtime.discovery import domain_names, get_domain
from taue.envs.runtime.task_checks import task_set_problems
from taue.runner.runner import RunConfig, execute_run

DOMAINS = domain_names()


def test_the_four_published_domains_are_registered() -> None:
    assert {"airline", "retail", "telecom", "telehealth"} <= set(DOMAINS)


@pytest.mark.parametrize("name", DOMAINS)
def test_the_seed_is_deterministic_and_depends_on_the_seed(name: str) -> None:
    domain = get_domain(name)
    first = SeedImage(domain.tables, domain.generate(domain.seed)).clone(domain.clock).canonical_state()
    again = SeedImage(domain.tables, domain.generate(domain.seed)).clone(domain.clock).canonical_state()
    other = SeedImage(domain.tables, domain.generate(domain.seed + 1)).clone(domain.clock).canonical_state()
    assert first == again
    assert other != first


@pytest.mark.parametrize("name", DOMAINS)
async def test_every_task_validates(name: str) -> None:
    domain = get_domain(name)
    assert await task_set_problems(domain, domain.tasks) == []


@pytest.mark.parametrize("name", DOMAINS)
def test_every_emotional_task_has_its_twin_and_the_domain_has_a_policy(name: str) -> None:
    domain = get_domain(name)
    emotional = [t for t in domain.tasks if t.emotion is not None]
    assert emotional, name
    twins = {t.id for t in domain.tasks if t.neutral_twin_of is not None}
    assert {t.twin for t in emotional} == twins
    assert len(domain.policy) > 500, "a real policy: identity checks, rules, fees, refusals"


@pytest.mark.parametrize("name", DOMAINS)
def test_every_write_tool_is_exercised_by_some_task(name: str) -> None:
    domain = get_domain(name)
    used = {a.name for t in domain.tasks for a in t.evaluation.actions}
    unused = domain.write_tools - domain.terminal_tools - used
    assert unused == set(), f"{name}: write tools no task exercises: {sorted(unused)}"


@pytest.mark.slow
@pytest.mark.parametrize("name", DOMAINS)
async def test_the_oracle_scores_one_on_every_task(name: str, tmp_path: Path) -> None:
    report = await execute_run(RunConfig(run="c", domains=[name], agent="oracle", trials=1), tmp_path, {}, 32)
    assert report.failed == 0 and len(report.records) == len(get_domain(name).tasks)
    assert {r.reward for r in report.records} == {1}, [r.task_id for r in report.records if r.reward != 1]
