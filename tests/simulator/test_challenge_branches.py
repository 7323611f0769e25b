"""The scripted and the LLM user in a challenge's accept branch (issue 37, item 4): after the agent
refuses the request the policy forbids, the scripted user asks for the allowed alternative, an agent
that offers the alternative first gets its yes, and the alternative's confirmation never settles the
refusal; the LLM user's prompt lists the alternative after the refused request."""

from __future__ import annotations

from taue.contracts.episode import Notification
from taue.contracts.tasks import Task
from taue.simulator.llm import system_prompt
from taue.simulator.scripted import ScriptedUser
from tests.factories import make_task

MOVED = {"reservation_id": "ABC123", "flights": [{"flight_number": "HAT001", "date": "2024-05-14"}]}


def accept_branch() -> Task:
    """A cancellation the policy refuses, then the change of flights the customer accepts instead."""
    task = make_task()
    body = task.model_dump()
    refused, _ = body["user_scenario"]["goals"]
    refused |= {"refusal_expected": True, "refusal_reason": ["basic economy"]}
    instead = {
        "id": "change_instead",
        "kind": "action",
        "request": "If it can't be cancelled, could you move it to May 14 instead, on the same flight?",
        "evidence": ["ABC123", "2024-05-14"],
        "targets": [{"tool": "update_reservation_flights", "arguments": MOVED}],
    }
    body["user_scenario"]["goals"] = [refused, instead]
    body["evaluation"] = {
        "actions": [{"name": "update_reservation_flights", "arguments": MOVED}],
        "outputs": [],
    }
    return Task.model_validate(body)


def test_the_user_asks_for_the_alternative_after_the_refusal() -> None:
    user = ScriptedUser(accept_branch(), seed=0)
    user.opening()
    turn = user.reply("I'm sorry, I cannot cancel ABC123: basic economy fares cannot be cancelled.")
    assert turn.goals_confirmed == ["g1"] and "May 14" in turn.message and not turn.done  # confirmed so far
    turn = user.reply(
        "Here is the change I would make: update reservation flights (reservation id: ABC123; flights: "
        "HAT001 on 2024-05-14). Shall I go ahead?"
    )
    assert "yes" in turn.message.lower()
    moved = [Notification(tool="update_reservation_flights", arguments=MOVED)]
    turn = user.reply("Done: your flight ABC123 now goes on 2024-05-14.", moved)
    assert set(turn.goals_confirmed) == {"g1", "change_instead"} and turn.done


def test_an_agent_that_offers_the_alternative_first_gets_a_yes() -> None:
    user = ScriptedUser(accept_branch(), seed=0)
    user.opening()
    turn = user.reply(
        "Here is the change I would make: update reservation flights (reservation id: ABC123; flights: "
        "HAT001 on 2024-05-14). Shall I go ahead?"
    )
    assert "yes" in turn.message.lower() and "unjustified_refusal" not in turn.events
    moved = [Notification(tool="update_reservation_flights", arguments=MOVED)]
    turn = user.reply("Done: your flight ABC123 now goes on 2024-05-14.", moved)
    assert turn.goals_confirmed == ["change_instead"] and not turn.done  # the refusal is still owed
    turn = user.reply("I cannot cancel ABC123, as basic economy fares cannot be cancelled.")
    assert set(turn.goals_confirmed) == {"g1", "change_instead"} and turn.done


def test_the_llm_user_is_told_the_alternative_it_takes() -> None:
    prompt = system_prompt(accept_branch())
    wants = prompt.split("What you want, in this order:")[1]
    assert wants.index("Please cancel reservation ABC123.") < wants.index(
        "could you move it to May 14 instead"
    )
