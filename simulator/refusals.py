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

import enum
import itertools
import re
from dataclasses import dataclass

from taue.simulator import synonyms, terms
from taue.simulator.facts import content_words, same_word
from taue.simulator.lexicon import is_past_form, lemma, meaning, phrase_meanings, wordset

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
    {"not", "no", "non", "never", "cannot", "can't", "won't", "isn't", "aren't", "doesn't", "don't"}
)
_NEGATED = re.compile(
    r"\b(?:not|no|never|zero|none|nothing|without|cannot|can't|won't|isn't|aren't|doesn't|don't|non|un\w+)\b"
    r"|n't\b"
)


TRANSACTIONS = (
    r"(?:booking|reservation|purchase|appointment|transaction|payment|transfer|order|request|ticket|rental)s?"
)
RECORD_FAILED = (
    rf"{TRANSACTIONS} (?:(?:has|have) )?failed|"
    rf"{TRANSACTIONS} (?:was|were|is|are|has been|have been) not (?:made|done|completed|processed|placed)|"
    rf"{TRANSACTIONS} (?:then |just )?(?:does|did) not (?:work|go through)"
)
"""A transaction said to have failed ("your booking failed", "the purchase was not made")."""
FAILURES = re.compile(
    r"\b(?:could not|was not able to|were not able to|did not go through|didn't go through|"
    r"was unsuccessful|were unsuccessful|is unsuccessful|not successful|failed to|fail to|went wrong|"
    r"(?:have|has) not been able to|did not work|was not confirmed|were not confirmed|"
    r"there (?:was|were) (?:an? )?(?:issue|problem|error)s? (?:with |while |when )?\w+ing|"
    r"(?:is|are|was|were) (?:fully booked|sold out|full(?!-)|booked up)|"
    r"(?:'s|is|are|was|were) (?:not|no longer) available|"
    r"(?:isn't|aren't|wasn't|weren't) available|unavailable|"
    r"there (?:is|are|was|were) (?:no|not any) (?:\w+ ){0,2}"
    r"(?:available|openings?|availability|tickets|rooms|slots|spots)|"
    r"not pos{1,2}ible|couldnot|no can do|(?:is|are) not confirmed|"
    r"sorry,? (?:but )?(?:they|it|that|those) (?:is|are|was|were) (?:already |all )?booked|"
    r"(?:there's|there is|there was) nothing (?:\w+ )?available|"
    r"there (?:was|were) (?:an? )?(?:issue|problem|error)s?(?= *(?:[.!;,]|$))|" + RECORD_FAILED + r")\b"
    r"(?! (?:find|locate|see|look|verify|identify|match|pull up))"
)
"""A report that the action failed ("the booking could not be made", "it didn't go through"); failing to
find something is a lookup's outcome, not a refusal."""


FOUND_NOTHING = re.compile(
    r"\b(?:could not|was not able to|were not able to|did not|have not|has not|cannot|unable to)"
    r" (?:find|found|locate|see) (?:any|anything|anyone|another|other|more|a|an)\b|"
    r"(?<!if )(?<!whether )\bthere(?:'s| is| are| was| were) (?:no|nothing|no one|nobody|not any) ?"
    r"(?:else|other|others|more|further)\b|"
    r"\b(?:that|this|it) (?:is|was) the only (?:\w+ ){0,3}(?:event|one|option|result|match|movie|show|"
    r"film|place|restaurant|hotel|house|flat|apartment|doctor|dentist|stylist|salon|flight|bus|train|car|"
    r"room|attraction|song|ticket)s?\b"
)
"""A search that came back empty ("I couldn't find any other flights", "there is nothing else", "that
is the only one on that date"): the outcome of a lookup, which the user reads apart from a refusal
(nothing it asked for was refused: there is simply nothing more to offer)."""


def without_sympathy(text: str) -> str:
    """The text less its sympathy and its checks, so that neither reads as a refusal."""
    return CHECKED_AGAINST.sub(" ", SYMPATHY.sub(" ", text))


SAME_STATE = (frozenset({"lost", "missing", "stolen"}), frozenset({"full", "booked", "unavailable"}))
"""Words that state the same condition of a record ("reported lost" is "reported missing")."""
PRIOR = frozenset({"already", "previously", "before", "earlier", "prior"})
"""Adverbs of a state reached before now (a closed class): "already paused" is said by "previously on
hold", and by a past form of the word it qualifies ("it has been paused"), never by "one pause"."""
BOUNDS = wordset(
    "above below over under beyond within older younger more less fewer least most plus maximum "
    "minimum max min limit cap up exceed exceeds higher lower greater"
)
"""Words that make a number a limit ("65 or older", "65-plus", "under 65", "at most 8"): a closed
class, like the negations. A rule's limit is its number with any of them, in either direction ("the
plan is not for anyone under 65" states "65 or older")."""
_THOUSANDS = re.compile(r"\b(\d+)\s*(thousand|k)\b")
_GROUPED = re.compile(r"\b(\d{1,3}),(\d{3})\b")
_POSSESSIVE = re.compile(r"'s\b")


class Said(enum.Enum):
    """How a statement says one word of a rule: as itself (a form, a synonym) or by its opposite."""

    SAME = "same"
    OPPOSITE = "opposite"


def _plain(text: str) -> str:
    """Lower case, numbers written one way ("3 thousand", "3,000" -> "3000"), possessives dropped."""
    text = _GROUPED.sub(r"\1\2", text.lower())
    text = _THOUSANDS.sub(lambda m: str(int(m.group(1)) * 1000), text)
    return _POSSESSIVE.sub("", text)


@dataclass(frozen=True)
class Statement:
    """A refusal's words as the reader compares them: all its words, its content words, their lemmas
    and their meanings."""

    tokens: list[str]
    said: list[str]
    forms: frozenset[str]
    meanings: frozenset[str]
    text: str

    @classmethod
    def of(cls, text: str) -> Statement:
        said = content_words(text)
        forms = frozenset(said) | {lemma(s) for s in said}
        meanings = {meaning(s) for s in said} | phrase_meanings(re.findall(r"[a-z]+", text))
        return cls(re.findall(r"[a-z0-9']+", text), said, forms, frozenset(meanings), text)


def _same(word: str, statement: Statement) -> bool:
    """The word, a form of it, a verb of its class ("reactivated" ~ "switched back on"), a word of the
    same state, a WordNet synonym of it ("biggest" ~ "largest", "finished" ~ "completed"), or a term
    of the same meaning in service rules ("cutoff" ~ "deadline", `terms.py`)."""
    said = statement.said
    if any(same_word(word, s) or word == s for s in said):
        return True
    if meaning(word).startswith("class:") and meaning(word) in statement.meanings:
        return True
    if any(word in group and group & set(said) for group in SAME_STATE):
        return True
    return bool(_words_like(word).same & statement.forms) or terms.says_same(word, statement.text)


def _words_like(word: str) -> synonyms.Meanings:
    """WordNet's words for `word` as written (`synonyms.py` merges its lemma's), else for its lemma."""
    found = synonyms.meanings(word)
    return found if found is not synonyms.NOTHING else synonyms.meanings(lemma(word))


def _how_said(word: str, statement: Statement, numbers: set[str]) -> Said | None:
    """Whether and how the statement says one content word of the rule."""
    if _same(word, statement):
        return Said.SAME
    if word in BOUNDS and numbers and numbers <= statement.forms and BOUNDS & statement.forms:
        return Said.SAME  # the same number, bounded: the same limit
    if _words_like(word).opposite & statement.forms or terms.says_opposite(word, statement.text):
        return Said.OPPOSITE  # "inactive" says "not active", "excluded" says "not covered"
    return None


AUXILIARIES = frozenset({"has", "have", "had", "was", "were", "is", "are", "been", "it's", "that's"})
"""Words before a past participle that make it a state reached ("has shipped", "was completed"); after
"can't be" or "first" it is no state ("can't be taken off", "the method first used")."""


def _said_before(word: str, statement: Statement) -> bool:
    """'already WORD': an adverb of a prior state, or WORD said as a state reached ("was completed")."""
    if PRIOR & statement.forms:
        return True
    tokens = statement.tokens
    return any(
        is_past_form(t) and before in AUXILIARIES and _same(word, Statement.of(t))
        for before, t in itertools.pairwise(tokens)
    )


_CLAUSE = re.compile(r"[.;:!?\n]|\b(?:because|since|but)\b")
NEGATION_SCOPE = 4
"""Words a negation reaches forward: "isn't available", "does not have that slot free"; not "that's
not possible, our policy is very clear" ("clear" is no "not free")."""


def _negated_near(text: str, wanted: list[str], numbers: set[str]) -> bool:
    """A negation just before a word that says the rule, in its clause: in "I can't do that: the
    price is listed" the negation refuses, it says no "not listed"."""
    for clause in _CLAUSE.split(text):
        clause = terms.NEGATING.sub(" not ", clause)  # "past the open stage": not open
        tokens = re.findall(r"[a-z0-9']+", clause)
        negations = [i for i, t in enumerate(tokens) if _NEGATED.fullmatch(t)]
        for i in range(len(tokens)):
            near = any(i - NEGATION_SCOPE <= j < i for j in negations)
            here = Statement.of(" ".join(tokens[i : i + 2]))  # a phrasal verb: "taken off"
            if near and any(_how_said(w, here, numbers) for w in wanted):
                return True
    return False


def _states_all(text: str, rule: str) -> bool:
    """Every content word of the rule said, "already" by a prior state, and the rule's negation."""
    words = content_words(rule)
    wanted = [w for w in words if w not in _NEGATIONS and w not in PRIOR]
    if not wanted:
        return False
    numbers = {w for w in wanted if w.isdigit()}
    said = Statement.of(text)
    found = [_how_said(w, said, numbers) for w in wanted]
    if None in found:
        return False
    after = [words[i + 1] for i, w in enumerate(words[:-1]) if w in PRIOR and words[i + 1] in wanted]
    if not all(_said_before(w, said) for w in after):
        return False
    negated = any(w in _NEGATIONS for w in re.findall(r"[a-z']+", rule))
    opposites = found.count(Said.OPPOSITE) % 2 == 1
    return negated == opposites or _negated_near(text, wanted, numbers)


_LIST = re.compile(r"\s*,\s*(?:or\s+)?|\s+or\s+")


def _states_most_options(text: str, rule: str) -> bool:
    """A rule that lists options ("credit card or bank transfer") is stated by a refusal that lists
    as many options itself, at least half of them the rule's ("a card or a wire"): the options are
    the rule's key content, and one of them said in words no lexicon holds ("wire" for a bank
    transfer) does not hide the rule. A single option named ("your card") lists nothing and states no
    rule."""
    options = [o for o in _LIST.split(rule) if o.strip()]
    if " or " not in f" {rule} " or len(options) < 2 or any(_bound_or_number(o) for o in options):
        return False
    for clause in _CLAUSE.split(text):
        offered = [o for o in _LIST.split(clause) if content_words(o)]
        if " or " in clause and len(offered) == len(options):
            named = sum(any(_names_option(said, o) for said in offered) for o in options)
            if 2 * named >= len(options):
                return True
    return False


def _names_option(said: str, option: str) -> bool:
    """An option of a list is named by its words or by its head, the last one ("a card" names
    "credit card" among the options of a list)."""
    words = content_words(option)
    return _states_all(said, option) or (bool(words) and _states_all(said, words[-1]))


def _bound_or_number(option: str) -> bool:
    """'65 or older' is a limit, not two options."""
    return all(w.isdigit() or w in BOUNDS for w in content_words(option))


def states_rule(statement: str, reason: str) -> bool:
    """Whether a refusal states the rule `reason` names: every content word of the reason in any order
    and form or by a word of the same meaning (WordNet, `synonyms.py`), "already" by a prior state,
    and a negation beside the rule's words when the reason is negated (a word said by its opposite
    carries the negation); or, for a rule that lists options, most of them in a list as long."""
    text, rule = _plain(statement), _plain(reason)
    return _states_all(text, rule) or _states_most_options(text, rule) or terms.says_phrase(rule, text)
