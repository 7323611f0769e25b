"""The words service rules are written in, and the other words people use for them.

A refusal states its rule in the agent's words: "the cutoff to join has passed" for an "add deadline",
"that's off their rota" for "not on their schedule", "it's past the open stage" for "not pending". Most
of such words are in WordNet's commonest senses (`synonyms.py`), but not the ones service policies
use in a sense of their own: an open order is a pending one, a no-show is a missed booking, a
published price is a listed one. Each group below holds words and phrases that say the same thing of a
record or a rule in any domain's policy (never a task's own phrase); `OPPOSITES` pairs groups that say
each other's negation ("excluded" says "not covered"), and `NEGATING` holds the phrases that put a
record outside a state ("past the open stage", "off their rota", "no longer").

The groups are read only where a rule is compared with a refusal (`refusals.py`), so a broad word
("open", "leave") never changes how a question or a proposal is read.
"""

from __future__ import annotations

import re
from functools import lru_cache

from taue.simulator.lexicon import lemma

GROUPS: tuple[tuple[str, ...], ...] = (
    ("deadline", "cutoff", "cut-off", "closing date", "last day", "time limit", "due date"),
    ("schedule", "rota", "roster", "timetable", "calendar", "availability"),
    ("listed", "published", "advertised", "posted", "quoted", "displayed", "stated"),
    ("pending", "open", "outstanding", "unfulfilled", "unprocessed", "not yet shipped", "not yet processed"),
    ("order", "purchase"),
    ("price", "cost", "fare", "rate", "charge", "amount"),
    ("today", "current date", "present date", "this date", "same day"),
    ("add", "join", "enrol", "enroll", "register", "sign up", "take on"),
    ("withdraw", "withdrawal", "leave", "leaving", "drop out", "pull out", "unenrol", "unenroll"),
    ("cover", "include", "insure"),
    ("exclude", "leave out", "rule out"),
    (
        "no show",
        "missed booking",
        "missed reservation",
        "missed appointment",
        "did not show up",
        "did not turn up",
        "failed to show",
        "failed to turn up",
        "never showed",
        "never turned up",
    ),
)
"""Words and phrases of the same meaning in service rules; a phrase matches word by word, each word
in any form ("missed bookings", "the cut-off")."""
OPPOSITES: tuple[tuple[str, str], ...] = (("cover", "exclude"),)
"""Groups, named by their first term, that say each other's negation."""
NEGATING = re.compile(
    r"\b(?:past|beyond|outside|off)\s+(?:the|their|its|his|her|our|your|that|this)\b|\bno longer\b"
)
"""Phrases that put a record outside the state they precede: "past the open stage" is not pending,
"off their rota" is not on their schedule; "called off", "paid off" are verbs, not these."""

_WORD = re.compile(r"[a-z0-9]+")


def _words(phrase: str) -> tuple[str, ...]:
    return tuple(lemma(w) for w in _WORD.findall(phrase.lower().replace("-", " ")))


_GROUP_OF: dict[tuple[str, ...], int] = {_words(t): i for i, group in enumerate(GROUPS) for t in group}
_OPPOSITE_OF: dict[int, int] = {}
for _a, _b in OPPOSITES:
    _OPPOSITE_OF[_GROUP_OF[_words(_a)]] = _GROUP_OF[_words(_b)]
    _OPPOSITE_OF[_GROUP_OF[_words(_b)]] = _GROUP_OF[_words(_a)]


def group_of(phrase: str) -> int | None:
    """The group a word or phrase of a rule belongs to, by its words' lemmas."""
    return _GROUP_OF.get(_words(phrase))


@lru_cache(maxsize=4096)
def groups_in(text: str) -> frozenset[int]:
    """Every group one of whose terms the text holds, word by word in any form."""
    said = _words(text)
    found = set()
    for term, group in _GROUP_OF.items():
        n = len(term)
        if any(said[i : i + n] == term for i in range(len(said) - n + 1)):
            found.add(group)
    return frozenset(found)


def says_same(phrase: str, text: str) -> bool:
    """The text says the rule's word or phrase in another term of its group."""
    group = group_of(phrase)
    return group is not None and group in groups_in(text)


def says_phrase(rule: str, text: str) -> bool:
    """A rule of several words that is a term of a group ("no-show"), said by another of its terms
    ("a missed booking")."""
    return len(_words(rule)) > 1 and says_same(rule, text)


def says_opposite(phrase: str, text: str) -> bool:
    """The text says the rule's word by a term of the opposite group ("excluded" for "covered")."""
    group = group_of(phrase)
    return group is not None and _OPPOSITE_OF.get(group) in groups_in(text)
