"""Confirmation requests in the terse and varied ways service assistants put them: a tag after the
details ("Is this what you want?"), an offer to book put as help ("Can I assist you in reserving a
table?"), "should we", "let me know if you wish to", a plan asked back ("You'll be checking in on
the 5th?"), and a booking's bare details with whom they are for. Every message here is written for
this test."""

from __future__ import annotations

import pytest

from taue.simulator.facts import FactBook
from taue.simulator.understanding import read_message

BOOK = FactBook(
    names=["restaurant_name", "date", "time", "number_of_rooms", "check_in_date", "party_size"],
    values={"restaurant_name": "Blue Door", "date": "March 3rd", "party_size": "2"},
    known=frozenset({"restaurant_name", "date", "time", "number_of_rooms", "check_in_date", "party_size"}),
)


@pytest.mark.parametrize(
    "message",
    [
        "A table for 2 at Blue Door on March 3rd at 7 pm. Is this what you want?",
        "2 rooms at the Harbour Inn from March 3rd for 4 nights. Do I have that correct.",
        "Dinner for 2 at Blue Door at 7 pm, is that acceptable?",
        "Can I assist you in reserving a table here?",
        "Can I help you book a table now?",
        "Would you wanna reserve a table there?",
        "Please let me know if you wish to schedule a viewing of the flat.",
        "Should we set up the transfer now?",
        "Okay, can I make the appointment for you?",
        "So you'll be checking in on March 3rd for 4 nights?",
    ],
)
def test_a_booking_put_to_the_user_in_these_words_asks_to_approve_it(message: str) -> None:
    reading = read_message(message, BOOK)
    assert reading.asks_confirmation
    assert not reading.offers_help


@pytest.mark.parametrize(
    "message",
    [
        "Can I help you with anything else?",
        "Can I assist you further?",
        "May I get you anything more?",
    ],
)
def test_an_offer_of_more_help_is_no_proposal(message: str) -> None:
    reading = read_message(message, BOOK)
    assert reading.offers_help
    assert not reading.asks_confirmation


@pytest.mark.parametrize(
    "message",
    [
        "blue door march 3rd 7 pm 2 people",
        "harbour inn march 3rd 2 rooms 4 nights",
        "the jazz club march 9th 2 tickets",
    ],
)
def test_a_bookings_bare_details_with_its_party_are_put_to_the_user_to_check(message: str) -> None:
    assert read_message(message, BOOK).asks_confirmation


@pytest.mark.parametrize(
    "message",
    [
        "harbour inn march 3rd 2 rooms $120",  # priced: a search result
        "4.5 rating blue door march 3rd 2 people",  # rated: a search result
        "From MCO to PHX on flight HAT214, scheduled for 2024-05-19",  # a record's segment
        "You have 2 rooms on March 3rd at the Harbour Inn.",  # a statement about a booking
        "blue door march 3rd 7 pm",  # no party: a time offered, not a booking's details
        "Sorry, that isn't available: 8 seats; 8 tickets; per order; maximum of 8.",  # a rule's numbers
        "1041 middlefield road 2 people",  # no when
    ],
)
def test_values_without_a_party_or_with_a_price_are_not_a_booking_to_approve(message: str) -> None:
    assert not read_message(message, BOOK).asks_confirmation
