"""Lints of an instruction's prose (docs/tracer.md, "Checks"): what reads as a template or a slip.

The builder rejects a candidate with any of these, and `taue tracer verify` reports them for the
committed sets.
"""

from __future__ import annotations

import re
from collections import Counter

from taue.contracts.tasks import Task
from taue.tracer.frames import NO_IDS, wish_on_wish
from taue.tracer.prose import known_ids, opening

FIRST_PERSON = re.compile(r"\b(I|I'm|I've|I'd|I'll|my|me|mine|myself)\b")
TITLE_NUMERAL = re.compile(r"\b[A-Z][A-Za-z]+ I\b(?! [a-z])")
"""A numeral in a title ("World War I", "Calculus I"): not the first person."""
REPEATED_IN_PARENTHESES = re.compile(r"\b([\w'-][\w' -]{2,}?) \(\1\b")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
NO_ID_PHRASES = tuple(frame.split(";")[0].split(":")[0].rstrip(".") for frame in NO_IDS)


ISO_DATE_OR_TIME = re.compile(r"\d{4}-\d{2}-\d{2}|\d{1,2}:\d{2}")


def _id_like(value: str) -> bool:
    """A value that names one thing (an id, an email, a card's last digits), not a date or a word
    that two facts may share ("business", "2025-05-16")."""
    return any(c.isdigit() for c in value) and " " not in value and not ISO_DATE_OR_TIME.fullmatch(value)


def sentences(text: str) -> list[str]:
    return [s for s in SENTENCE_END.split(text.strip()) if s]


def instruction_lints(task: Task) -> list[str]:
    """What is wrong with a task's instruction and the facts it names; empty when it reads well."""
    text = task.instruction
    problems = []
    spoken = TITLE_NUMERAL.sub("", text)
    if first_person := FIRST_PERSON.search(spoken):
        problems.append(f"first person in the instruction: {first_person.group(0)!r}")
    repeated = REPEATED_IN_PARENTHESES.search(text)
    if repeated:
        problems.append(f"a name repeated in parentheses: {repeated.group(0)!r}")
    openings = Counter(opening(s) for s in sentences(text))
    alike = [o for o, n in openings.items() if n > 1]
    if alike:
        problems.append(f"sentences open alike: {alike[0]!r}")
    wishes = [s for s in sentences(text) if wish_on_wish(s)]
    if wishes:
        problems.append(f"a wish frame around a wish: {wishes[0]!r}")
    if known_ids(task.user_scenario) and any(p in text for p in NO_ID_PHRASES):
        problems.append("says the customer knows no ids after naming one")
    values = Counter(v for v in task.user_scenario.known_info.values() if _id_like(v))
    twice = [v for v, n in values.items() if n > 1]
    if twice:
        problems.append(f"one fact under two names: {twice[0]!r}")
    return problems
