"""The emotion taxonomy: 22 emotions in 5 families × politeness × urgency × trust = 594 conditions.

Condition ids are stable strings `emotion.politeness.urgency.trust` (e.g.
`frustration.cold.high.skeptical`); `CONDITIONS` lists them in a fixed order, so a condition's index
is stable too.
"""

from __future__ import annotations

from itertools import product
from typing import Literal

from pydantic import BaseModel, ConfigDict

FAMILIES: dict[str, tuple[str, ...]] = {
    "anger": ("annoyance", "frustration", "argumentativeness", "bitterness", "exasperation"),
    "fear": ("anxiety", "nervousness", "dread", "desperation"),
    "disgust": ("dislike", "aversion", "distaste", "repugnance"),
    "sadness": ("disappointment", "discouragement", "helplessness", "hopelessness", "sorrow"),
    "enjoyment": ("relief", "pride", "peace", "excitement"),
}
POLITENESS = ("warm", "neutral", "cold")
URGENCY = ("low", "moderate", "high")
TRUST = ("trusting", "cautious", "skeptical")

Politeness = Literal["warm", "neutral", "cold"]
Urgency = Literal["low", "moderate", "high"]
Trust = Literal["trusting", "cautious", "skeptical"]

FAMILY_OF: dict[str, str] = {emotion: family for family, emotions in FAMILIES.items() for emotion in emotions}
EMOTIONS: tuple[str, ...] = tuple(FAMILY_OF)


class Condition(BaseModel):
    """One of the 594 controlled emotion conditions."""

    model_config = ConfigDict(frozen=True)

    family: str
    emotion: str
    politeness: Politeness
    urgency: Urgency
    trust: Trust

    @property
    def id(self) -> str:
        return condition_id(self.emotion, self.politeness, self.urgency, self.trust)


def condition_id(emotion: str, politeness: str, urgency: str, trust: str) -> str:
    return f"{emotion}.{politeness}.{urgency}.{trust}"


CONDITIONS: tuple[Condition, ...] = tuple(
    Condition(family=FAMILY_OF[e], emotion=e, politeness=p, urgency=u, trust=t)
    for e, p, u, t in product(EMOTIONS, POLITENESS, URGENCY, TRUST)
)
BY_ID: dict[str, Condition] = {c.id: c for c in CONDITIONS}


def condition(condition_id_: str) -> Condition:
    """The condition with this id, or a `KeyError` that says what a valid id looks like."""
    try:
        return BY_ID[condition_id_]
    except KeyError:
        raise KeyError(
            f"unknown emotion condition {condition_id_!r}; expected 'emotion.politeness.urgency.trust', "
            f"e.g. {CONDITIONS[0].id!r}"
        ) from None
