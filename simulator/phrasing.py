"""Colouring the scripted user's words by the emotion condition, deterministically.

Only the wording changes with the condition; what the user says (facts, requests, answers) comes
from the scenario alone.
"""

from __future__ import annotations

import random

FAMILY_OPENERS: dict[str, tuple[str, ...]] = {
    "anger": (
        "This is getting ridiculous.",
        "I'm honestly fed up with this.",
        "I can't believe I have to deal with this.",
    ),
    "fear": (
        "I'm really worried about this.",
        "I'm nervous this will go wrong.",
        "This has me quite scared.",
    ),
    "disgust": (
        "Frankly, this whole thing is unpleasant.",
        "I find this situation distasteful.",
        "Ugh, this again.",
    ),
    "sadness": (
        "I'm pretty down about this.",
        "This has been a disappointing week.",
        "I feel like nothing goes right.",
    ),
    "enjoyment": (
        "Good news on my side today!",
        "I'm in a great mood, so let's sort this out.",
        "Things are looking up.",
    ),
    "neutral": ("",),
}
POLITE_OPENERS = {
    "warm": ("Hi there, thanks so much for helping.", "Hello! I appreciate your help."),
    "neutral": ("Hello.", "Hi."),
    "cold": ("", "Listen."),
}
URGENCY_MARKERS = {
    "low": ("", "No rush."),
    "moderate": ("", "I'd like this done soon."),
    "high": ("I need this done right now.", "Please hurry, this is urgent."),
}
SKEPTIC_MARKERS = ("I hope you actually get this right.", "I'm not convinced this will work.")
THANKS = {"warm": "Thank you so much!", "neutral": "Thanks.", "cold": "Fine."}
ANNOYED = {
    "warm": "I'm sorry, but I already told you that: ",
    "neutral": "I already said that: ",
    "cold": "I told you already: ",
}


class Voice:
    """The condition-dependent wording of one simulated user; same seed, same words."""

    def __init__(self, family: str, politeness: str, urgency: str, trust: str, seed: int) -> None:
        self.family, self.politeness, self.urgency, self.trust = family, politeness, urgency, trust
        self._rng = random.Random(seed)

    def _pick(self, options: tuple[str, ...]) -> str:
        return self._rng.choice(options)

    def opening(self, body: str) -> str:
        parts = [
            self._pick(POLITE_OPENERS[self.politeness]),
            self._pick(FAMILY_OPENERS[self.family]),
            body,
            self._pick(URGENCY_MARKERS[self.urgency]),
        ]
        if self.trust == "skeptical":
            parts.append(self._pick(SKEPTIC_MARKERS))
        return _join(parts)

    def reply(self, body: str) -> str:
        marker = self._pick(URGENCY_MARKERS[self.urgency]) if self.urgency == "high" else ""
        return _join([body, marker])

    def thanks(self) -> str:
        return THANKS[self.politeness]

    def already_said(self, statement: str) -> str:
        return ANNOYED[self.politeness] + statement

    def leaving_unsatisfied(self) -> str:
        if self.politeness == "warm":
            return "I'm sorry, but this isn't working for me and I need to go."
        return "This isn't working. I'm done here."


def _join(parts: list[str]) -> str:
    return " ".join(part for part in parts if part)
