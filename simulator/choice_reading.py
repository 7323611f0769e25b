"""How the options an agent lays out are read with the rest of a message: options asked one by one
("Jazz? Theatre?"), options stated with no question (there to pick from), stated before a question
that asks to pick ("I see orders A and B. Which one …?"), examples after a request ("You can say
music or sports"), and the inline option a known value names ("checking or savings?")."""

from __future__ import annotations

from taue.simulator.choices import (
    EXAMPLES_GIVEN,
    INLINE,
    Option,
    asks_to_pick,
    fragment_options,
    inline_options,
    stated_options,
)
from taue.simulator.facts import FactBook, known_option, same_word
from taue.simulator.phrases import WORD
from taue.simulator.reading import Reading


def settle_options(reading: Reading, fragments: tuple[Option, ...]) -> None:
    """Options asked one by one offer a choice; with no question, options stated are there to pick
    from; after a request, or as examples ("You can say music or sports"), they are what it asks."""
    if fragments:
        reading.offers_choice, reading.options = True, reading.options or fragments
    if not reading.questions:
        _stated_options(reading)
    elif (reading.requested or any(map(EXAMPLES_GIVEN.search, reading.statements))) and not reading.options:
        reading.options = next(filter(None, map(inline_options, reading.statements)), ())


def fragment_choice(said: list[str], book: FactBook) -> tuple[tuple[Option, ...], frozenset[str]]:
    """Options asked one by one ("Sports? Music?"), unless they name the customer's facts ("Name?
    Email?": requests)."""
    options, asked = fragment_options(said)
    parts = [part for name in book.names for part in name.split("_")]
    if any(
        same_word(word, part)
        for option in options
        for word in WORD.findall(option.label.lower())
        for part in parts
    ):
        return (), frozenset()
    return options, asked


def inline_pick(options: tuple[Option, ...], book: FactBook) -> tuple[str, str] | None:
    """ "Should I look at your checking or savings account?": the inline option a known value names,
    the first one included (its lead words are not part of it)."""
    if not options or options[0].group != INLINE:
        return None
    return known_option([option.label for option in options], book)


def stated_before(question: str, reading: Reading) -> tuple[Option, ...]:
    """ "I see orders A (…) and B (…). Which one …?": the options stated before a question that asks
    to pick."""
    return stated_options(reading.statements) if asks_to_pick(question) else ()


def _stated_options(reading: Reading) -> None:
    if options := stated_options(reading.statements):
        reading.offers_choice, reading.options = True, options
