"""The scripted user's first message: the first need in the customer's own words, then why."""

from __future__ import annotations

from taue.envs.runtime.discovery import all_domains
from taue.simulator.scripted import ScriptedUser


def _tracer_tasks():
    for domain in all_domains():
        yield from [t for t in domain.tasks if t.emotion is not None][::6]


def test_the_opening_states_the_first_request_and_then_its_reason() -> None:
    checked = 0
    for task in _tracer_tasks():
        scenario = task.user_scenario
        opening = ScriptedUser(task, seed=0).opening()
        request = scenario.goals[0].request
        assert request in opening, task.id
        assert scenario.reason_for_call, task.id
        assert opening.index(scenario.reason_for_call) > opening.index(request), (task.id, opening)
        checked += 1
    assert checked >= 90


def test_the_opening_names_no_later_need() -> None:
    for task in _tracer_tasks():
        opening = ScriptedUser(task, seed=0).opening()
        for goal in task.user_scenario.goals[1:]:
            assert goal.request not in opening, task.id
