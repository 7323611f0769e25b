"""The scripted user's first message: the first need in brief, in the customer's own words, then why;
the need's payment details when the agent asks for them."""

from __future__ import annotations

import pytest

from taue.contracts.tasks import Goal, Target, Task
from taue.envs.runtime.discovery import all_domains
from taue.simulator.disclosure import brief, briefs, is_detail
from taue.simulator.scripted import ScriptedUser


def _tracer_tasks():
    for domain in all_domains():
        yield from [t for t in domain.tasks if t.emotion is not None][::6]


def _all_emotional_tasks() -> list[Task]:
    return [t for domain in all_domains() for t in domain.tasks if t.emotion is not None]


def test_the_opening_states_the_first_request_and_then_its_reason() -> None:
    checked = 0
    for task in _tracer_tasks():
        scenario = task.user_scenario
        user = ScriptedUser(task, seed=0)
        opening = user.opening()
        request = user.briefs[scenario.goals[0].id].text
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


# ------------------------------------------------------------------------------ the brief


def test_a_brief_leaves_out_the_payment_clause_and_keeps_every_other_word() -> None:
    known = {"trip": "the economy round trip from Houston to Miami", "pay_with": "Visa card ending in 1682"}
    request = (
        "Could you upgrade the economy round trip from Houston to Miami to business, "
        "paid with my Visa card ending in 1682?"
    )
    said = brief(request, known)
    assert said.text == "Could you upgrade the economy round trip from Houston to Miami to business?"
    assert said.held_back == ("pay_with",)


def test_a_payment_sentence_after_the_need_goes_whole() -> None:
    request = "Please book Nia Esposito into the Bison Camp. Please use my Mastercard ending in 5879."
    said = brief(request, {"player": "Nia Esposito", "pay_with_2": "Mastercard ending in 5879"})
    assert said == brief(request, {"player": "Nia Esposito", "pay_with_2": "Mastercard ending in 5879"})
    assert said.text == "Please book Nia Esposito into the Bison Camp."
    assert said.held_back == ("pay_with_2",)


def test_a_cut_never_touches_another_facts_words() -> None:
    # the charge's date holds a comma; the account is how the charge is found, not how to pay
    known = {"charge": "the 74.54 charge on May 2, 2025", "pay_from": "Bills Checking account"}
    request = "I'd like to dispute the 74.54 charge on May 2, 2025 on my Bills Checking account."
    assert "May 2, 2025" in brief(request, known).text


def test_a_card_that_is_the_record_is_never_held_back() -> None:
    request = "I need a temporary freeze on my debit card ending in 2370."
    assert brief(request, {"card": "debit card ending in 2370"}).text == request


def test_a_payment_fact_is_the_detail_of_the_first_need_naming_it_only() -> None:
    target = [Target(tool="t", arguments={"id": "L1"})]
    goals = [
        Goal(
            id="pay",
            request="Please pay my auto loan installment from my Bills Checking account.",
            targets=target,
        ),
        Goal(
            id="dispute",
            request="I'd like to dispute the fuel charge from my Bills Checking account.",
            targets=target,
        ),
    ]
    found = briefs(goals, {"loan": "auto loan", "pay_from": "Bills Checking account"})
    assert found["pay"].held_back == ("pay_from",)
    assert found["dispute"].text == goals[1].request


def test_every_brief_keeps_the_needs_other_facts_and_hides_its_held_back_values() -> None:
    held = named = 0
    for task in _all_emotional_tasks():
        known = task.user_scenario.known_info
        for goal in task.user_scenario.goals:
            said = briefs(task.user_scenario.goals, known)[goal.id]
            lowered, request = said.text.lower(), goal.request.lower()
            for name, value in known.items():
                value = str(value).lower()
                if len(value) > 2 and value in request and not is_detail(name):
                    assert value in lowered, (task.id, goal.id, name, said.text)
            assert not any(str(known[n]).lower() in lowered for n in said.held_back), (task.id, said)
            named += any(is_detail(n) and str(v).lower() in request for n, v in known.items())
            held += bool(said.held_back)
    assert held >= 0.7 * named, (held, named)


# ------------------------------------------------------------------------------ the conversation


def _task_holding_back_the_first_payment() -> tuple[Task, str]:
    for task in _all_emotional_tasks():
        first = task.user_scenario.goals[0]
        held = briefs([first], task.user_scenario.known_info)[first.id].held_back
        if held and task.user_scenario.known_info[held[0]] not in task.user_scenario.reason_for_call:
            return task, held[0]
    raise AssertionError("no task holds back its first need's payment")


def _opened() -> tuple[ScriptedUser, Task, str]:
    """A user who has just opened with a need whose payment (the value returned) it held back."""
    task, name = _task_holding_back_the_first_payment()
    user = ScriptedUser(task, seed=0)
    assert task.user_scenario.known_info[name] not in user.opening()
    return user, task, task.user_scenario.known_info[name]


def test_the_payment_comes_when_the_agent_asks_for_it() -> None:
    user, _, payment = _opened()
    answer = user.reply("Thank you. How would you like to pay for this?")
    assert payment in answer.message, answer.message
    assert "needless_question_answered" not in answer.events


def test_an_open_question_about_the_need_gets_its_held_back_details() -> None:
    user, _, payment = _opened()
    answer = user.reply("I understand. Is there anything else you can tell me about what you need?")
    assert payment in answer.message, answer.message


def test_a_declined_proposal_says_the_held_back_details() -> None:
    user, _, payment = _opened()
    answer = user.reply("I can do something else for you: shall I sign you up for our newsletter instead?")
    assert payment in answer.message, answer.message


@pytest.mark.xfail(
    strict=True,
    reason="the reader matches a proposal by its verb alone: 'send you a newsletter' is read as "
    "airline-001's compensation (send_certificate) and approved (found with task set v3)",
)
def test_a_proposal_sharing_only_a_verb_with_a_need_is_declined() -> None:
    user, _, payment = _opened()
    answer = user.reply("I can do something else for you: shall I send you a newsletter instead?")
    assert payment in answer.message, answer.message


def test_asked_again_the_user_says_the_whole_request() -> None:
    user, task, _ = _opened()
    first = task.user_scenario.goals[0]
    assert first.request[1:] in user._next_request()  # said in brief first, in full when asked again
