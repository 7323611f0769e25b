"""Words as meanings: lemmas (lemminflect), identifiers in any spelling, and classes of verbs.

- `lemma("moved") == "move"`, `lemma("bags") == "bag"`: lemminflect's lookup tables and its rules for
  words outside them, so a report in any tense of any verb reads as that verb.
- `words_of("sendCertificate")`, `words_of("send_certificate")`, `words_of("send-certificate")` are
  all `["send", "certificate"]`: a tool named as it is spelled reads as its words.
- `VERB_CLASSES` groups verbs that mean the same change to a customer ("move", "transfer", "shift");
  `meaning(word)` is the class of a word (its lemma when it has none). `LOOKUP_VERBS` are the verbs of
  finding things out: "I've found your order" reports no change, and "Shall I look that up?" is no
  proposal to change anything.
"""

from __future__ import annotations

import itertools
import re
from functools import lru_cache

import lemminflect


def wordset(text: str) -> frozenset[str]:
    """A set of words written as one string (phrase banks read better so)."""
    return frozenset(text.split())


_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_WORDS = re.compile(r"[A-Za-z]+|\d+")

VERB_CLASSES: tuple[frozenset[str], ...] = tuple(
    frozenset(group.split())
    for group in (
        "change modify update amend edit alter adjust switch convert correct fix revise set manage",
        "cancel void terminate annul scrap revoke withdraw",
        "book reserve schedule arrange secure",
        "buy purchase order",
        "move transfer shift relocate reroute redirect reschedule rebook",
        "add include attach append insert enrol enroll register sign",
        "remove delete drop discard detach unregister",
        "send issue give grant provide credit award compensate offer mail email",
        "refund reimburse repay return",
        "pay settle charge bill debit",
        "freeze lock block suspend pause hold stop deactivate disable",
        "unfreeze unlock unblock reactivate resume restore enable activate reinstate",
        "report flag notify",
        "file submit lodge open raise create log dispute claim",
        "exchange swap replace trade substitute",
        "upgrade upsize",
        "downgrade",
        "redeem apply use spend",
        "request order",
        "note record document write annotate",
        "increase raise extend",
        "decrease lower reduce",
        "escalate prioritize prioritise expedite",
        "process complete finalize finalise execute initiate place handle fulfil fulfill",
    )
)
LOOKUP_VERBS = wordset(
    "find locate look check review see verify confirm pull retrieve fetch search identify "
    "authenticate access view read examine inspect gather query research calculate compute "
    "determine figure understand receive notice note_down know learn load scan bring"
)
"""Verbs of finding out, not changing: never a completion claim, never a proposal of a write."""
LIGHT_VERBS = wordset(
    "be have do make take go let help want need like would please try see get put keep give"
)
"""Verbs too general to say what a change is ("make", "do", "take care of")."""


@lru_cache(maxsize=65536)
def lemma(word: str) -> str:
    """The word's dictionary form: verbs first, then nouns, adjectives; itself when unknown."""
    word = word.lower()
    if not word.isalpha():
        return word
    found = lemminflect.getAllLemmas(word)
    for pos in ("VERB", "NOUN", "ADJ"):
        if pos in found:
            return found[pos][0]
    if len(word) > 4 and word.endswith("ed"):
        return lemminflect.getAllLemmasOOV(word, "VERB").get("VERB", (word,))[0]
    if len(word) > 4 and word.endswith("s"):
        return lemminflect.getAllLemmasOOV(word, "NOUN").get("NOUN", (word,))[0]
    return word


@lru_cache(maxsize=65536)
def is_past_form(word: str) -> bool:
    """`word` is the past tense or the past participle of a verb ("moved", "made", "unfrozen")."""
    word = word.lower()
    if not word.isalpha() or len(word) < 3:
        return False
    if word.startswith(PREFIXES) and len(word) > 6 and _past_of_a_verb(word[2:]):
        return True  # "unfrozen", "rebooked": a prefix on a verb's past form
    return _past_of_a_verb(word)


PREFIXES = ("un", "re")


def _past_of_a_verb(word: str) -> bool:
    lemmas = lemminflect.getAllLemmas(word).get("VERB") or ()
    if not lemmas and word.endswith(("ed", "en")) and len(word) > 4:
        lemmas = lemminflect.getAllLemmasOOV(word, "VERB").get("VERB", ())
    for base in lemmas:
        forms = {*lemminflect.getInflection(base, "VBD"), *lemminflect.getInflection(base, "VBN")}
        if word in forms and (base != word or len(word) <= 4):
            return True  # "put", "set", "cut": a participle spelled as the verb (short verbs only)
    return False


def words_of(text: str) -> list[str]:
    """The words of any spelling of a name: snake_case, camelCase, kebab-case or plain words."""
    parts = re.split(r"[_\-\s./]+", text)
    return [w.lower() for part in parts for w in _WORDS.findall(_CAMEL.sub(" ", part))]


_CLASS_OF: dict[str, int] = {word: index for index, group in enumerate(VERB_CLASSES) for word in group}


DERIVED = {
    "payment": "pay",
    "cancellation": "cancel",
    "registration": "register",
    "booking": "book",
    "transfer": "transfer",
    "removal": "remove",
    "addition": "add",
    "modification": "modify",
    "replacement": "replace",
    "submission": "submit",
    "purchase": "purchase",
    "renewal": "renew",
    "reactivation": "reactivate",
    "rescheduling": "reschedule",
    "enrollment": "enroll",
    "enrolment": "enrol",
    "withdrawal": "withdraw",
    "suspension": "suspend",
}
"""Nouns of a change and their verbs ("the cancellation of …" means cancelling)."""


@lru_cache(maxsize=65536)
def is_verb(word: str) -> bool:
    """The word can be a verb in its base form ("cancel", "unfreeze"; not "payment")."""
    word = word.lower()
    base = word[2:] if word.startswith(PREFIXES) and len(word) > 5 else word
    return any(w in lemminflect.getAllLemmas(w).get("VERB", ()) for w in (word, base))


def is_verb_form(word: str) -> bool:
    """The word is some form of a verb ("watching", "booked")."""
    return bool(lemminflect.getAllLemmas(word.lower()).get("VERB"))


@lru_cache(maxsize=65536)
def meaning(word: str) -> str:
    """A word's meaning key: its verb class when it has one, else its lemma."""
    base = DERIVED.get(word.lower(), lemma(word))
    if base == word.lower() and word.lower().startswith(PREFIXES) and lemma(word[2:]) != word[2:].lower():
        base = word[:2].lower() + lemma(word[2:])  # "unfroze" -> "unfreeze"
    for candidate in (word.lower(), base):
        if candidate in _CLASS_OF:
            return f"class:{_CLASS_OF[candidate]}"
    return base


PHRASAL = {
    ("call", "off"): "cancel",
    ("sign", "up"): "register",
    ("set", "up"): "book",
    ("send", "back"): "return",
    ("give", "back"): "refund",
    ("pay", "back"): "refund",
    ("take", "off"): "remove",
    ("push", "back"): "move",
    ("top", "up"): "add",
    ("switch", "over"): "switch",
    ("swap", "out"): "swap",
    ("cash", "in"): "redeem",
    ("switch", "on"): "activate",
    ("turn", "on"): "activate",
    ("back", "on"): "reactivate",
    ("switch", "off"): "deactivate",
    ("turn", "off"): "deactivate",
}
"""Phrasal verbs and the verb they mean ("call off the booking" cancels it)."""


CHANGE_FAMILY = ("change", "move", "swap", "upgrade", "downgrade", "increase", "decrease")
"""Verbs that all change something in place: a write named "modify" or "update" is proposed by any."""


def phrase_meanings(words: list[str]) -> set[str]:
    """The meanings of a run of words, phrasal verbs included ("called off" -> the cancel class); a
    verb of the change family also means "change" ("move the booking" changes it)."""
    found = {meaning(w) for w in words if len(w) > 1}
    for first, second in itertools.pairwise(words):
        verb = PHRASAL.get((lemma(first), second.lower()))
        if verb is not None:
            found.add(meaning(verb))
    if found & _FAMILY:
        found.add(meaning("change"))
    return found


_FAMILY = frozenset(meaning(word) for word in CHANGE_FAMILY)


def is_lookup(word: str) -> bool:
    return lemma(word) in LOOKUP_VERBS or word.lower() in LOOKUP_VERBS
