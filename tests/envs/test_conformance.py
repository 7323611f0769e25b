"""What every registered domain must satisfy, whatever its business: a new domain passes these by
being registered (no edit here). Per-domain tests cover each tool's semantics.

Its tasks come from the Tracer (docs/tracer.md): the committed sets meet the set requirements, every
task passes the Tracer's checks, and the files are what the Tracer builds from the recorded seed.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from taue.contracts.run import RunConfig
from taue.envs.runtime.database import SeedImage
from taue.envs.runtime.discovery import domain_names, get_domain
from taue.envs.runtime.task_checks import task_set_problems
from taue.runner.runner import execute_run
from taue.tracer.build import Builder, task_file_text
from taue.tracer.stats import read_report, set_problems

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
def test_every_write_tool_is_exercised_by_at_least_two_tasks(name: str) -> None:
    domain = get_domain(name)
    emotional = [t for t in domain.tasks if t.emotion is not None]
    uses = Counter(a.name for t in emotional for a in {a.name: a for a in t.evaluation.actions}.values())
    rare = {tool: uses[tool] for tool in domain.write_tools - domain.terminal_tools if uses[tool] < 2}
    assert rare == {}, f"{name}: write tools fewer than two evaluation tasks exercise: {rare}"


@pytest.mark.slow
@pytest.mark.parametrize("name", DOMAINS)
async def test_the_oracle_scores_one(name: str, tmp_path: Path) -> None:
    """Every third task (emotional tasks and twins alike), for CI time: every task's gold replays
    cleanly (test_every_task_validates) and the Tracer kept each only after its checks;
    `taue run --domains all --agent oracle` plays them all."""
    sample = [task.id for task in get_domain(name).tasks][::3]
    config = RunConfig(run="c", domains=[name], agent="oracle", trials=1, task_ids=sample)
    report = await execute_run(config, tmp_path, {}, 32)
    assert report.failed == 0 and len(report.records) == len(sample)
    assert {r.reward for r in report.records} == {1}, [r.task_id for r in report.records if r.reward != 1]


@pytest.mark.parametrize("name", DOMAINS)
def test_the_task_sets_meet_the_tracer_requirements(name: str) -> None:
    """58 emotional tasks + 58 twins, mean gold calls >= 6.5, >= 10 % policy challenges, no condition
    repeated, every family >= 15 %, a training split of >= 700 tasks sharing no entity with them."""
    domain = get_domain(name)
    assert (domain.folder / "tracer.py").exists() and (domain.folder / "graph.json").exists()
    assert set_problems(domain) == []


@pytest.mark.slow
@pytest.mark.parametrize("name", DOMAINS)
async def test_the_committed_sets_are_what_the_tracer_builds(name: str) -> None:
    """The evaluation file byte for byte, and the first 50 training tasks (each training task draws
    from its own stream, so a shorter build is a prefix of the full one). The builder checks every
    task it keeps (docs/tracer.md); `taue tracer verify` checks the whole committed split again. The
    careful-agent episodes only change a build that had a task they failed (the report says so)."""
    domain = get_domain(name)
    report = read_report(domain)
    agent = "careful agent fails" in report["rejections"]
    result = await Builder(domain, report["seed"]).build(report["kept"]["eval"] // 2, 50, agent)
    assert task_file_text(result.eval_tasks) == (domain.folder / "tasks.json").read_text(encoding="utf-8")
    assert result.train_tasks == domain.train_tasks[:50]


@pytest.mark.slow
@pytest.mark.parametrize("name", DOMAINS)
async def test_pester_pleases_a_patient_user_and_exhausts_an_impatient_one(name: str, tmp_path: Path) -> None:
    """The `pester` baseline asks for every argument of every gold call, one question a turn: a warm,
    trusting user in no hurry bears it (reward 1), a cold, skeptical, urgent one gives up (-1). Every
    fourth emotional task, for CI time (docs/simulator.md has the whole split)."""
    sample = [t.id for t in get_domain(name).tasks if t.emotion is not None][::4]
    for condition, reward in (("relief.warm.low.trusting", 1), ("sorrow.cold.high.skeptical", -1)):
        config = RunConfig(
            run="pester", domains=[name], agent="pester", trials=1, task_ids=sample, condition=condition
        )
        report = await execute_run(config, tmp_path / condition, {}, 16)
        assert report.failed == 0 and {r.reward for r in report.records} == {reward}, condition
