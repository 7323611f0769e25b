"""The scripted user v0: answers, confirmations, goals, and the published patience model."""

from __future__ import annotations

import pytest

from simulator.satisfaction import patience_budget, tolerance_table, tolerated_needless_questions
from simulator.scripted import ScriptedUser
from simulator.session import STOP, UNSATISFIED, Simulator, UserOptions
from simulator.understanding import read_message
from tests.factories import make_task


def test_first_message_states_reason_goal_and_volunteered_facts_only() -> None:
    user = ScriptedUser(make_task(), seed=1)
    first = user.opening()
    assert "I want to change my trip." in first
    assert "Please cancel reservation ABC123." in first
    assert "ana_lee_1234" in first
    assert "credit_card_1" not in first and "economy" not in first


def test_same_seed_same_conversation_different_seed_may_differ() -> None:
    script = [
        "What is your cabin?",
        "Could you tell me your payment id?",
        "Let me check.",
        "Done: cancelled ABC123.",
    ]

    def converse(seed: int) -> list[str]:
        user = ScriptedUser(make_task(), seed=seed)
        return [user.opening(), *(user.reply(m).message for m in script)]

    assert converse(7) == converse(7)
    assert any(converse(7) != converse(s) for s in range(8, 20))


def test_answers_known_facts_and_refuses_to_invent() -> None:
    user = ScriptedUser(make_task(), seed=0)
    turn = user.reply("What cabin are you flying in?")
    assert "economy" in turn.message and not turn.done
    turn = user.reply("What is your membership level?")
    assert "don't know" in turn.message
    assert turn.patience == patience_budget("neutral", "moderate", "cautious")


def test_question_for_discoverable_fact_costs_patience_and_gets_no_value() -> None:
    user = ScriptedUser(make_task(), seed=0)
    turn = user.reply("Could you tell me your payment id?")
    assert "credit_card_1" not in turn.message
    assert "look that up" in turn.message
    assert turn.events == ["needless_question_discoverable"]
    assert turn.patience == patience_budget("neutral", "moderate", "cautious") - 1


def test_repeated_question_for_given_fact_costs_patience() -> None:
    user = ScriptedUser(make_task(), seed=0)
    turn = user.reply("What is your user id?")
    assert "already" in turn.message and "ana_lee_1234" in turn.message
    assert turn.events == ["needless_question_answered"]


def test_confirmation_request_gets_yes() -> None:
    user = ScriptedUser(make_task(), seed=0)
    turn = user.reply("Shall I go ahead and cancel reservation ABC123?")
    assert "Yes, please go ahead." in turn.message
    assert turn.goals_confirmed == []  # a question is not a claim that it is done


def test_stop_when_every_goal_confirmed() -> None:
    user = ScriptedUser(make_task(), seed=0)
    turn = user.reply("Reservation ABC123 has been cancelled.")
    assert not turn.done and turn.goals_confirmed == ["g1"]
    assert "How much was refunded?" in turn.message
    turn = user.reply("The refund is 120 dollars.")
    assert turn.done and turn.termination == "user_stop" and STOP in turn.message


@pytest.mark.parametrize(
    ("politeness", "urgency", "trust"), [("cold", "high", "skeptical"), ("warm", "low", "trusting")]
)
def test_unsatisfied_exactly_after_tolerated_needless_questions(
    politeness: str, urgency: str, trust: str
) -> None:
    user = ScriptedUser(make_task(politeness, urgency, trust), seed=0)
    tolerated = tolerated_needless_questions(politeness, urgency, trust)
    for i in range(tolerated):
        turn = user.reply(f"Question {i}: could you tell me your payment id?")
        assert not turn.done
    turn = user.reply("One more: could you tell me your payment id?")
    assert turn.done and turn.termination == "user_unsatisfied" and UNSATISFIED in turn.message
    assert "needless_question_discoverable" in (turn.reason or "")


def test_never_unsatisfied_once_all_goals_are_met() -> None:
    user = ScriptedUser(make_task("cold", "high", "skeptical"), seed=0)
    tolerated = tolerated_needless_questions("cold", "high", "skeptical")
    for i in range(tolerated):
        user.reply(f"Question {i}: could you tell me your payment id?")
    # Patience is at its last point; the message that finishes the job must still end in STOP.
    turn = user.reply("Could you tell me your payment id? Anyway, ABC123 is cancelled and 120 is refunded.")
    assert turn.termination == "user_stop"


def test_stalls_and_repeats_cost_patience() -> None:
    user = ScriptedUser(make_task(), seed=0)
    user.reply("Let me look into that.")
    turn = user.reply("Let me look into that.")
    assert turn.events == ["stall", "repeated_message", "stall"]


def test_patience_budget_orders_conditions() -> None:
    table = {(p, u, t): n for p, u, t, n in tolerance_table()}
    assert len(table) == 27
    assert table[("warm", "low", "trusting")] == max(table.values())
    assert table[("cold", "high", "skeptical")] == min(table.values()) >= 1
    assert all(
        table[(p, "high", t)] < table[(p, "low", t)]
        for p in ("warm", "neutral", "cold")
        for t in ("trusting",)
    )


def test_neutral_twin_uses_neutral_profile() -> None:
    user = ScriptedUser(make_task(emotion=None), seed=0)
    assert user.satisfaction.budget == patience_budget("neutral", "moderate", "cautious")


def test_reading_detects_questions_facts_and_completion() -> None:
    reading = read_message(
        "I have cancelled it. What is your payment method? Sorry for the wait.", ["payment_id"]
    )
    assert reading.facts_asked == ["payment_id"] and reading.claims_completion and reading.acknowledges
    assert not read_message("Error executing tool x: boom", []).questions
    assert read_message("Error executing tool x: boom", []).leaks_error


async def test_simulator_sessions_are_isolated_and_unknown_sessions_rejected() -> None:
    simulator = Simulator()
    first_id, _ = await simulator.start(make_task(), seed=1)
    second_id, _ = await simulator.start(make_task(), seed=1)
    await simulator.respond(first_id, "Could you tell me your payment id?")
    assert (await simulator.respond(second_id, "Hello?")).patience == patience_budget(
        "neutral", "moderate", "cautious"
    )
    simulator.end(first_id)
    with pytest.raises(LookupError, match="unknown simulator session"):
        await simulator.respond(first_id, "Hello?")
    with pytest.raises(LookupError, match="unknown user backend"):
        await simulator.start(make_task(), seed=1, options=UserOptions(backend="nope"))


def test_docs_table_matches_the_model() -> None:
    """docs/simulator.md publishes the tolerance table; it must be the code's table."""
    from pathlib import Path

    doc = (Path(__file__).parent.parent / "docs" / "simulator.md").read_text()
    block = doc.split("<!-- tolerance-table:start -->")[1].split("<!-- tolerance-table:end -->")[0]
    rows = [line.strip("|").split("|") for line in block.strip().splitlines()[2:]]
    published = {(p.strip(), u.strip(), t.strip()): int(n) for u, p, t, _, n in rows}
    assert published == {(p, u, t): n for p, u, t, n in tolerance_table()}
