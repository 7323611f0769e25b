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
from taue.simulator.lexicon import is_verb, is_verb_form, meaning, wordset
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


_IN_LIST = r"!(?=,|\s+(?:or|and)\s)|(?<=\b(?:Dr|Mr|Ms|St))\."
"""What ends no list: a title's "!" ("Shazam!, or …"), the full stop of "Dr."."""
_LIST = rf"(?:[^?.!;:]|{_IN_LIST})+"
"""A list's text, up to the sentence's end or a colon."""
_INLINE_LEAD = re.compile(
    r"\b(?=(?P<lead>(?:about|like|prefer|choose|pick|say|including|found|between|either|need of|after|"
    r"looking for|want|among|such as|maybe|options are|choices are|offer|think of|there is|there are|there's|"
    r"i see|interested in|suggest|recommend|consider(?: \w+ing)?|how (?:does|do|would)|use|for example|"
    r"for instance|(?:i|we) (?:have|got)|i've got|(?:recommendations|suggestions) are|enjoy|titled|called|"
    r"(?:more )?into|related to|wanting)"
    rf"[\s,]+(?P<list>{_LIST})))",
    re.IGNORECASE,
)
"""A word that leads into a list, and the list (a lookahead: one lead's list may hold another lead)."""
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

    sentence = _THOUSANDS.sub("", _PARENTHESES.sub(_park, sentence))  # "$3,250" is one value
    sentence = _TRAILING.sub("", _EXAMPLES_END.sub(_as_or, sentence))
    for found in _list_leads(sentence):
        if options := _options_after(found, sentence, details):
            return options
    return ()


def _as_or(end: re.Match[str]) -> str:
    if end.group(0) != ",":
        return " or something else"
    return "," if re.search(r"\b(?:i|we|you)\b", end.string, re.IGNORECASE) else ", or"


_LIST_FIRST = re.compile(rf"(?P<lead>)(?P<list>[^?.!;:,]+,{_LIST}?)\s+are\b")
"""A list before "are" ("Dogman, Hackers and High Life are three of the ten found")."""


def _list_leads(sentence: str) -> list[re.Match[str] | None]:
    """Where the list may start: after a colon that opens one, else after a lead word (the nearest to
    the list first: "looking for any event such as music or sports"), else at the sentence's start."""
    after_colon = sentence.rsplit(":", 1)[-1]
    if ":" in sentence and _ITEM_BREAK.search(after_colon):
        return [
            re.match(rf"(?P<lead>)\s*(?P<list>(?:[^?.!;]|{_IN_LIST})+)", after_colon)
        ]  # "I found three flights: A, B and C."
    leads: list[re.Match[str] | None] = list(reversed(list(_INLINE_LEAD.finditer(sentence))))
    return leads or [None if sentence.rstrip().endswith("?") else _LIST_FIRST.match(sentence)]


def _options_after(found: re.Match[str] | None, sentence: str, details: list[str]) -> tuple[Option, ...]:
    text = found.group("list") if found else sentence.rstrip("?.! ")
    if _ONE.match(text):
        return ()
    text = _NEXT_QUESTION.sub("", text)  # "Music, sports, or something else and in what city …?"
    items = [i.strip(" ,") for i in _ITEM_BREAK.split(text) if i.strip(" ,")]
    items = [i for i in items if not _OPEN_ENDED.match(i)]
    if not _joined(found, sentence, text, items):
        return ()
    if any(re.fullmatch(r"not|no|none|neither", i, re.IGNORECASE) for i in items):
        return ()  # "… travel insurance or not?" asks yes or no
    if any(re.search(r"\byou\b", i, re.IGNORECASE) for i in items[1:]):
        return ()  # "what area or specialty are you looking for?": two words for one thing asked
    if len(items) >= 3 and re.fullmatch(r"to \w+", items[0], re.IGNORECASE):
        items = items[1:]  # "What'd you like to do, music, sports, or …?"
    if items and (gerund := _GERUND.match(items[0])) and is_verb_form(gerund.group(1)):
        items[0] = items[0][gerund.end() :]  # "How about watching Arrival, Dune or …?"
    if items and (not found or _TO_VERB.match(items[0])):
        items[0] = _FIRST_OPTION_LEAD.sub("", items[0])  # "Should I look at your checking or savings?"
    short = [_PARKED.sub(" ", i).strip() for i in items]
    if short:
        short[0] = _without_category(short[0], short[1:])
    if len(items) < 2 or any(
        not s or len(s.split()) > _INLINE_ITEM_WORDS or _acts(s) or _describes(s) for s in short
    ):
        return ()  # "cancel it or change it?" offers two actions: a proposal, read as one
    full = [_PARKED.sub(lambda m: f" {details[int(m.group(1))]} ", i).strip() for i in items]
    return tuple(Option(_label(s), f, INLINE) for s, f in zip(short, full, strict=True))


def _joined(found: re.Match[str] | None, sentence: str, text: str, items: list[str]) -> bool:
    """The items are options: joined by "or", or a list ending in "and" after a lead word (two named
    with their details, announced by a colon, or titles: "I found Body Double and Citizen Kane")."""
    if re.search(r"\bor\b", text):
        return True
    if not found:
        return False
    lead = found.group("lead") or ""
    colon = list(_COLON.finditer(sentence))
    announced = bool(colon and _OPTIONS_ANNOUNCED.search(sentence[: colon[-1].start()]))
    if announced and text.count(",") >= 2:
        return True  # "I got these: A, B, C"
    if re.match(r"there(?: is|'s)\b", lead, re.IGNORECASE) and text.count(",") < 2:
        return False  # "There's a bus at 8 and a seat left": one thing described
    titles = len(items) == 2 and all(i[:1].isupper() for i in items) and _FOUND_LEAD.match(lead.lower())
    two_named = (
        text.count("\x00") >= 2 or announced or bool(titles)
    )  # "A (…) and B (…)", "2 options: A and B"
    return bool(re.search(r",.*\band\b" if not two_named else r"\band\b", text))


_FOUND_LEAD = re.compile(r"(?:found|have|got|there are|i see|suggest|recommend|consider)\b")
_OPEN_ENDED = re.compile(
    r"(?:something|anything|whatever|some other|other|any ?other|(?:maybe )?(?:a )?different)\b",
    re.IGNORECASE,
)
"""An item that leaves the list open ("… or something else"): no option."""
_FIRST_OPTION_LEAD = re.compile(
    r"^.*\b(?:at|on|in|for|to|the|a|an|your|my|of|about|like|between|with|from|is|are|be|want|prefer|"
    r"need)\s+(?=\S)",
    re.IGNORECASE,
)
"""The question before the first option of a list with no lead word ("Is a Psychologist or …")."""
_GERUND = re.compile(r"(\w+ing) (?:either )?(?=[A-Z])")
"""A verb before a list of titles ("watching Arrival, Dune or Heat"): no part of the first option."""
_TO_VERB = re.compile(r"to \w+ .*\b(?:a|an|the|your|on|in|at|for)\s+\S", re.IGNORECASE)
"""A first item that is the verb's phrase before the option ("want to depart on March 6th or …",
"like to find a counselor or …"): the option is its last words."""
_EXAMPLES_END = re.compile(
    r"(?:,\s*|\s+)(?:etc\.?|and so on|for example|for instance)\s*[.?!]?$"
    r"|,(?=\s*(?:something|anything) else\b)",
    re.IGNORECASE,
)
"""Words closing a list of examples ("Music, sports, etc.", "Music, sports, something else?"): the
list offers them, as "or" would."""
_TRAILING = re.compile(r"\s+(?:for you|sound|sounds)(?=\s*[?.!]?$)", re.IGNORECASE)
"""Words after the last option that are no part of it ("… or High Life sound?")."""
_PARENTHESES = re.compile(r"\([^()]*\)")
_NEXT_QUESTION = re.compile(
    r",?\s+(?:and|or)\s+(?:(?:in |at |for |on )?(?:what|which|where|when|how)\b"
    r"|(?:would|do|did|should|can|could|shall|will) (?:you|i)\b).*$",
    re.IGNORECASE,
)
"""A question after the list ("… and in what city?", "…, or would you like something else?")."""
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")
_ONE = re.compile(r"(?:1|one|a single|only one)\s+\w+,", re.IGNORECASE)
"""A list that opens by counting one ("1 suggestion, the movie …"): one option, described."""
_PARKED = re.compile(r"\s*\x00(\d+)\s*")


def _without_category(first: str, others: list[str]) -> str:
    """ "orders LO-500069, LO-500072 …": the first item's lead noun names the kind of all of them, not
    the option (the others open with no such noun)."""
    article = re.match(r"the ", first)
    lead, _, rest = first[article.end() if article else 0 :].partition(" ")
    if rest and lead.islower() and lead.endswith("s") and not any(o.split()[0].islower() for o in others):
        return rest  # "the movies A, B and C"
    return first


CLAUSE_OPENINGS = wordset(
    "is are was has have had costs cost leaves leave departs arrives takes will would "
    "it its it's they which that i we you with"
)
"""Words that open a clause about one option ("…, costs $31, and has 0 stops"), not another option."""


def _describes(item: str) -> bool:
    return item.split()[0].lower() in CLAUSE_OPENINGS


def _acts(item: str) -> bool:
    first = item.split()[0].lower()
    verb = is_verb(first) or first.endswith("ing")  # "modifying or cancelling": two actions
    return first == "to" or (verb and meaning(first).startswith("class:"))


EXAMPLES_GIVEN = re.compile(
    r"^(?:you can |you could |just )?say\b|\bsuch as\b|\bfor (?:example|instance)\b"
    r"|\b(?:something|anything|things|events?|categories) like\b|\b(?:recommend|suggest)\b"
    r"|\bare (?:\w+ )?options\b",
    re.IGNORECASE,
)
"""A statement giving examples of what the customer may answer ("You can say music or sports")."""
FOUND_OPTIONS = re.compile(
    r"\b(?:i|we)(?:'ve| have)? (?:also )?(?:found|have|got|see)\b|\bthere (?:are|is)\b|\bincluding\b"
    r"|\bchoices\b|\boptions\b|^(?:how|what) about\b|\bmay i suggest\b"
    r"|\b(?:shows|lists)\b|\byou (?:have|hold)\b|\b(?:consider|recommend|suggest)|\bthere's\b|\bfollowing\b"
    r"|\bchoose\b|\bavailable\b|\bfor (?:example|instance)\b|\bthese\b|\btitled\b"
)


def stated_options(statements: list[str]) -> tuple[Option, ...]:
    """ "I found Dogman, Hackers and High Life.": options laid out with nothing asked are there to
    pick from (the first statement that lays some out)."""
    for statement in statements:
        listed = FOUND_OPTIONS.search(statement.lower()) or _BARE_LIST.fullmatch(statement)
        listed = listed or EXAMPLES_GIVEN.search(statement)
        if listed and (options := inline_options(statement)):
            return options
    return ()


_BARE_LIST = re.compile(r"\s*(?!more or less)[a-z'-]+(?:,? (?:or )?[a-z'-]+){1,3}[.!]?\s*", re.IGNORECASE)
"""A message that is nothing but a few options ("checking or savings")."""
_FRAGMENT = re.compile(
    r"(?:(?:maybe|or|perhaps) )?(?:(?:an?|the) )?(?P<option>[\w'&-]+(?: [\w'&-]+){0,2})\?", re.IGNORECASE
)
_NOT_OPTIONS = wordset(
    "anything something else what which who where when how why is are do does did can could will would "
    "shall should may i you we it that this yes no ok okay really sure right who's whose "
    "on to for in from at by"
)


_ELSE_QUESTION = re.compile(r"(?:or )?(?:anything|something) else\?", re.IGNORECASE)


def fragment_options(sentences: list[str]) -> tuple[tuple[Option, ...], frozenset[str]]:
    """Options asked one by one ("Sports? Music? Anything else?", "A psychologist? Maybe a family
    counselor?"): at least two questions in a row that are a noun of one to three words each; with
    the sentences that ask them ("Anything else?" closing the run included)."""
    run: list[tuple[str, str]] = []
    for sentence in [*sentences, ""]:
        found = _FRAGMENT.fullmatch(sentence.strip())
        if found and not set(wordset(found.group("option").lower())) & _NOT_OPTIONS:
            run.append((sentence, found.group("option")))
            continue
        if len(run) >= 2:
            closing = {sentence} if _ELSE_QUESTION.fullmatch(sentence.strip()) else set()
            return tuple(Option(_label(o), o, INLINE) for _, o in run), frozenset(
                {s for s, _ in run} | closing
            )
        run = []
    return (), frozenset()


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
