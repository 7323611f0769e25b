"""A policy reason in other words, for the `policy-paraphraser` judge agent (`style_agents.py`).

A real agent explains a refusal in its own words, not in the policy's exact phrases. `paraphrase`
rewords the phrases a task lists as its refusal reasons with synonyms and rephrased clauses ("cannot be
cancelled" -> "can't be called off", "60 days" -> "60 calendar days", "basic economy" -> "basic-economy
fares"), and `reworded` makes sure that none of the listed phrases is left, token for token, in what
the agent says (`taue.contracts.text.contains`, as the scripted user matches them).
"""

from __future__ import annotations

import re

from taue.contracts.text import contains

CLAUSES: tuple[tuple[str, str], ...] = (
    (r"\bmaximum of (\w+)", r"no more than \1"),
    (r"\blimit of (\w+)", r"at most \1"),
    (r"\bonce every (\w+)", r"a single time in each \1"),
    (r"\bonce (a|per) (\w+)", r"a single time each \2"),
    (r"\b(\d+) or older\b", r"\1-plus"),
    (r"\bat least (\d+)", r"\1 or over"),
    (r"\bunder (\d+)", r"younger than \1"),
    (r"\baged (\d+)", r"of \1-plus"),
    (r"\b(\d+)-day\b", r"\1 calendar day"),
    (r"\b(\d{1,3}),?(\d{3})\b", r"\1 thousand"),
    (r"\b(\w+) (days|weeks)\b", r"\1 calendar \2"),
    (r"\b(\w+) hours\b", r"\1 full hours"),
    (r"\bbasic economy\b", "basic-economy fares"),
    (r"\bbusiness class\b", "business-class"),
    (r"\btravel insurance\b", "trip protection"),
    (r"\bnumber of passengers\b", "passenger count"),
    (r"\bnew booking\b", "fresh reservation"),
    (r"\breplacement card\b", "new card in its place"),
    (r"\bdispute window\b", "time frame for disputes"),
    (r"\btook place\b", "is in the past"),
    (r"\btip-off\b", "the game's start"),
    (r"\bno-show\b", "missed booking"),
    (r"\bno show\b", "missed booking"),
    (r"\bnon[- ]?refundable\b", "no-refund"),
    (r"\bcredit_card or bank_transfer\b", "a card or a wire"),
    (r"\bcredit card or (a )?bank transfer\b", "a card or a wire"),
    (r"\btoday's date\b", "the current date"),
    (r"\bdated (today|\d{4}-\d\d-\d\d)\b", "carrying the current date"),
    (r"\bsenior plan is only\b", "plan for seniors is reserved"),
    (r"\bdriver age\b", "age of the driver"),
    (r"\bminimum term\b", "shortest commitment"),
    (r"\bminimum age\b", "lowest age"),
    (r"\bage range\b", "age bracket"),
    (r"\bper order\b", "in one order"),
    (r"\bevents team\b", "events staff"),
    (r"\blast seating\b", "final seating"),
    (r"\bopening hours\b", "trading hours"),
    (r"\bkitchen has started\b", "cooks have begun"),
    (r"\bout for delivery\b", "on its way to you"),
    (r"\bready for pickup\b", "waiting to be collected"),
    (r"\bcancel and rebook\b", "call it off and reserve again"),
    (r"\bbalance does not cover\b", "balance falls short of"),
    (r"\bnot active\b", "inactive"),
    (r"\bnot pending\b", "past the open stage"),
    (r"\bnot covered\b", "excluded"),
    (r"\bdoes not cover\b", "excludes"),
    (r"\bnot (on|in) (their|the) schedule\b", "off \\2 rota"),
    (r"\boriginal payment method\b", "the method first used to pay"),
    (r"\boriginal payment\b", "the first way you paid"),
    (r"\bnothing to refund\b", "nothing to pay back"),
    (r"\ba gift card\b", "a gift-card balance"),
    (r"\balready took place\b", "is in the past"),
)
"""Clauses said another way, in order (numbers and fixed terms first)."""
WORDS: dict[str, str] = {
    "cannot": "can't",
    "can't": "is not able to",
    "isn't": "is not",
    "doesn't": "does not",
    "cancelled": "called off",
    "changed": "altered",
    "removed": "taken off",
    "reactivated": "switched back on",
    "refunded": "paid back",
    "refund": "repayment",
    "completed": "finished",
    "happened": "occurred",
    "shipped": "sent out",
    "delivered": "handed over",
    "prepared": "cooked",
    "preparation": "the cooking stage",
    "started": "begun",
    "full": "out of room",
    "closed": "shut",
    "hold": "block",
    "window": "time frame",
    "capacity": "room",
    "deadline": "cutoff",
    "passed": "gone by",
    "listed": "published",
    "list": "published menu",
    "booked": "reserved",
    "taken": "claimed",
    "schedule": "rota",
    "covered": "included",
    "cover": "include",
    "covers": "includes",
    "only": "solely",
    "never": "not ever",
    "already": "previously",
    "insufficient": "too little",
    "funds": "money",
    "money": "cash",
    "enough": "sufficient",
    "cap": "ceiling",
    "too": "overly",
    "old": "aged",
    "young": "youthful",
    "large": "big",
    "largest": "biggest",
    "same": "identical",
    "different": "other",
    "another": "one more",
    "film": "title",
    "movie": "picture",
    "seats": "places",
    "seat": "place",
    "tickets": "passes",
    "lost": "missing",
    "credit": "balance owed to you",
    "pending": "still open",
    "orders": "purchases",
    "payment": "means of paying",
    "original": "first",
    "gift": "present",
    "active": "running",
    "paused": "on hold",
    "pause": "break",
    "used": "spent",
    "exactly": "precisely",
    "price": "cost",
    "offer": "deal",
    "available": "open",
    "free": "open",
    "work": "practise",
    "one": "a single",
    "not": "in no way",
    "no": "zero",
    "above": "beyond",
    "close": "near",
    "rebook": "reserve again",
    "drop": "leave",
    "dropped": "left",
    "withdrawal": "leaving",
    "withdraw": "leave",
    "add": "join",
}
"""Single words said another way (whole words, after the clauses)."""
_WORD = re.compile(r"[A-Za-z']+")


def paraphrase(phrase: str) -> str:
    """`phrase` in other words: its clauses rephrased, then its words swapped for synonyms."""
    text = phrase
    for pattern, replacement in CLAUSES:
        text = re.sub(pattern, replacement, text, flags=re.IGNORECASE)
    if text != phrase:
        return text
    return _WORD.sub(lambda m: WORDS.get(m.group(0).lower(), m.group(0)), text)


def reworded(reasons: list[str], avoid: list[str]) -> str:
    """The first reasons (the first two) in other words, none of `avoid` left in them token for token;
    a listed phrase still there is spelled with hyphens ("basic-economy"), which reads the same."""
    text = "; ".join(dict.fromkeys(paraphrase(reason) for reason in reasons[:2]))
    for phrase in sorted(avoid, key=len, reverse=True):
        if contains(text, phrase):
            text = _hyphenate(text, phrase)
    return text


def _hyphenate(text: str, phrase: str) -> str:
    words = phrase.split()
    if len(words) > 1:
        spaced = r"\W+".join(re.escape(w) for w in words)
        return re.sub(spaced, "-".join(words), text, flags=re.IGNORECASE)
    return re.sub(rf"\b{re.escape(phrase)}\b", f"{phrase}-wise", text, flags=re.IGNORECASE)
