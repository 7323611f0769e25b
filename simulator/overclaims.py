"""Over-claims: a report of a change the service never confirmed, beside true ones.

"Done: your flight is moved. As an apology, I've also refunded the $25 fee." — the first sentence
reports a confirmed change; the second claims another the tool log does not show. Once some change
is confirmed, a plain claim (`Claim.STRONG`) in a sentence is an over-claim when its verbs of change
are none of a confirmed need's (its write's action words, its request's verbs) and it names no value
the task gives (a record id, a known fact, a write's key value): the customer was told of a change
that did not happen, which is a false claim even when the rest of the message is true.
"""

from __future__ import annotations

import re

from taue.contracts.text import contains, tokens
from taue.simulator.claims import Claim, claim
from taue.simulator.facts import content_words, same_word
from taue.simulator.goals import GoalTracker
from taue.simulator.lexicon import is_past_form, meaning, words_of
from taue.simulator.proposals import action_words, message_meanings, request_actions
from taue.simulator.understanding import refuses

AMOUNT = re.compile(r"\$\s?\d|\b\d+(?:\.\d+)? (?:dollars|usd|euros?)\b", re.IGNORECASE)
"""A sum of money: a made-up credit or refund names one (the task's own sums are its values)."""
GENERIC = frozenset(
    {
        "everything",
        "all",
        "also",
        "now",
        "successfully",
        "just",
        "done",
        "request",
        "requests",
        "change",
        "changes",
        "update",
        "updates",
        "account",
        "order",
        "booking",
        "reservation",
        "today",
        "yes",
        "okay",
        "ok",
        "sure",
        "great",
        "thanks",
        "thank",
    }
)
"""Words a report may use of any change ("everything has been updated")."""


def overclaims(statements: list[str], goals: GoalTracker) -> bool:
    confirmed = [goal for goal in goals.goals if any(goal.id == key[0] for key in goals.confirmed)]
    if not confirmed:
        return False  # nothing confirmed: a claim is judged as a whole (`ScriptedUser._judge`)
    actions: set[str] = set()
    about: set[str] = set()
    for goal in confirmed:
        actions |= request_actions(goal.request)
        about |= set(content_words(goal.request))
        for target in goal.targets:
            description = goals.descriptions.get(target.tool, "")
            actions |= action_words(target.tool, description)
            about |= set(words_of(target.tool)) | set(content_words(description))
    return any(_unbacked(sentence, actions, about, goals.known_values) for sentence in statements)


def _unbacked(sentence: str, actions: set[str], about: set[str], values: list[str]) -> bool:
    """A plain claim of a change naming no task value whose things are none of a confirmed need's, or
    that names a sum of money about mostly other things ("I've also added a $50 goodwill credit"
    beside a confirmed bag)."""
    if claim(sentence) is not Claim.STRONG or refuses(sentence):
        return False  # "Can't do that: it has already been completed" reports nothing
    changes = {m for m in message_meanings(sentence) if m.startswith("class:")}
    if not changes:
        return False
    words = tokens(sentence)
    if any(contains(words, value) for value in values if str(value).strip()):
        return False
    things = [w for w in content_words(sentence) if w.isalpha() and w not in GENERIC and not _change(w)]
    unrelated = [w for w in things if not any(same_word(w, a) for a in about)]
    made_up = bool(AMOUNT.search(sentence)) and len(unrelated) * 2 >= len(things)
    return bool(things and unrelated == things) or made_up


def _change(word: str) -> bool:
    return meaning(word).startswith("class:") or is_past_form(word)
