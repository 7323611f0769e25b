"""Which scenario facts a piece of agent text names.

A fact is named when the text's content words contain the fact's name (underscores as spaces, in
order) or one of its aliases (`FACT_ALIASES`: "reservation number" for `reservation_id`, "which card"
for `pay_with`, …). Words match when equal after dropping a final `s`, when one is a prefix of the
other and the shorter has at least 5 letters ("cancel" ↔ "cancellation"), or when they share a lemma
("bags" ↔ "baggage"). Of overlapping matches the longest wins; a fact the user knows beats one the
tools could find when both match the same words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from taue.simulator.lexicon import lemma

_STOP_WORDS_TEXT = (
    "a an the to of for my your you i me we us our in on at with and or is are was be been do does did "
    "what which how that this it its please would could can like want wish provide tell share give "
    "know let need have has may might will shall should there any some also just so from by as "
    "kindly confirm send specify i'll i'd you'd you're it's what's"
)
STOP_WORDS = frozenset(_STOP_WORDS_TEXT.split())
"""Words that never name a fact; dropped before fact names are matched."""

_PAYMENT: tuple[str, ...] = (
    "payment method",
    "which card",
    "which payment",
    "pay with",
    "how would you like to pay",
)
_PAYMENT += ("refund to", "refund method", "refunded to", "refund go", "gift card")
_REFUND = ("refund to", "refund go", "refund method", "refunded to", "which card", "payment method")
_REASON = ("reason", "why you want", "why do you want", "why would you like")
FACT_ALIASES: dict[str, tuple[str, ...]] = {
    "user_id": ("user id", "userid", "username", "user name", "account id"),
    "email": ("email", "e-mail", "email address", "e-mail address", "mail address"),
    "zip": ("zip", "zip code", "postal code", "postcode"),
    "zip_code": ("zip", "zip code", "postal code", "postcode"),
    "phone": ("phone", "phone number", "telephone", "mobile number"),
    "reservation_id": (
        "reservation id",
        "reservation number",
        "confirmation number",
        "booking reference",
        "booking number",
        "booking code",
        "confirmation code",
    ),
    "order_id": ("order id", "order number"),
    "payment_id": ("payment id", "payment method", "which card"),
    "payment_method_id": ("payment method", "payment id", "which card"),
    "pay_with": _PAYMENT,
    "pay_from": ("pay from", "which account", "payment method", "from which account"),
    "refund_to": _REFUND,
    "flight_number": ("flight number",),
    "item_ids": ("item id", "item ids"),
    "new_item_ids": ("new item id", "new item ids"),
    "product_id": ("product id",),
    "dob": ("date of birth", "birth date", "birthday", "dob"),
    "date_of_birth": ("date of birth", "birth date", "birthday", "dob"),
    "full_name": ("full name", "name", "first name", "last name", "first and last name", "name on"),
    "ssn_last_four": ("ssn", "social security", "last four"),
    "total_baggages": ("how many bags", "number of bags", "total bags", "total baggage", "checked bags"),
    "nonfree_baggages": ("non-free bags", "nonfree bags", "paid bags", "bags to pay for"),
    "cancel_reason": ("reason for cancel", "why you want to cancel", "why do you want to cancel", *_REASON),
    "cancel_because": ("reason for cancel", *_REASON),
    "refund_reason": ("reason for the refund", *_REASON),
    "dispute_reason": ("reason for the dispute", *_REASON),
    "reason": ("reason for", "why you want", "why do you want"),
    "first_name": ("first name", "given name", "name"),
    "last_name": ("last name", "surname", "family name", "name"),
    "passenger_name": ("passenger name", "passenger's name", "name of the passenger"),
    "student_number": ("student number", "student id"),
}
IDENTITY_FACTS = (
    "user_id",
    "email",
    "full_name",
    "first_name",
    "last_name",
    "zip",
    "zip_code",
    "phone",
    "date_of_birth",
    "dob",
    "ssn_last_four",
    "account_id",
    "customer_id",
    "bank_customer_id",
    "student_number",
    "lumen_account",
)
"""Facts that identify the customer: what the user offers when asked to identify itself."""

GENERIC_WORDS = frozenset({"id", "ids", "name", "number", "other", "new", "wanted", "preferred", "info"})
_WORD = re.compile(r"[a-z0-9']+")


def content_words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in STOP_WORDS]


@lru_cache(maxsize=65536)
def same_word(a: str, b: str) -> bool:
    a, b = a.rstrip("s") or a, b.rstrip("s") or b
    if a == b:
        return True
    short, long_ = sorted((a, b), key=len)
    if len(short) >= 5 and long_.startswith(short):
        return True
    return len(short) >= 3 and short.isalpha() and long_.isalpha() and lemma(a) == lemma(b)


OPTIONAL_WORDS = frozenset({"wanted", "wish", "new", "preferred", "desired", "other", "chosen"})
"""Words of a fact's name that an agent may leave out ("which game" asks for `game_wanted`)."""


def fact_phrases(name: str) -> list[list[str]]:
    """The content-word sequences that name fact `name`: its own name and its aliases, then its name
    without its optional words (a weaker match: see `facts_named`)."""
    return [*_full_phrases(name), *_core_phrases(name)]


def _full_phrases(name: str) -> list[list[str]]:
    phrases = [content_words(name.replace("_", " "))]
    phrases.extend(content_words(alias) for alias in FACT_ALIASES.get(name, ()))
    unique: list[list[str]] = []
    for phrase in phrases:
        if phrase and phrase not in unique:
            unique.append(phrase)
    return unique


@lru_cache(maxsize=4096)
def _core_phrases(name: str) -> list[list[str]]:
    own = content_words(name.replace("_", " "))
    core = [w for w in own if w not in OPTIONAL_WORDS]
    if core and core != own and not (len(core) == 1 and core[0] in GENERIC_WORDS):
        return [core]
    return []


def _spans(words: list[str], phrase: list[str]) -> Iterable[tuple[int, int]]:
    for start in range(len(words) - len(phrase) + 1):
        if all(same_word(words[start + i], part) for i, part in enumerate(phrase)):
            yield start, start + len(phrase)


def facts_named(text: str, fact_names: Iterable[str]) -> list[str]:
    """The facts a piece of text names. A match inside a longer match of another fact is dropped, and
    so is a match by a name without its optional words ("film" for `new_film`) where another fact's
    own name matches the same words ("film" for `film`), and a match by an alias where another fact's
    own name matches the same words ("student id" names `student_id`, not `student_number`, whose alias
    it is)."""
    return list(_facts_named(text, tuple(fact_names)))


@lru_cache(maxsize=8192)
def _facts_named(text: str, fact_names: tuple[str, ...]) -> tuple[str, ...]:
    """`facts_named`, cached: the reader asks it of the same sentence several times a turn."""
    words = content_words(text)
    matches = [
        (name, span, rank)
        for name in fact_names
        for rank, phrases in ((2, _own_phrases(name)), (1, _alias_phrases(name)), (0, _core_phrases(name)))
        for phrase in phrases
        for span in _spans(words, phrase)
    ]
    kept = [
        name
        for name, (start, end), rank in matches
        if not any(
            other != name
            and s <= start
            and end <= e
            and (
                (e - s) > (end - start)
                or ((e - s) == (end - start) and other_rank > rank)
                or (other_rank and not rank)
            )
            for other, (s, e), other_rank in matches
        )
    ]
    return tuple(dict.fromkeys(kept))


@lru_cache(maxsize=4096)
def _own_phrases(name: str) -> tuple[list[str], ...]:
    own = content_words(name.replace("_", " "))
    return (own,) if own else ()


@lru_cache(maxsize=4096)
def _alias_phrases(name: str) -> tuple[list[str], ...]:
    own = _own_phrases(name)
    return tuple(phrase for phrase in _full_phrases(name) if phrase not in own)


@dataclass
class FactBook:
    """The facts the scenario lets the user talk about: names, and the values the user could check."""

    names: list[str]
    values: dict[str, str] = field(default_factory=dict)
    known: frozenset[str] = frozenset()
    focus: str = ""
    """What the user is asking for right now (the current goal's request), to resolve vague questions."""


def best_guess(question: str, book: FactBook) -> str | None:
    """For a wh-question that names no fact ("Which trip?"): the known fact it most likely means.

    Candidates are known facts sharing a content word with the question (generic words aside);
    each scores the words it shares with the question plus those it shares with the user's current
    request (`book.focus`). The single best candidate wins; a tie means no guess.
    """
    words = set(content_words(question)) - GENERIC_WORDS
    focus = set(content_words(book.focus)) - GENERIC_WORDS
    scores: dict[str, int] = {}
    for name in (n for n in book.names if n in book.known):
        own = set(content_words(name.replace("_", " "))) - GENERIC_WORDS
        shared = sum(1 for w in own if any(same_word(w, q) for q in words))
        if shared:
            scores[name] = shared + sum(1 for w in own if any(same_word(w, f) for f in focus))
    if not scores:
        return None
    ranked = sorted(scores.values(), reverse=True)
    if len(ranked) > 1 and ranked[0] == ranked[1]:
        return None
    return max(scores, key=scores.__getitem__)


MAX_OPTION_WORDS = 4
"""An option of an "A or B" question is a few words; more make it a clause of its own."""


def choice(question: str, book: FactBook) -> tuple[str, str] | None:
    """For "…, A or B?": the option a known fact's value names, with that fact; None when no single
    option fits (or the question offers no options)."""
    if " or " not in question or re.search(r"\byes,? or no\b", question):
        return None  # "Please reply yes or no." chooses nothing
    options = [o.strip(" ?.!") for o in re.split(r",|\bor\b|:|\(|\)", question)]
    return known_option(options, book, start=1)


def known_option(options: list[str], book: FactBook, start: int = 0) -> tuple[str, str] | None:
    """The one option (from index `start`) a known fact's value names, with that fact."""
    scores: list[tuple[int, int, str]] = []
    for index, option in enumerate(options[start:], start=start):
        words = set(content_words(option)) - GENERIC_WORDS
        if len(words) > MAX_OPTION_WORDS:
            continue  # "…, or would you like to add a credit card to your profile first?" is a clause
        for name in sorted(book.known):
            value = set(content_words(book.values.get(name, ""))) - GENERIC_WORDS
            shared = sum(1 for w in words if any(same_word(w, v) for v in value))
            if shared:
                scores.append((shared, index, name))
    if not scores:
        return None
    best = max(score for score, _, _ in scores)
    winners = {(index, name) for score, index, name in scores if score == best}
    if len({index for index, _ in winners}) != 1:
        return None
    index, name = min(winners)
    return options[index], name


def fact_names(scenario) -> list[str]:
    """The scenario's fact names, known first: an unknown fact spelled like a discoverable one
    ("reservation id" beside `reservation_id`) is the same fact, named once."""
    names = list(dict.fromkeys([*sorted(scenario.known_info), *sorted(scenario.discoverable)]))
    labels = {n.replace("_", " ") for n in names}
    return names + [n for n in scenario.unknown_info if n.replace("_", " ") not in labels]
