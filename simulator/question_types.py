"""What kind of fact a question asks for when it names none: "Where …?", "When …?", "How many …?".

Agents often ask by the kind of answer, not by the fact's name: "What city are you in?" for
`location`, "When would you like to go?" for `date`, "How many people?" for `number_of_seats`. A
question whose words name no fact is matched to the facts whose names carry the words of the kind it
asks for (`KINDS`); of several, the words around the question decide which end of a trip it means
("from", "leaving" for an origin; "to", "going" for a destination), and a tie names none.
"""

from __future__ import annotations

import re

from taue.simulator.facts import FactBook

KINDS: tuple[tuple[re.Pattern[str], frozenset[str]], ...] = tuple(
    (re.compile(pattern), frozenset(words.split()))
    for pattern, words in (
        (
            r"\bwhere\b|\b(?:which|what) (?:city|town|area|place|location)\b|\b(?:city|town|area|location)\b",
            "city location area place address destination origin town from to where",
        ),
        (r"\bwhat time\b|\bwhich time\b|\bat what\b|\btime\b", "time hour"),
        (r"\bwhen\b|\bwhat (?:date|day)\b|\bwhich (?:date|day)\b|\bdates?\b", "date day"),
        (
            r"\bhow many\b|\bnumber of\b|\bfor how many\b",
            "number count seats people persons travelers travellers passengers tickets rooms beds guests "
            "quantity size group",
        ),
        (r"\bhow much\b|\bamount\b", "amount price cost balance sum"),
        (r"\bwho\b|\bwhom\b|\bwhose\b", "name recipient person contact account"),
        (r"\bhow long\b|\bhow many (?:days|nights)\b", "length duration stay days nights"),
        (
            r"\b(?:what|which) (?:kind|type|sort|genre|style|category)\b"
            r"|\b(?:kind|type|genre|category|cuisine)\b",
            "type kind genre category subcategory cuisine style",
        ),
    )
)
ORIGIN = re.compile(r"\b(?:from|leaving|leave|depart\w*|pick ?up|start\w*|origin)\b")
DESTINATION = re.compile(
    r"\b(?:going to|go to|travel\w* to|headed to|heading|arriv\w*|destination|drop ?off|visit\w*|where to)\b"
)
_ORIGIN_WORDS = frozenset(["origin", "from", "departure", "pickup", "start", "leaving", "source"])
_DESTINATION_WORDS = frozenset(["destination", "to", "arrival", "dropoff", "end", "going"])


def typed_facts(question: str, book: FactBook) -> list[str]:
    """The known fact the question's kind of answer names (at most one; none on a tie). Only facts the
    user knows: a kind of answer it could only look up stays a question it cannot place."""
    for pattern, words in KINDS:
        if not pattern.search(question):
            continue
        found = [name for name in book.names if name in book.known and words & set(_parts(name))]
        if len(found) > 1:
            found = _most_named(question, found) or _which_end(question, found)
        if len(found) == 1:
            return found
    return []


def _parts(name: str) -> list[str]:
    parts = name.lower().split("_")
    return parts + [part.rstrip("s") for part in parts if len(part) > 4]


def _most_named(question: str, found: list[str]) -> list[str]:
    """The one fact sharing the most other words with the question ("pick it up" for `pickup_date`)."""
    said = set(re.findall(r"[a-z]+", question.replace("pick up", "pickup").replace("drop off", "dropoff")))
    scores = [len(said & set(_parts(name))) for name in found]
    best = max(scores)
    return [found[scores.index(best)]] if best and scores.count(best) == 1 else []


def _which_end(question: str, found: list[str]) -> list[str]:
    origin, destination = bool(ORIGIN.search(question)), bool(DESTINATION.search(question))
    if origin == destination:
        return []
    ends = _ORIGIN_WORDS if origin else _DESTINATION_WORDS
    return [name for name in found if ends & set(_parts(name))]
