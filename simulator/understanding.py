"""Reading an agent message the way the scripted user needs to: deterministic keyword rules.

The rules are deliberately simple and published (docs/simulator.md), so every decision the scripted
user makes can be traced back to words in the agent's message.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_SENTENCE = re.compile(r"[^.?!\n]+[.?!]?")
_REQUEST_OPENERS = (
    "please provide",
    "please tell",
    "please share",
    "please confirm",
    "please give",
    "provide your",
)
CONFIRMATION_PHRASES = (
    "shall i",
    "should i",
    "do you want me",
    "would you like me",
    "may i proceed",
    "can i proceed",
    "shall we",
    "ok to proceed",
    "okay to proceed",
    "go ahead",
    "do you confirm",
    "please confirm",
    "is that correct",
    "is this correct",
    "is that right",
    "(yes/no)",
    "yes or no",
)
COMPLETION_WORDS = (
    "done",
    "completed",
    "complete",
    "cancelled",
    "canceled",
    "booked",
    "updated",
    "changed",
    "modified",
    "processed",
    "submitted",
    "refunded",
    "issued",
    "sent",
    "exchanged",
    "returned",
    "added",
    "transferred",
    "successfully",
    "has been",
    "have been",
    "is now",
    "are now",
    "here is",
    "here are",
    "the total",
)
ACKNOWLEDGEMENTS = (
    "sorry",
    "apologi",
    "i understand",
    "understandable",
    "i hear you",
    "i can see",
    "frustrating",
    "i know this",
    "thank you for your patience",
    "that sounds",
    "i appreciate",
)
ERROR_LEAKS = ("error executing tool", "traceback", "exception", "validation error", "error:")

FACT_ALIASES: dict[str, tuple[str, ...]] = {
    "user_id": ("user id", "userid", "username", "account id"),
    "email": ("email", "e-mail"),
    "zip": ("zip", "postal code", "postcode"),
    "reservation_id": ("reservation id", "reservation number", "confirmation number", "booking reference"),
    "order_id": ("order id", "order number"),
    "payment_id": ("payment id", "payment method", "which card"),
    "payment_method_id": ("payment method", "payment id", "which card"),
    "flight_number": ("flight number",),
    "item_ids": ("item id", "item ids"),
    "new_item_ids": ("new item id", "new item ids"),
    "product_id": ("product id",),
}


def fact_patterns(name: str) -> tuple[str, ...]:
    """The phrases that mean a question is about fact `name`."""
    spaced = name.replace("_", " ").lower()
    patterns = {spaced, name.lower()}
    if spaced.endswith("s") and len(spaced) > 3:
        patterns.add(spaced[:-1])
    patterns.update(FACT_ALIASES.get(name, ()))
    return tuple(sorted(patterns, key=len, reverse=True))


def normalise(text: str) -> str:
    return " ".join(text.lower().split())


def _is_question(sentence: str) -> bool:
    stripped = sentence.strip().lower()
    return stripped.endswith("?") or stripped.startswith(_REQUEST_OPENERS)


@dataclass
class Reading:
    """What the scripted user took from one agent message."""

    questions: list[str] = field(default_factory=list)
    facts_asked: list[str] = field(default_factory=list)
    asks_confirmation: bool = False
    claims_completion: bool = False
    acknowledges: bool = False
    leaks_error: bool = False


def read_message(message: str, fact_names: list[str]) -> Reading:
    text = normalise(message)
    questions = [s.strip() for s in _SENTENCE.findall(message) if s.strip() and _is_question(s)]
    question_text = normalise(" ".join(questions))
    asked = [name for name in fact_names if any(p in question_text for p in fact_patterns(name))]
    return Reading(
        questions=questions,
        facts_asked=asked,
        asks_confirmation=bool(questions)
        and not asked
        and any(p in question_text for p in CONFIRMATION_PHRASES),
        claims_completion=any(word in text for word in COMPLETION_WORDS),
        acknowledges=any(word in text for word in ACKNOWLEDGEMENTS),
        leaks_error=any(word in text for word in ERROR_LEAKS),
    )


def contains_all(message: str, evidence: list[str]) -> bool:
    """Every evidence string occurs in the message (case-insensitive, commas ignored)."""
    text = message.lower().replace(",", "")
    return all(item.lower().replace(",", "") in text for item in evidence)
