"""Telehealth tasks: they replay, cover every write tool, match the authoring script, and the baselines
score as designed end to end (oracle 1 everywhere; pester 1 for a patient user, -1 for an impatient one)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from taue.contracts.text import contains, tokens
from taue.envs.runtime.task_checks import replay
from taue.envs.telehealth import DOMAIN
from taue.envs.telehealth.author_tasks import build_tasks, needless_for_pester
from taue.runner.agents.pester import argument_names
from taue.runner.runner import RunConfig, execute_run

EMOTIONAL = [task for task in DOMAIN.tasks if task.emotion is not None]


def test_task_file_is_what_the_authoring_script_writes():
    assert build_tasks() == DOMAIN.tasks


def test_twenty_emotional_tasks_with_neutral_twins():
    assert len(EMOTIONAL) >= 20 and len(DOMAIN.tasks) == 2 * len(EMOTIONAL)
    assert {t.id for t in DOMAIN.tasks if t.neutral_twin_of} == {f"{t.id}-neutral" for t in EMOTIONAL}
    assert all(t.domain == "telehealth" for t in DOMAIN.tasks)


def test_gold_actions_are_rich_and_cover_every_write_tool_twice():
    counts = [len(t.evaluation.actions) for t in EMOTIONAL]
    assert sum(counts) / len(counts) >= 5
    writes = Counter(a.name for t in EMOTIONAL for a in t.evaluation.actions if a.name in DOMAIN.write_tools)
    assert set(writes) == DOMAIN.write_tools
    assert min(writes.values()) >= 2
    assert all(a.name not in DOMAIN.terminal_tools for t in EMOTIONAL for a in t.evaluation.actions)


def test_scenarios_are_usable_by_a_simulated_user():
    for task in EMOTIONAL:
        scenario = task.user_scenario
        names = set(argument_names(task.evaluation.actions))
        assert len(scenario.discoverable) >= 4, task.id
        assert set(scenario.discoverable) <= names, task.id
        assert not set(scenario.discoverable) & set(scenario.known_info), task.id
        assert set(scenario.volunteered) & names, task.id
        assert 5 <= len(needless_for_pester(task)) <= 16, task.id


async def test_expected_outputs_are_revealed_by_the_gold_tool_calls():
    with_outputs = [t for t in EMOTIONAL if t.evaluation.outputs]
    assert len(with_outputs) >= 5
    for task in with_outputs:
        database, log = await replay(DOMAIN, task.evaluation.actions)
        database.close()
        revealed = tokens(" ".join(call.output for call in log))
        for output in task.evaluation.outputs:
            # Figures must come from the tools; a unit word around them ("48 hours") is the agent's.
            figures = [t for t in tokens(output) if any(c.isdigit() for c in t)]
            if figures:
                assert all(f in revealed for f in figures), (task.id, output)
            else:
                assert contains(revealed, output), (task.id, output)


async def test_gold_actions_change_the_database_and_replay_identically():
    seed_state = DOMAIN.new_database().canonical_state()
    for task in EMOTIONAL:
        first, log = await replay(DOMAIN, task.evaluation.actions)
        again, _ = await replay(DOMAIN, task.evaluation.actions)
        assert all(call.ok for call in log), task.id
        assert first.canonical_state() != seed_state, task.id
        assert first.state_hash() == again.state_hash(), task.id
        first.close()
        again.close()


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


@pytest.mark.slow
async def test_pester_pleases_a_patient_user_and_loses_an_impatient_one(tmp_path: Path):
    rewards = {}
    for condition in ("relief.warm.low.trusting", "sorrow.cold.high.skeptical"):
        config = RunConfig(
            run="p", domains=["telehealth"], agent="pester", trials=1, tasks="emotional", condition=condition
        )
        report = await execute_run(config, tmp_path / condition, {}, 8)
        assert report.failed == 0 and len(report.records) == len(EMOTIONAL)
        rewards[condition] = {record.reward for record in report.records}
    assert rewards == {"relief.warm.low.trusting": {1}, "sorrow.cold.high.skeptical": {-1}}
