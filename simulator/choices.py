"""Options the agent lays out for the customer to pick from, and the one the customer picks.

Real agents rarely ask "Visa or Mastercard?" in one line; they list flights, time slots, records or
payment methods and ask "Which of these would you prefer?". A message **offers a choice** when it
lays out at least two options — the top-level items of a bulleted or numbered list (each with the
lines nested under it) — and one of its questions asks the user to pick ("which …", "choose",
"select", "prefer", "either of these", "one of them"). A list of questions ("1. Which order? 2. Which
item?") offers nothing to pick from.

The user picks, in each list, the option that names the most of what its open needs want: the key
values of their writes (a flight number, a record id, a payment method's id or its kind in words:
`gift_card_0131` is "gift card") and the values their requests name. When no option names any, it
says what it wants instead. A pick that names a need's write values approves that need: "Which flight
should I book? I'll go ahead with the one you choose" is answered by choosing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from taue.contracts.tasks import Goal
from taue.contracts.text import contains, tokens
from taue.simulator.lexicon import is_verb, meaning, wordset
from taue.simulator.markup import Block, blocks_of

PICK = re.compile(
    r"\b(which|whichever|choose|chose|select|pick|prefer|preference|preferred|either|"
    r"one of (?:these|those|them|the))\b",
    re.IGNORECASE,
)
"""Words of a question that asks the user to pick among listed options."""
_NAMES = re.compile(r"(?<![.?!]\s)(?<!^)\b[A-Z][a-z]{2,}\b")
"""Capitalised words inside a request: cities, products, people ("from Atlanta to Dallas")."""
_MONTHS_AND_DAYS = (
    "January February March April May June July August September October November December "
    "Monday Tuesday Wednesday Thursday Friday Saturday Sunday"
)
_NOT_NAMES = frozenset(_MONTHS_AND_DAYS.split())
INLINE = -1
"""The group of options named inline in a sentence."""
LABEL_LIMIT = 60
"""Characters of an option the user repeats when it picks it."""


@dataclass(frozen=True)
class Option:
    label: str
    """The option's own line, as the user repeats it."""
    text: str
    """Its line and the lines nested under it: what its values are looked up in."""
    group: int
    """Which list of the message it belongs to (a message may list outbound and return flights)."""


@dataclass(frozen=True)
class Pick:
    option: Option
    goal: Goal | None
    """The need whose write values the option names (its choice is that need's approval)."""


def offered_options(message: str) -> tuple[Option, ...]:
    """The options the message lists: at least two top-level items of lists that are not questions."""
    options: list[Option] = []
    for group, items in enumerate(_lists(blocks_of(message))):
        top = min(item.depth for item in items)
        entries: list[list[str]] = []
        for item in items:
            if item.depth == top or not entries:
                entries.append([item.text])
            else:
                entries[-1].append(item.text)
        if all(entry[0].rstrip().endswith("?") for entry in entries):
            continue
        options.extend(Option(_label(entry[0]), "; ".join(entry), group) for entry in entries)
    return tuple(options) if len(options) >= 2 else ()


def questionnaire_items(message: str) -> tuple[str, ...]:
    """The items of lists holding at least two questions ("1. Is it one way? 2. Which cabin? 3.
    Payment: please confirm which card."): each item asks for information; none proposes a change."""
    found: list[str] = []
    for items in _lists(blocks_of(message)):
        if sum(1 for item in items if item.text.rstrip().endswith("?")) >= 2:
            found.extend(item.text for item in items)
    return tuple(found)


_INLINE_LEAD = re.compile(
    r"\b(?:about|like|prefer|choose|pick|say|including|found|between|either|need of|after|looking for|"
    r"want|among|such as|maybe|options are|choices are|offer|think of|there is|there are|there's|i see|"
    r"interested in)"
    r"\s+(?P<list>[^?.!;:]+)",
    re.IGNORECASE,
)
_OPTIONS_ANNOUNCED = re.compile(r"\b(?:options?|choices?|available|found|following|these)\b", re.IGNORECASE)
"""Words before a colon that announce the options after it ("2 options: A and B")."""
_COLON = re.compile(r"(?<!\d):(?!\d)")
"""A colon that is no clock time's."""
_ITEM_BREAK = re.compile(r",\s*(?:or|and)\s+|,\s*|\s+or\s+|\s+and\s+")
_INLINE_ITEM_WORDS = 5


def inline_options(sentence: str) -> tuple[Option, ...]:
    """Options named in one sentence ("How about Dogman, Hackers or High Life?", "music, sports or
    something else?"): at least two short items joined by "or" (or a list ending in "and"), the last
    "something else" left out. A record's details in parentheses ("LO-500072 (The Lantern Keeper,
    22:30)") belong to its item: they neither split it nor count among its words."""
    details: list[str] = []

    def _park(found: re.Match[str]) -> str:
        details.append(found.group(0))
        return f" \x00{len(details) - 1} "

    sentence = _PARENTHESES.sub(_park, sentence)
    after_colon = sentence.rsplit(":", 1)[-1]
    if ":" in sentence and _ITEM_BREAK.search(after_colon):
        found = re.match(r"\s*(?P<list>[^?.!;]+)", after_colon)  # "I found three flights: A, B and C."
    else:
        found = _INLINE_LEAD.search(sentence)
    text = found.group("list") if found else sentence.rstrip("?.! ")
    records = text.count("\x00") >= 2  # "A (…) and B (…)": records with their details
    singular = found and re.match(r"there(?: is|'s)\b", found.group(0), re.IGNORECASE) and text.count(",") < 2
    colon = list(_COLON.finditer(sentence))
    announced = colon and _OPTIONS_ANNOUNCED.search(sentence[: colon[-1].start()])
    two_named = records or announced  # "A (…) and B (…)", "2 options: A and B"
    and_list = found and not singular and re.search(r",.*\band\b" if not two_named else r"\band\b", text)
    if not re.search(r"\bor\b", text) and not and_list:
        return ()
    items = [i.strip(" ,") for i in _ITEM_BREAK.split(text) if i.strip(" ,")]
    items = [i for i in items if not re.match(r"(?:something|anything|whatever|some other|other)\b", i)]
    if any(re.fullmatch(r"not|no|none|neither", i, re.IGNORECASE) for i in items):
        return ()  # "… travel insurance or not?" asks yes or no
    if any(re.search(r"\byou\b", i, re.IGNORECASE) for i in items[1:]):
        return ()  # "what area or specialty are you looking for?": two words for one thing asked
    if not found and items:
        items[0] = _FIRST_OPTION_LEAD.sub("", items[0])  # "Should I look at your checking or savings?"
    short = [_PARKED.sub(" ", i).strip() for i in items]
    if len(items) < 2 or any(
        not s or len(s.split()) > _INLINE_ITEM_WORDS or _acts(s) or _describes(s) for s in short
    ):
        return ()  # "cancel it or change it?" offers two actions: a proposal, read as one
    short[0] = _without_category(short[0], short[1:])
    full = [_PARKED.sub(lambda m: f" {details[int(m.group(1))]} ", i).strip() for i in items]
    return tuple(Option(_label(s), f, INLINE) for s, f in zip(short, full, strict=True))


_FIRST_OPTION_LEAD = re.compile(
    r"^.*\b(?:at|on|in|for|to|the|a|an|your|my|of|about|like|between|with|from|is|are|be|want|prefer|"
    r"need)\s+(?=\S)",
    re.IGNORECASE,
)
"""The question before the first option of a list with no lead word ("Is a Psychologist or …")."""
_PARENTHESES = re.compile(r"\([^()]*\)")
_PARKED = re.compile(r"\s*\x00(\d+)\s*")


def _without_category(first: str, others: list[str]) -> str:
    """ "orders LO-500069, LO-500072 …": the first item's lead noun names the kind of all of them, not
    the option (the others open with no such noun)."""
    lead, _, rest = first.partition(" ")
    if rest and lead.islower() and lead.endswith("s") and not any(o.split()[0].islower() for o in others):
        return rest
    return first


CLAUSE_OPENINGS = wordset(
    "is are was has have had costs cost leaves leave departs arrives takes will would "
    "it its it's they which that"
)
"""Words that open a clause about one option ("…, costs $31, and has 0 stops"), not another option."""


def _describes(item: str) -> bool:
    return item.split()[0].lower() in CLAUSE_OPENINGS


def _acts(item: str) -> bool:
    first = item.split()[0].lower()
    verb = is_verb(first) or first.endswith("ing")  # "modifying or cancelling": two actions
    return first == "to" or (verb and meaning(first).startswith("class:"))


FOUND_OPTIONS = re.compile(
    r"\b(?:i|we)(?:'ve| have)? (?:also )?(?:found|have|got|see)\b|\bthere (?:are|is)\b|\bincluding\b"
    r"|\bchoices\b|\boptions\b|^(?:how|what) about\b|\bmay i suggest\b"
    r"|\b(?:shows|lists)\b|\byou (?:have|hold)\b"
)


def stated_options(statements: list[str]) -> tuple[Option, ...]:
    """ "I found Dogman, Hackers and High Life.": options laid out with nothing asked are there to
    pick from (the first statement that lays some out)."""
    for statement in statements:
        if FOUND_OPTIONS.search(statement.lower()) and (options := inline_options(statement)):
            return options
    return ()


def asks_to_pick(question: str) -> bool:
    return bool(PICK.search(question))


def pick(options: Iterable[Option], goals: list[Goal], known_values: Iterable[str] = ()) -> list[Pick]:
    """In each list, for each open need, the one option naming the most of that need's write values
    (several needs may pick several options: "which reservations?"); where no option names any, the
    option naming the most known values. No pick where two options tie."""
    wanted = [(goal, list(_goal_values(goal))) for goal in goals]
    known = [v for v in known_values if v]
    picks: list[Pick] = []
    for group in _groups(options):
        texts = [tokens(option.text) for option in group]
        chosen: dict[int, Goal | None] = {}
        for goal, values in wanted:
            scores = [sum(w for value, w in values if _named(words, value)) for words in texts]
            best = _unique_best(scores)
            if best is not None and best not in chosen:
                chosen[best] = goal
        if not chosen:
            best = _unique_best([sum(1 for value in known if _named(words, value)) for words in texts])
            if best is not None:
                chosen[best] = None
        picks.extend(Pick(group[index], goal) for index, goal in sorted(chosen.items()))
    return picks


def _unique_best(scores: list[int]) -> int | None:
    top = max(scores, default=0)
    if top <= 0 or scores.count(top) > 1:
        return None
    return scores.index(top)


def _lists(blocks: list[Block]) -> Iterator[list[Block]]:
    run: list[Block] = []
    for block in blocks:
        if block.item:
            run.append(block)
            continue
        if len(run) >= 2:
            yield run
        run = []
    if len(run) >= 2:
        yield run


def _groups(options: Iterable[Option]) -> list[list[Option]]:
    groups: dict[int, list[Option]] = {}
    for option in options:
        groups.setdefault(option.group, []).append(option)
    return list(groups.values())


def _label(line: str) -> str:
    head = line.strip().rstrip(":;,.").strip("\"'“”‘’`")  # '"M05KNL"' is named M05KNL
    return head if len(head) <= LABEL_LIMIT else f"{head[:LABEL_LIMIT].rsplit(' ', 1)[0]}…"


def _goal_values(goal: Goal) -> Iterator[tuple[str, int]]:
    """What a need wants, with a weight: its writes' values (2), the ids and numbers its request
    names (1)."""
    for target in goal.targets:
        for value in _flat(target.arguments):
            yield from ((form, 2) for form in _forms(value))
    for word in tokens(goal.request):
        if any(ch.isdigit() for ch in word) and len(word) >= 3:
            yield word, 1
    for name in _NAMES.findall(goal.request):
        if name not in _NOT_NAMES:
            yield name, 1


def _flat(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for inner in value.values():
            yield from _flat(inner)
    elif isinstance(value, list | tuple):
        for inner in value:
            yield from _flat(inner)
    elif isinstance(value, str | int | float) and not isinstance(value, bool):
        yield str(value)


def _forms(value: str) -> list[str]:
    """How an option may name a value: itself, and for an id like `gift_card_0131` its number and
    its kind in words."""
    forms = [value]
    if "_" in value:
        words = [w for w in value.split("_") if w and not w.isdigit()]
        digits = [w for w in value.split("_") if w.isdigit()]
        forms += digits + ([" ".join(words)] if words else [])
    return forms


def _named(words: list[str], value: str) -> bool:
    if len(value) < 2 or (value.isdigit() and len(value) < 3):
        return False  # "1", "12": a count or an index names nothing in particular
    return contains(words, value)
