"""Options as terse service assistants lay them out (measured by `taue simulator corpus-eval --corpus
sgd`, the `choice` act): titles with their own punctuation, a verb before the list, examples closed by
"etc.", options asked one by one, a list before "are". Every message here is written for this test."""

from __future__ import annotations

import pytest

from taue.simulator.choices import inline_options
from taue.simulator.facts import FactBook
from taue.simulator.markup import sentences
from taue.simulator.understanding import read_message

EVENTS = FactBook(names=["category", "city"], known=frozenset({"category", "city"}))


@pytest.mark.parametrize(
    ("sentence", "labels"),
    [
        (
            "Would you enjoy Paddington, Frozen!, or The Lion King?",
            ["Paddington", "Frozen!", "The Lion King"],
        ),
        ("May I suggest Arrival, Sicario or Dune?", ["Arrival", "Sicario", "Dune"]),
        ("How does Arrival, Sicario, or Dune sound?", ["Arrival", "Sicario", "Dune"]),
        ("Do you want to leave on May 4th or May 6th?", ["May 4th", "May 6th"]),
        ("Jazz, theatre, etc.", ["Jazz", "theatre"]),
        ("Is there a genre you like, such as jazz, theatre, or anything else?", ["jazz", "theatre"]),
        (
            "I got these: Rio Grill, Casa Luna, Dr. Pepper Diner",
            ["Rio Grill", "Casa Luna", "Dr. Pepper Diner"],
        ),
        (
            "Rio Grill, Casa Luna and Blue Door are the three I found.",
            ["Rio Grill", "Casa Luna", "Blue Door"],
        ),
        ("I found Casa Luna and Blue Door.", ["Casa Luna", "Blue Door"]),
        ("Jazz, theatre, or something else and in which city?", ["Jazz", "theatre"]),
        ("What would you like to do, jazz, theatre, or something else?", ["jazz", "theatre"]),
        ("Shall I search for a Dermatologist or Pediatrician for you?", ["Dermatologist", "Pediatrician"]),
    ],
)
def test_options_named_in_one_sentence_in_many_ways(sentence: str, labels: list[str]) -> None:
    assert [option.label for option in inline_options(sentence)] == labels


@pytest.mark.parametrize(
    "sentence",
    [
        "I have 1 suggestion, the film Bread and Roses.",
        "There's Maple Court, 3 beds and 2 baths for $2,950 a month.",
        "Sorry, I can't book that table, anything else?",
        "Are you interested or I can keep looking for you.",
        "It costs 20 dollars, more or less.",
        "I found your order and cancelled it.",
        "Do you want to cancel the booking or keep it?",
    ],
)
def test_one_thing_counted_described_or_two_actions_are_no_options(sentence: str) -> None:
    assert inline_options(sentence) == ()


def test_an_exclamation_mark_inside_a_title_ends_no_sentence() -> None:
    assert sentences("How about Frozen! or Dune? Great! See you.") == [
        "How about Frozen! or Dune?",
        "Great!",
        "See you.",
    ]


def test_options_asked_one_by_one_offer_a_choice() -> None:
    reading = read_message("Jazz? Theatre? Anything else?", EVENTS)
    assert reading.offers_choice
    assert [option.label for option in reading.options] == ["Jazz", "Theatre"]


def test_details_asked_one_by_one_are_requests_not_options() -> None:
    book = FactBook(
        names=["travel_date", "destination_city"], known=frozenset({"travel_date", "destination_city"})
    )
    reading = read_message("Date? Destination?", book)
    assert not reading.offers_choice
    assert reading.options == ()


def test_how_about_a_verb_over_titles_offers_the_titles_not_a_change() -> None:
    reading = read_message("How about watching Arrival, Sicario or Dune?", EVENTS)
    assert reading.offers_choice
    assert not reading.asks_confirmation
    assert [option.label for option in reading.options] == ["Arrival", "Sicario", "Dune"]


@pytest.mark.parametrize(
    "message", ["Any preference? You can say jazz or theatre.", "What kind? I recommend jazz or theatre."]
)
def test_examples_after_a_question_are_the_options_it_asks_about(message: str) -> None:
    assert [option.label for option in read_message(message, EVENTS).options] == ["jazz", "theatre"]


def test_a_message_that_is_only_options_offers_them() -> None:
    reading = read_message("jazz or theatre", EVENTS)
    assert reading.offers_choice
    assert [option.label for option in reading.options] == ["jazz", "theatre"]
