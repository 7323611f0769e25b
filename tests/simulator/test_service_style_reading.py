"""How the reader takes the plain, terse way many service assistants write (the style of the
Schema-Guided Dialogue corpus, measured by `taue simulator corpus-eval --corpus sgd`): details read
back as a statement, "please confirm your booking", failures said as a state, an attribute of a place
said with "not allowed", reports without "I", and sentences typed without a space. Every message here
is written for this test."""

from __future__ import annotations

import pytest

from taue.simulator.choices import inline_options
from taue.simulator.claims import Claim, claim
from taue.simulator.facts import FactBook
from taue.simulator.markup import sentences
from taue.simulator.understanding import read_message

HOTEL = FactBook(
    names=["hotel_name", "check_in_date", "pets_allowed", "smoking_allowed", "number_of_rooms"],
    values={"hotel_name": "Harbour Inn", "pets_allowed": "False", "smoking_allowed": "False"},
    known=frozenset({"hotel_name", "check_in_date", "number_of_rooms"}),
)


@pytest.mark.parametrize(
    "message",
    [
        "Sadly, the Harbour Inn doesn't allow pets.",
        "No, smoking is not permitted anywhere in the building.",
        "I'm sorry, you can't smoke in the rooms there.",
    ],
)
def test_a_no_about_an_attribute_of_the_place_informs_and_refuses_nothing(message: str) -> None:
    reading = read_message(message, HOTEL)
    assert not reading.refuses
    assert reading.informs


def test_the_same_words_refuse_when_no_attribute_of_the_scenario_is_meant() -> None:
    assert read_message("Sorry, pets are not allowed.", FactBook(names=["hotel_name"])).refuses
    known_fact = FactBook(
        names=["pets_allowed"], values={"pets_allowed": "True"}, known=frozenset({"pets_allowed"})
    )
    assert read_message("Sorry, pets are not allowed.", known_fact).refuses


def test_a_failure_beside_an_attribute_in_one_sentence_is_still_a_failure() -> None:
    reading = read_message("Sorry, the room could not be booked, and smoking is not allowed there.", HOTEL)
    assert reading.refuses


@pytest.mark.parametrize(
    "message",
    [
        "Sorry, that time slot isn't available any more.",
        "Unfortunately the 6 pm sitting is unavailable.",
        "I'm afraid your booking failed.",
        "Apologies, the payment was not processed.",
        "Sorry, there was an error.",
        "That train is full, I'm sorry.",
        "There are no tables available at 8 pm.",
        "Looks like there's nothing available that evening.",
        "Booking that table was not possible.",
        "Sorry, this reservation is not confirmed.",
        "Sorry, they are all booked.",
        "Sorry, there weren't any tickets left for that show.",
        "Sorry. No can do.",
        "I'm sorry but it's not available.",
        "Then the reservation does not work, sorry.",
    ],
)
def test_a_failure_said_as_a_state_is_a_failure(message: str) -> None:
    assert read_message(message, HOTEL).refuses


@pytest.mark.parametrize(
    "message",
    [
        "The car is full-size and seats five.",
        "I couldn't find a booking under that name, could you spell it?",
        "There are no outside tables there.",
        "The 9 am bus is $40. If that doesn't work, I have 4 others.",
    ],
)
def test_a_description_or_a_lookup_that_found_nothing_is_no_failure(message: str) -> None:
    assert not read_message(message, FactBook(names=["name"])).refuses


@pytest.mark.parametrize(
    "message",
    [
        "Sorry, I couldn't find any other flights on that day.",
        "I'm afraid there's nothing else that matches.",
        "There are no other showings tonight.",
        "That is the only Italian place in town.",
        "I haven't found another slot with that doctor.",
        "Apologies, there is no one else free on Friday.",
        "I'm afraid I was unable to find any other flights.",
    ],
)
def test_a_search_that_came_back_empty_is_read_apart_from_a_refusal(message: str) -> None:
    reading = read_message(message, FactBook(names=["name"]))
    assert reading.found_nothing
    assert not reading.refuses
    assert not reading.offers_help


@pytest.mark.parametrize(
    "message",
    [
        "If there is nothing else, have a lovely evening.",
        "I found two other flights that day.",
        "There are other options too.",
        "It is the only way to get there by train, and it leaves at 9.",
    ],
)
def test_a_finding_or_a_farewell_is_no_empty_search(message: str) -> None:
    assert not read_message(message, FactBook(names=["name"])).found_nothing


def test_a_sentence_typed_without_a_space_after_its_full_stop_ends_there() -> None:
    assert sentences("The table was booked.Their number is 555-0100.") == [
        "The table was booked.",
        "Their number is 555-0100.",
    ]
    assert sentences("You'd like 3 rooms at Arc The.Hotel in Washington D.C. from May 4?") == [
        "You'd like 3 rooms at Arc The.Hotel in Washington D.C. from May 4?"
    ]


@pytest.mark.parametrize(
    "message",
    [
        "You want a table for 4 at Luigi's on May 3 at 7 pm.",
        "Okay, booking 2 seats on the 9:15 train to Leeds.",
        "So you'd like 1 room at the Harbour Inn for 3 nights from June 2.",
        "I will reserve a table for 2 at 8 pm at the Lotus Garden.",
    ],
)
def test_details_read_back_as_a_statement_ask_to_approve_them(message: str) -> None:
    reading = read_message(message, HOTEL)
    assert reading.asks_confirmation
    assert not reading.facts_asked


@pytest.mark.parametrize(
    "message",
    [
        "Booking confirmed for 2 at 7 pm.",
        "You need to arrive 15 minutes before 7 pm.",
        "You want a quiet room, I understand.",
    ],
)
def test_a_report_a_reminder_or_a_readback_without_details_is_no_proposal(message: str) -> None:
    assert not read_message(message, HOTEL).asks_confirmation


def test_a_readback_that_names_known_facts_asks_for_none_of_them() -> None:
    book = FactBook(
        names=["first_name", "last_name", "checked_bags"], known=frozenset({"first_name", "last_name"})
    )
    reading = read_message("You want to add 2 checked bags under your name, at no cost.", book)
    assert reading.asks_confirmation
    assert not reading.facts_asked


@pytest.mark.parametrize(
    "message",
    [
        "Please confirm your booking of a shared cab for 2 to 10 Elm Street.",
        "Please verify that you want to book a visit on June 2 at 3 pm.",
        "Please verify: 1 room at the Harbour Inn from June 2 for 2 nights.",
        "You'll book 1 room at the Harbour Inn for 3 nights?",
        "So I should play it on the kitchen speaker?",
    ],
)
def test_a_request_to_confirm_a_booking_asks_to_approve_it(message: str) -> None:
    book = FactBook(
        names=["shared_ride", "destination", "device"], known=frozenset({"shared_ride", "device"})
    )
    reading = read_message(message, book)
    assert reading.asks_confirmation
    assert not reading.requested


def test_please_confirm_your_fact_still_asks_for_the_fact() -> None:
    book = FactBook(names=["email"], known=frozenset({"email"}))
    reading = read_message("Please confirm your email address.", book)
    assert not reading.asks_confirmation
    assert reading.facts_asked == ["email"]


@pytest.mark.parametrize(
    "sentence",
    [
        "Your visit to the gallery is scheduled.",
        "Transfer is initiated.",
        "Reservation made, and they do have parking.",
        "Your cab is on it's way.",
        "You've got your tickets!",
        "The seats are yours.",
        "Your appointment went thru.",
    ],
)
def test_a_report_without_i_is_a_completion_claim(sentence: str) -> None:
    assert claim(sentence) is not Claim.NONE


@pytest.mark.parametrize(
    "sentence", ["Admission is charged at the door.", "Entry is charged.", "Enjoy your stay!"]
)
def test_a_fact_about_a_place_or_a_farewell_is_no_completion_claim(sentence: str) -> None:
    assert claim(sentence) is Claim.NONE


@pytest.mark.parametrize(
    ("sentence", "labels"),
    [
        ("There are 2 good options: Hotel Lumen and The Quay.", ["Hotel Lumen", "The Quay"]),
        ("Yes, there is Red Sky, Blue Hour, and Low Tide.", ["Red Sky", "Blue Hour", "Low Tide"]),
    ],
)
def test_options_announced_before_a_colon_or_listed_after_there_is_are_options(
    sentence: str, labels: list[str]
) -> None:
    assert [option.label for option in inline_options(sentence)] == labels


@pytest.mark.parametrize(
    "sentence",
    [
        "I found a train with 1 change, a departure time of 7:40 am and a fare of $53.",
        "There is a flight at 5 pm and it costs $40.",
        "Your booking includes: one checked bag and a meal.",
    ],
)
def test_one_thing_described_is_no_list_of_options(sentence: str) -> None:
    assert inline_options(sentence) == ()


def test_a_report_before_a_question_in_one_sentence_is_read() -> None:
    reading = read_message("Your booking has been made, can I help you with anything else?", HOTEL)
    assert reading.claims_completion
    assert reading.offers_help


@pytest.mark.parametrize(
    "sentence",
    [
        "It's all been booked for you!",
        "Your viewing schedule has been confirmed.",
        "The song has started.",
        "Your transfer is being processed.",
    ],
)
def test_a_change_done_or_under_way_is_a_claim(sentence: str) -> None:
    assert claim(sentence) is not Claim.NONE


@pytest.mark.parametrize(
    "sentence",
    ["I came up with 6 doctors in Austin.", "The Lumineers are playing at the Fox on May 3 at 8 pm."],
)
def test_a_search_result_or_an_event_on_the_bill_is_no_claim(sentence: str) -> None:
    assert claim(sentence) is Claim.NONE
    assert not read_message(f"{sentence} Would you like tickets?", HOTEL).claims_completion


def test_quoted_options_are_named_without_their_quotes() -> None:
    labels = [o.label for o in inline_options('I found two bookings on your profile: "K2LM9Q" and "ZX81PA".')]
    assert labels == ["K2LM9Q", "ZX81PA"]


@pytest.mark.parametrize(
    "message",
    [
        "So you'd like to rent Where the Wild Things Are with French subtitles?",
        "Confirm: a table for 2 at the Lotus Garden at 7 pm.",
        "Sure thing, confirming your transfer of $300 to Ana?",
        "Just to check, you want to see Dr. Ruiz at 9 am on May 2.",
        "You are picking up a compact car at the airport on May 3 at 10 am.",
    ],
)
def test_more_ways_to_read_back_details_ask_to_approve_them(message: str) -> None:
    assert read_message(message, HOTEL).asks_confirmation


def test_a_wh_word_opening_a_clause_still_asks() -> None:
    reading = read_message(
        "So you'd like a table for 2, which day?", FactBook(names=["date"], known=frozenset({"date"}))
    )
    assert not reading.asks_confirmation
    assert reading.facts_asked == ["date"]


RENTAL = FactBook(
    names=["pickup_city", "pickup_date", "dropoff_date", "number_of_days", "transfer_amount"],
    known=frozenset({"pickup_city", "pickup_date", "dropoff_date", "number_of_days", "transfer_amount"}),
    focus="pickup_city pickup_date dropoff_date",
)


@pytest.mark.parametrize(
    ("message", "facts"),
    [
        ("In what city", ["pickup_city"]),
        ("What amount of money do you want to move.", ["transfer_amount"]),
        ("When do you want it?", ["pickup_date"]),
        ("When will you bring it back?", ["dropoff_date"]),
        ("What would be the duration of your rental?", ["number_of_days"]),
    ],
)
def test_a_question_by_the_kind_of_answer_is_placed(message: str, facts: list[str]) -> None:
    assert read_message(message, RENTAL).facts_asked == facts


def test_a_date_put_to_the_user_asks_no_start_or_end() -> None:
    assert read_message("Can I help with anything else today?", RENTAL).facts_asked == []


def test_a_lookup_offered_over_two_options_is_a_choice_the_known_value_answers() -> None:
    book = FactBook(
        names=["account_type"], values={"account_type": "savings"}, known=frozenset({"account_type"})
    )
    reading = read_message("Should I look at your checking or your savings account?", book)
    assert reading.choices == [("your savings account", "account_type")]
    assert not reading.asks_confirmation


def test_the_agents_own_action_read_back_asks_to_approve_it_without_details() -> None:
    reading = read_message(
        "Just to check, you want me to cancel your reservation (reservation id WKQZRT).", HOTEL
    )
    assert reading.asks_confirmation


@pytest.mark.parametrize(
    "message",
    [
        "Do you need me to book the 6 pm table?",
        "Are you willing to have the tickets bought?",
        "Any plans to buy tickets for the show?",
        "Can I reserve the room for you?",
    ],
)
def test_an_offer_to_carry_out_a_transaction_asks_to_approve_it(message: str) -> None:
    assert read_message(message, HOTEL).asks_confirmation


def test_asking_whether_to_get_anything_else_is_an_open_offer() -> None:
    reading = read_message("Can I get anything else for you?", HOTEL)
    assert not reading.asks_confirmation
    assert reading.offers_help


@pytest.mark.parametrize(
    "sentence",
    [
        "Tickets are reserved and I hope you like the show.",
        "No, they do not, and your booking is now confirmed!",
        "Your transfer is started.",
        "The payment is scheduled for now.",
        "The song is playing.",
        "It is playing for you now.",
        "Enjoy the music!",
        "Your taxi will arrive in 5 minutes.",
        "You have your seats.",
        "Confirmed.",
        "The film is rented.",
        "I have gone ahead and confirmed that booking for you.",
        "Your ride was booked and it costs $9.",
    ],
)
def test_more_reports_in_plain_service_words(sentence: str) -> None:
    assert claim(sentence) > Claim.NONE


@pytest.mark.parametrize(
    "sentence",
    [
        "Enjoy your stay!",
        "Bill Evans is playing at the Blue Note on May 4th.",
        "You booked this trip in May.",
        "You have 3 reservations.",
        "The taxi stand is near the exit and a driver will arrive if you call.",
        "I could not book it, so no cab is coming.",
        "You have 10 films to choose from, but I made a shortlist: Heat and Ronin.",
    ],
)
def test_farewells_listings_history_and_conditions_report_nothing(sentence: str) -> None:
    assert claim(sentence) == Claim.NONE


@pytest.mark.parametrize(
    "message",
    [
        "4 to Fresno on March 11th at 2 pm?",
        "OK so 12:30 pm on May 2nd at Harbour Inn?",
        "Please confirm your shared ride for 2 to 50 Elm Road.",
        "You would like to rent The Third Man with no subtitles.",
    ],
)
def test_a_bookings_values_put_to_the_user_ask_to_approve_them(message: str) -> None:
    book = FactBook(names=["shared_ride", "party_size"], known=frozenset({"shared_ride", "party_size"}))
    reading = read_message(message, book)
    assert reading.asks_confirmation
    assert not reading.requested


def test_values_asked_with_a_wh_word_or_a_verb_are_no_booking_to_approve() -> None:
    assert not read_message("Which of 2 pm or 4 pm on May 3rd?", HOTEL).asks_confirmation
    assert not read_message("Shall I look for rooms on May 3rd or May 4th?", HOTEL).asks_confirmation


@pytest.mark.parametrize(
    "message",
    [
        "Tell me the genre you'd like.",
        "Okay, what city should I search in?",
        "Sure, I can help, which city should I search in?",
        "Is there a particular city you'd like me to search?",
    ],
)
def test_a_request_told_or_asked_after_a_filler_asks_for_the_fact(message: str) -> None:
    book = FactBook(names=["genre", "city"], known=frozenset({"genre", "city"}))
    reading = read_message(message, book)
    assert reading.requested
    assert not reading.lookup_offers


def test_an_offer_to_search_that_asks_for_nothing_is_still_a_lookup_offer() -> None:
    book = FactBook(names=["genre", "city"], known=frozenset({"genre", "city"}))
    assert read_message("Shall I search for more films?", book).lookup_offers


@pytest.mark.parametrize(
    "message",
    [
        "Would you need a reservation there?",
        "Would you require a booking at the hotel?",
        "Playing Blue in Green on the kitchen speaker.",
        "Booking a table at Casa Luna in Oakland.",
    ],
)
def test_more_offers_to_transact_and_actions_read_back_ask_to_approve(message: str) -> None:
    assert read_message(message, HOTEL).asks_confirmation


@pytest.mark.parametrize("message", ["Playing it now. Enjoy!", "Would you like to visit on May 5th?"])
def test_a_song_started_or_a_date_put_is_no_action_read_back(message: str) -> None:
    assert not read_message(message, HOTEL).asks_confirmation


@pytest.mark.parametrize(
    "message",
    [
        "To firm up: 3 tickets for the 7:20 am bus on May 12th.",
        "I think I have it: a table for 2 at Casa Luna today at 6 pm.",
        "If I understand correctly, you want 2 rooms from May 3rd.",
        "With your permission I will move $500 to your savings.",
        "Please give me your final confirmation to book the car for May 1st.",
    ],
)
def test_more_leads_into_details_read_back_ask_to_approve(message: str) -> None:
    assert read_message(message, HOTEL).asks_confirmation


def test_details_announced_before_a_report_ask_nothing() -> None:
    message = "Here are the details: your order has been cancelled and the refund is on its way."
    assert not read_message(message, HOTEL).asks_confirmation


@pytest.mark.parametrize("message", ["Is there a city you're interested in?", "Any particular city?"])
def test_asking_whether_the_user_has_one_in_mind_asks_for_it(message: str) -> None:
    book = FactBook(names=["city_of_event", "category"], known=frozenset({"city_of_event", "category"}))
    reading = read_message(message, book)
    assert [*reading.requested, *reading.guessed] == ["city_of_event"]
