"""Reports of a change in the terse ways service assistants write them: a headline with a verb that
sets something going ("Transfer started."), a state after a place ("The visit to apartment 4 is
scheduled."), a passive that says for whom ("The alarm was added to your list."), a song started,
what the customer now holds ("You have a visit scheduled."), and sentences typed without a space
before a number. Every message here is written for this test."""

from __future__ import annotations

import pytest

from taue.simulator.claims import Claim, claim
from taue.simulator.markup import sentences
from taue.simulator.understanding import read_message


@pytest.mark.parametrize(
    "sentence",
    [
        "Transfer started.",
        "Movie rented.",
        "Started the song.",
        "The visit to apartment 4 is scheduled.",
        "Visit to the flat is scheduled.",
        "The alarm was added to your list.",
        "The reminder was set for you.",
        "Ok, it's playing, hope you like it.",
        "Playing it now.",
        "Your ride is enroute.",
        "Happy listening!",
        "Have fun with the music.",
        "It was confirmed.",
        "You have a visit scheduled and will get an email soon.",
        "They've been booked.",
        "You're set then.",
        "The tickets are absolutely yours.",
        "You should get an email confirmation of your appointment.",
        "You've reserved the tickets.",
        "Your booking is verified.",
        "Your car is ready.",
    ],
)
def test_these_words_report_a_change(sentence: str) -> None:
    assert claim(sentence) >= Claim.WEAK


@pytest.mark.parametrize(
    "sentence",
    [
        "The alarm was added on May 1 to your list.",  # when: history
        "It's playing on March 14th at 6 pm.",  # an event's showing
        "You're set to pay $40 at the counter.",  # a rule, not a state reached
        "Going to have it started tomorrow.",
        "It started raining.",
        "Once it's booked, you will receive a confirmation email.",
        "You booked this flight on May 1.",  # history
        "You reserved it last week.",
    ],
)
def test_history_events_and_plans_report_nothing(sentence: str) -> None:
    assert claim(sentence) is Claim.NONE


def test_what_the_customer_holds_is_never_a_report_to_doubt() -> None:
    """A status ("You have an appointment scheduled for May 5.") reads like a report of what was just
    booked; it counts as one when a change backs it, and never as a false claim."""
    assert claim("You have an appointment scheduled for May 5.") is Claim.WEAK
    assert claim("It was confirmed.") is Claim.WEAK
    assert claim("You don't have a visit scheduled.") is Claim.NONE


def test_a_sentence_typed_against_a_number_ends_there() -> None:
    assert sentences("Visit is scheduled.555-0100 is their number.") == [
        "Visit is scheduled.",
        "555-0100 is their number.",
    ]
    assert read_message("Visit is scheduled.555-0100 is their number.", []).claims_completion
    assert sentences("It costs $4.50 a day.") == ["It costs $4.50 a day."]
