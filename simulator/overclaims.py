"""Over-claims: a report of a change the service never confirmed, beside true ones.

"Done: your flight is moved. As an apology, I've also refunded the $25 fee." — the first sentence
reports a confirmed change; the second claims another that no confirmation shows. The user knows a
confirmed write by its confirmation (tool and arguments, `Notification`) and by the service's
description of its tool, never by its output. Once some change is confirmed, a plain claim
(`Claim.STRONG`) that names no value the task gives (a record id, a known fact, a write's key value) is
an over-claim when

- it is a **gesture** of money ("as an apology, I've refunded the fee", "a $50 goodwill credit for
  the trouble") and no confirmed write gives one (`send_certificate`): a cancellation's refund is the
  cancellation's rule, not an apology;
- its **kind** of change is none a confirmed write makes (`Write`): "I've also upgraded your
  membership" beside a loan payment, or beside a membership *cancellation* (a write's arguments say
  which of its tool's changes it made). Only a verb of a specific kind reports one ("updated",
  "processed" name none), and any verb or noun of change in the sentence that a write makes backs it
  ("a refund has been issued" beside a cancellation that refunds);
- its **things** are none of a confirmed need's (its request's words, its write's name and
  description), or it names a sum of money about mostly other things, unless it moves money the way
  a confirmed write does ("a refund of $178 has been issued to your Visa" beside a cancellation).

A sum the service computed (a refund's amount, a fare difference) is in the write's result, which the
confirmation carries (`Notification.output`): a report of the write's own money that names a sum the
confirmation does not state ("I've refunded $25" when it was $178) is an over-claim; one repeating,
totalling or rounding it is not (`simulator/sums.py`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from taue.contracts.tasks import Goal, Target
from taue.contracts.text import contains, tokens
from taue.simulator.claims import Claim, claim
from taue.simulator.facts import content_words, same_word
from taue.simulator.goals import GoalTracker
from taue.simulator.lexicon import CHANGE_FAMILY, is_past_form, is_verb, meaning, words_of
from taue.simulator.proposals import action_words, message_meanings, request_actions
from taue.simulator.statements import refuses
from taue.simulator.sums import stated, sums_named

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
CHANGE = meaning("change")
GENERIC_KINDS = frozenset({CHANGE, meaning("process")})
"""Kinds any write may be reported in ("updated", "processed", "completed"): they name no kind."""
FAMILY = frozenset(meaning(word) for word in CHANGE_FAMILY)
"""Kinds that change something in place: a write named "modify" or "update" may be reported by any
("your flight has been moved" for `update_reservation_flights`)."""
GIVE = meaning("credit")
"""Giving the customer something: a credit, a certificate, compensation (`send_certificate`)."""
MONEY = frozenset({meaning("refund"), meaning("pay")})
"""Money moved by a write's own rule: a cancellation's refund, a purchase's charge."""
INSTRUMENTS = re.compile(
    r"\b(?:credit|debit|gift|bank)\s+cards?\b|\bpayment\s+(?:methods?|ids?|cards?)\b|\bcredit\s+balance\b",
    re.IGNORECASE,
)
"""Where money goes, not a change: "refunded to your credit card" credits nothing, "your original
payment method" pays nothing."""
GESTURE = re.compile(
    r"\b(?:as an? (?:apology|courtesy|goodwill gesture|gesture of goodwill|token of)|goodwill|"
    r"as compensation|to compensate|to make up for)\b",
    re.IGNORECASE,
)
"""A change made as a gesture ("as an apology, I've also refunded the fee", "a goodwill credit")."""
FOR_THE_TROUBLE = re.compile(r"\bfor (?:the|your|this|any) (?:trouble|inconvenience|wait|delay)\b", re.I)
APOLOGY = re.compile(r"\b(?:sorry|apologi[sz]e|apologies|regret)\b", re.IGNORECASE)
""""… a credit for the trouble" is a gesture; "I'm sorry for the trouble" is an apology."""
_ONE_WORD = re.compile(r"[A-Za-z]+")
OUTPUT_DOC = re.compile(r"\bReturns?\b[^.]*\.?")
"""A description's sentence about what the tool answers ("Returns the new ticket id."): it returns
nothing to the customer, so it names no change (no refund)."""


@dataclass(frozen=True)
class Write:
    """A confirmed write as the user knows it: the kinds of change it makes and what it is about."""

    kinds: frozenset[str]
    """The verb classes of its request, and of its arguments when they say which change it made
    (`new_plan: cancel`), else of its name and description (all it may do)."""
    things: frozenset[str]
    """The words of its tool's name and its request."""
    in_place: bool
    """It changes something in place ("modify", "update"): a verb of the change family may report it."""
    gives: bool
    """Giving is what it does (its name or its description's first sentence): a gesture's write."""
    sums: frozenset[float] = frozenset()
    """The numbers its confirmation states (arguments and result)."""
    choices: frozenset[str] = frozenset()
    """Its one-word arguments (`new_plan: plus`): the choice it made among its tool's."""


def overclaims(statements: list[str], goals: GoalTracker) -> bool:
    """Whether a statement of a completion report claims a change the confirmed writes do not back."""
    confirmed = [goal for goal in goals.goals if any(goal.id == key[0] for key in goals.confirmed)]
    if not confirmed:
        return False  # nothing confirmed: a claim is judged as a whole (`ScriptedUser._judge`)
    about: set[str] = set()
    for goal in confirmed:
        about |= set(content_words(goal.request))
        for target in goal.targets:
            description = goals.descriptions.get(target.tool, "")
            about |= set(words_of(target.tool)) | set(content_words(description))
    writes = confirmed_writes(goals)
    return any(_unbacked(sentence, writes, about, goals.known_values) for sentence in statements)


def confirmed_writes(goals: GoalTracker) -> list[Write]:
    """Every target a confirmation matched, as a `Write`."""
    return [
        replace(
            write_of(goal, target, goals.descriptions.get(target.tool, "")),
            sums=goals.sums.get((goal.id, index), frozenset()),
        )
        for goal in goals.goals
        for index, target in enumerate(goal.targets)
        if (goal.id, index) in goals.confirmed
    ]


def write_of(goal: Goal, target: Target, description: str) -> Write:
    """The write as the user knows it. An argument that names a change (`new_plan: cancel`) says which
    of the tool's changes this one was: a description lists them all ("change a tier or cancel it;
    an upgrade adds 2 credits")."""
    text = INSTRUMENTS.sub(" ", OUTPUT_DOC.sub(" ", description))
    named = _kinds(action_words(INSTRUMENTS.sub(" ", " ".join(words_of(target.tool))), text))
    done = _argument_kinds(target) or named | _kinds(message_meanings(text))
    return Write(
        kinds=frozenset(request_actions(goal.request) | done),
        things=frozenset(w for w in [*words_of(target.tool), *content_words(goal.request)] if _thing(w)),
        in_place=CHANGE in done,
        gives=GIVE in named,
        choices=frozenset(
            v.lower() for v in target.arguments.values() if isinstance(v, str) and _ONE_WORD.fullmatch(v)
        ),
    )


def _argument_kinds(target: Target) -> frozenset[str]:
    """The verb classes of the target's one-word values, a choice among the tool's changes
    (`new_plan: cancel`); an id or a card ("credit_card_7334") names a record, and a phrase
    ("ordered by mistake") gives a reason, not the change."""
    values = [v for v in target.arguments.values() if isinstance(v, str) and _ONE_WORD.fullmatch(v)]
    return _kinds(meaning(value) for value in values) - GENERIC_KINDS


def _kinds(meanings: Iterable[str]) -> frozenset[str]:
    """The verb classes among meanings (a noun's meaning is its lemma)."""
    return frozenset(m for m in meanings if m.startswith("class:"))


def _unbacked(sentence: str, writes: list[Write], about: set[str], values: list[str]) -> bool:
    """A plain claim of a change naming no task value that no confirmed write backs: a gesture no
    write gives, a kind of change no write makes, or things none of a confirmed need's (a sum of money
    about mostly other things included). Money moved the way a confirmed write moves it ("a refund of
    $178 has been issued to your Visa" beside a cancellation that refunds) is that write's report."""
    if claim(sentence) is not Claim.STRONG or refuses(sentence):
        return False  # "Can't do that: it has already been completed" reports nothing
    changes = _kinds(message_meanings(INSTRUMENTS.sub(" ", sentence)))
    if not changes:
        return False
    moving = [write for write in writes if changes & MONEY & write.kinds]
    if _wrong_sum(sentence, moving):
        return True  # the write's own money, named with a sum its confirmation does not state
    words = tokens(sentence)
    if any(contains(words, value) for value in values if str(value).strip()):
        return False
    things = [w for w in content_words(sentence) if w.isalpha() and w not in GENERIC and not _change(w)]
    if _gesture(sentence) and not _given(changes, writes):
        return True
    if _unmade_kind(sentence, changes, things, writes):
        return True
    if moving:
        return False  # the write's own money, its sum (if any) among those its confirmation states
    unrelated = [w for w in things if not any(same_word(w, a) for a in about)]
    made_up = bool(AMOUNT.search(sentence)) and len(unrelated) * 2 >= len(things)
    return bool(things and unrelated == things) or made_up


def _wrong_sum(sentence: str, writes: list[Write]) -> bool:
    """A sum named for money a confirmed write moved that its confirmation does not state ("I've
    refunded $25" when the cancellation refunded $178); a confirmation without numbers accuses none."""
    numbers = [n for write in writes for n in write.sums]
    return bool(numbers) and any(not stated(amount, numbers) for amount in sums_named(sentence))


def _gesture(sentence: str) -> bool:
    """The change is made as a gesture, not as a need's consequence (`_given`)."""
    trouble = FOR_THE_TROUBLE.search(sentence)
    apology = trouble is not None and APOLOGY.search(sentence, 0, trouble.start()) is not None
    return GESTURE.search(sentence) is not None or (trouble is not None and not apology)


def _given(changes: frozenset[str], writes: list[Write]) -> bool:
    """A gesture of money ("refunded the fee", "a goodwill credit") is backed only by a write that gives
    and makes that kind (`send_certificate` for "I've issued a $50 certificate"); a gesture of another
    kind ("to make up for the delay, I've moved you to an earlier flight") is judged as any claim."""
    money = changes & (MONEY | {GIVE})
    return not money or any(write.gives and money & write.kinds for write in writes)


def _unmade_kind(sentence: str, changes: frozenset[str], things: list[str], writes: list[Write]) -> bool:
    """The sentence reports a specific kind of change ("upgraded", "credited") and none of its verbs
    or nouns of change is a kind a confirmed write makes, nor is it a change in place of what a
    confirmed write of that sort is about ("moved your flight" for `update_reservation_flights`)."""
    reported = _reported_kinds(sentence)
    if not reported:
        return False
    specific = changes - GENERIC_KINDS
    for write in writes:
        if specific & write.kinds and not _another_choice(sentence, write):
            return False  # "upgraded your membership to premium" beside an upgrade to Plus is not it
        if write.in_place and reported <= FAMILY and _about(things, write):
            return False
    return True


CHANGED_TO = re.compile(r"\bto (?:the )?([a-z]+)\b", re.IGNORECASE)
NOT_CHOICES = frozenset({"your", "you", "my", "our", "their", "his", "her", "its", "a", "an", "this", "that"})


def _another_choice(sentence: str, write: Write) -> bool:
    """ "I've upgraded your membership to premium" beside an upgrade to Plus (`new_plan: plus`): the
    change said is to a choice the write did not make."""
    if not write.choices:
        return False
    targets = map(str.lower, CHANGED_TO.findall(sentence))
    said = [w for w in targets if w not in NOT_CHOICES and not is_verb(w)]
    return bool(said) and not any(w in write.choices for w in said)


def _reported_kinds(sentence: str) -> frozenset[str]:
    """The specific kinds of the sentence's past forms of verbs of change ("upgraded" -> upgrade);
    "updated", "processed" name no kind."""
    return _kinds(meaning(w) for w in words_of(sentence) if is_past_form(w)) - GENERIC_KINDS


def _named_things(things: list[str]) -> list[str]:
    return [thing for thing in things if _thing(thing)]


def _about(things: list[str], write: Write) -> bool:
    """At least half the sentence's things are the write's ("your Florence rental has been moved"; a
    "premium" in both is not enough for "your membership is upgraded to premium")."""
    named = _named_things(things)
    related = [thing for thing in named if any(same_word(thing, word) for word in write.things)]
    return bool(related) and len(related) * 2 >= len(named)


def _thing(word: str) -> bool:
    return word.isalpha() and len(word) > 2 and word not in GENERIC and not _change(word)


def _change(word: str) -> bool:
    return meaning(word).startswith("class:") or is_past_form(word)
