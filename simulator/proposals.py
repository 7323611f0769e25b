"""Which of the user's open goals a proposal is about: by what it would change, not by its wording.

A confirmation request proposes an open action goal when it names

- **what the write does** (an *action hit*): a word whose meaning (`lexicon.meaning`: its verb class or
  its lemma) is among the write's action words — the specific words of the tool's name in any spelling
  (`send_certificate`, `sendCertificate`, "send certificate"), the verbs and nouns of the tool's own
  description when the simulator was given it, and the verbs of the goal's request ("move the money"
  proposes the goal "Please move 120.00 from …" whatever the tool is called);
- **and what it changes** (a *value hit*): a key argument value of the write, or an entity the goal's
  request names (a number, an id, a capitalised name: "Joint Checking", "2888"). A proposal naming no
  value still proposes the goal when it names no other id either (no conflicting "XYZ999").

Of the goals proposed, those whose record ids (a key argument named `id` or `…_id`) the question
names most win, then those whose record ids, then values, the question and the sentence before it
name most, then those with the most value hits in the whole message, then action hits: a proposal is
about the record it asks about, not one a report beside it names.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from taue.contracts.tasks import Goal, Target
from taue.contracts.text import contains, tokens
from taue.simulator.facts import STOP_WORDS
from taue.simulator.lexicon import (
    LIGHT_VERBS,
    LOOKUP_VERBS,
    lemma,
    meaning,
    phrase_meanings,
    words_of,
    wordset,
)
from taue.simulator.markup import sentences

GENERIC_TOOL_WORDS = wordset(
    "update modify manage set get record create reservation order pending delivered user details medical "
    "customer account the a an of to for and or in on by with from request"
)
"""Tool-name words that do not say what a write does (the rest must appear in a proposal of it)."""
GENERIC_VERBS = wordset("update modify manage set create record")
"""Generic tool-name words that still say a change is made (the only action words of
`modify_reservation`)."""
TOOL_SYNONYMS: dict[str, tuple[str, ...]] = {
    "baggages": ("bag", "luggage", "suitcase"),
    "baggage": ("bag", "luggage", "suitcase"),
    "passengers": ("passenger", "traveller", "traveler", "name", "birth"),
    "flights": ("flight", "date", "cabin", "rebook", "move", "upgrade", "downgrade", "class"),
    "certificate": ("voucher", "compensation", "credit"),
    "payment": ("pay", "charge"),
    "address": ("ship", "shipping", "deliver"),
    "service": ("plan", "add", "remove", "switch"),
    "device": ("line", "phone"),
    "ticket": ("escalate", "support", "priority", "status", "issue"),
    "billing": ("paperless", "autopay", "cycle", "bill"),
    "appointment": ("visit", "booking"),
    "supplier": ("pharmacy", "brand", "manufacturer"),
    "note": ("notes", "record"),
    "limit": ("daily", "spending"),
    "insurance": ("cover", "coverage", "protect", "plan"),
}
"""Nouns of tool names and the words customers use for them."""
_ID_LIKE = re.compile(r"^(?=.*\d)(?=.*[a-z])[a-z0-9_#\-]{4,}$|^\d{5,}$")
_QUANTITY = re.compile(r"^\d+(?:\.\d+)?-?[a-z]+$")
_RAW = re.compile(r"[A-Za-z0-9_\-]+")
_SENTENCE_START = re.compile(r"(?:^|[.!?]\s+)[\"'(]?([A-Za-z])")


@lru_cache(maxsize=4096)
def action_words(tool: str, description: str = "") -> frozenset[str]:
    """The meanings that say what a write does: its name's specific words (and their customer
    synonyms) and the content words of the first sentence of its description."""
    every = words_of(tool)
    named = [w for w in every if w not in GENERIC_TOOL_WORDS]
    verbs = [w for w in every if w in GENERIC_VERBS]  # "modify", "update": weak but real
    words = [*named, *verbs, *(s for w in named for s in TOOL_SYNONYMS.get(w, ()))]
    first = re.split(r"(?<=[.!?])\s", description.strip(), maxsplit=1)[0] if description else ""
    words += [w for w in words_of(first) if _telling(w)]
    return frozenset(meaning(w) for w in words)


def _telling(word: str) -> bool:
    return (
        len(word) > 2
        and word not in STOP_WORDS
        and word not in GENERIC_TOOL_WORDS
        and lemma(word) not in LIGHT_VERBS
        and lemma(word) not in LOOKUP_VERBS
    )


@lru_cache(maxsize=4096)
def request_actions(request: str) -> frozenset[str]:
    """The verbs of change in a goal's request ("Please *move* 120.00 …")."""
    return frozenset(m for w in words_of(request) if (m := meaning(w)).startswith("class:"))


@lru_cache(maxsize=4096)
def request_entities(request: str) -> tuple[str, ...]:
    """What a request names: numbers, ids and capitalised names ("Joint Checking", "2888"); a word
    capitalised because it starts a sentence ("If the usual fixes fail, …") names nothing."""
    starts = {match.start(1) for match in _SENTENCE_START.finditer(request)}
    found: list[str] = []
    for match in _RAW.finditer(request):
        raw = match.group()
        if any(c.isdigit() for c in raw) or (
            match.start() not in starts and raw[:1].isupper() and raw != "I"
        ):
            found.append(raw)
    return tuple(dict.fromkeys(found))


def message_meanings(message: str) -> frozenset[str]:
    return frozenset(phrase_meanings([w for raw in _RAW.findall(message) for w in words_of(raw)]))


def focus(message: str) -> tuple[str, str]:
    """(the sentences that ask for the approval, the sentence before each): where a long message names
    the change it proposes ("…the refund goes to your card. Shall I process the return?")."""
    from taue.simulator.understanding import is_question

    parts = sentences(message)
    picked = [i for i, s in enumerate(parts) if is_question(s)]
    return " ".join(parts[i] for i in picked), " ".join(parts[i - 1] for i in picked if i > 0)


def key_values(target: Target) -> list[Any]:
    return [value for value in target.arguments.values() if not isinstance(value, dict | list)]


@dataclass(frozen=True, eq=False)
class Candidate:
    goal: Goal
    target: Target


def conflicting_ids(message_tokens: list[str], known: Iterable[str]) -> bool:
    """The message names an id none of the task's values holds (another reservation, a made-up one); a
    quantity with its unit ("500-piece", "17-inch", "500ml") is no id."""
    allowed = {t for value in known for t in tokens(str(value))}
    return any(_ID_LIKE.match(t) and not _QUANTITY.match(t) and t not in allowed for t in message_tokens)


def proposed_goals(
    message: str,
    candidates: list[Candidate],
    known_values: Iterable[str],
    descriptions: Mapping[str, str] | None = None,
) -> list[Goal]:
    """The open goals a confirmation request proposes (see the module docstring)."""
    asked, before = focus(message)
    words = _focused_words(message, asked)
    question, near = tokens(asked), tokens(f"{before} {asked}")
    parts = (message_meanings(asked), message_meanings(before), message_meanings(message))
    conflict = conflicting_ids(words, known_values)
    actions = {id(c): _weighted_actions(c, (descriptions or {}).get(c.target.tool, "")) for c in candidates}
    spread = Counter(m for weights in actions.values() for m in weights)
    scores: dict[str, tuple[float, ...]] = {}
    for candidate in candidates:
        goal, target = candidate.goal, candidate.target
        weights = {m: w / spread[m] for m, w in actions[id(candidate)].items()}
        if not parts[2] & weights.keys() or _names_another_record(candidate, candidates, words):
            continue
        if _names_part_of_a_list(target, words):
            continue  # "seats B3 to B10" proposes 8 seats, not the 10 of another write
        values = [*key_values(target), *request_entities(goal.request)]
        valued = _named(words, values)
        if valued or not conflict:
            hits = (round(sum(weights[m] for m in part & weights.keys()), 6) for part in parts)
            ids = _record_ids(target).values()
            asked_about = (_named(question, ids), _named(near, ids), _named(near, values))
            score = (*asked_about, valued, *hits, _coverage(target.tool, parts[2]))
            scores[goal.id] = max(scores.get(goal.id, (0.0,) * 8), score)
    if not scores:
        return []
    best = max(scores.values())
    chosen: dict[str, Goal] = {}
    for candidate in candidates:
        if scores.get(candidate.goal.id) == best:
            chosen.setdefault(candidate.goal.id, candidate.goal)
    return list(chosen.values())


def _focused_words(message: str, asked: str) -> list[str]:
    """Where the proposal's values are read: the question itself when it names a record ("M00X3A
    cannot be cancelled. Shall I cancel 59XX6W instead?" proposes 59XX6W), else the whole message."""
    question = tokens(asked)
    if any(_ID_LIKE.match(t) and not _QUANTITY.match(t) for t in question):
        return question
    return tokens(message)


def _named(words: list[str], values: Iterable[Any]) -> int:
    """How many of the distinct values the words contain."""
    return sum(1 for value in dict.fromkeys(map(str, values)) if contains(words, value))


def _record_ids(target: Target) -> dict[str, str]:
    return {
        name: value
        for name, value in target.arguments.items()
        if isinstance(value, str) and (name == "id" or name.endswith("_id"))
    }


def _names_part_of_a_list(target: Target, words: list[str]) -> bool:
    """The message names some but not all items of one of the write's lists (its seats, its items)."""
    for value in target.arguments.values():
        if isinstance(value, list) and value and all(isinstance(item, str) for item in value):
            named = sum(1 for item in value if contains(words, item))
            if 0 < named < len(value):
                return True
    return False


def _names_another_record(candidate: Candidate, candidates: list[Candidate], words: list[str]) -> bool:
    """The message names another goal's record (its reservation, its order) and not this goal's: a
    proposal about one reservation is not read as a change of another one."""
    mine = _record_ids(candidate.target)
    for other in candidates:
        if other.goal.id == candidate.goal.id:
            continue
        for name, value in _record_ids(other.target).items():
            own = mine.get(name)
            if own and own != value and contains(words, value) and not contains(words, own):
                return True
    return False


def _coverage(tool: str, meanings: frozenset[str]) -> float:
    """How much of the tool's name the message says, generic words included: the last tie-break
    ("update your user address" is `modify_user_address`, not `modify_pending_order_address`)."""
    words = [meaning(w) for w in words_of(tool)]
    return round(sum(1 for w in words if w in meanings) / len(words), 6) if words else 0.0


def _weighted_actions(candidate: Candidate, description: str) -> dict[str, float]:
    """A write's action meanings with weights: the verb its tool's name starts with counts double
    (unless it is a generic one such as "modify"); shared meanings are divided among the candidates
    that have them (`proposed_goals`), so that what sets one write apart decides."""
    tool = candidate.target.tool
    weights = dict.fromkeys(action_words(tool, description) | request_actions(candidate.goal.request), 1.0)
    head = words_of(tool)[:1]
    if head and head[0] not in GENERIC_TOOL_WORDS:
        weights[meaning(head[0])] = 2.0
    return weights
