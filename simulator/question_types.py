"""What kind of fact a question asks for when it names none: "Where …?", "When …?", "How many …?".

Agents often ask by the kind of answer, not by the fact's name: "What city are you in?" for
`location`, "When would you like to go?" for `date`, "How many people?" for `number_of_seats`. A
question whose words name no fact is matched, for each kind it asks ("when and where …?" asks two), to
the known facts whose names carry that kind's words (`KINDS`), those the need in progress speaks of
(`FactBook.focus`) first; of several, the names that say the kind most, then the first rule that
leaves one decides: the words the question shares with a name ("pick it up" for `pickup_date`), the
end of a trip it means ("from", "leaving" for an origin; "to", "going" for a destination), then the
need in progress. A tie names none.

A question may also name its fact by the noun it asks about: "Do you have a preferred restaurant?",
"Any particular event?", "What city …?" ask for the fact whose name begins with that noun
(`restaurant_name`, `event_name`, `city_of_event`), the same rules breaking a tie.
"""

from __future__ import annotations

import re

from taue.simulator.facts import FactBook, content_words, same_word
from taue.simulator.phrases import AUXILIARIES, MONTH_DAY, PREFERENCE_QUESTION, WH_WORDS, WORD

PLACE_WORDS = "city location area place destination origin town"
KINDS: tuple[tuple[re.Pattern[str], frozenset[str]], ...] = tuple(
    (re.compile(pattern), frozenset(words.split()))
    for pattern, words in (
        (
            r"\bwhere\b(?![^?]*\b(?:money|funds)\b)"
            r"|\b(?:which|what) (?:city|town|area|place|location|destination|metropolis|branch)\b"
            r"|\b(?:city|town|area|location|destination|place|metropolis)\b",
            PLACE_WORDS,
        ),
        (r"\baddress\b", "address street"),
        (r"\bstation\b", "station"),
        (r"\bwhat time\b|\bwhich time\b|\bat what\b|\btime\b", "time hour"),
        (r"\bwhen\b|\bwhat (?:date|day)\b|\bwhich (?:date|day)\b|\bdates?\b|\bday\b", "date day"),
        (
            r"\bhow many\b|\b(?:number|quantity) of\b|\bamount of (?!money|funds|cash|credit)"
            r"|\bfor how many\b|\bparty\b|\bwhat quantity\b",
            "numberof count seats people persons travelers travellers passengers tickets rooms beds guests "
            "riders quantity size group",
        ),
        (r"\bhow much\b|\bamount\b", "amount price cost balance sum"),
        (
            r"\bwho\b|\bwhom\b|\bwhose\b|\bwhere\b(?=[^?]*\b(?:money|funds)\b)",
            "name recipient person contact",
        ),
        (r"\bhow long\b|\bhow many (?:days|nights)\b|\bduration\b", "length duration stay days nights"),
        (
            r"\b(?:what|which) (?:kind|type|sort|genre|style|category)\b"
            r"|\b(?:kind|type|genre|category|cuisine|food)\b|\bwhat (?:\w+ ){0,4}eat\b",
            "type kind genre category subcategory cuisine style",
        ),
    )
)
KIND_REACH = 50
"""How far into a question the words of a kind of answer ask for it."""
ORIGIN = re.compile(r"\b(?:from|leaving|leave|depart\w*|pick ?up|start\w*|origin|located|out of)\b")
DESTINATION = re.compile(
    r"\b(?:headed|heading|arriv\w*|destination|drop ?off|visit\w*|where to|to)\b(?! from\b)"
)
TRAVEL = re.compile(r"\b(?:go|going|travel\w*|fly\w*(?! out\b))\b")
"""Verbs of going that name the destination unless the question says where from."""
HOW_LONG = re.compile(r"\bhow long\b|\b(?:until|till) when\b")
CLAUSE = re.compile(r"(?:,? and|[,;]) (?=(?:what|where|when|which|who|how)\b)")
"""Where a question asking several things starts its next one ("…, and what city …?")."""
_ORIGIN_WORDS = frozenset(["origin", "from", "departure", "pickup", "start", "leaving", "source"])
_DESTINATION_WORDS = frozenset(["destination", "to", "arrival", "dropoff", "end", "going"])
START = re.compile(
    r"\b(?:leav\w*|depart\w*|travel\w*|go|going|fly\w*|check ?in|pick\w* (?:\w+ )?up|pickup|get it|"
    r"start\w*|begin\w*|outbound|from)\b"
)
END = re.compile(r"\b(?:return\w*|back|drop\w* (?:\w+ )?off|dropoff|check ?out|until|till|end\w*|inbound)\b")
ASKS_WHEN = re.compile(r"\bwhen\b|\b(?:what|which) (?:date|day)\b")
"""A question that asks when (a value put to the user, "… today?", asks nothing)."""
_START_WORDS = frozenset(["departure", "leaving", "pickup", "check", "start", "outbound", "visit", "in"])
_END_WORDS = frozenset(["return", "dropoff", "out", "end", "inbound"])
_WHEN_WORDS = frozenset(["date", "day", "time", "hour"])
HEAD_NOUN = re.compile(
    r"\b(?:which|what|any|preferred|particular|specific|favou?rite|certain)"
    r"(?: (?:specific|particular|preferred|favou?rite))? ([a-z]+)"
)
NOT_HEADS = frozenset(
    {"is", "are", "was", "do", "does", "did", "would", "will", "can", "should", "you", "of"}
)


def typed_facts(question: str, book: FactBook) -> list[str]:
    """The known facts the question's kinds of answer name (at most one a kind; none on a tie). Only
    facts the user knows: a kind of answer it could only look up stays a question it cannot place."""
    found: list[str] = []
    for clause in CLAUSE.split(question):
        found += [name for name in _clause_facts(clause, book) if name not in found]
    return found


def _clause_facts(question: str, book: FactBook) -> list[str]:
    found: list[str] = []
    for pattern, words in KINDS:
        asked = pattern.search(question)
        if asked is None or asked.start() > KIND_REACH:
            continue  # "…The Man Who Knew Too Much?": a title's "who" asks nothing
        kind = [name for name in book.names if name in book.known and words & set(_parts(name))]
        kind = (
            _wholly_in_focus(kind, book) or _in_focus(question, kind, book) or kind
        )  # the need's own "where"
        found += [name for name in _ones_of(question, _most_kind(kind, words), book) if name not in found]
    if BARE_WHEN.search(question):
        found += [twin for name in found if (twin := _time_twin(name, book)) and twin not in found]
    if not found and HOW_LONG.search(question):
        ends = [n for n in book.names if n in book.known and _END_WORDS & set(_parts(n)) and _when(n)]
        chosen = _one_of(question, ends, book)  # "How long do you need the car?": until when
        found += [chosen] if chosen else []
    return found


BARE_WHEN = re.compile(r"^(?:(?!\b(?:date|day|time|hour)\b).)*\bwhen\b(?!.*\b(?:date|day|time|hour)\b)")
"""'When …?' naming neither a date nor a time: it asks for both ("When would you like to dine?")."""


def _time_twin(name: str, book: FactBook) -> str | None:
    """The time fact of a date fact's event (`pickup_time` of `pickup_date`, `time` of `date`)."""
    parts = name.split("_")
    if "date" not in parts:
        return None
    twin = "_".join("time" if part == "date" else part for part in parts)
    return twin if twin in book.known else None


def _when(name: str) -> bool:
    return bool(_WHEN_WORDS & set(_parts(name)))


VALUE_KINDS: tuple[tuple[re.Pattern[str], frozenset[str]], ...] = tuple(
    (re.compile(pattern), frozenset(words.split()))
    for pattern, words in (
        (
            MONTH_DAY + r"|\b(?:today|tomorrow)\b|\b\d{4}-\d\d-\d\d\b",
            "date day",
        ),
        (r"\b\d{1,2}(?::\d\d)? ?(?:am|pm)\b", "time hour"),
        (r"\$\s?\d", "amount price cost sum"),
    )
)
"""Values by their kind: a date, a time of day, a sum of money."""


def value_facts(question: str, book: FactBook) -> list[str]:
    """ "Would you like to check in on May 12?": the known fact of the kind of value the question puts
    to the user (at most one; none on a tie)."""
    for pattern, words in VALUE_KINDS:
        if pattern.search(question):
            kind = [name for name in book.names if name in book.known and words & set(_parts(name))]
            chosen = _one_of(question, _most_kind(kind, words), book)
            return [chosen] if chosen else []
    return []


def head_facts(question: str, book: FactBook) -> list[str]:
    """ "Any preferred restaurant?", "Which branch …?": the known fact whose name begins with the noun
    the question asks about (at most one)."""
    for match in HEAD_NOUN.finditer(question):
        noun = match.group(1)
        if noun in NOT_HEADS:
            continue
        named = [n for n in book.names if n in book.known and same_word(noun, n.split("_")[0])]
        chosen = _one_of(question, named, book)
        if chosen:
            return [chosen]
    return []


def _narrowed(question: str, found: list[str], book: FactBook) -> list[str]:
    for narrow in (_most_named, _which_end, _in_focus):
        if len(found) <= 1:
            break
        found = narrow(question, found, book) or found
    return found


def _one_of(question: str, found: list[str], book: FactBook) -> str | None:
    narrowed = _narrowed(question, found, book)
    return narrowed[0] if len(narrowed) == 1 else None


def _ones_of(question: str, found: list[str], book: FactBook) -> list[str]:
    """The one fact of the kind, or the two that still tie when both are facts of the need in progress
    ("Where will you collect it from?" with a pickup city and a pickup spot): a customer asked so
    gives both."""
    narrowed = _narrowed(question, found, book)
    if len(narrowed) == 1:
        return narrowed
    tied = _in_focus(question, narrowed, book)
    return tied if len(tied) == 2 else []


def _most_kind(found: list[str], words: frozenset[str]) -> list[str]:
    """The facts whose names say the kind most, their head word counting twice ("who" asks for
    `recipient_name` before `recipient_account_type`, "which city" for `location` before `place_name`)."""
    scores = [len(words & set(_parts(name))) + (_head(name) in words) for name in found]
    return [name for name, score in zip(found, scores, strict=True) if score == max(scores, default=0)]


def _head(name: str) -> str:
    """The noun a name is about: "city" of `city_of_event`, "name" of `place_name`."""
    parts = name.lower().split("_")
    return parts[0] if "of" in parts else parts[-1]


def _parts(name: str) -> list[str]:
    """A name's words, their singulars, and "numberof" for a count ("number_of_seats", not the
    identifier "phone_number")."""
    parts = name.lower().split("_")
    counted = ["numberof"] if parts[:2] == ["number", "of"] else []
    return parts + [part.rstrip("s") for part in parts if len(part) > 4] + counted


def _most_named(question: str, found: list[str], _book: FactBook) -> list[str]:
    """The facts sharing the most other words with the question ("pick it up" for `pickup_date`)."""
    said = set(
        re.findall(r"[a-z]+", COMPOUND_PICKUP.sub("pickup", COMPOUND_DROPOFF.sub("dropoff", question)))
    )
    scores = [len(said & set(_parts(name))) for name in found]
    best = max(scores)
    return [name for name, score in zip(found, scores, strict=True) if best and score == best]


COMPOUND_PICKUP = re.compile(r"\bpick(?:s|ed|ing)? (?:(?:it|them|the \w+|your \w+) )?up\b")
COMPOUND_DROPOFF = re.compile(r"\bdrop(?:s|ped|ping)? (?:(?:it|them|the \w+|your \w+) )?off\b")
"""A phrasal verb split around its object ("pick the car up", "picking it up") says `pickup`."""


def _which_end(question: str, found: list[str], _book: FactBook) -> list[str]:
    """The end of a trip the question means: its origin or destination, or the date or time it
    starts ("When do you want to pick it up?") or ends ("When will you return it?")."""
    if all(_when(name) for name in found):
        return _which_time(question, found)
    origin = bool(ORIGIN.search(question))
    destination = bool(DESTINATION.search(question)) or (not origin and bool(TRAVEL.search(question)))
    if origin == destination:
        return []
    ends = _ORIGIN_WORDS if origin else _DESTINATION_WORDS
    return [name for name in found if ends & set(_parts(name))]


def _which_time(question: str, found: list[str]) -> list[str]:
    start, end = bool(START.search(question)), bool(END.search(question))
    if not (start or end) and ASKS_WHEN.search(question):
        start = True  # "When do you need it?": from when
    if start == end:
        return []
    ends = _START_WORDS if start else _END_WORDS
    return [name for name in found if ends & set(_parts(name))]


def _in_focus(_question: str, found: list[str], book: FactBook) -> list[str]:
    """The facts the need in progress speaks of ("to the airport on Friday" for a ride's
    `destination`, not a hotel's `location`)."""
    focus = content_words(book.focus.replace("_", " "))
    return [n for n in found if any(same_word(part, word) for part in n.split("_") for word in focus)]


def more_specific(named: list[str], question: str, book: FactBook) -> list[str]:
    """One fact named by its words, unless the kind of answer the question asks says more: a fact whose
    name holds the named one ("What city will you leave from?": `origin_city`, not `city`), or the
    need in progress's fact where the named one is another need's ("What type of food?": a meal's
    `category`, not a car's `type`)."""
    if len(named) != 1:
        return named
    typed = typed_facts(question, book)
    if len(typed) != 1 or typed == named:
        return named
    holds = named[0] in typed[0].split("_")
    return typed if holds or (not _wholly_in_focus(named, book) and _wholly_in_focus(typed, book)) else named


def _wholly_in_focus(found: list[str], book: FactBook) -> list[str]:
    """The facts every word of whose name the need in progress speaks of (`pickup_city` for a car to
    pick up in a city, before `origin_city`, which only shares "city")."""
    focus = content_words(book.focus.replace("_", " "))
    return [
        name
        for name in found
        if all(any(same_word(part, word) for word in focus) for part in content_words(name.replace("_", " ")))
    ]


def which_fact(question: str, book: FactBook) -> list[str]:
    """ "Which order …?", "which item you'd like to change": the fact whose name starts with the noun
    after "which" (the one the user knows first)."""
    found = re.search(r"\bwhich (\w+)", question)
    if found is None:
        return []
    noun = found.group(1)
    named = [n for n in book.names if same_word(noun, n.replace("_", " ").split()[0])]
    return sorted(named, key=lambda n: n not in book.known)[:1]


def bare_phrase(question: str) -> bool:
    words = WORD.findall(question)
    return (
        question.rstrip().endswith("?")
        and 0 < len(words) <= BARE_PHRASE_WORDS
        and words[0] not in AUXILIARIES
        and not any(w in WH_WORDS for w in words)
    )


BARE_PHRASE_WORDS = 5


def asks_preference(question: str) -> bool:
    """ "Do you have a preferred restaurant?", "Any particular city?": a question about the user's
    preference asks for that fact."""
    return bool(PREFERENCE_QUESTION.match(question) or ANY_PREFERENCE.match(question))


ANY_PREFERENCE = re.compile(r"^(?:any|a)\b")
