"""How the scripted user reads the way real agents write: listed options and records to pick from,
questions about what the customer wants, policy questions without a scenario fact, payments per
need, offers of further help, reports in passive or light words, sympathy, and refusals that state
the rule in other words. Every message here is written for this test."""

from __future__ import annotations

from typing import Any

from taue.contracts.episode import Notification
from taue.contracts.tasks import Task
from taue.simulator.choices import offered_options, pick
from taue.simulator.claims import Claim, claim
from taue.simulator.facts import FactBook
from taue.simulator.scripted import ScriptedUser
from taue.simulator.understanding import read_message

WHICH = "which details"


def _task(goals: list[dict[str, Any]], known: dict[str, str] | None = None) -> Task:
    return Task.model_validate(
        {
            "id": "t-real",
            "domain": "airline",
            "user_scenario": {
                "persona": "A traveller.",
                "reason_for_call": "I want to sort out my trips.",
                "known_info": known if known is not None else {"user_id": "mia_ruiz_11"},
                "volunteered": [],
                "goals": goals,
            },
            "instruction": "Sort out the trips.",
            "emotion": None,
            "evaluation": {"actions": [], "outputs": []},
        }
    )


CHANGE_FLIGHT = {
    "id": "move",
    "request": "I'd like to move my reservation Q7ZT4K to a later flight.",
    "targets": [
        {
            "tool": "update_reservation_flights",
            "arguments": {"reservation_id": "Q7ZT4K", "flights": [{"flight_number": "HAT311"}]},
        }
    ],
}
FLIGHT_LIST = (
    "These nonstop flights are open that day:\n\n"
    "1. **HAT208**\n   - Leaves 08:10, arrives 10:40\n   - Economy: $140\n\n"
    "2. **HAT311**\n   - Leaves 15:05, arrives 17:35\n   - Economy: $140\n\n"
    "Which of these two would suit you better?"
)


def test_a_listed_choice_is_answered_with_the_option_the_need_wants_and_approves_it() -> None:
    user = ScriptedUser(_task([CHANGE_FLIGHT]), seed=0)
    user.opening()
    reply = user.reply(FLIGHT_LIST)
    assert '"HAT311"' in reply.message and "HAT208" not in reply.message
    assert WHICH not in reply.message.lower()
    assert "move" in user.goals.approved


def test_options_are_the_top_level_items_with_their_nested_lines() -> None:
    options = offered_options(FLIGHT_LIST)
    assert [o.label for o in options] == ["HAT208", "HAT311"]
    assert "17:35" in options[1].text
    assert read_message(FLIGHT_LIST, ["user_id"]).offers_choice


def test_a_list_of_questions_offers_nothing_to_pick() -> None:
    message = "1. Which reservation is it?\n2. Which date do you want?\n\nWhich would you like to start with?"
    assert offered_options(message) == ()


def test_several_needs_pick_several_records_from_one_list() -> None:
    goals = [
        {
            "id": f"down{i}",
            "request": "Please move this booking down to economy.",
            "targets": [{"tool": "update_reservation_flights", "arguments": {"reservation_id": rid}}],
        }
        for i, rid in enumerate(["K2L9PQ", "ZZ81MD"])
    ]
    user = ScriptedUser(_task(goals), seed=0)
    user.opening()
    reply = user.reply(
        "You hold these bookings:\n\n- K2L9PQ (Boston to Denver)\n- M00X3A (Austin to Reno)\n"
        "- ZZ81MD (Miami to Tampa)\n\nPlease tell me which ones you'd like to change."
    )
    assert '"K2L9PQ (Boston to Denver)"' in reply.message and "ZZ81MD" in reply.message
    assert "M00X3A" not in reply.message
    assert user.goals.approved == {"down0", "down1"}


def test_when_no_option_fits_the_user_says_what_it_wants_instead() -> None:
    user = ScriptedUser(_task([CHANGE_FLIGHT]), seed=0)
    user.opening()
    reply = user.reply("I can offer:\n\n1. HAT501 at 06:00\n2. HAT502 at 21:00\n\nWhich one do you prefer?")
    assert "None of those" in reply.message and "Q7ZT4K" in reply.message
    assert WHICH not in reply.message.lower()
    assert not user.goals.approved


def test_a_question_about_what_the_customer_wants_gets_the_need_not_which_details() -> None:
    for question in (
        "I've pulled up Q7ZT4K. What changes would you like to make to it?",
        "Here is the booking. Please let me know the changes you would like to make.",
        "How would you like to proceed?",
        "Would you like to make any changes to these reservations?",
    ):
        user = ScriptedUser(_task([CHANGE_FLIGHT]), seed=0)
        user.opening()
        reply = user.reply(question)
        assert WHICH not in reply.message.lower(), question
        assert "later flight" in reply.message, (question, reply.message)
        assert reply.patience == user.satisfaction.budget, question


def test_offers_of_further_help_ask_nothing() -> None:
    for message in (
        "If you need further assistance, please let me know!",
        "Let me know if you need help with modifying or cancelling any of these reservations.",
    ):
        reading = read_message(message, ["user_id"])
        assert reading.offers_help and not reading.open_questions and not reading.asks_confirmation, message


PAID_GOALS = [
    {
        "id": "bags",
        "request": "Please add two checked bags to reservation H1B2C3.",
        "targets": [
            {
                "tool": "update_reservation_baggages",
                "arguments": {"reservation_id": "H1B2C3", "payment_id": "gift_card_5512"},
            }
        ],
    },
    {
        "id": "upgrade",
        "request": "Please upgrade reservation P9Q8R7 to business.",
        "targets": [
            {
                "tool": "update_reservation_flights",
                "arguments": {"reservation_id": "P9Q8R7", "payment_id": "credit_card_7731"},
            }
        ],
    },
]


def test_a_payment_question_without_a_scenario_fact_is_answered_with_the_needs_method_by_kind() -> None:
    user = ScriptedUser(_task(PAID_GOALS), seed=0)
    user.opening()
    reply = user.reply("How would you like to pay for the bags?")
    assert "the gift card" in reply.message and "5512" not in reply.message
    assert not [e for e in reply.events if e.startswith("needless")]


def _two_cards_user() -> ScriptedUser:
    """Two needs, each paid with its own card, named in its request."""
    known = {
        "user_id": "mia_ruiz_11",
        "pay_with": "Visa card ending in 4410",
        "pay_with_2": "Mastercard ending in 9020",
    }
    goals = [
        {**PAID_GOALS[0], "request": "Please add two bags to H1B2C3, paid with my Visa card ending in 4410."},
        {**PAID_GOALS[1], "request": "Please upgrade P9Q8R7 to business on my Mastercard ending in 9020."},
    ]
    user = ScriptedUser(_task(goals, known), seed=0)
    user.opening()
    return user


def test_a_payment_question_is_about_the_need_being_worked_on() -> None:
    user = _two_cards_user()
    user.reply("Which card should the bags go on?")
    user.reply(
        "Shall I add two bags to H1B2C3 with your Visa card ending in 4410?",
        [
            Notification(
                tool="update_reservation_baggages", arguments=PAID_GOALS[0]["targets"][0]["arguments"]
            )
        ],
    )
    user.reply("Done: the two bags have been added to H1B2C3.")
    reply = user.reply("Which payment method would you like to use for the upgrade?")
    assert "9020" in reply.message and "4410" not in reply.message


def test_a_proposal_paying_with_another_needs_method_is_declined_with_the_right_one() -> None:
    user = _two_cards_user()
    reply = user.reply("Shall I add the two bags to H1B2C3 and charge your Mastercard ending in 9020?")
    assert "not what I asked for" in reply.message and "4410" in reply.message
    assert not user.goals.approved


def test_a_reason_question_without_a_reason_is_answered_and_costs_nothing() -> None:
    user = ScriptedUser(_task([CHANGE_FLIGHT]), seed=0)
    user.opening()
    reply = user.reply("Could you tell me the reason for the change (change of plan or other)?")
    assert "particular reason" in reply.message and WHICH not in reply.message.lower()
    assert reply.patience == user.satisfaction.budget


def test_sympathy_and_policy_checks_are_not_refusals() -> None:
    reading = read_message(
        "I can't imagine how stressful this trip has been. Let me sort it out.", ["user_id"]
    )
    assert reading.acknowledges and not reading.refuses
    reading = read_message("I checked this against our policy, and the change is allowed.", ["user_id"])
    assert not reading.refuses


def test_a_refusal_stating_the_rule_in_other_words_settles_the_goal() -> None:
    goal = {
        "id": "cancel",
        "request": "Please cancel order #W4410.",
        "targets": [{"tool": "cancel_pending_order", "arguments": {"order_id": "#W4410"}}],
        "refusal_expected": True,
        "refusal_reason": ["only pending orders", "already shipped"],
    }
    user = ScriptedUser(_task([goal]), seed=0)
    user.opening()
    reply = user.reply("I'm sorry, I can't do that: the order has shipped already, so it is past cancelling.")
    assert reply.done and "cancel" in reply.goals_confirmed
    other = ScriptedUser(_task([goal]), seed=0)
    other.opening()
    assert not other.reply("I'm afraid I cannot cancel it right now.").goals_confirmed


def test_passive_and_light_reports_count_and_history_accuses_nobody() -> None:
    assert claim("A payment of $200 has been made toward your loan.") >= Claim.WEAK
    assert claim("Your previous order was completed last week.") is Claim.WEAK
    assert claim("Your order has been completed.") is Claim.STRONG


def test_a_question_written_right_under_a_list_is_read_as_a_question() -> None:
    message = (
        "Here is what I'd change:\n- Cancel reservation Q7ZT4K\n- Refund it to your card\nShall I go ahead?"
    )
    reading = read_message(message, ["user_id"])
    assert reading.asks_confirmation and reading.questions == ["Shall I go ahead?"]


def test_pick_never_chooses_between_tied_options() -> None:
    options = offered_options("- Seat 12A, $40\n- Seat 12C, $40\n\nWhich one?")
    assert pick(options, [], ["$40"]) == []


def test_options_named_in_one_sentence_are_a_choice() -> None:
    reading = read_message("Would you prefer the window seat, the aisle seat or something else?", ["user_id"])
    assert reading.offers_choice and [o.label for o in reading.options] == [
        "the window seat",
        "the aisle seat",
    ]
    assert not read_message("Shall I cancel it or change it?", ["user_id"]).offers_choice  # two actions


def test_options_laid_out_with_nothing_asked_are_there_to_pick_from() -> None:
    reading = read_message("I found three flights: HAT208, HAT311 and HAT402.", ["user_id"])
    assert reading.offers_choice and len(reading.options) == 3


def test_a_question_asked_by_the_kind_of_answer_names_the_known_fact_of_that_kind() -> None:
    book = FactBook(
        names=["origin_city", "destination_city", "travel_date", "party_size"],
        values={},
        known=frozenset({"origin_city", "destination_city", "travel_date", "party_size"}),
    )
    assert read_message("Where will you be leaving from?", book).facts_asked == ["origin_city"]
    assert read_message("Where are you going to?", book).facts_asked == ["destination_city"]
    assert read_message("When would you like to travel?", book).facts_asked == ["travel_date"]
    assert read_message("How many people are in your group?", book).facts_asked == ["party_size"]
    assert read_message("Where?", book).facts_asked == []  # two places tie: no guess


def test_a_confirmation_set_out_as_a_statement_or_a_tag_is_a_proposal() -> None:
    for message in (
        "Confirming: a table for 2 at 7 pm at the Blue Door.",
        "To review: you'd like two tickets for Friday.",
        "So a table for 4 at 7 pm?",
        "Two tickets for the 9 pm show, is that right?",
    ):
        assert read_message(message, ["user_id"]).asks_confirmation, message
    for message in (
        "Can I still help you?",
        "Do you have a preferred restaurant?",
        "Will you be leaving on May 3?",
    ):
        assert not read_message(message, ["user_id"]).asks_confirmation, message


def test_failures_and_booking_reports() -> None:
    assert read_message("Sorry, I couldn't book that table, what else can I do?", ["user_id"]).refuses
    assert not read_message("I could not find a booking under that name.", ["user_id"]).refuses
    assert claim("Your reservation has been confirmed.") is Claim.STRONG
    assert claim("You're booked for Friday.") is Claim.STRONG
    assert claim("I've got 3 flights for you.") is Claim.NONE
    assert claim("Order W1 has been delivered.") is Claim.NONE
    assert claim("Item 3: status completed") is Claim.NONE


def test_a_report_of_a_change_the_service_never_confirmed_is_a_false_claim_beside_true_ones() -> None:
    from taue.simulator.examples import EXAMPLE_TASK

    user = ScriptedUser(EXAMPLE_TASK, seed=0)
    user.opening()
    user.reply("Shall I add two checked bags to H1B2C3 on your Visa card ending in 4410?")
    bags = Notification(
        tool="update_reservation_baggages", arguments={"reservation_id": "H1B2C3", "total_baggages": 2}
    )
    honest = ScriptedUser(EXAMPLE_TASK, seed=0)
    honest.opening()
    honest.reply("Shall I add two checked bags to H1B2C3 on your Visa card ending in 4410?")
    told = honest.reply("Done: two checked bags have been added to H1B2C3.", [bags])
    assert "unconfirmed_claim" not in told.events
    extra = user.reply(
        "Done: two checked bags have been added to H1B2C3. "
        "I've also added a $50 goodwill credit for the trouble.",
        [bags],
    )
    assert "unconfirmed_claim" in extra.events


TRIP = FactBook(
    names=["origin_city", "destination_city", "departure_date", "return_date", "party_size", "phone_number"],
    values={"origin_city": "Denver", "destination_city": "Austin", "shared_cab": "no"},
    known=frozenset({"origin_city", "destination_city", "departure_date", "return_date", "party_size"}),
)


def test_a_question_names_its_fact_by_its_noun_or_the_end_of_the_trip() -> None:
    book = FactBook(
        names=["venue_name", "hotel_location", "street_address", "seat_count"],
        known=frozenset({"venue_name", "hotel_location", "street_address", "seat_count"}),
    )
    assert read_message("Do you have a favourite venue in mind?", book).facts_asked == ["venue_name"]
    assert read_message("Any particular venue?", book).facts_asked == ["venue_name"]
    assert read_message("Which town should the hotel be in?", book).facts_asked == ["hotel_location"]
    assert read_message("From which town are you flying out?", TRIP).facts_asked == ["origin_city"]
    assert read_message("Where do you want to fly?", TRIP).facts_asked == ["destination_city"]
    assert read_message("When are you coming back?", TRIP).facts_asked == ["return_date"]
    assert read_message("When do you leave?", TRIP).facts_asked == ["departure_date"]
    assert read_message("Return date?", TRIP).facts_asked == ["return_date"]
    order = read_message("Return items 4 and 7 of order W12? (yes/no)", ["return_items", "order_id"])
    assert order.asks_confirmation and not order.facts_asked  # an order to return, with its details
    assert read_message("How many tickets?", TRIP).facts_asked == ["party_size"]  # not the phone number
    assert read_message("How long will you be away?", TRIP).facts_asked == ["return_date"]
    asked = read_message("When do you leave, and where are you flying to?", TRIP).facts_asked
    assert sorted(asked) == ["departure_date", "destination_city"]


def test_a_wh_question_is_never_a_lookup_offer_or_a_yes_no_check() -> None:
    reading = read_message("In which town should I search for hotels?", TRIP)
    assert not reading.lookup_offers and not reading.asks_confirmation
    reading = read_message("How many rooms would you like to book?", ["user_id"])
    assert not reading.asks_confirmation
    reading = read_message("What time would you like to leave.", TRIP)  # no question mark
    assert reading.questions and not reading.asks_confirmation


def test_the_need_in_progress_breaks_a_tie_between_facts_of_one_kind() -> None:
    names = ["hotel_city", "cab_destination", "cab_riders"]
    book = FactBook(names=names, known=frozenset(names), focus="book a cab to the airport for 2 riders")
    assert read_message("Where to?", book).facts_asked == ["cab_destination"]


def test_an_offer_to_carry_out_a_change_is_a_proposal_and_one_option_is_offered_to_take() -> None:
    for message in (
        "Want me to book the 6 pm table?",
        "Were you hoping to rent the blue hatchback?",
        "Shall I go on and reserve it for you",  # no question mark
        "2 tickets for the Friday show?",
        "How about the 7:40 flight with one stop?",
        "Just to be clear, you'd like the suite for three nights.",
        "Kindly verify the following: one room, two nights, from May 3.",
    ):
        assert read_message(message, ["user_id"]).asks_confirmation, message
    assert not read_message("What about the date?", ["departure_date"]).asks_confirmation


def test_a_yes_no_question_about_a_yes_no_fact_asks_for_the_fact() -> None:
    names = ["shared_cab", "cab_destination"]
    book = FactBook(names=names, values={"shared_cab": "no"}, known=frozenset(names))
    reading = read_message("Would you be fine sharing the cab with others?", book)
    assert reading.facts_asked == ["shared_cab"] and not reading.asks_confirmation
    assert read_message("Please confirm: a shared cab for 3 to the pier.", book).asks_confirmation


def test_reports_in_the_passive_or_as_a_state_and_failures_said_plainly() -> None:
    assert claim("Your table is booked.") is Claim.WEAK
    assert claim("The pickup is scheduled.") is Claim.WEAK
    assert claim("The payment was sent.") is Claim.WEAK
    assert claim("It's been taken care of and your driver is on the way.") is Claim.STRONG
    assert claim("Your order was shipped on May 2 with UPS.") is Claim.NONE  # history
    assert claim("Your move to the later flight has been completed.") is Claim.STRONG  # "to" the flight
    assert claim("Your booking has now been confirmed.") is Claim.STRONG
    assert claim("The reminder had been added.") is Claim.STRONG
    assert claim("I'm going to have it cancelled for you.") is Claim.NONE  # "to" a verb: a plan
    for message in (
        "Sorry, I haven't been able to book the room.",
        "Unfortunately the transfer did not work.",
        "There was a problem processing the payment.",
        "I'm afraid the 9 pm show is sold out.",
    ):
        assert read_message(message, ["user_id"]).refuses, message


def test_a_value_put_to_a_fact_is_checked_against_the_users_own() -> None:
    names = ["departure_date", "party_size"]
    book = FactBook(names=names, values={"departure_date": "May 3"}, known=frozenset(names))
    same = read_message("Do you want to leave on May 3?", book)
    assert same.verified == ["departure_date"] and not same.asks_confirmation
    other = read_message("Do you want to leave on May 5?", book)
    assert other.facts_asked == ["departure_date"] and not other.asks_confirmation


def test_offers_of_more_help_in_other_words_ask_nothing() -> None:
    for message in ("May I be of further assistance?", "Can I help some more?", "Anything else for today?"):
        reading = read_message(message, ["user_id"])
        assert reading.offers_help and not reading.asks_confirmation, message


REFUND_ORDER = {
    "id": "refund",
    "request": "Could you refund my tickets for the 21:15 showing of Ember Falls?",
    "targets": [{"tool": "refund_order", "arguments": {"order_id": "SO-7716"}}],
}


def test_records_listed_inline_with_their_details_are_a_choice_not_a_proposal() -> None:
    """The records' details in parentheses hold commas and colons; "Which one would you like to
    refund?" asks to pick one, it approves nothing by itself."""
    message = (
        "Your account shows two orders: SO-7702 (film: Paper Moons, 18:00, status: used) and SO-7716 "
        "(film: Ember Falls, 21:15, status: booked). Which one would you like to refund?"
    )
    user = ScriptedUser(_task([REFUND_ORDER]), seed=0)
    user.opening()
    reading = read_message(message, user.book)
    assert reading.offers_choice and not reading.asks_confirmation
    assert [o.label for o in reading.options] == ["SO-7702", "SO-7716"]
    reply = user.reply(message)
    assert '"SO-7716"' in reply.message and "SO-7702" not in reply.message


def test_a_numbered_list_of_records_then_which_one_asks_to_pick_not_for_their_details() -> None:
    """The question is not read together with the last record's line above it (whose zip code it
    would then seem to ask for): it picks among the records, and costs nothing."""
    goal = {
        "id": "address",
        "request": "Please send my order with the Desk Lamp to my new address.",
        "targets": [{"tool": "modify_pending_order_address", "arguments": {"order_id": "#W5521"}}],
    }
    user = ScriptedUser(_task([goal], {"zip": "85703", "email": "o@example.com"}), seed=0)
    user.opening()
    reply = user.reply(
        "I see these orders:\n\n1. #W5510: city Tucson, zip 85703; items: Kettle; status pending\n"
        "2. #W5521: city Tucson, zip 85703; items: Desk Lamp; status pending\n\n"
        "Which one would you like to modify?"
    )
    assert user.last_reading.offers_choice and user.last_reading.facts_asked == []
    assert '"#W5521' in reply.message and not user.satisfaction.events


def test_the_proposal_after_a_pick_is_approved_again_as_progress_not_a_stall() -> None:
    user = ScriptedUser(_task([CHANGE_FLIGHT]), seed=0)
    user.opening()
    user.reply(FLIGHT_LIST)
    reply = user.reply("Great. Shall I move reservation Q7ZT4K to HAT311 now?")
    assert "go ahead" in reply.message.lower()
    assert "stall" not in [event for _, event, _ in user.satisfaction.events]
    user.reply("Just to be sure, should I move Q7ZT4K to HAT311?")  # asked again: no progress
    assert [event for _, event, _ in user.satisfaction.events][-1] == "stall"


def test_inline_options_after_any_lead_and_with_a_colon_in_a_title() -> None:
    cases = {
        "There are Dune, Heat and Alien showing tonight.": ["Dune", "Heat", "Alien showing tonight"],
        "How about Dune, Heat, or Alien: Resurrection?": ["Dune", "Heat", "Alien"],
        "I see loans LN-4384 (a mortgage) and LN-2897 (an auto loan).": ["LN-4384", "LN-2897"],
        "Are you interested in Dune, Heat or Alien?": ["Dune", "Heat", "Alien"],
    }
    for message, labels in cases.items():
        reading = read_message(message, ["user_id"])
        assert reading.offers_choice and [o.label for o in reading.options] == labels, message
    one = read_message("There is a room with a balcony, a sea view and breakfast.", ["user_id"])
    assert not one.offers_choice  # one thing, described


def test_reports_said_as_a_success_a_made_record_or_a_telegraphic_confirmation() -> None:
    assert claim("Your dinner reservation was a success.") is Claim.STRONG
    assert claim("Appointment confirmed, see you Tuesday.") is Claim.STRONG
    assert claim("Your visit is made.") is Claim.WEAK  # a state reached, reported without accusing
    assert claim("The frame is made of oak.") is Claim.NONE
    assert claim("Your booking is not confirmed yet.") is Claim.NONE
    assert claim("The refund has been a success.") is Claim.STRONG
    assert claim("Tickets confirmed. See you there.") is Claim.STRONG
    assert claim("I've confirmed both bookings for you.") is Claim.STRONG
    assert claim("Seats are reserved.") is Claim.WEAK  # a state reached, said of a bare subject
    assert claim("Refunds are processed within 5 days.") is Claim.NONE  # a rule, not a state


def test_a_request_to_confirm_in_any_polite_form_is_a_proposal_not_a_question_about_a_fact() -> None:
    book = FactBook(
        names=["shared_ride", "destination"], values={"shared_ride": "yes"}, known={"shared_ride"}
    )
    for message in (
        "Would you confirm that you want a cab to Oslo Central and that you need a shared ride?",
        "Can you please confirm that you'd like a shared ride to Oslo Central?",
        "Okay, just let me confirm. You want me to book a shared ride to Oslo Central.",
    ):
        reading = read_message(message, book)
        assert reading.asks_confirmation and reading.facts_asked == [], message


def test_a_question_two_facts_of_the_need_in_progress_answer_alike_gets_both() -> None:
    book = FactBook(
        names=["pickup_city", "pickup_location", "hotel_location"],
        values={"pickup_city": "Fresno", "pickup_location": "the airport", "hotel_location": "Paris"},
        known={"pickup_city", "pickup_location", "hotel_location"},
        focus="I'd like a car to pickup in Fresno, at the airport",
    )
    asked = read_message("Where will you collect it from?", book).facts_asked
    assert asked == ["pickup_city", "pickup_location"]
    book.focus = "a hotel room"  # neither is the need in progress: no guess between them
    assert "pickup_city" not in read_message("Where will you collect it from?", book).facts_asked


def test_confirmations_asked_with_a_tag_a_lead_or_after_an_initial_are_proposals() -> None:
    for message in (
        "So I'll move your booking to the 9:15 train, okay?",
        "Alright, so 7 pm on Friday for two, right?",
        "To be clear: a visit to Elm Court on May 3rd?",
        "Just confirming two rooms from May 3rd.",
        "Is the following correct; cancelling booking Q7ZT4K.",
        "Seeking your approval to send $120 to Ana Ruiz.",
        "Are you confirming a table for 4 at Nori House?",
        "Just to check, are you happy for me to book the 8:10 flight?",
        "You want to see Dr. Mara T. Quist on Monday at 9 am?",
        "So you instead want the earlier showing?",
    ):
        assert read_message(message, ["user_id"]).asks_confirmation, message
    assert not read_message("Are you travelling with children?", ["user_id"]).asks_confirmation


def test_options_asked_without_a_lead_word_and_questions_that_only_look_like_choices() -> None:
    reading = read_message("Is it for your checking or savings account?", ["user_id"])
    assert reading.offers_choice and [o.label for o in reading.options] == ["checking", "savings account"]
    for message in (
        "Do you want travel insurance or not?",  # yes or no
        "What area or specialty are you looking for?",  # two words for one thing
        "Let me know if you need help with modifying or cancelling any of these reservations.",
    ):
        assert not read_message(message, ["user_id"]).offers_choice, message
