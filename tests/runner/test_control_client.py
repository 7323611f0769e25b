"""The runner's control client: what it asks a domain server, and how often."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from taue.contracts.domain import ExpectedOutcome
from taue.contracts.run import RunConfig
from taue.contracts.tasks import Task
from taue.envs.runtime import catalog
from taue.envs.runtime.catalog import ExpectedOutcomes
from taue.envs.runtime.domain import Domain
from taue.runner.catalog import local_catalog
from taue.runner.control import ControlClient, InfraError, control_session
from taue.runner.embedded import Services, embedded_domains, embedded_services
from taue.runner.episode import open_episode
from taue.runner.runner import execute_run
from taue.simulator.client import SimulatorCallError, SimulatorClient
from taue.simulator.session import UserOptions
from tests.conftest import ADMIN_TOKEN
from tests.openai_double import OpenAIDouble
from tests.task_picks import plain_task_id

TASK = plain_task_id("airline", neutral=True)


def count_expected_requests(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The task ids of the expected-outcome requests the servers answer (known tasks only)."""
    asked: list[str] = []
    get = ExpectedOutcomes.get

    async def counting(self: ExpectedOutcomes, task: Task) -> ExpectedOutcome:
        asked.append(task.id)
        return await get(self, task)

    monkeypatch.setattr(ExpectedOutcomes, "get", counting)
    return asked


async def test_the_expected_outcome_of_a_task_is_asked_once_per_client(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async with embedded_domains(["airline"], ADMIN_TOKEN) as servers, control_session() as http:
        control = ControlClient(servers["airline"].control_url, http, ADMIN_TOKEN)
        asked = count_expected_requests(monkeypatch)
        answers = await asyncio.gather(*(control.expected(TASK) for _ in range(3)))
        assert asked == [TASK] and answers[0] is answers[1] is answers[2]
        assert answers[0].task_id == TASK and answers[0].state_hash
        assert await control.expected(TASK) is answers[0] and asked == [TASK]


async def test_a_failed_expected_outcome_request_is_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    async with embedded_domains(["airline"], ADMIN_TOKEN) as servers, control_session() as http:
        control = ControlClient(servers["airline"].control_url, http, ADMIN_TOKEN)
        monkeypatch.setattr(ExpectedOutcomes, "get", failing)
        with pytest.raises(InfraError, match="500"):
            await control.expected(TASK)
        monkeypatch.undo()
        assert (await control.expected(TASK)).task_id == TASK  # asked again, not the kept failure


async def failing(self: ExpectedOutcomes, task: Task) -> ExpectedOutcome:
    raise RuntimeError("the replay broke")


async def test_a_runs_trials_of_a_task_have_its_expected_outcome_computed_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each episode's finish carries the task's expected outcome; the server replays the ground truth
    once for all trials of the task."""
    computed: list[str] = []
    replay = catalog.expected_outcome

    async def counting(domain: Domain, task: Task) -> ExpectedOutcome:
        computed.append(task.id)
        return await replay(domain, task)

    monkeypatch.setattr(catalog, "expected_outcome", counting)
    config = RunConfig(run="expected", domains=["airline"], agent="oracle", trials=3, task_ids=[TASK])
    report = await execute_run(config, tmp_path, {}, 3)
    assert [record.reward for record in report.records] == [1, 1, 1]
    assert computed == [TASK]
    assert {record.expected.task_id for record in report.records if record.expected} == {TASK}


async def test_an_llm_user_that_cannot_start_leaves_no_episode_and_one_that_starts_gets_its_episode() -> None:
    """With a model-backed user the episode is created while the user's first line is asked for:
    when the user's endpoint fails, the created episode is deleted."""
    task = next(t for t in local_catalog("airline", "eval").tasks if t.id == TASK)
    async with (
        embedded_domains(["airline"], ADMIN_TOKEN) as servers,
        embedded_services(
            ["airline"],
            Services(env={"airline": servers["airline"].control_url}, tokens={"airline": ADMIN_TOKEN}),
        ) as services,
        control_session() as http,
        OpenAIDouble([{"content": "Hi, I need help with my booking."}]) as double,
        OpenAIDouble([{"status": 400}]) as refusing,
    ):
        registry = servers["airline"].registry
        control = ControlClient(servers["airline"].control_url, http, ADMIN_TOKEN)
        simulator = SimulatorClient(services.simulator, token=services.token("simulator", None))
        try:
            refused = UserOptions(backend="llm", model="u", base_url=refusing.base_url)
            with pytest.raises(SimulatorCallError, match="BadRequestError"):
                await open_episode(control, simulator, task, 0, refused, gate=asyncio.Semaphore(1))
            assert len(registry) == 0

            user = UserOptions(backend="llm", model="u", base_url=double.base_url)
            opened = await open_episode(control, simulator, task, 0, user, gate=asyncio.Semaphore(1))
            assert opened.first_message == "Hi, I need help with my booking."
            assert [e.id for e in registry.listed()] == [opened.created.episode_id]
        finally:
            await simulator.close()
