"""The scripted user's published satisfaction model.

The user starts with a patience budget set by the emotion condition. Events in the conversation
cost patience or restore some; when patience drops below zero the user leaves with
`###UNSATISFIED###`. A neutral twin (no emotion) uses the `NEUTRAL` profile. Every number here is
documented in docs/simulator.md, and `tolerated_needless_questions` is the table printed there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from simulator.taxonomy import POLITENESS, TRUST, URGENCY

URGENCY_BASE = {"low": 12.0, "moderate": 6.0, "high": 2.0}
POLITENESS_SHIFT = {"warm": 2.0, "neutral": 0.0, "cold": -1.0}
TRUST_SHIFT = {"trusting": 2.0, "cautious": 0.0, "skeptical": -1.0}
NEUTRAL = ("neutral", "moderate", "cautious")
"""Politeness, urgency and trust used for a task without emotion."""
MIN_BUDGET = 1.0

Event = Literal[
    "needless_question_answered",
    "needless_question_discoverable",
    "repeated_message",
    "stall",
    "error_shown",
    "goal_confirmed",
    "acknowledgement",
]
COSTS: dict[str, float] = {
    "needless_question_answered": 1.0,
    "needless_question_discoverable": 1.0,
    "repeated_message": 1.0,
    "stall": 0.5,
    "error_shown": 1.0,
    "goal_confirmed": -1.0,
    "acknowledgement": -0.5,
}
"""Patience cost of each event; negative costs restore patience (never above the starting budget)."""


def patience_budget(politeness: str, urgency: str, trust: str) -> float:
    return max(MIN_BUDGET, URGENCY_BASE[urgency] + POLITENESS_SHIFT[politeness] + TRUST_SHIFT[trust])


def tolerated_needless_questions(politeness: str, urgency: str, trust: str) -> int:
    """How many needless questions in a row (no progress between) the user puts up with."""
    return int(patience_budget(politeness, urgency, trust) // COSTS["needless_question_discoverable"])


def tolerance_table() -> list[tuple[str, str, str, int]]:
    return [
        (p, u, t, tolerated_needless_questions(p, u, t)) for u in URGENCY for p in POLITENESS for t in TRUST
    ]


@dataclass
class Satisfaction:
    """Patience bookkeeping for one conversation."""

    budget: float
    patience: float = field(init=False)
    events: list[tuple[int, str, float]] = field(default_factory=list)
    """(turn, event, patience after the event)."""

    def __post_init__(self) -> None:
        self.patience = self.budget

    def record(self, turn: int, event: Event) -> None:
        self.patience = min(self.budget, self.patience - COSTS[event])
        self.events.append((turn, event, self.patience))

    @property
    def exhausted(self) -> bool:
        return self.patience < 0

    def count(self, *events: str) -> int:
        return sum(1 for _, event, _ in self.events if event in events)

    def reason(self) -> str:
        """The events that cost patience, for the record of an UNSATISFIED episode."""
        costly = [event for _, event, _ in self.events if COSTS[event] > 0]
        counts = {event: costly.count(event) for event in dict.fromkeys(costly)}
        return ", ".join(f"{event} x{n}" for event, n in counts.items()) or "none"
