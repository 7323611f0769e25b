"""Imported tasks whose gold leaves a request undone: refusal-expected goals, and what the user knows.

Synthetic published tasks (written here, on the airline tools and our own airline policy) check what
`envs.task_sets.scenario.derive` makes of a request the gold never carries out, of the facts an
instruction states and of those it says the customer lacks. The recorded τ-bench airline test
trajectories (`shared/data/tau-bench-trajectories/`, read at test time; skipped where absent) check
the real thing: every task whose gold writes nothing and whose customer asks for a change gets
refusal-expected goals, and the oracle and the careful judge agents, which refuse them with the
policy's reasons, score 1.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from taue.contracts.run import RunConfig
from taue.contracts.tasks import Action, Evaluation, Task
from taue.envs.runtime.discovery import get_domain
from taue.envs.runtime.task_checks import target_problems
from taue.envs.task_sets.importer import import_task_set
from taue.envs.task_sets.policy_reasons import reasons, rules
from taue.envs.task_sets.scenario import Derived, derive
from taue.envs.task_sets.storage import TaskSetInfo
from taue.envs.task_sets.wording import stems
from taue.runner.runner import execute_run
from tests.paths import PUBLISHED_DATA

TRAJECTORIES = PUBLISHED_DATA.parent / "tau-bench-trajectories" / "gpt-4o-airline-even-tasks.json"
USER = "nora_quinn_4410"


def derived(instruction: str, actions: list[Action] | None = None, outputs: Any = ()) -> Derived:
    return derive(get_domain("airline"), USER, instruction, actions or [], list(outputs))


def refusals(result: Derived) -> list[Any]:
    return [g for g in result.scenario.goals if g.refusal_expected]


def valid(result: Derived, actions: list[Action]) -> list[str]:
    """What `taue tasks validate` says of the goal targets of a task holding this scenario."""
    task = Task(
        id="t",
        domain="airline",
        user_scenario=result.scenario,
        instruction="-",
        evaluation=Evaluation(actions=actions, outputs=result.outputs),
    )
    return target_problems(get_domain("airline"), task)


# --------------------------------------------------------------------------------- refusal goals


def test_a_cancellation_the_gold_never_makes_is_a_refusal_expected_goal() -> None:
    result = derived(
        "You are nora_quinn_4410. You would like to cancel your trip in booking ZQ4RT7 because a "
        "conference moved. Keep asking even if the agent hesitates.",
        [Action(name="get_reservation_details", arguments={"reservation_id": "ZQ4RT7"})],
    )
    [goal] = refusals(result)
    assert goal.kind == "action" and goal.targets[0].tool == "cancel_reservation"
    assert goal.targets[0].arguments == {"reservation_id": "ZQ4RT7"}
    assert goal.request.startswith("I'd like to cancel my trip") and "ZQ4RT7" in goal.request
    # the rule of our policy that forbids it: the cancellation conditions
    assert {"24 hours", "business class", "travel insurance"} & set(goal.refusal_reason), goal.refusal_reason
    assert not any(g.kind == "information" for g in result.scenario.goals)  # no placeholder goal
    assert any(f.startswith("no-write task") for f in result.flags)
    assert valid(result, []) == []


def test_each_kind_of_request_finds_its_write_tool_and_its_rule() -> None:
    result = derived(
        "You are nora_quinn_4410. Your reservation number is PL8W2K. You insist on having insurance "
        "added to it. You also want to receive compensation for the long wait, and you want to add "
        "two checked bags to PL8W2K."
    )
    by_tool = {g.targets[0].tool: g for g in refusals(result)}
    assert set(by_tool) == {"book_reservation", "send_certificate", "update_reservation_baggages"}
    assert "insurance" in " ".join(by_tool["book_reservation"].refusal_reason)
    assert by_tool["send_certificate"].targets[0].arguments == {"user_id": USER}
    assert by_tool["update_reservation_baggages"].targets[0].arguments == {"reservation_id": "PL8W2K"}
    assert all(g.refusal_reason for g in by_tool.values())


def test_a_refund_asked_beside_a_cancellation_is_part_of_it() -> None:
    result = derived("You want to cancel reservation H2MK9D and have the full refund.")
    [goal] = refusals(result)
    assert goal.targets[0].tool == "cancel_reservation"


def test_a_record_the_instruction_does_not_name_keys_the_goal_by_the_customer() -> None:
    result = derived("You are nora_quinn_4410 and you want to cancel your flights from DEN to BOS.")
    [goal] = refusals(result)
    assert goal.targets[0].arguments == {"user_id": USER}  # no call matches: only a refusal settles it
    assert any("does not name" in f for f in result.flags)


@pytest.mark.parametrize(
    "instruction",
    [
        "You want to know whether you could upgrade reservation H2MK9D to business.",
        "You don't want to cancel reservation H2MK9D, only to hear about it.",
        "If the agent offers a voucher, you want to cancel reservation H2MK9D.",
        "You would like a list of your scheduled trips and an update on reservation H2MK9D.",
        "You insist that you've purchased insurance for reservation H2MK9D.",
    ],
)
def test_questions_conditions_and_claims_are_no_requests(instruction: str) -> None:
    result = derived(
        instruction, [Action(name="get_reservation_details", arguments={"reservation_id": "H2MK9D"})]
    )
    assert refusals(result) == []
    assert any(f.startswith("look-up-only task") for f in result.flags)


def test_a_task_with_writes_gets_a_refusal_goal_only_for_a_named_record_no_write_touches() -> None:
    cancel = Action(name="cancel_reservation", arguments={"reservation_id": "AB12CD"})
    result = derived(
        "You want to cancel both of your reservations (AB12CD and EF34GH). You also want to change "
        "your return flight to a later one.",
        [cancel],
    )
    [goal] = refusals(result)
    assert goal.targets[0].arguments == {"reservation_id": "EF34GH"}
    done = [g for g in result.scenario.goals if not g.refusal_expected]
    assert [g.targets[0].arguments for g in done] == [{"reservation_id": "AB12CD"}]
    assert valid(result, [cancel]) == []


def test_reasons_come_from_the_rule_about_the_request() -> None:
    policy = (
        "# Rental desk rules\n\n## Returning a car\n\n- A car may be returned early only with the "
        "flexible plan.\n- Late returns are charged unless the desk agrees.\n\n## Upgrades\n\n- Upgrades "
        "are never possible for weekly rentals.\n"
    )
    found = rules(policy)
    assert [r.strong for r in found] == [True, False, True]
    tool = stems("return car")  # the words of a `return_car` tool: too general to be a reason
    said = "You want to return the car two days early."
    assert reasons(found, "return", frozenset(stems("car early")), tool, set(), said) == [
        "early",
        "flexible plan",
    ]
    upgrade = reasons(found, "change", frozenset(stems("weekly")), set(), set(), "upgrade it")
    assert upgrade == ["weekly rentals"]


# ------------------------------------------------------------------------------------ user facts


def test_stated_facts_are_known_in_the_customers_words() -> None:
    book = Action(
        name="book_reservation",
        arguments={
            "user_id": USER,
            "origin": "SEA",
            "destination": "DEN",
            "flight_type": "one_way",
            "cabin": "economy",
            "flights": [{"flight_number": "HAT111", "date": "2024-05-21"}],
            "passengers": [{"first_name": "Nora", "last_name": "Quinn", "dob": "1980-02-02"}],
            "payment_methods": [{"payment_id": "credit_card_5550001", "amount": 321}],
            "total_baggages": 2,
            "nonfree_baggages": 0,
            "insurance": "no",
        },
    )
    result = derived(
        "You are Nora Quinn. You want a one-way economy trip from SEA to DEN on May 21 with 2 checked "
        "bags and no travel insurance, because your sister is getting married. You prefer a morning "
        "departure. Pay with your Visa card ending in 4821.",
        [book],
    )
    known = result.scenario.known_info
    assert known["flight_type"] == "one_way" and known["date"] == "2024-05-21"
    assert known["total_baggages"] == "2" and known["insurance"] == "no"
    assert known["pay_with"] == "Visa card ending in 4821"
    assert known["reason"] == "my sister is getting married"
    assert known["preference"] == "a morning departure"
    assert "payment_id" in result.scenario.discoverable  # the id stays the agent's to look up
    assert result.scenario.preferences == ["a morning departure"]


def test_facts_the_customer_lacks_are_unknown() -> None:
    read = Action(name="get_reservation_details", arguments={"reservation_id": "KQ7P2M"})
    result = derived(
        "You are nora_quinn_4410. You want to cancel your trip to Austin, but you don't remember "
        "your reservation number.",
        [read],
    )
    scenario = result.scenario
    assert scenario.unknown_info == ["reservation_id"]
    assert "reservation_id" not in scenario.known_info and "reservation_id" not in scenario.discoverable
    assert scenario.volunteered == ["user_id"]


def test_an_unknown_user_id_leaves_the_other_identity_to_volunteer() -> None:
    result = derived("You don't remember your user id, but your email is nora.quinn@example.com.")
    scenario = result.scenario
    assert scenario.unknown_info == ["user_id"] and "user_id" not in scenario.known_info
    assert scenario.volunteered == ["email"] and scenario.known_info["email"] == "nora.quinn@example.com"


# ------------------------------------------------------------- the recorded τ-bench test tasks

needs_trajectories = pytest.mark.skipif(
    not TRAJECTORIES.is_file() or not (PUBLISHED_DATA / "airline").is_dir(),
    reason=f"no τ-bench airline trajectories at {TRAJECTORIES} or published airline data",
)


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def test_tasks(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[TaskSetInfo]:
    """The even-numbered τ-bench airline test tasks, imported from their recorded trajectories."""
    folder = tmp_path_factory.mktemp("refusal-sets")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TAUE_TASK_SETS_DIR", str(folder))
        yield await import_task_set(PUBLISHED_DATA, "airline", "test", "tb-airline", tasks_file=TRAJECTORIES)


def no_write_tasks(info: TaskSetInfo) -> list[Task]:
    task_set = get_domain(info.name)
    return [
        t
        for t in task_set.tasks
        if t.neutral_twin_of is None and not any(a.name in task_set.write_tools for a in t.evaluation.actions)
    ]


@needs_trajectories
@pytest.mark.xdist_group("import-refusals")
def test_no_write_test_tasks_get_refusal_goals(test_tasks: TaskSetInfo) -> None:
    tasks = no_write_tasks(test_tasks)
    asking = [t for t in tasks if not t.evaluation.outputs]  # the rest only ask a question
    assert len(asking) >= 8
    for task in asking:
        goals = [g for g in task.user_scenario.goals if g.refusal_expected]
        assert goals, task.id
        assert all(g.refusal_reason and g.targets for g in goals)
        assert any(f.startswith("no-write task") for f in task.provenance.flags)
        assert not any(g.kind == "information" for g in task.user_scenario.goals)


@needs_trajectories
@pytest.mark.xdist_group("import-refusals")
@pytest.mark.parametrize("agent", ["oracle", "careful-readback", "careful-combined"])
async def test_agents_that_refuse_with_the_policy_reason_score_one(
    test_tasks: TaskSetInfo, agent: str, tmp_path: Path
) -> None:
    tasks = [t for t in no_write_tasks(test_tasks) if any(g.refusal_expected for g in t.user_scenario.goals)]
    config = RunConfig(
        run=agent, domains=[test_tasks.name], agent=agent, trials=1, task_ids=[t.id for t in tasks]
    )
    report = await execute_run(config, tmp_path / agent, {}, concurrency=8)
    assert report.failed == 0 and len(report.records) == len(tasks)
    transfers = {
        t.id for t in tasks if t.evaluation.actions and t.evaluation.actions[-1].name.startswith("transfer")
    }
    for record in report.records:
        ending = "agent_transfer" if record.task_id in transfers else "user_stop"
        assert (record.reward, record.termination) == (1, ending), (record.task_id, record.user_state)
