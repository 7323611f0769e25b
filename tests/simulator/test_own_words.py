"""The user speaks in a customer's own words: never a tool name, a field name or an id the scenario did
not give the customer, in its opening or when asked for what it does not know, over every task."""

from __future__ import annotations

import re

from taue.contracts.tasks import Action
from taue.envs.runtime.discovery import all_domains
from taue.envs.task_sets.scenario import _request
from taue.simulator.disclosure import briefs
from taue.simulator.scripted import FIRST_PERSON, ScriptedUser

FIELD = re.compile(r"\b[a-z]+_[a-z_]+\b")
"""A snake_case word: a tool or field name (values such as `credit_card_1` are checked separately)."""


def _tasks():
    for domain in all_domains():
        for task in domain.tasks:
            if task.emotion is not None:
                yield domain, task


def test_the_opening_and_answers_hold_no_tool_field_or_hidden_id() -> None:
    checked = 0
    for domain, task in _tasks():
        scenario = task.user_scenario
        user = ScriptedUser(task, seed=0)
        said = [user.opening()]
        for name in [*scenario.discoverable, *scenario.unknown_info]:
            said.append(user.reply(f"What is your {name.replace('_', ' ')}?").message)
        given = [
            *scenario.known_info.values(),
            scenario.reason_for_call,
            *(g.request for g in scenario.goals),
        ]
        known_values = " ".join(given)  # what the scenario gave the customer
        for text in said:
            words = set(FIELD.findall(text)) - set(FIELD.findall(known_values))
            assert not words, (task.id, words, text)
            assert not any(tool in text for tool in domain.write_tools), (task.id, text)
            hidden = [v for v in scenario.discoverable.values() if len(v) > 3 and v not in known_values]
            assert not any(v in text for v in hidden), (task.id, text)
        checked += 1
    assert checked == 580


def test_the_opening_leaves_out_intent_titles() -> None:
    for _, task in list(_tasks())[::29]:
        opening = ScriptedUser(task, seed=0).opening()
        reason = task.user_scenario.reason_for_call
        if not FIRST_PERSON.search(reason):
            assert reason not in opening, task.id
        first = task.user_scenario.goals[0]
        assert briefs([first], task.user_scenario.known_info)[first.id].text in opening


def test_an_imported_request_names_only_the_ids_the_customer_knows() -> None:
    action = Action(
        name="exchange_delivered_order_items",
        arguments={"order_id": "#W2378156", "payment_method_id": "credit_card_9513926"},
    )
    request = _request(action, {"order_id": "#W2378156"})
    assert request == "I'd like to exchange delivered order items (#W2378156)."
    assert "credit_card" not in request and "payment method id" not in request
