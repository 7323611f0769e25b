"""Questions asked by the kind of answer they want ("Where …?", "When …?", "How many …?", "What type
…?") or by a word of a fact's name, matched to the customer's facts the way service assistants mean
them: the need in progress first, the fact that says the most, both facts when two still tie. Every
message here is written for this test."""

from __future__ import annotations

from taue.simulator.facts import FactBook
from taue.simulator.understanding import read_message


def test_the_need_in_progress_comes_before_how_much_a_name_says_the_kind() -> None:
    """ "origin_city" has two words of a place and "museum_location" one; asked where to look for a
    museum, the customer means the museum's place, not where its trip starts."""
    names = ["origin_city", "museum_location", "departure_date"]
    book = FactBook(names=names, known=frozenset(names), focus="find a museum to visit, any location")
    assert read_message("Where should I look?", book).facts_asked == ["museum_location"]
    book.focus = "a flight from Boston on Friday, origin city first"
    assert read_message("Where are you flying from?", book).facts_asked == ["origin_city"]


def test_a_fact_the_need_names_whole_comes_before_one_that_shares_a_word_of_it() -> None:
    names = ["origin_city", "pickup_city", "pickup_date"]
    book = FactBook(
        names=names, known=frozenset(names), focus="a rental car: pickup city Fresno, pickup date Friday"
    )
    assert read_message("Where would you like to get it from?", book).facts_asked == ["pickup_city"]


def test_a_question_asked_by_the_kind_of_answer_takes_the_fact_that_says_the_most() -> None:
    names = [
        "city",
        "origin_city",
        "destination_city",
        "departure_date",
        "departure_time",
        "type",
        "category",
    ]
    book = FactBook(
        names=names, known=frozenset(names), focus="a flight: origin city, destination city, departure date"
    )
    assert read_message("What city will you leave from?", book).facts_asked == ["origin_city"]
    assert read_message("What metropolis are you flying out of?", book).facts_asked == ["origin_city"]
    assert set(read_message("When would you like to fly?", book).facts_asked) == {
        "departure_date",
        "departure_time",
    }  # "when" names neither a date nor a time: both
    assert read_message("What date would you like to fly?", book).facts_asked == ["departure_date"]
    book.focus = "dinner out: a restaurant category, a city"
    assert read_message("What type of food do you want?", book).facts_asked == ["category"]


def test_a_phrasal_verb_split_around_its_object_still_names_its_fact() -> None:
    names = ["location", "pickup_city", "dropoff_city"]
    book = FactBook(names=names, known=frozenset(names), focus="rent a car: pickup city, dropoff city")
    assert read_message("Where would you like to pick the car up?", book).facts_asked == ["pickup_city"]
    assert read_message("How many bedrooms should the flat have.", ["number_of_bedrooms"]).questions


def test_questions_asked_in_the_plain_ways_of_service_assistants_name_their_facts() -> None:
    names = ["recipient_name", "transfer_amount", "genre", "number_of_bedrooms", "shared_ride"]
    book = FactBook(
        names=names,
        known=frozenset(names),
        values={"shared_ride": "True", "genre": "jazz", "number_of_bedrooms": "2"},
        focus="send money to a friend: recipient name, transfer amount",
    )
    assert read_message("Where would you like to send the money?", book).facts_asked == ["recipient_name"]
    assert read_message("Sure, what genre.", book).facts_asked == ["genre"]  # no question mark
    assert read_message("Is there a genre you prefer.", book).facts_asked == ["genre"]
    asked = read_message("Have you thought about the number of bedrooms you need?", book)
    assert asked.facts_asked == ["number_of_bedrooms"]
    ride = read_message("How about a shared ride?", book)  # a yes/no preference, not a change
    assert ride.facts_asked == ["shared_ride"] and not ride.asks_confirmation
