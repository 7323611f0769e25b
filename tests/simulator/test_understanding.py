"""How the scripted user reads agents as they really write: markdown, lists, alternatives, any tense,
tool names in any spelling, everyday verbs, lookup and hand-over offers, policy questions and reasons."""

from __future__ import annotations

import pytest

from taue.contracts.episode import STOP, Notification
from taue.contracts.text import tokens
from taue.simulator.claims import Claim, claim
from taue.simulator.facts import FactBook, facts_named
from taue.simulator.lexicon import is_past_form, lemma, meaning, words_of
from taue.simulator.markup import plain_lines, sentences
from taue.simulator.proposals import conflicting_ids
from taue.simulator.scripted import ScriptedUser
from taue.simulator.understanding import read_message
from tests.factories import make_task

CANCELLED = [Notification(tool="cancel_reservation", arguments={"reservation_id": "ABC123"})]
BOOK = FactBook(
    names=["email", "first_name", "last_name", "zip", "order_id", "user_id"],
    known=frozenset({"email", "first_name", "last_name", "zip", "order_id"}),
)


def test_markdown_is_text_and_a_list_after_a_colon_is_one_request() -> None:
    message = "**Thanks!** To get started, could you provide:\n\n1. Your `email`\n2. Your *order number*"
    assert plain_lines(message) == (
        "Thanks! To get started, could you provide: Your email; Your order number?",
    )
    reading = read_message(message, BOOK)
    assert reading.requested == ["email", "order_id"] and len(reading.questions) == 1


def test_a_bold_question_glued_to_the_next_sentence_is_still_a_question() -> None:
    assert sentences("**Shall I proceed?**Please reply yes or no.") == [
        "Shall I proceed?",
        "Please reply yes or no.",
    ]


def test_numbered_questions_stay_separate_and_back_references_join_the_list() -> None:
    assert sentences("Two questions:\n1. Which order?\n2. Which item?") == [
        "Two questions:",
        "Which order?",
        "Which item?",
    ]
    reading = read_message("- Your email\n- Your zip code\n\nPlease provide both of the above.", BOOK)
    assert reading.requested == ["email", "zip"]


def test_alternatives_are_read_as_one_request_for_what_the_user_knows() -> None:
    reading = read_message("Could you please provide your email address, or your name and zip code?", BOOK)
    assert set(reading.requested) == {"email", "first_name", "last_name", "zip"}
    assert not reading.asks_confirmation and not reading.open_questions


@pytest.mark.parametrize(
    "message",
    [
        "Update the note on your record (record id REC_1, note: Patient will share readings)? (yes/no)",
        "Shall I add the note 'Please send me the care plan' to your record?",
        'Add the note "Tell the pharmacy about the allergy" to your latest record? (yes/no)',
    ],
)
def test_a_request_verb_inside_quoted_details_asks_for_nothing(message: str) -> None:
    book = FactBook(names=["note", "record_to_note"], values={"note": "x", "record_to_note": "y"})
    reading = read_message(message, book)
    assert reading.asks_confirmation and not reading.facts_asked, reading


@pytest.mark.parametrize(
    ("sentence", "strength"),
    [
        ("You're all set: I've moved the money from Joint Checking to Everyday Checking.", Claim.STRONG),
        ("I've switched the membership to Gold.", Claim.STRONG),
        ("Your card has been unfrozen.", Claim.STRONG),
        ("All done!", Claim.STRONG),
        ("I went ahead and rebooked you on the 5pm flight.", Claim.STRONG),
        ("I've made the payment.", Claim.WEAK),  # "make" is too general to accuse anyone of a lie
        ("Reservation ABC123 cancelled.", Claim.WEAK),
        ("I've found your order #W123.", Claim.NONE),
        ("I have successfully authenticated your identity.", Claim.NONE),
        ("Your order was delivered on May 5.", Claim.NONE),
        ("Once it has been moved, you will get an email.", Claim.NONE),
        ("Reservation ABC123 has not been cancelled yet.", Claim.NONE),
        ('The reasons can be "airline cancelled flight" or "other".', Claim.NONE),
        ("I'm going to cancel it later today, as we agreed.", Claim.NONE),
    ],
)
def test_completion_claims_in_any_tense_of_any_verb(sentence: str, strength: Claim) -> None:
    assert claim(sentence) == strength


def test_lemmas_and_spellings() -> None:
    assert lemma("moved") == "move" and is_past_form("unfrozen") and is_past_form("transmogrified")
    assert words_of("sendCertificate") == words_of("send_certificate") == words_of("send certificate")
    assert meaning("shift") == meaning("transfer") and meaning("cancellation") == meaning("cancel")


@pytest.mark.parametrize(
    "proposal",
    [
        "Shall I run `cancel_reservation` (reservation_id: ABC123)?",
        "Shall I run cancelReservation for ABC123?",
        "I can call off the booking ABC123. Want me to do that?",
        "### Proposed change\n\n- **Cancel** reservation `ABC123`\n\n**Shall I proceed?**Reply yes or no.",
        "Cancel reservation ABC123? (yes/no)",
        "I completely understand. I can cancel ABC123 for you right away. Would that be alright with you?",
    ],
)
def test_a_proposal_is_matched_by_what_it_changes_in_any_wording(proposal: str) -> None:
    user = ScriptedUser(make_task(), seed=0)
    turn = user.reply(proposal)
    assert "Yes, please go ahead" in turn.message, proposal
    # sympathy is heard, never charged
    assert [e for e in turn.events if e != "acknowledgement"] == [], proposal


def test_everyday_verbs_match_the_goal_request_and_the_tool_description() -> None:
    task = make_task()
    goal = task.user_scenario.goals[0]
    goal.request, goal.targets[0].tool = (
        "Please move 120.00 from my Joint Checking account.",
        "internal_transfer",
    )
    goal.targets[0].arguments = {"amount": 120.0}
    user = ScriptedUser(task, seed=0)
    assert "Yes, please go ahead" in user.reply("I can shift the money, amount 120.00. Shall I?").message
    described = ScriptedUser(task, seed=0, tools={"internal_transfer": "Send money between two accounts."})
    assert "Yes, please go ahead" in described.reply("I can send 120 between the accounts. OK?").message


def test_proposals_of_something_else_are_still_declined() -> None:
    for proposal in (
        "Shall I upgrade ABC123 to business?",
        "Shall I cancel XYZ999?",
        "Shall I proceed with step 2?",
    ):
        turn = ScriptedUser(make_task(), seed=0).reply(proposal)
        assert "not what I asked for" in turn.message and turn.events == ["stall"], proposal


def test_an_offer_to_look_something_up_is_not_a_write_proposal_and_costs_nothing() -> None:
    user = ScriptedUser(make_task(), seed=0)
    turn = user.reply("I can pull up your reservation. Want me to?")
    assert "Yes, please check." in turn.message and "go ahead with that" not in turn.message
    assert turn.events == []


def test_a_hand_over_offer_is_answered_by_a_customer_who_wants_help() -> None:
    turn = ScriptedUser(make_task(), seed=0).reply("Would you like me to transfer you to a human agent?")
    assert "rather you help" in turn.message and "go ahead" not in turn.message


def test_a_question_the_user_cannot_place_costs_nothing_and_gets_a_natural_answer() -> None:
    turn = ScriptedUser(make_task(), seed=0).reply("Could you describe the situation in more detail?")
    assert "which details do you need" in turn.message.lower() and turn.events == []
    assert "not sure what you mean" not in turn.message


def test_identity_questions_get_the_facts_that_identify_the_user() -> None:
    turn = ScriptedUser(make_task(), seed=0).reply("What can I use to locate your account?")
    assert "ana_lee_1234" in turn.message and "needless" not in " ".join(turn.events)


def test_a_fact_the_user_lacks_is_answered_with_what_it_knows_and_no_field_name() -> None:
    turn = ScriptedUser(make_task(), seed=0).reply("Could you tell me your payment id?")
    assert "look that up" in turn.message and "payment id" not in turn.message.lower()
    assert "credit_card_1" not in turn.message and "What I can tell you" in turn.message


def test_a_question_the_policy_requires_is_never_needless() -> None:
    task = make_task()
    task.user_scenario.known_info["pay_with"] = "my Visa ending in 1234"
    user = ScriptedUser(task, seed=0)
    turn = user.reply("Which payment method would you like to use?")
    assert "Visa ending in 1234" in turn.message and turn.events == []


def test_a_refusal_with_a_reason_is_unjustified_only_when_the_request_was_allowed() -> None:
    task = make_task()
    goal = task.user_scenario.goals[0]
    goal.refusal_expected, goal.refusal_reason = True, ["basic economy"]
    turn = ScriptedUser(task, seed=0).reply("I can't cancel it because the fare rules forbid it.")
    assert "unjustified_refusal" not in turn.events and turn.goals_confirmed == []
    allowed = ScriptedUser(make_task(), seed=0).reply("I can't cancel it because the fare rules forbid it.")
    assert "unjustified_refusal" in allowed.events


def test_a_natural_one_shot_report_ends_the_conversation() -> None:
    user = ScriptedUser(make_task(), seed=0)
    turn = user.reply(
        "You're all set! I've called off your booking ABC123, and $120 is on its way back to you.", CANCELLED
    )
    assert turn.done and STOP in turn.message


def test_facts_named_prefers_a_fact_named_in_full() -> None:
    assert facts_named("which film?", ["film", "new_film"]) == ["film"]
    assert facts_named("the film you'd like instead", ["new_film"]) == ["new_film"]


def test_a_purpose_clause_names_nothing_the_agent_asks_for() -> None:
    reading = read_message("Please provide your email so I can locate your user ID.", BOOK)
    assert reading.requested == ["email"]


# How real agents write (issue 27): each rule below is checked on wordings of our own.
SHOP = FactBook(
    names=["email", "first_name", "last_name", "zip", "order_id", "items", "pay_with", "address", "user_id"],
    known=frozenset({"email", "first_name", "last_name", "zip", "order_id", "items", "pay_with", "address"}),
)


def test_a_list_read_back_for_confirmation_asks_for_none_of_its_facts() -> None:
    message = (
        "Before I submit it, kindly confirm the following:\n\n- **Order number:** #W42\n"
        "- **Items to send back:**\n  - Lamp\n  - Kettle\n- **Refund method:** gift card\n\n"
        "Once you confirm, I'll file the return and you'll get an email with the label for the items."
    )
    reading = read_message(message, SHOP)
    assert reading.requested == [] and reading.asks_confirmation
    assert "Order number: #W42" in sentences(message)


def test_a_proposal_pointing_back_at_a_list_asks_for_nothing_in_it() -> None:
    message = "- New zip code: 10001\n- Your email stays the same\n\nShall I go ahead with these changes?"
    reading = read_message(message, SHOP)
    assert reading.requested == [] and reading.asks_confirmation


@pytest.mark.parametrize(
    ("message", "asked"),
    [
        ("Please tell me which order you want the zip code changed for.", ["order_id"]),
        ("Which order should I send to the new address?", ["order_id"]),
        ("What changes would you like to make to your order?", []),
        (
            "Here are your order numbers: #W1, #W2. Which one do you think went to the old address?",
            ["order_id"],
        ),
    ],
)
def test_the_noun_after_which_or_what_is_asked_not_the_clause_describing_it(
    message: str, asked: list
) -> None:
    reading = read_message(message, SHOP)
    assert [*reading.requested, *reading.guessed] == asked, message


def test_alternatives_offered_after_a_request_belong_to_it() -> None:
    reading = read_message("May I have your email? Otherwise, your name and zip code will do.", SHOP)
    assert set(reading.requested) == {"email", "first_name", "last_name", "zip"}


@pytest.mark.parametrize(
    ("message", "asked"),
    [
        ("I'll still need your user ID before I can change anything.", ["user_id"]),
        ("We need you to confirm the order number and your zip code.", ["order_id", "zip"]),
        ("If you manage to find your user ID, please let me know.", ["user_id"]),
    ],
)
def test_requests_with_an_adverb_or_in_a_condition(message: str, asked: list) -> None:
    assert sorted(read_message(message, SHOP).requested) == asked


@pytest.mark.parametrize(
    "message",
    [
        "I can look into your order history. Would you like that?",
        "Since the number is missing, I can search your past orders for it. Should I do that?",
    ],
)
def test_a_bare_yes_no_question_after_a_lookup_offer_is_that_offer(message: str) -> None:
    reading = read_message(message, SHOP)
    assert reading.lookup_offers == 1 and not reading.asks_confirmation


def test_permission_asked_with_if_i_is_a_proposal() -> None:
    reading = read_message("Would it be okay if I refund the order now?", SHOP)
    assert reading.asks_confirmation and reading.requested == []


@pytest.mark.parametrize(
    ("message", "asked", "proposes"),
    [
        ("I need your zip code to go ahead.", ["zip"], False),
        ("Please tell me the new zip code, and I will go ahead with the change.", ["zip"], False),
        ("What would you like to change your zip code to?", ["zip"], False),
        ("Please confirm you want to proceed with the exchange using your card ending in 7312.", [], True),
        (
            "Please confirm you'd like to proceed with this change and tell me which card to refund to.",
            ["pay_with"],
            True,
        ),
    ],
)
def test_a_purpose_a_plan_or_a_wh_question_proposes_nothing(
    message: str, asked: list, proposes: bool
) -> None:
    reading = read_message(message, SHOP)
    assert reading.requested == asked and reading.asks_confirmation == proposes, message


def test_a_fact_named_by_its_own_name_beats_another_facts_alias() -> None:
    assert facts_named("your student id", ["student_number", "student_id"]) == ["student_id"]
    assert facts_named("your student id", ["student_number"]) == ["student_number"]


def test_a_quantity_with_its_unit_is_no_other_id() -> None:
    assert not conflicting_ids(tokens("swap it for the 750-piece puzzle, 500ml"), [])
    assert conflicting_ids(tokens("shall I cancel XYZ999?"), [])


@pytest.mark.parametrize(
    "sentence", ["If the details look right, everything is set.", "Reason: it was already completed."]
)
def test_a_condition_or_a_reason_reports_nothing(sentence: str) -> None:
    assert claim(sentence) == Claim.NONE
