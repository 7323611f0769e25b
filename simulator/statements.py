"""Statements: what the sentences of an agent message that ask nothing say (docs/simulator.md, "How it
reads an agent message"): completion claims (`simulator/claims.py`), refusals with or without a
reason, searches that came back empty, information, offers of help in a statement, and a no about a
yes/no attribute of what the agent looked up ("Pets are not allowed there."), which informs and
refuses nothing. Also the clauses before a question ("Sorry, I couldn't book it, what else can I
do?"), which can report or refuse, and the forms the reader compares text in."""

from __future__ import annotations

import re

from taue.simulator.claims import QUOTED, Claim, claim
from taue.simulator.facts import FactBook, content_words, same_word
from taue.simulator.offers import has
from taue.simulator.phrases import (
    CONTRACTED,
    EXPLAINED,
    INFO_PHRASES,
    OPEN_OFFERS,
    PLAN,
    REASON_MARKERS,
    REFUSALS,
    VALUE,
)
from taue.simulator.reading import Reading
from taue.simulator.refusals import FAILURES, FOUND_NOTHING, without_sympathy

YES_NO_VALUES = frozenset({"true", "false", "yes", "no"})


def expand(text: str) -> str:
    """Negative contractions written out ("isn't allowed" -> "is not allowed")."""
    for short, long_ in CONTRACTED.items():
        text = text.replace(short, long_)
    return re.sub(r"(\w)n't\b", r"\1 not", text)


def normalise(text: str) -> str:
    return " ".join(text.lower().replace("’", "'").split())


def lead_failure(question: str, reading: Reading) -> None:
    """ "Sorry, I couldn't book it, what else can I do?": the clauses before the question can report
    a failure or refuse."""
    lead = re.split(r",\s+(?=[^,]*$)", without_sympathy(expand(normalise(question))), maxsplit=1)
    if len(lead) == 2 and (has(lead[0], REFUSALS) or FAILURES.search(lead[0])):
        reading.refuses = True
        reading.statements.append(lead[0])  # its reason may settle a refused need


def lead_claim(question: str, reading: Reading) -> None:
    """ "Your booking has been made, can I help with anything else?": the clauses before the question
    can report a change."""
    clauses = re.split(r"[,;]\s+", question)
    if len(clauses) > 1 and not refuses(question):
        reading.claim = max(reading.claim, max(claim(c) for c in clauses[:-1]))


def refuses(sentence: str) -> bool:
    """The sentence refuses or reports a failure (sympathy, policy checks and searches that came back
    empty aside: "I'm afraid I was unable to find any other flights" refuses nothing)."""
    lowered = without_sympathy(expand(normalise(QUOTED.sub(" ", sentence))))
    if FOUND_NOTHING.search(lowered):
        lowered = HEDGES.sub(" ", FOUND_NOTHING.sub(" ", lowered))
    return has(lowered, REFUSALS) or bool(FAILURES.search(lowered))


HEDGES = re.compile(r"\b(?:i'm|i am|we're|we are) afraid\b")
"""Softeners that make a refusal's tone, not a refusal: read so only beside an empty search."""


def read_statement(sentence: str, reading: Reading, book: FactBook) -> None:
    reading.statements.append(sentence)
    lowered = without_sympathy(expand(normalise(QUOTED.sub(" ", sentence))))
    refusing = refuses(sentence)
    if refusing and states_attribute(sentence, book):
        reading.informs = True
        refusing = refuses(" ".join(c for c in CLAUSES.split(sentence) if not states_attribute(c, book)))
    claimed = Claim.NONE if refusing else claim(sentence)  # "I can't: it was already completed"
    reading.claim = max(reading.claim, claimed)
    if not (refusing or claimed or PLAN.search(f" {lowered}")):
        reading.informs = reading.informs or bool(VALUE.search(sentence)) or has(f" {lowered}", INFO_PHRASES)
    if refusing:
        reading.refuses = True
    empty_search = bool(FOUND_NOTHING.search(lowered))
    reading.found_nothing = reading.found_nothing or empty_search
    if has(lowered, OPEN_OFFERS) and not empty_search:  # "I couldn't find any other flights" offers nothing
        reading.statement_offers += 1
    # A reason may come in the refusal ("…: it is past the deadline") or in a sentence of its own.
    reading.refusal_reasoned = (
        reading.refusal_reasoned
        or has(f" {lowered} ", REASON_MARKERS)
        or bool(refusing and EXPLAINED.search(lowered))
    )


def states_attribute(sentence: str, book: FactBook) -> bool:
    """ "Pets are not allowed there.", "It is not furnished.": a no about a yes/no attribute of the
    thing the agent looked up (a fact the customer does not hold, valued yes or no) informs; it refuses
    nothing the customer asked the agent to do."""
    words = content_words(sentence)
    return any(
        name not in book.known
        and (book.values.get(name) or "").strip().lower() in YES_NO_VALUES
        and all(any(same_word(part, word) for word in words) for part in _attribute_words(name))
        for name in book.names
    )


CLAUSES = re.compile(r"[,;]\s+|\s+(?:and|but)\s+")


def _attribute_words(name: str) -> list[str]:
    """The words that name an attribute ("smoking" of `smoking_allowed`: "you can't smoke there")."""
    return [w for w in content_words(name.replace("_", " ")) if w not in PERMISSION_WORDS] or [name]


PERMISSION_WORDS = frozenset({"allowed", "permitted"})
