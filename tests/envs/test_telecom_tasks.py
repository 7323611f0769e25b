"""Telecom tasks: they replay, cover every write tool, match the authoring script, and run end to end
(oracle and pester through the real runner on embedded servers)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from taue.contracts.tasks import Task
from taue.envs.runtime.task_checks import replay
from taue.envs.telecom import DOMAIN
from taue.envs.telecom.author_tasks import NOT_ASKED, SEED, build_tasks
from taue.runner.agents.pester import argument_names
from taue.runner.runner import RunConfig, execute_run
from taue.simulator.scripted import ScriptedUser

EMOTIONAL = [task for task in DOMAIN.tasks if task.emotion is not None]


def test_task_file_is_what_the_authoring_script_writes():
    assert build_tasks() == DOMAIN.tasks


def test_twenty_emotional_tasks_with_neutral_twins():
    assert len(EMOTIONAL) >= 20 and len(DOMAIN.tasks) == 2 * len(EMOTIONAL)
    assert {t.id for t in DOMAIN.tasks if t.neutral_twin_of} == {f"{t.id}-neutral" for t in EMOTIONAL}
    assert all(t.domain == "telecom" for t in DOMAIN.tasks)


def test_gold_actions_are_rich_and_cover_every_write_tool():
    counts = [len(t.evaluation.actions) for t in EMOTIONAL]
    assert sum(counts) / len(counts) >= 5
    writes = Counter(a.name for t in EMOTIONAL for a in t.evaluation.actions if a.name in DOMAIN.write_tools)
    assert set(writes) == DOMAIN.write_tools
    assert min(writes.values()) >= 2


def test_scenarios_are_usable_by_a_simulated_user():
    for task in EMOTIONAL:
        scenario = task.user_scenario
        names = set(argument_names(task.evaluation.actions))
        assert len(scenario.discoverable) >= 4, task.id
        assert set(scenario.discoverable) <= names, task.id
        assert not set(scenario.discoverable) & set(scenario.known_info), task.id
        assert set(scenario.volunteered) & names, task.id
        assert 5 <= needless_questions(task) <= 16, task.id


async def test_expected_outputs_are_revealed_by_the_gold_tool_calls():
    with_outputs = [t for t in EMOTIONAL if t.evaluation.outputs]
    assert len(with_outputs) >= 5
    for task in with_outputs:
        database, log = await replay(DOMAIN, task.evaluation.actions)
        database.close()
        revealed = " ".join(call.output for call in log).lower().replace(",", "")
        for output in task.evaluation.outputs:
            assert "," not in output and output.lower() in revealed, (task.id, output)


async def test_gold_actions_change_the_database():
    seed_state = DOMAIN.new_database().canonical_state()
    for task in EMOTIONAL:
        database, log = await replay(DOMAIN, task.evaluation.actions)
        assert all(call.ok for call in log), task.id
        assert database.canonical_state() != seed_state, task.id
        database.close()


def test_emotion_conditions_are_spread():
    emotions = [t.emotion for t in EMOTIONAL]
    assert {e.family for e in emotions} == {"anger", "fear", "disgust", "sadness", "enjoyment"}
    assert sum(e.urgency == "high" for e in emotions) >= 5
    assert sum(e.politeness == "cold" and e.trust == "skeptical" for e in emotions) >= 3
    patient = [e for e in emotions if (e.urgency, e.politeness, e.trust) == ("low", "warm", "trusting")]
    assert len(patient) >= 4
    assert len({e.condition_id for e in emotions}) == len(emotions)
    for emotion in emotions:
        sentences = [s for s in emotion.instruction.split(".") if s.strip()]
        assert 2 <= len(sentences) <= 3 and " You " in f" {emotion.instruction}", emotion.instruction


# ------------------------------------------------------------------------------------- end to end


@pytest.mark.slow
async def test_pester_pleases_patient_users_and_loses_impatient_ones(tmp_path: Path):
    """Every task gives pester 5 to 16 needless questions: a low-urgency, warm, trusting user tolerates 16,
    a high-urgency, cold, skeptical one tolerates 1."""
    for condition, reward in (("relief.warm.low.trusting", 1), ("sorrow.cold.high.skeptical", -1)):
        config = RunConfig(
            run="pester",
            domains=["telecom"],
            agent="pester",
            trials=1,
            tasks="emotional",
            condition=condition,
        )
        report = await execute_run(config, tmp_path / condition, {}, 8)
        assert report.failed == 0 and len(report.records) == len(EMOTIONAL)
        assert {r.reward for r in report.records} == {reward}, condition


def needless_questions(task: Task) -> int:
    """How many needless-question events the scripted user records when asked, one turn each, for
    every gold argument (what the `pester` baseline does); the authoring rule is 5 to 16."""
    user = ScriptedUser(task, SEED)
    user.opening()
    events: list[str] = []
    for name in argument_names(task.evaluation.actions):
        if name not in NOT_ASKED:
            events = user.reply(f"Could you tell me your {name.replace('_', ' ')}?").events
    return sum(1 for event in events if event.startswith("needless_question"))
