"""What the customer of an imported task asks to have done, read from its free-text instruction.

A published instruction says, in the second person, what the customer wants: "You would like to
cancel the booking KX7Q2P.", "you keep insisting on having a meal plan added to the trip", "you
want to receive a goodwill credit". A **request** is read where a want-phrase ("want to", "would
like", "insist on", "ask for", …; `WANTS`) is followed, within a few words of its clause, by an
action word (`wording.ACTION_OF`): the first word that is not a filler ("get a", "have the") when
it is a verb, or a later noun or participle ("a voucher", "a meal plan added"); further action
verbs joined to it by "and" or commas are requests too ("…, and move the return leg and add one
bag"). Read nothing from

- a sentence or clause that sets a condition ("If the agent …, you want to …"), or a negated want
  ("you do not want to cancel the whole trip");
- a want whose first word asks to be told something ("know", "check", "learn more about
  upgrading", …; `ASKS_TO_KNOW`).

**Record ids** are the upper-case tokens the instruction names after a word for a tool's id
argument ("reservation KX7Q2P", "confirmation code 4TRW9Z", "order #A1234567"), or the values a
ground-truth look-up passed in that argument.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from taue.envs.task_sets.wording import STOP_WORDS, action, stem, words, wordset

WANTS = re.compile(
    r"\b(?:want(?:s|ed)?\s+to|would\s+like(?:\s+to)?|'d\s+like(?:\s+to)?|wish(?:es)?\s+to|hop(?:e|es|ing)\s+to"
    r"|needs?\s+to|insist(?:s|ing|ed)?(?:\s+on|\s+to|\s+that)?|ask(?:s|ing)?\s+(?:for|to)"
    r"|(?:you|he|she|they|and)\s+(?:request|demand|plan)s?(?:\s+to)?|tr(?:y|ies|ying)\s+to\s+get|planning\s+to"
    r"|decide[sd]?\s+to|looking\s+to"
    r"|intend(?:s)?\s+to|calling\s+to)\b",
    re.IGNORECASE,
)
NEGATED = re.compile(r"(?:\bnot|n't|\bnever|\bno longer)\s+(?:\w+\s+)?$", re.IGNORECASE)
CONDITION = re.compile(r"\b(?:if|unless|otherwise|in case|only when|whether)\b", re.IGNORECASE)
CLAUSE_END = re.compile(
    r"[.;:!?()\[\]]|\s(?:because|but|so that|so|as|since|which|when|while|if|unless|although|though|"
    r"even|instead|after|before)\s",
    re.IGNORECASE,
)
JOINED = re.compile(r",\s*(?:and\s+|then\s+)?|\s+(?:and|then)\s+", re.IGNORECASE)
SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\"'])|\n\s*\n")
FILLERS = wordset(
    "to get getting have having receive receiving make making a an the some your my his her their its "
    "also just please be able full partial them it this that both all now first then really still "
    "immediately urgently for on agent agents should must will would can could to persistently "
    "politely firmly back out"
)
ASKS_TO_KNOW = wordset(
    "know learn understand check see verify confirm review explore compare find figure inquire look hear "
    "discuss consider evaluate clarify ensure sure ask speak talk information details status list overview "
    "summary copy retrieve access view read browse examine inspect keep maintain continue stay remain"
)
SUBJECTS = wordset("i i've i'm we we've you you've you're he she they")
WINDOW = 5
"""Words after a want-phrase in which a noun or participle action word may stand."""
RECORD_WORDS = ("confirmation", "booking", "reference", "code")
"""Words that name a record in any domain ("confirmation 4TRW9Z"), beside the id argument's own."""
RECORD_ID = re.compile(r"(?<![\w#@.-])#?[A-Z0-9][A-Z0-9_]{3,}(?![\w@.-]*[a-z@])(?!-\w)")
_MEASURE = re.compile(r"\d+[A-Z]{1,3}")
_LISTED = re.compile(r"^[\s,]*(?:(?:and|or|&)\s+)?$")


@dataclass(frozen=True)
class Request:
    """One thing the customer asks to have done."""

    kind: str
    """The kind of change (`wording.ACTION_OF`): cancel, change, add, …"""
    text: str
    """The clause from its first word after the want-phrase to its end, as the instruction words it."""
    objects: frozenset[str]
    """Stems of the clause's other words: what the change is about."""
    sentence: int
    """Index of the instruction sentence it stands in (`sentences`)."""
    span: tuple[int, int] = (0, 0)
    """Where in that sentence it stands: from its action word to the next request's (or the end)."""


def sentences(text: str) -> list[str]:
    return [s.strip() for s in SENTENCE.split(text) if s.strip()]


def requests(instruction: str) -> list[Request]:
    """Every request the instruction makes, in order (see the module docstring)."""
    found: list[Request] = []
    for index, sentence in enumerate(sentences(instruction)):
        own: list[Request] = []
        for want in WANTS.finditer(sentence):
            before = sentence[: want.start()]
            if NEGATED.search(before) or CONDITION.search(before):
                continue
            end = CLAUSE_END.search(sentence, want.end())
            own.extend(_clause_requests(sentence, want.end(), end.start() if end else len(sentence), index))
        own.sort(key=lambda r: r.span[0])
        for number, request in enumerate(own):
            stop = own[number + 1].span[0] if number + 1 < len(own) else len(sentence)
            found.append(replace(request, span=(request.span[0], max(stop, request.span[0]))))
    return _unique(found)


def _clause_requests(sentence: str, start: int, end: int, index: int) -> list[Request]:
    bounds = [start, *(x for m in JOINED.finditer(sentence, start, end) for x in m.span()), end]
    found: list[Request] = []
    for number in range(0, len(bounds), 2):
        part_start, part_end = bounds[number], bounds[number + 1]
        part = sentence[part_start:part_end]
        if not part.strip():
            continue
        hit = _action_in(part, first_only=number > 0)
        if hit is None:
            if number == 0:
                return []  # the want asks for no change: nothing joined to it is one either
            continue
        kind, at = hit
        content = (w for w in words(part) if w not in FILLERS and w not in STOP_WORDS)
        objects = frozenset(stem(w) for w in content if action(w) is None)
        found.append(Request(kind, _said(part), objects, index, (part_start + at, part_end)))
    return found


_GERUNDS = {"having": "have", "getting": "get", "receiving": "receive", "making": "make"}
_KEPT = wordset("get getting have having receive receiving make making a an the some")


def _said(part: str) -> str:
    """The part as a request after "I'd like to": "having insurance added" -> "have insurance
    added", "a gift card" -> "get a gift card"."""
    said = part.split()
    while said and said[0].lower() in FILLERS and said[0].lower() not in _KEPT:
        said = said[1:]
    text = " ".join(said)
    first, _, rest = text.partition(" ")
    if first.lower() in _GERUNDS:
        return f"{_GERUNDS[first.lower()]} {rest}".strip()
    article = first.lower() in ("a", "an", "the", "some")
    if article or (action(first) is None and first.lower() not in FILLERS):
        return f"get {text}"
    return text


def _action_in(part: str, first_only: bool) -> tuple[str, int] | None:
    """(kind, offset in `part`) of the part's action word: its first non-filler word when that is an
    action verb; else (`first_only` false) a noun or participle action word within `WINDOW` words."""
    seen, article = 0, False
    tokens = [(m.start(), m.group().strip("\"'.,()").lower()) for m in re.finditer(r"\S+", part)]
    for index, (at, word) in enumerate(tokens):
        if not word or word in FILLERS:
            article = word in ("a", "an")
            continue
        kind = action(word)
        if article and word not in NOUN_ACTIONS:
            kind = None  # "get an update on my ticket": a noun, not a change
        following = tokens[index + 1][1] if index + 1 < len(tokens) else ""
        if seen == 0 and kind is not None:
            return kind, at
        if (seen == 0 and (first_only or word in ASKS_TO_KNOW)) or word in SUBJECTS:
            return None  # a question, or a statement ("insist that you've purchased it")
        if kind is not None and _noun_like(word) and not (word.endswith("ed") and _begins_noun(following)):
            return kind, at  # "a voucher", "a meal plan added to it" (not "the booked rooms")
        seen, article = seen + 1, False
        if seen >= WINDOW:
            return None
    return None


def _begins_noun(word: str) -> bool:
    """The word after a participle starts what it describes ("booked rooms")."""
    return bool(word) and word not in FILLERS and word not in STOP_WORDS


def _noun_like(word: str) -> bool:
    """An action word standing as a noun or participle ("voucher", "refund", "added")."""
    return word.endswith(("ed", "ion", "ment")) or stem(word) in {stem(w) for w in NOUN_ACTIONS}


NOUN_ACTIONS = ("refund", "voucher", "certificate", "compensation", "upgrade", "exchange", "return")


def _unique(found: list[Request]) -> list[Request]:
    seen: set[tuple[str, str]] = set()
    unique = []
    for request in found:
        key = (request.kind, request.text.lower())
        if key not in seen:
            seen.add(key)
            unique.append(request)
    return unique


def record_ids(
    instruction: str, heads: dict[str, set[str]], looked_up: dict[str, set[str]]
) -> list[tuple[str, str, int, int]]:
    """(id argument, value, sentence index, offset in the sentence) for each record id the
    instruction names: a token of upper-case letters and digits (`RECORD_ID`) within three words
    after the argument's own word (`heads`: argument -> its words, e.g. reservation_id ->
    {"reservation"}) or a general record word, or a value that a ground-truth look-up passed in
    that argument (`looked_up`)."""
    found: list[tuple[str, str, int, int]] = []
    for index, sentence in enumerate(sentences(instruction)):
        last: tuple[str, int] | None = None  # the id before: (argument, where it ends)
        for match in RECORD_ID.finditer(sentence):
            value = match.group()
            if not any(c.isalpha() for c in value) or _MEASURE.fullmatch(value):
                continue  # a house number, an amount, a size ("64GB")
            if last is not None and _LISTED.match(sentence[last[1] : match.start()]):
                argument: str | None = last[0]  # "(KX7Q2P and 4TRW9Z)"
            else:
                argument = _argument_of(value, sentence[: match.start()], heads, looked_up)
            if argument is not None:
                found.append((argument, value, index, match.start()))
                last = (argument, match.end())
            else:
                last = None
    return found


def _argument_of(
    value: str, before: str, heads: dict[str, set[str]], looked_up: dict[str, set[str]]
) -> str | None:
    for argument, values in looked_up.items():
        if value in values:
            return argument
    near_words = before.split()[-3:]
    for position in range(len(near_words) - 1, -1, -1):  # only the words after an id before it:
        if RECORD_ID.fullmatch(near_words[position].strip("(),.:;")):  # "reservation KX7Q2P from ZZ100"
            near_words = near_words[position + 1 :]
            break
    near = [stem(w) for w in words(" ".join(near_words))]
    for argument, own in heads.items():
        if any(w in near for w in {stem(h) for h in own}):
            return argument
    if any(stem(w) in near for w in RECORD_WORDS) and len(heads) == 1:
        return next(iter(heads))
    return None
