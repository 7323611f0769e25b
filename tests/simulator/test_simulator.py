"""The scripted user v1: understanding, answers, wording, the published satisfaction model, and the
oracle's reward under conditions spanning all 594."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import pytest_asyncio

from taue.contracts.emotions import CONDITIONS, EMOTIONS
from taue.contracts.episode import STOP, UNSATISFIED, AgentTurn, Message, Notification
from taue.contracts.run import EpisodeRecord, RunConfig
from taue.envs.runtime.discovery import get_domain
from taue.runner.agents.pester import argument_names
from taue.runner.audit import audit_record, facts_in
from taue.runner.embedded import Services, embedded_services
from taue.runner.runner import Outcome, execute_run, run_episodes
from taue.simulator import phrasing
from taue.simulator.satisfaction import (
    ACKNOWLEDGEMENT_LIMIT,
    EMOTION_SHIFT,
    NEEDS_REASSURANCE,
    patience_budget,
    tolerance_table,
    tolerated_needless_questions,
)
from taue.simulator.scripted import ScriptedUser
from taue.simulator.session import Simulator, UserOptions
from taue.simulator.understanding import FactBook, best_guess, read_message
from tests.conftest import ADMIN_TOKEN
from tests.factories import make_task
from tests.paths import ROOT

pytestmark = pytest.mark.xdist_group("simulator")  # module-scoped fixtures: built once, on one worker

DOCS = ROOT / "docs" / "simulator.md"
CANCELLED = [Notification(tool="cancel_reservation", arguments={"reservation_id": "ABC123"})]
NEUTRAL_PATIENCE = patience_budget("neutral", "moderate", "cautious", "frustration")
SAMPLE = CONDITIONS[::7]


def emotional_tasks() -> list[tuple[str, object]]:
    return [(d, t) for d in ("airline", "retail") for t in get_domain(d).tasks if t.emotion is not None]


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
        user = ScriptedUser(make_task("warm", "high", "skeptical"), seed=seed)
        replies = [user.reply(m, CANCELLED if "cancelled" in m else ()).message for m in script]
        return [user.opening(), *replies]

    assert converse(7) == converse(7)
    assert any(converse(7) != converse(s) for s in range(8, 20))


def test_answers_known_facts_and_refuses_to_invent() -> None:
    user = ScriptedUser(make_task(), seed=0)
    turn = user.reply("What cabin are you flying in?")
    assert "economy" in turn.message and not turn.done
    turn = user.reply("What is your membership level?")
    assert "I don't know that" in turn.message and "membership" not in turn.message
    assert turn.patience == NEUTRAL_PATIENCE and turn.events == []


def test_asking_again_for_an_unknown_fact_is_needless() -> None:
    user = ScriptedUser(make_task(), seed=0)
    assert user.reply("What is your membership level?").events == []
    assert user.reply("And what is your membership tier?").events == ["needless_question_answered"]


def test_question_for_discoverable_fact_costs_patience_and_gets_no_value() -> None:
    user = ScriptedUser(make_task(), seed=0)
    turn = user.reply("Could you tell me your payment id?")
    assert "credit_card_1" not in turn.message
    assert "look that up" in turn.message
    assert turn.events == ["needless_question_discoverable"]
    assert turn.patience == NEUTRAL_PATIENCE - 1


def test_repeated_question_for_given_fact_costs_patience() -> None:
    user = ScriptedUser(make_task(), seed=0)
    turn = user.reply("What is your user id?")
    assert "already" in turn.message and "ana_lee_1234" in turn.message
    assert turn.events == ["needless_question_answered"]


def test_request_phrases_count_as_questions() -> None:
    user = ScriptedUser(make_task(), seed=0)
    turn = user.reply("To look into this I'll need your reservation number.")
    assert "ABC123" in turn.message and turn.events == []


def test_confirmation_request_for_a_pending_goal_gets_a_yes_that_names_it() -> None:
    user = ScriptedUser(make_task(), seed=0)
    turn = user.reply("Shall I go ahead and cancel reservation ABC123?")
    assert 'Yes, please go ahead with that, it is what I asked for: "Please cancel reservation ABC123."' in (
        turn.message
    )
    assert turn.goals_confirmed == [] and not turn.done  # a question is not a claim that it is done
    assert turn.events == []  # a first approval is progress: no stall


def test_a_read_back_asking_for_confirmation_never_ends_the_episode() -> None:
    user = ScriptedUser(make_task(), seed=0)
    turn = user.reply(
        "Here is the change I would make: cancel reservation ABC123, the total refund is 120 and it has "
        "been checked. Shall I go ahead?"
    )
    assert not turn.done and "Yes, please go ahead" in turn.message
    assert "unconfirmed_claim" not in turn.events


def test_confirmation_request_for_something_not_asked_is_refused() -> None:
    for proposal in (
        "Shall I cancel reservation XYZ999 instead?",  # another reservation
        "Would you like me to upgrade ABC123 to business class for $900?",  # an upgrade nobody asked for
        "Shall I proceed with step 2?",  # vague
    ):
        user = ScriptedUser(make_task(), seed=0)
        turn = user.reply(proposal)
        assert "No, that's not what I asked for." in turn.message, proposal
        assert "Yes" not in turn.message and turn.events == ["stall"], proposal


def test_choice_question_gets_the_option_the_scenario_names() -> None:
    user = ScriptedUser(make_task(), seed=0)
    turn = user.reply("Which cabin should I book, economy or business?")
    assert "Economy, please." in turn.message and "go ahead" not in turn.message
    assert turn.events == []


def test_which_question_for_an_unknown_fact_gets_the_identifying_facts_the_user_knows() -> None:
    task = make_task()
    scenario = task.user_scenario
    scenario.discoverable["reservation_id"] = scenario.known_info.pop("reservation_id")
    scenario.known_info["business_trip"] = "the business trip to Dallas on May 24"
    scenario.goals[0].request = "Please cancel my business trip."
    user = ScriptedUser(task, seed=0)
    turn = user.reply("Which reservation would you like me to cancel?")
    assert "the business trip to Dallas on May 24" in turn.message
    assert "needless" not in " ".join(turn.events)


def test_verification_of_a_stated_value_is_a_yes_not_a_request() -> None:
    user = ScriptedUser(make_task(), seed=0)
    turn = user.reply("Just to check, your user id is ana_lee_1234, right?")
    assert "Yes, that's right." in turn.message and turn.events == []


def test_question_for_a_known_fact_wins_over_a_discoverable_one() -> None:
    reading = read_message(
        "Which card would you like to use?",
        FactBook(names=["card", "payment_id"], known=frozenset({"card"})),
    )
    assert reading.facts_asked == ["card"]


def test_longest_match_wins_and_aliases_count() -> None:
    names = ["item_ids", "new_item_ids", "email", "address1", "dob", "date"]
    assert read_message("What are the new item ids?", names).facts_asked == ["new_item_ids"]
    assert read_message("What is your email address?", names).facts_asked == ["email"]
    assert read_message("What's your date of birth?", names).facts_asked == ["dob"]
    assert read_message("What is the reason for cancellation?", ["cancel_reason"]).facts_asked == [
        "cancel_reason"
    ]


def test_vague_wh_question_is_matched_to_the_fact_of_the_current_goal() -> None:
    book = FactBook(
        names=["business_trip", "other_trip", "cancel_reason"],
        known=frozenset({"business_trip", "other_trip", "cancel_reason"}),
        focus="Please cancel my business class trip.",
    )
    assert best_guess("which trip would you like to cancel?", book) == "business_trip"
    book.focus = "I also need a bag on my other trip."
    assert best_guess("which trip is it?", book) is None  # a tie: no guess


def test_completion_claims_must_be_statements_and_not_negated() -> None:
    names: list[str] = []
    assert read_message("Reservation ABC123 has been cancelled.", names).claims_completion
    assert not read_message("Reservation ABC123 has not been cancelled yet.", names).claims_completion
    assert not read_message("I was unable to get it cancelled.", names).claims_completion
    assert not read_message("Has ABC123 been cancelled before?", names).claims_completion
    assert read_message("Refund of 1,234.50 issued to jo.doe@example.com. Done.", names).claims_completion


def test_a_claim_without_a_confirmation_is_doubted_and_the_second_ends_the_episode() -> None:
    user = ScriptedUser(make_task("warm", "low", "trusting"), seed=0)  # the most patient user
    turn = user.reply("Reservation ABC123 has been cancelled.")
    assert turn.goals_confirmed == [] and not turn.done
    assert "haven't received any confirmation" in turn.message
    assert turn.events == ["unconfirmed_claim"]
    turn = user.reply("I promise, it has been cancelled.")
    assert turn.done and turn.termination == "user_unsatisfied" and UNSATISFIED in turn.message


def test_a_confirmation_without_a_report_is_not_the_end() -> None:
    user = ScriptedUser(make_task(), seed=0)
    turn = user.reply("One moment.", CANCELLED)
    assert not turn.done and turn.goals_confirmed == []
    assert "Is it all done? Please tell me what you did." in turn.message
    turn = user.reply("Your reservation ABC123 has been cancelled.")  # the report comes a turn later
    assert turn.goals_confirmed == ["g1"] and "unconfirmed_claim" not in turn.events


def test_stop_only_when_every_goal_is_confirmed_by_the_service_and_reported() -> None:
    user = ScriptedUser(make_task(), seed=0)
    turn = user.reply("Reservation ABC123 has been cancelled.", CANCELLED)
    assert not turn.done and turn.goals_confirmed == ["g1"]
    assert "How much was refunded?" in turn.message
    turn = user.reply("The refund is $120.00.")
    assert turn.done and turn.termination == "user_stop" and STOP in turn.message


def test_a_question_in_the_last_message_delays_the_stop_an_open_offer_does_not() -> None:
    user = ScriptedUser(make_task(), seed=0)
    turn = user.reply(
        "ABC123 has been cancelled; the refund is 120. Shall I also add travel insurance?", CANCELLED
    )
    assert not turn.done and "No, thank you, that's all I need." in turn.message
    turn = user.reply("Understood. Is there anything else I can help you with?")
    assert turn.done and turn.termination == "user_stop"
    user = ScriptedUser(make_task(), seed=0)
    turn = user.reply(
        "ABC123 has been cancelled; the refund is 120. Anything else I can do for you?", CANCELLED
    )
    assert turn.done and turn.termination == "user_stop"


def test_a_confirmation_must_match_the_goal_structurally() -> None:
    user = ScriptedUser(make_task(), seed=0)
    wrong = [Notification(tool="cancel_reservation", arguments={"reservation_id": "XYZ999"})]
    turn = user.reply("Reservation ABC123 has been cancelled.", wrong)
    assert turn.goals_confirmed == []
    other_tool = [Notification(tool="update_reservation_baggages", arguments={"reservation_id": "ABC123"})]
    assert user.reply("Your reservation ABC123 is updated.", other_tool).goals_confirmed == []


def test_a_policy_refusal_with_the_accepted_reason_settles_the_goal() -> None:
    task = make_task()
    goal = task.user_scenario.goals[0]
    goal.refusal_expected, goal.refusal_reason = True, ["basic economy"]
    user = ScriptedUser(task, seed=0)
    turn = user.reply("I'm sorry, I cannot cancel ABC123 because basic economy fares are non-refundable.")
    assert turn.goals_confirmed == ["g1"] and "unjustified_refusal" not in turn.events
    user = ScriptedUser(task, seed=0)
    turn = user.reply("I'm sorry, I cannot do that.")  # no reason the user accepts
    assert turn.goals_confirmed == [] and turn.events == ["unjustified_refusal", "acknowledgement"]


def test_refusing_a_goal_the_policy_allows_costs_like_a_stall() -> None:
    user = ScriptedUser(make_task(), seed=0)
    turn = user.reply("Unfortunately I am unable to cancel reservations.")
    assert turn.events == ["unjustified_refusal"] and turn.patience == NEUTRAL_PATIENCE - 0.5


def test_a_stall_proposer_exhausts_even_the_most_patient_user() -> None:
    user = ScriptedUser(make_task("warm", "low", "trusting"), seed=0)
    for step in range(1, 60):
        turn = user.reply(f"I can help with that. Shall I proceed with step {step}?")
        if turn.done:
            break
    assert turn.termination == "user_unsatisfied" and set(turn.events) == {"stall"}


@pytest.mark.parametrize(
    ("politeness", "urgency", "trust", "emotion", "family"),
    [
        ("cold", "high", "skeptical", "frustration", "anger"),
        ("warm", "low", "trusting", "frustration", "anger"),
        ("warm", "high", "cautious", "anxiety", "fear"),
        ("neutral", "moderate", "cautious", "relief", "enjoyment"),
        ("cold", "high", "skeptical", "sorrow", "sadness"),
    ],
)
def test_unsatisfied_exactly_after_tolerated_needless_questions(
    politeness: str, urgency: str, trust: str, emotion: str, family: str
) -> None:
    user = ScriptedUser(make_task(politeness, urgency, trust, emotion, family), seed=0)
    tolerated = tolerated_needless_questions(politeness, urgency, trust, emotion)
    for i in range(tolerated):
        turn = user.reply(f"Question {i}: could you tell me your payment id?")
        assert not turn.done
    turn = user.reply("One more: could you tell me your payment id?")
    assert turn.done and turn.termination == "user_unsatisfied" and UNSATISFIED in turn.message
    assert "needless_question_discoverable" in (turn.reason or "")
    assert any(c in turn.message for c in phrasing.COMPLAINTS.values())  # parting words name the complaint


def test_never_unsatisfied_once_all_goals_are_met() -> None:
    user = ScriptedUser(make_task("cold", "high", "skeptical"), seed=0)
    tolerated = tolerated_needless_questions("cold", "high", "skeptical", "frustration")
    for i in range(tolerated):
        user.reply(f"Question {i}: could you tell me your payment id?")
    # Patience is at its last point; the message that finishes the job must still end in STOP.
    turn = user.reply("ABC123 is cancelled and 120 is refunded. Anything else?", CANCELLED)
    assert turn.termination == "user_stop"


def test_stalls_and_repeats_cost_patience() -> None:
    user = ScriptedUser(make_task(), seed=0)
    user.reply("Let me look into that.")
    turn = user.reply("Let me look into that!")
    assert turn.events == ["stall", "repeated_message"]  # a charged turn is not also a stall


def test_tool_error_leak_costs_patience() -> None:
    user = ScriptedUser(make_task(), seed=0)
    turn = user.reply("Error executing tool cancel_reservation: reservation not found. What is your cabin?")
    assert turn.events == ["error_shown"] and "economy" in turn.message


@pytest.mark.parametrize(
    "message",
    [
        'The system said: {"error": "reservation not found"}',
        "Traceback (most recent call last):\n  File 'tools.py', line 3",
        "ToolError: reservation XYZ not found",
        "I got this back:\nError: payment method not found",
        "1 validation error for cancel_reservation",
    ],
)
def test_raw_tool_errors_are_leaks(message: str) -> None:
    assert read_message(message, []).leaks_error


@pytest.mark.parametrize(
    "message",
    [
        "I cannot make an exception to the policy.",
        "There was an error with that date, so let me try another.",
        "Sorry, an error occurred on my side; let me look again.",
    ],
)
def test_plain_language_is_never_a_leak(message: str) -> None:
    assert not read_message(message, []).leaks_error


def test_reassurance_seeking_user_charges_ignored_distress_once() -> None:
    user = ScriptedUser(make_task(emotion="anxiety", family="fear"), seed=0)
    assert "reassure" in user.opening() or "okay" in user.opening() or "sorted out" in user.opening()
    turn = user.reply("What cabin are you in?")
    assert turn.events == ["distress_ignored"]
    assert any(nudge in turn.message for nudge in phrasing.REASSURANCE_NUDGES)
    assert user.reply("And the reservation id?").events == ["distress_ignored"]  # no second charge


def test_acknowledging_distress_avoids_the_charge_and_recoveries_are_capped() -> None:
    user = ScriptedUser(make_task(emotion="anxiety", family="fear"), seed=0)
    turn = user.reply("I understand this is stressful. Could you tell me your payment id?")
    assert turn.events == ["needless_question_discoverable", "acknowledgement"]
    for _ in range(ACKNOWLEDGEMENT_LIMIT + 2):
        turn = user.reply("I'm so sorry. What cabin are you in?")
    assert turn.events.count("acknowledgement") == ACKNOWLEDGEMENT_LIMIT


def test_condition_colours_the_wording() -> None:
    warm = [ScriptedUser(make_task("warm", "low", "trusting"), seed=s).opening() for s in range(12)]
    cold = [ScriptedUser(make_task("cold", "high", "skeptical"), seed=s).opening() for s in range(12)]
    assert all(any(g and g in text for g in phrasing.GREETINGS["warm"]) for text in warm)
    assert not any(g and g in text for text in cold for g in phrasing.GREETINGS["warm"])
    assert all(any(m in text for m in phrasing.URGENCY_MARKERS["high"]) for text in cold)
    assert all(any(m in text for m in phrasing.TRUST_MARKERS["skeptical"]) for text in cold)
    assert sum(map(len, cold)) != sum(map(len, warm))
    per_emotion = {
        e: ScriptedUser(make_task(emotion=e, family=c.family), seed=0).opening()
        for e, c in {c.emotion: c for c in CONDITIONS}.items()
    }
    assert len(set(per_emotion.values())) == len(EMOTIONS)


def test_patience_budget_orders_conditions() -> None:
    table = {(p, u, t, e): n for p, u, t, row in tolerance_table() for e, n in row.items()}
    assert len(table) == 594
    assert table[("warm", "low", "trusting", "relief")] == max(table.values())
    assert table[("cold", "high", "skeptical", "sorrow")] == min(table.values()) == 0
    for e in EMOTIONS:
        for p in ("warm", "neutral", "cold"):
            assert table[(p, "high", "trusting", e)] < table[(p, "low", "trusting", e)]
    for p, u, t, _ in tolerance_table():
        calm = tolerated_needless_questions(p, u, t, "relief")
        assert calm >= tolerated_needless_questions(p, u, t, "exasperation")
        assert calm >= tolerated_needless_questions(p, u, t, "anxiety")
    assert {c.emotion for c in CONDITIONS if c.family in ("fear", "sadness")} == NEEDS_REASSURANCE
    assert set(EMOTION_SHIFT) == set(EMOTIONS)


def test_neutral_twin_uses_neutral_profile() -> None:
    user = ScriptedUser(make_task(emotion=None), seed=0)
    assert user.satisfaction.budget == patience_budget("neutral", "moderate", "cautious") == 6
    assert not user.reassurance


def test_reading_detects_questions_facts_and_completion() -> None:
    reading = read_message(
        "I have cancelled it. What is your payment method? Sorry for the wait.", ["payment_id"]
    )
    assert reading.facts_asked == ["payment_id"] and reading.claims_completion and reading.acknowledges
    assert not read_message("Error executing tool x: boom", []).questions
    assert read_message("Error executing tool x: boom", []).leaks_error
    offer = read_message("Is there anything else I can help you with?", ["payment_id"])
    assert offer.offers == 1 and not offer.asks_confirmation


async def test_simulator_sessions_are_isolated_and_unknown_sessions_rejected() -> None:
    simulator = Simulator()
    first_id, _ = await simulator.start(make_task(), seed=1)
    second_id, _ = await simulator.start(make_task(), seed=1)
    await simulator.respond(first_id, AgentTurn(message="Could you tell me your payment id?"))
    assert (
        await simulator.respond(second_id, AgentTurn(message="What is your cabin?"))
    ).patience == NEUTRAL_PATIENCE
    simulator.end(first_id)
    with pytest.raises(LookupError, match="unknown simulator session"):
        await simulator.respond(first_id, AgentTurn(message="Hello?"))
    with pytest.raises(LookupError, match="unknown user backend"):
        await simulator.start(make_task(), seed=1, options=UserOptions(backend="nope"))


def _block(doc: str, name: str) -> list[list[str]]:
    block = doc.split(f"<!-- {name}:start -->")[1].split(f"<!-- {name}:end -->")[0]
    return [
        [cell.strip() for cell in line.strip().strip("|").split("|")] for line in block.strip().splitlines()
    ]


def test_docs_tables_match_the_model() -> None:
    """docs/simulator.md publishes the emotion profiles and the tolerance of all 594 conditions."""
    doc = DOCS.read_text()
    profiles = _block(doc, "emotion-profiles")
    emotions_of = {row[0]: [e.strip() for e in row[3].split(",")] for row in profiles[2:]}
    assert sorted(e for es in emotions_of.values() for e in es) == sorted(EMOTIONS)
    tolerance = _block(doc, "tolerance-table")
    labels = tolerance[0][4:]
    published = {
        (row[1], row[0], row[2], emotion): int(cell)
        for row in tolerance[2:]
        for label, cell in zip(labels, row[4:], strict=True)
        for emotion in emotions_of[label]
    }
    expected = {(p, u, t, e): n for p, u, t, by_emotion in tolerance_table() for e, n in by_emotion.items()}
    assert published == expected


def test_docs_publish_every_cost() -> None:
    from taue.simulator.satisfaction import COSTS

    doc = DOCS.read_text()
    for event, cost in COSTS.items():
        assert re.search(rf"`{event}` \| {re.escape(f'{cost:g}'.replace('-', '−'))} \|", doc), event


@pytest.mark.slow
async def test_oracle_scores_one_over_every_task_under_conditions_spanning_all_594(servers) -> None:
    """Real servers, simulator and scorer services: every emotional task played by the oracle once,
    under the sampled conditions (every 7th) in rotation, so every task and every sampled condition
    is covered, through the runner (with its infrastructure retries). The oracle asks before each
    write (tests/runner/test_confirmation.py plays it over every task of every domain)."""
    assert {c.emotion for c in SAMPLE} == set(EMOTIONS)
    tasks = emotional_tasks()
    count = max(len(tasks), len(SAMPLE))
    pairs = [(tasks[i % len(tasks)], SAMPLE[i % len(SAMPLE)].id) for i in range(count)]
    assert {t.id for (_, t), _ in pairs} == {t.id for _, t in tasks}
    outcomes: list[Outcome] = []
    given = Services(env={name: server.control_url for name, server in servers.items()})
    async with embedded_services(list(servers), given) as services:
        semaphore = asyncio.Semaphore(8)

        async def play(domain: str, task_id: str, condition_id: str) -> None:
            config = RunConfig(
                run="oracle-sample", domains=[domain], agent="oracle", trials=1, task_ids=[task_id],
                condition=condition_id,
            )  # fmt: skip
            async with semaphore:
                await run_episodes(config, [(domain, task_id, 0)], services, 1, ADMIN_TOKEN, outcomes.append)

        await asyncio.gather(*(play(d, t.id, c) for (d, t), c in pairs))
    assert not [o.errors for o in outcomes if o.record is None]
    records = [o.record for o in outcomes if o.record is not None]
    assert sorted((r.task_id, r.condition) for r in records) == sorted((t.id, c) for (_, t), c in pairs)
    assert all((r.reward, r.termination) == (1, "user_stop") for r in records), [
        (r.task_id, r.condition, r.termination) for r in records if r.reward != 1
    ]


PROBES = [
    "Hello! How can I help you today?",
    "Could you give me your user id and email address?",
    "Which order would you like to cancel?",
    "Which trip is this about?",
    "What is your zip code?",
    "Can you tell me the reservation number?",
    "What's your date of birth?",
    "Which payment method would you like to use?",
    "What is the reason for this?",
    "How many bags would you like?",
    "What are the item ids?",
    "Let me check that for you.",
    "Is there anything else?",
]


def test_scripted_user_never_states_a_fact_outside_its_scenario() -> None:
    """Every task, generic agent questions plus a question for every ground-truth argument: the audit
    finds no fact in the user's replies that the scenario does not hold."""
    for domain, task in emotional_tasks():
        user = ScriptedUser(task, seed=1)
        transcript = [Message(role="user", content=user.opening())]
        questions = [
            f"Could you tell me your {n.replace('_', ' ')}?" for n in argument_names(task.evaluation.actions)
        ]
        for probe in PROBES + questions:
            turn = user.reply(probe)
            transcript += [Message(role="agent", content=probe), Message(role="user", content=turn.message)]
            if turn.done:
                break
        record = EpisodeRecord.model_construct(task_id=task.id, trial=0, transcript=transcript)
        count, flags = audit_record(record, task)
        assert count == len(transcript) // 2 + 1 and flags == [], (domain, task.id, flags)


def test_facts_in_finds_emails_ids_numbers_and_names() -> None:
    text = "Hi Sarah Johnson, order #W1795741 (ana_lee_1234, M5L4DR) was $1,568.00 on the 24th at 3pm."
    assert facts_in(text + " My name is Peter. Mail jo@x.org. ###STOP###") == [
        ("email", "jo@x.org"),
        ("id", "#W1795741"),
        ("id", "ana_lee_1234"),
        ("id", "M5L4DR"),
        ("number", "1568"),
        ("number", "24"),
        ("name", "Sarah Johnson"),
        ("name", "Peter"),
    ]


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def clean_run(servers, tmp_path_factory: pytest.TempPathFactory) -> Path:
    run_dir = tmp_path_factory.mktemp("audit") / "clean"
    config = RunConfig(
        run="audit", domains=["airline", "retail"], agent="oracle", trials=1,
        task_ids=["airline-001", "airline-002", "retail-001", "retail-001-neutral"],
    )  # fmt: skip
    urls = {n: s.control_url for n, s in servers.items()}
    report = await execute_run(config, run_dir, urls, 4, admin_token=ADMIN_TOKEN)
    assert report.completed == 4
    return run_dir


def taue_audit(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "taue", "simulator", "audit", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_audit_flags_invented_facts_in_a_crafted_run(clean_run: Path, tmp_path: Path) -> None:
    clean = taue_audit(str(clean_run), "--json")
    assert clean.returncode == 0, clean.stderr
    report = json.loads(clean.stdout)
    assert report["episodes"] == 4 and report["flagged_messages"] == 0 and report["flags"] == []

    records = [json.loads(line) for line in (clean_run / "results.jsonl").read_text().splitlines()]
    invented = "My email is ghost@nowhere.example, booking ZZ9Q77 cost 4321 dollars. My name is Bartholomew."
    records[0]["transcript"][0]["content"] += " " + invented
    agent_said = next(m["content"] for m in records[1]["transcript"] if m["role"] == "agent")
    echoed = next(v for k, v in facts_in(agent_said) if k in ("id", "number"))
    records[1]["transcript"][-1]["content"] = (
        f"So it is {echoed}? Thanks. {STOP}"  # echoing the agent is fine
    )
    crafted = tmp_path / "crafted"
    crafted.mkdir()
    (crafted / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    result = taue_audit(str(crafted), "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert {(f["kind"], f["value"]) for f in report["flags"]} == {
        ("email", "ghost@nowhere.example"),
        ("id", "ZZ9Q77"),
        ("number", "4321"),
        ("name", "Bartholomew"),
    }
    assert {(f["task_id"], f["turn"]) for f in report["flags"]} == {(records[0]["task_id"], 0)}
    emotion = records[0]["emotion"]["emotion"] if records[0]["emotion"] else "neutral"
    row = report["by_emotion"][emotion]
    assert row["flagged_messages"] == 1 and row["rate"] == pytest.approx(1 / row["user_messages"], abs=1e-6)
    assert report["flagged_messages"] == 1
    assert report["rate"] == pytest.approx(1 / report["user_messages"], abs=1e-6)  # rounded to 6 places
    text = taue_audit(str(crafted))
    assert text.returncode == 0 and "1 flagged" in text.stdout and "ZZ9Q77" in text.stdout


@pytest.mark.slow
def test_audit_rejects_a_folder_without_results(tmp_path: Path) -> None:
    for target in (tmp_path, tmp_path / "missing"):
        result = taue_audit(str(target))
        assert (
            result.returncode == 2 and result.stderr.startswith("error:") and "Traceback" not in result.stderr
        )
    (tmp_path / "results.jsonl").write_text('{"not": "a record"}\n')
    result = taue_audit(str(tmp_path))
    assert result.returncode == 2 and "results.jsonl, line 1: not an episode record" in result.stderr


CONVERSE = """
from taue.runner.agents.pester import argument_names
from taue.envs.runtime.discovery import get_domain
from taue.simulator.wire import task_from_message, user_task_message
from taue.simulator.scripted import ScriptedUser

for domain in ("airline", "retail"):
    for task in get_domain(domain).tasks[:6]:
        user = ScriptedUser(task_from_message(user_task_message(task)), seed=5)  # as the gRPC service sees it
        print(user.opening())
        for name in argument_names(task.evaluation.actions):
            print(user.reply(f"Could you give me your {name.replace('_', ' ')}?").message)
        every_fact = ", ".join(n.replace("_", " ") for n in task.user_scenario.known_info)
        print(user.reply(f"Please tell me your {every_fact}.").message)
"""


@pytest.mark.slow
def test_same_seed_same_conversation_byte_for_byte_across_processes() -> None:
    """Tasks cross the gRPC boundary as protobuf maps, whose order differs between processes; the
    scripted user's words must not."""
    outputs = {
        subprocess.run(
            [sys.executable, "-c", CONVERSE],
            capture_output=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
            cwd=DOCS.parent.parent,
        ).stdout
        for hash_seed in ("1", "2", "3")
    }
    assert len(outputs) == 1 and len(next(iter(outputs))) > 1000
