"""Retail tasks: they replay, cover every write tool, and match what the authoring script builds."""

from __future__ import annotations

from collections import Counter

from taue.envs.retail import DOMAIN
from taue.envs.retail.author_tasks import build_tasks
from taue.envs.runtime.task_checks import replay

EMOTIONAL = [task for task in DOMAIN.tasks if task.emotion is not None]


def test_task_file_is_what_the_authoring_script_writes():
    assert build_tasks() == DOMAIN.tasks


def test_twenty_emotional_tasks_with_neutral_twins():
    assert len(EMOTIONAL) >= 20 and len(DOMAIN.tasks) == 2 * len(EMOTIONAL)
    assert {t.id for t in DOMAIN.tasks if t.neutral_twin_of} == {f"{t.id}-neutral" for t in EMOTIONAL}
    assert all(t.domain == "retail" for t in DOMAIN.tasks)


def test_gold_actions_are_rich_and_cover_every_write_tool():
    counts = [len(t.evaluation.actions) for t in EMOTIONAL]
    assert sum(counts) / len(counts) >= 5
    writes = Counter(a.name for t in EMOTIONAL for a in t.evaluation.actions if a.name in DOMAIN.write_tools)
    assert set(writes) == DOMAIN.write_tools
    assert min(writes.values()) >= 2


def test_scenarios_are_usable_by_a_simulated_user():
    for task in EMOTIONAL:
        scenario = task.user_scenario
        argument_names = {name for action in task.evaluation.actions for name in action.arguments}
        assert len(scenario.discoverable) >= 4, task.id
        assert set(scenario.discoverable) <= argument_names, task.id
        assert not set(scenario.discoverable) & set(scenario.known_info), task.id
        assert set(scenario.volunteered) & argument_names, task.id
        assert scenario.goals, task.id


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
    for task in EMOTIONAL[:5]:
        database, log = await replay(DOMAIN, task.evaluation.actions)
        assert all(call.ok for call in log)
        assert database.canonical_state() != DOMAIN.new_database().canonical_state(), task.id
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
