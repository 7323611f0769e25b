"""Progressive disclosure: a need first said briefly, its payment details when the agent asks.

A customer opens with what they want ("I'd like to upgrade my Charlotte trip to business.") and
says how they will pay when the agent asks ("Which card would you like to use?"), as the users of
τ-bench do. A task's goal request is the whole need in a sentence or two; `briefs()` holds back the
clause that names a payment fact (`DETAIL_FACTS`), found by its value, and returns the facts each
brief holds back. The user answers those when asked (they are known facts like any other), says them
when it declines a proposal for the need, and restates the whole request when asked again.

A clause is held back only when nothing else is lost: the cut never touches another fact's words
(a date, an order's items), what is left still names the need's other facts, and a payment fact is
the detail of the first need that names it only (a later need naming the same account names it as
a record). `card` is not a payment fact name: a card is often the record itself ("freeze my debit
card ending in 2370").
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from taue.contracts.tasks import Goal

DETAIL_FACTS = ("pay_with", "pay_from", "payment_method", "bank_account", "refund_to")
"""Fact names (a numbered `pay_with_2` too) whose clause waits until the agent asks for it."""

MIN_WORDS = 4
"""A brief shorter than this says too little to start from: the whole request is said instead."""

_NUMBER = re.compile(r"_\d+$")
_SENTENCE_END = re.compile(r"(?<!\bDr)(?<!\bMr)(?<!\bMs)(?<!\bMrs)(?<!\bSt)[.?!](?=\s|$)")
_CLAUSE_BREAK = re.compile(r",\s+(?!\d)(?:and\s+)?|;\s+|:\s+|\s+(?:and|but)\s+|\s+[—–]\s+")
_CLAUSE_END = re.compile(r",\s+(?!\d)|;\s+|\s+[—–]\s+")
_LEAD_IN = re.compile(
    r"\s+(?:paid with|paid from|paying with|charged to|using|with|from|to|into|out of|on)\s+"
    r"(?:my|the|our)\s+$",
    re.IGNORECASE,
)

Span = tuple[int, int]


@dataclass(frozen=True)
class Brief:
    """A request as first said, and the facts it leaves for later."""

    text: str
    held_back: tuple[str, ...] = ()


def is_detail(name: str) -> bool:
    return _NUMBER.sub("", name) in DETAIL_FACTS


def briefs(goals: Sequence[Goal], known: Mapping[str, str]) -> dict[str, Brief]:
    """Each goal's brief; a payment fact is held back only by the first goal that names it."""
    claimed: set[str] = set()
    found: dict[str, Brief] = {}
    for goal in goals:
        own = {n: v for n, v in known.items() if not (is_detail(n) and n in claimed)}
        found[goal.id] = brief(goal.request, own)
        claimed.update(n for n in known if is_detail(n) and _span(goal.request, known[n]) is not None)
    return found


def brief(request: str, known: Mapping[str, str]) -> Brief:
    """`request` without the clauses naming a payment fact the customer knows."""
    text, held = request, []
    for name, value in known.items():
        if not is_detail(name):
            continue
        shorter = _without(text, str(value), _protected(text, known))
        if shorter is not None and _names_the_need(shorter, request, known):
            text = shorter
            held.append(name)
    return Brief(text, tuple(held))


def _protected(text: str, known: Mapping[str, str]) -> list[Span]:
    """Where the other facts' values stand in `text`: no cut may touch them."""
    spans = (_span(text, str(v)) for n, v in known.items() if not is_detail(n))
    return [span for span in spans if span is not None]


def _span(text: str, value: object) -> Span | None:
    value = str(value)
    at = text.lower().find(value.lower()) if len(value) > 2 else -1
    return (at, at + len(value)) if at >= 0 else None


def _names_the_need(text: str, request: str, known: Mapping[str, str]) -> bool:
    """The brief still says something: enough words, and the request's other facts."""
    if len(text.split()) < MIN_WORDS:
        return False
    named = [v for n, v in known.items() if not is_detail(n) and _span(request, v) is not None]
    return all(_span(text, value) is not None for value in named)


def _without(text: str, value: str, protected: list[Span]) -> str | None:
    """`text` with the clause around `value` removed, or None when no clause comes out cleanly."""
    at = _span(text, value)
    if at is None:
        return None
    for cut in _cuts(text, *at):
        if not any(cut[0] < end and start < cut[1] for start, end in protected):
            return _tidy(text[: cut[0]] + text[cut[1] :])
    return None


def _cuts(text: str, begin: int, finish: int) -> Iterator[Span]:
    """Ways to remove the clause holding text[begin:finish], the most natural first: from the last
    clause break before it, else the whole sentence when it is not the first, else from a lead-in
    ("… using my": the first sentence states the need, so only the payment words go)."""
    start, end = _sentence_bounds(text, begin, finish)
    stop = _clause_stop(text, finish, end)
    breaks = [m.start() for m in _CLAUSE_BREAK.finditer(text, start, begin)]
    if breaks:
        yield breaks[-1], stop
    if start > 0:
        yield start, min(end + 1, len(text))
        return
    lead = _LEAD_IN.search(text, start, begin)
    if lead is not None and lead.end() == begin:
        yield lead.start(), stop


def _sentence_bounds(text: str, begin: int, finish: int) -> Span:
    """Where the sentence holding text[begin:finish] starts and where its final mark stands."""
    start = 0
    for mark in _SENTENCE_END.finditer(text, 0, begin):
        start = mark.end()
    found = _SENTENCE_END.search(text, finish)
    return start, found.start() if found else len(text)


def _clause_stop(text: str, after: int, end: int) -> int:
    """Where the clause holding the value ends: the next clause mark, else the sentence's mark."""
    found = _CLAUSE_END.search(text, after, end)
    return found.start() if found else end


def _tidy(text: str) -> str:
    text = re.sub(r"\s+([.?!,;])", r"\1", text)
    text = re.sub(r"[,;:]([.?!])", r"\1", text)
    return re.sub(r"\s{2,}", " ", text).strip()
