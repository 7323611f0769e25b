"""Goal targets: deriving them from the ground truth, matching confirmations, and the checks of
`taue tasks validate` that keep them unambiguous."""

from __future__ import annotations

import pytest

from taue.contracts.tasks import Action, Goal, Target, matches
from taue.envs.runtime.discovery import get_domain
from taue.envs.runtime.goal_targets import ambiguous_targets, attach_targets
from taue.envs.runtime.task_checks import target_problems
from tests.factories import make_task

WRITES = frozenset({"cancel_appointment", "manage_service", "record_payment"})


def draft(goal_id: str, *evidence: str, kind: str = "action") -> Goal:
    return Goal.model_construct(id=goal_id, kind=kind, request="…", evidence=list(evidence))


def test_the_write_holding_most_evidence_is_the_target_with_ids_and_evidence_as_keys() -> None:
    actions = [
        Action(name="get_customer", arguments={"customer_id": "c1"}),
        Action(
            name="manage_service", arguments={"customer_id": "c1", "action": "remove", "service_id": "old"}
        ),
        Action(name="manage_service", arguments={"customer_id": "c1", "action": "add", "service_id": "new"}),
        Action(name="record_payment", arguments={"customer_id": "c1", "amount": 87.07, "method": "card"}),
    ]
    goals = attach_targets([draft("switch", "new"), draft("pay", "87.07")], actions, WRITES)
    assert goals[0].targets == [
        Target(tool="manage_service", arguments={"customer_id": "c1", "service_id": "new"})
    ]
    assert goals[1].targets == [
        Target(tool="record_payment", arguments={"customer_id": "c1", "amount": 87.07})
    ]
    assert ambiguous_targets(goals) == []


def test_a_goal_naming_two_ids_gets_both_writes() -> None:
    actions = [
        Action(name="cancel_appointment", arguments={"appointment_id": "A1"}),
        Action(name="cancel_appointment", arguments={"appointment_id": "A2"}),
    ]
    [goal] = attach_targets([draft("cancel", "A1", "A2")], actions, WRITES)
    assert [t.arguments for t in goal.targets] == [{"appointment_id": "A1"}, {"appointment_id": "A2"}]


def test_colliding_targets_are_widened_until_unique() -> None:
    actions = [
        Action(
            name="manage_service", arguments={"customer_id": "c1", "action": "remove", "service_id": "s1"}
        ),
        Action(name="manage_service", arguments={"customer_id": "c1", "action": "add", "service_id": "s1"}),
    ]
    goals = attach_targets([draft("drop", "remove"), draft("readd", "add")], actions, WRITES)
    assert ambiguous_targets(goals) == []
    assert (
        goals[0].targets[0].arguments["action"] == "remove"
        and goals[1].targets[0].arguments["action"] == "add"
    )


def test_a_goal_without_a_matching_write_is_an_error() -> None:
    with pytest.raises(ValueError, match="no ground-truth write contains its evidence"):
        attach_targets(
            [draft("x", "nowhere")], [Action(name="record_payment", arguments={"amount": 1})], WRITES
        )


def test_matching_compares_numbers_by_value_and_needs_every_key() -> None:
    target = Target(tool="record_payment", arguments={"customer_id": "c1", "amount": 87})
    assert matches(target, "record_payment", {"customer_id": "c1", "amount": 87.0, "method": "card"})
    assert not matches(target, "record_payment", {"customer_id": "c1", "amount": 87.5})
    assert not matches(target, "record_payment", {"customer_id": "c1"})
    assert not matches(target, "manage_service", {"customer_id": "c1", "amount": 87})


def test_validation_rejects_ambiguous_unreachable_and_contradictory_targets() -> None:
    domain = get_domain("airline")
    task = make_task()
    assert target_problems(domain, task) == []
    goal = task.user_scenario.goals[0]
    goal.targets = [Target(tool="cancel_reservation", arguments={"reservation_id": "ZZZ999"})]
    assert any("no ground-truth write matches" in p for p in target_problems(domain, task))
    goal.targets = [Target(tool="cancel_reservation", arguments={"reservation_id": "ABC123"})]
    goal.refusal_expected, goal.refusal_reason = True, ["insurance"]
    assert any("refusal expected, but a ground-truth write" in p for p in target_problems(domain, task))
    goal.refusal_expected = False
    twin = goal.model_copy(update={"id": "g3"})
    task.user_scenario.goals.append(twin)
    assert any("one cancel_reservation call could match both" in p for p in target_problems(domain, task))
