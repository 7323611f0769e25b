"""Refusals and sympathy read by meaning, not by the agent's exact words.

A refusal the policy requires is accepted when its reason states the rule that forbids the request:
each of the goal's `refusal_reason` phrases is a rule in a few words ("only pending orders", "already
shipped", "60-day dispute window"), and the agent's refusal states it when it holds the phrase, or
when it holds every content word of the phrase in any order and form ("we can only change orders
that are still pending", "the order has shipped already") with the phrase's negation, if it has one,
negated somewhere too ("not refundable" is not said by "it is refundable").

Sympathy is never a refusal: "I can't imagine how hard this is", "I can't thank you enough" hold
"can't" and refuse nothing; they acknowledge the customer. Nor is a check: "I checked this against
our policy" says what the agent did, not what it refuses.
"""

from __future__ import annotations

import re

from taue.simulator.facts import content_words, same_word
from taue.simulator.lexicon import meaning, phrase_meanings

SYMPATHY = re.compile(
    r"\b(?:i|we)\s+(?:can't|cannot|can not|could not|couldn't)\s+(?:even\s+)?"
    r"(?:imagine|begin to imagine|believe|thank you|stress|apologi[sz]e|wait|overstate|express)\b"
    r"|\b(?:i|we)\s+can only imagine\b"
)
"""Sympathy and emphasis that hold a refusal's words but refuse nothing."""
CHECKED_AGAINST = re.compile(
    r"\b(?:checked|verified|reviewed|compared|confirmed|looked at)\b[^.?!]{0,30}\bagainst (?:our|the) polic"
)
"""'I checked this against our policy': a step of the agent's work, not a refusal."""
EMPATHY_PHRASES = (
    "can't imagine",
    "cannot imagine",
    "can only imagine",
    "so sorry",
    "must be hard",
    "must be difficult",
    "must have been",
    "completely understand",
    "totally understand",
    "makes sense that",
    "i'm sorry to hear",
    "that's a lot",
)
"""Acknowledgements beyond `phrases.ACKNOWLEDGEMENTS`: the customer's feeling is heard."""
_NEGATIONS = frozenset(
    {"not", "no", "never", "cannot", "can't", "won't", "isn't", "aren't", "doesn't", "don't"}
)
_NEGATED = re.compile(r"\b(?:not|no|never|cannot|can't|won't|isn't|aren't|doesn't|don't|non|un\w+)\b|n't\b")


FAILURES = re.compile(
    r"\b(?:could not|was not able to|were not able to|did not go through|didn't go through|"
    r"was unsuccessful|were unsuccessful|not successful|failed to|went wrong)\b"
    r"(?! (?:find|locate|see|look|verify|identify|match|pull up))"
)
"""A report that the action failed ("the booking could not be made", "it didn't go through"); failing to
find something is a lookup's outcome, not a refusal."""


def without_sympathy(text: str) -> str:
    """The text less its sympathy and its checks, so that neither reads as a refusal."""
    return CHECKED_AGAINST.sub(" ", SYMPATHY.sub(" ", text))


SAME_STATE = (frozenset({"lost", "missing", "stolen"}), frozenset({"full", "booked", "unavailable"}))
"""Words that state the same condition of a record ("reported lost" is "reported missing")."""


def _said(word: str, said: list[str], meanings: set[str]) -> bool:
    """The word, a form of it, a verb of its class ("reactivated" ~ "switched back on") or a word of
    the same state."""
    if any(same_word(word, s) or word == s for s in said):
        return True
    if meaning(word).startswith("class:") and meaning(word) in meanings:
        return True
    return any(word in group and group & set(said) for group in SAME_STATE)


def states_rule(statement: str, reason: str) -> bool:
    """Whether a refusal states the rule `reason` names: every content word of the reason in any order
    and form, and a negation when the reason is negated."""
    text = statement.lower()
    wanted = [w for w in content_words(reason.lower()) if w not in _NEGATIONS]
    if not wanted:
        return False
    said = content_words(text)
    meanings = {meaning(s) for s in said} | phrase_meanings(re.findall(r"[a-z]+", text))
    if not all(_said(w, said, meanings) for w in wanted):
        return False
    negated = any(w in _NEGATIONS for w in re.findall(r"[a-z']+", reason.lower()))
    return not negated or bool(_NEGATED.search(text))
