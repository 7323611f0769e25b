"""The prose lints catch what reads as a slip: first person, names twice, alike openings, ids denied."""

from __future__ import annotations

from taue.contracts.tasks import Evaluation, Goal, Target, Task, UserScenario
from taue.tracer.lints import instruction_lints


def _task(instruction: str, known: dict[str, str] | None = None) -> Task:
    goal = Goal(id="g", kind="action", request="Do it.", targets=[Target(tool="t", arguments={"x": 1})])
    scenario = UserScenario(
        persona="P", reason_for_call="", known_info=known or {"email": "a@b.c"}, goals=[goal]
    )
    return Task(
        id="t", domain="d", user_scenario=scenario, instruction=instruction, evaluation=Evaluation(actions=[])
    )


CLEAN = (
    "You play Ada Byrne, a nurse. First, you want the lamp returned. You have no reference numbers to hand."
)


def test_a_clean_instruction_has_no_lints() -> None:
    assert instruction_lints(_task(CLEAN)) == []
    assert (
        instruction_lints(_task("You play Ada, a student. Besides, you are enrolled in History I. Then, go."))
        == []
    )


def test_first_person_is_caught() -> None:
    assert "first person" in instruction_lints(_task(CLEAN + " Then, my card is lost."))[0]


def test_a_name_repeated_in_parentheses_is_caught() -> None:
    lints = instruction_lints(_task("You play Ada, a nurse. First, you want BIO101 (BIO101 Biology) moved."))
    assert any("parentheses" in lint for lint in lints)


def test_sentences_opening_alike_are_caught() -> None:
    lints = instruction_lints(_task("You play Ada, a nurse. You play golf. Then, go."))
    assert any("open alike" in lint for lint in lints)


def test_ids_denied_after_one_was_given_are_caught() -> None:
    text = "You play Ada, a nurse. Then, go. You do not know any ids; the agent can look them up."
    assert any("no ids" in lint for lint in instruction_lints(_task(text, {"user_id": "ada_1"})))
    assert not any("no ids" in lint for lint in instruction_lints(_task(text)))


def test_one_fact_under_two_names_is_caught() -> None:
    lints = instruction_lints(_task(CLEAN, {"student_id": "N1", "student_number": "N1"}))
    assert any("two names" in lint for lint in lints)
    shared_date = {"check_in": "2025-05-16", "pick_up": "2025-05-16", "cabin": "business", "to": "business"}
    assert not any("two names" in lint for lint in instruction_lints(_task(CLEAN, shared_date)))
