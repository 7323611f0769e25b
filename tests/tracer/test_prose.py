"""The instruction writer: second person, frames that never open alike, what the customer knows."""

from __future__ import annotations

import random

from taue.contracts.tasks import Goal, Target, UserScenario
from taue.envs.runtime.authoring import Bank
from taue.tracer.prose import known_ids, opening, second_person


def test_first_person_becomes_second_person() -> None:
    assert second_person("I ordered it by mistake") == "you ordered it by mistake"
    assert (
        second_person("my plans changed and I was told to rest")
        == "your plans changed and you were told to rest"
    )
    assert second_person("I'm moving and we've sold our house") == "you're moving and you've sold your house"
    assert second_person("My sister gave me the card") == "Your sister gave you the card"
    assert second_person("the seats are too far from the screen") == "the seats are too far from the screen"
    assert (
        second_person("I'd rather you check the status first")
        == "you'd rather the agent check the status first"
    )
    assert second_person("Please tell me the total") == "you'd like the agent to tell you the total"
    assert second_person("don't change my card") == "the agent should not change your card"
    assert second_person("Please don't call me") == "the agent should not call you"
    assert second_person("read it back before you book it") == "read it back before the agent books it"
    assert second_person("I'd rather you check first") == "you'd rather the agent check first"
    assert second_person("tell me if you can") == "tell you if the agent can"
    text = "if you are able to, I'd like it today"
    assert second_person(text) == "if the agent is able to, you'd like it today"


def test_openings_are_the_first_two_words() -> None:
    assert opening("Besides, you want a refund.") == "besides you"
    assert opening("You play Ada Lovelace, a nurse.") == "you play"


def _scenario(known: dict[str, str], discoverable: dict[str, str]) -> UserScenario:
    goal = Goal(id="g", kind="action", request="Do it.", targets=[Target(tool="t", arguments={"x": 1})])
    return UserScenario(
        persona="P", reason_for_call="", known_info=known, discoverable=discoverable, goals=[goal]
    )


def test_known_ids_are_id_named_facts_or_values_the_tools_would_find() -> None:
    assert known_ids(_scenario({"email": "a@b.c"}, {"user_id": "u1"})) == []
    assert known_ids(_scenario({"user_id": "u1"}, {})) == ["u1"]
    assert known_ids(_scenario({"ticket": "T9"}, {"ticket_id": "T9"})) == ["T9"]


def test_a_bank_fills_slots_and_draws_by_reason_key() -> None:
    bank = Bank(
        requests=("Please cancel {order}", "Could you cancel {order}?"),
        wants=("you want {order} cancelled",),
        reasons={"": ("I changed my mind",), "mistake": ("I ordered it by mistake",)},
        preferences=("I'd like it confirmed first",),
        personas=("a nurse",),
    )
    wording = bank.word(random.Random(1), {"order": "the order with a lamp"}, reason="mistake")
    assert wording.request in (
        "Please cancel the order with a lamp.",
        "Could you cancel the order with a lamp?",
    )
    assert wording.situation == "you want the order with a lamp cancelled"
    assert wording.reason == "I ordered it by mistake"
    assert bank.word(random.Random(1), {"order": "x"}, reason="unknown key").reason == "I changed my mind"
    assert wording.fields()["personas"] == ("a nurse",)
