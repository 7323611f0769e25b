"""Plain-word helpers shared by the readers of imported instructions and policies.

Words are compared by a crude stem (`stem`: "cancelled", "cancellation" and "cancels" → "cancel";
"bags", "baggage", "luggage" and "suitcases" → "bag"), and an action word names one of a few kinds
of change (`ACTION_OF`): what a customer asks for and what a write tool does, in the same terms.
"""

from __future__ import annotations

import re
from functools import lru_cache

_ACTION_WORDS = {
    "cancel": "cancel cancellation void annul",
    "change": "change modify modification update move switch replace reschedule postpone delay push "
    "upgrade downgrade edit alter swap shift rebook adjust",
    "add": "add book buy purchase create schedule register open include",
    "remove": "remove delete drop",
    "refund": "refund reimburse reimbursement",
    "compensate": "compensation compensate voucher gesture",
    "return": "return",
    "exchange": "exchange",
    "pay": "pay",
}
_SYNONYMS = {
    "bag": "bag baggage baggages luggage suitcase suitcases",
    "flight": "flight flights ticket tickets itinerary",
    "address": "address addresses",
    "item": "item items product products",
    "payment": "payment card",
}
_SUFFIXES = ("ations", "ation", "ings", "ing", "ies", "ied", "ed", "es", "s")
WORD = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?")


def wordset(text: str) -> frozenset[str]:
    """A set of words written as one string (word lists read better so)."""
    return frozenset(text.split())


STOP_WORDS = wordset(
    """a an the this that these those it its they them their there he she his her you your we our i my
    me us can cannot could may might must should shall will would be is are was were been being am do
    does did has have had not no nor never only also just even still already always all any each every
    some other others such same both either neither and or but if unless otherwise then so than as
    because since while when where which who whom whose what how why to of in on at for with within
    without by from into onto out up down over under about after before between per via through until
    upon id ids number try"""
)
"""Words that say nothing about what a change is about (ours)."""


@lru_cache(maxsize=8192)
def stem(word: str) -> str:
    """A crude stem: enough to tell that two forms of a word are the same word."""
    word = word.lower().replace("’", "'")
    for group, members in _SYNONYMS.items():
        if word in members.split():
            return group
    if not word.isalpha():
        return word
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    if word[-1] in "eyi" and len(word) > 3:
        word = word[:-1]  # "change" / "changes", "delay" / "delayed"
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiou":
        word = word[:-1]  # "cancell" -> "cancel"
    return word


ACTION_OF: dict[str, str] = {stem(w): kind for kind, words in _ACTION_WORDS.items() for w in words.split()}
"""Stem of an action word -> the kind of change it names."""


def words(text: str) -> list[str]:
    """The lower-case words of `text` (numbers included)."""
    return WORD.findall(text.lower().replace("’", "'"))


def stems(text: str) -> set[str]:
    return {stem(w) for w in words(text)}


def action(word: str) -> str | None:
    """The kind of change an action word names, or None."""
    return ACTION_OF.get(stem(word))


def actions(text: str) -> set[str]:
    return {kind for w in words(text) if (kind := action(w)) is not None}
