"""The scripted user's published satisfaction model (v1).

The user starts with a patience budget set by the emotion condition: urgency, politeness and trust
each move it, and so does the emotion (of the 22). Events in the conversation cost patience or
restore some; when patience drops below zero the user leaves with `###UNSATISFIED###`. Emotions
that call for reassurance (the fear and sadness families) also charge `distress_ignored` once when
the agent's first reply neither acknowledges the user nor gets anything done. A neutral twin (no
emotion) uses the `NEUTRAL` profile. Every number here is documented in docs/simulator.md, and
`tolerance_table` is the table printed there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

from taue.contracts.emotions import EMOTIONS, FAMILY_OF, POLITENESS, TRUST, URGENCY

URGENCY_BASE = {"low": 12.0, "moderate": 6.0, "high": 2.0}
POLITENESS_SHIFT = {"warm": 2.0, "neutral": 0.0, "cold": -1.0}
TRUST_SHIFT = {"trusting": 2.0, "cautious": 0.0, "skeptical": -1.0}
FAMILY_SHIFT = {"anger": -1.0, "fear": 0.0, "disgust": 0.0, "sadness": 0.0, "enjoyment": 0.0}
EMOTION_SHIFT_OVERRIDES = {
    "exasperation": -2.0,
    "desperation": -1.0,
    "repugnance": -1.0,
    "relief": 1.0,
    "peace": 1.0,
}
"""Emotions whose patience differs from their family's: the most worn-out ones and the calmest."""
EMOTION_SHIFT: dict[str, float] = {
    emotion: EMOTION_SHIFT_OVERRIDES.get(emotion, FAMILY_SHIFT[FAMILY_OF[emotion]]) for emotion in EMOTIONS
}
REASSURANCE_FAMILIES = ("fear", "sadness")
NEEDS_REASSURANCE: frozenset[str] = frozenset(e for e in EMOTIONS if FAMILY_OF[e] in REASSURANCE_FAMILIES)
NEUTRAL = ("neutral", "moderate", "cautious")
"""Politeness, urgency and trust used for a task without emotion (emotion shift 0, no reassurance)."""
MIN_BUDGET = 1.0
ACKNOWLEDGEMENT_LIMIT = 2
"""Acknowledgements restore patience at most this many times per conversation (no farming with 'sorry')."""

Event = Literal[
    "needless_question_answered",
    "needless_question_discoverable",
    "repeated_message",
    "stall",
    "error_shown",
    "distress_ignored",
    "unconfirmed_claim",
    "unjustified_refusal",
    "goal_confirmed",
    "acknowledgement",
]
COSTS: dict[str, float] = {
    "needless_question_answered": 1.0,
    "needless_question_discoverable": 1.0,
    "repeated_message": 1.0,
    "stall": 0.5,
    "error_shown": 1.0,
    "distress_ignored": 1.0,
    "unconfirmed_claim": 1.0,
    "unjustified_refusal": 0.5,
    "goal_confirmed": -1.0,
    "acknowledgement": -0.5,
}
"""Patience cost of each event; negative costs restore patience (never above the starting budget)."""
NEEDLESS_EVENTS = ("needless_question_answered", "needless_question_discoverable")


@dataclass(frozen=True)
class Profile:
    """What the emotion contributes: a patience shift and whether it calls for reassurance."""

    shift: float
    reassurance: bool

    @property
    def label(self) -> str:
        sign = "+" if self.shift > 0 else ("−" if self.shift < 0 else "±")
        return f"{sign}{abs(self.shift):g}{' R' if self.reassurance else ''}"


def profile(emotion: str | None) -> Profile:
    if emotion is None:
        return Profile(0.0, False)
    return Profile(EMOTION_SHIFT[emotion], emotion in NEEDS_REASSURANCE)


def patience_budget(politeness: str, urgency: str, trust: str, emotion: str | None = None) -> float:
    """Starting patience: urgency base + politeness, trust and emotion shifts, at least `MIN_BUDGET`."""
    raw = URGENCY_BASE[urgency] + POLITENESS_SHIFT[politeness] + TRUST_SHIFT[trust] + profile(emotion).shift
    return max(MIN_BUDGET, raw)


def tolerated_needless_questions(
    politeness: str, urgency: str, trust: str, emotion: str | None = None
) -> int:
    """How many needless questions the user puts up with from an agent that makes no progress between
    them and never acknowledges the user (so a reassurance-seeking user also pays `distress_ignored`)."""
    budget = patience_budget(politeness, urgency, trust, emotion)
    if profile(emotion).reassurance:
        budget -= COSTS["distress_ignored"]
    return max(0, math.floor(budget / COSTS["needless_question_discoverable"]))


def profiles() -> dict[Profile, list[str]]:
    """The distinct emotion profiles, each with its emotions, in taxonomy order."""
    grouped: dict[Profile, list[str]] = {}
    for emotion in EMOTIONS:
        grouped.setdefault(profile(emotion), []).append(emotion)
    return grouped


def tolerance_table() -> list[tuple[str, str, str, dict[str, int]]]:
    """(politeness, urgency, trust, {emotion: tolerated needless questions}) for all 594 conditions."""
    return [
        (p, u, t, {e: tolerated_needless_questions(p, u, t, e) for e in EMOTIONS})
        for u in URGENCY
        for p in POLITENESS
        for t in TRUST
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
        if event == "acknowledgement" and self.count("acknowledgement") >= ACKNOWLEDGEMENT_LIMIT:
            return
        self.patience = min(self.budget, self.patience - COSTS[event])
        self.events.append((turn, event, self.patience))

    @property
    def exhausted(self) -> bool:
        return self.patience < 0

    def count(self, *events: str) -> int:
        return sum(1 for _, event, _ in self.events if event in events)

    def reason(self) -> str:
        """The events that cost patience, for the record of an UNSATISFIED episode."""
        return costly_events([event for _, event, _ in self.events]) or "none"

    def main_complaint(self) -> str | None:
        """The costly event that took the most patience (ties: the latest), for the parting words."""
        totals: dict[str, float] = {}
        for _, event, _ in self.events:
            if COSTS[event] > 0:
                totals[event] = totals.pop(event, 0.0) + COSTS[event]
        return max(reversed(list(totals)), key=totals.__getitem__) if totals else None


def costly_events(events: list[str]) -> str:
    """The events that cost patience, counted in order of first occurrence: "stall x3, error_shown x1"
    (empty when none did)."""
    costly = [event for event in events if COSTS.get(event, 0) > 0]
    return ", ".join(f"{event} x{costly.count(event)}" for event in dict.fromkeys(costly))


def _ordered_profiles() -> list[tuple[Profile, list[str]]]:
    return sorted(profiles().items(), key=lambda item: (item[0].reassurance, item[0].shift))


def _signed(value: float) -> str:
    return f"{value:+g}".replace("-", "−") if value else "0"


def profiles_markdown() -> str:
    """The emotion-profile table of docs/simulator.md (between its `emotion-profiles` markers)."""
    lines = [
        "| profile | patience shift | calls for reassurance | emotions |",
        "|---|---|---|---|",
    ]
    for prof, emotions in _ordered_profiles():
        lines.append(
            f"| {prof.label} | {_signed(prof.shift)} | {'yes' if prof.reassurance else 'no'} "
            f"| {', '.join(emotions)} |"
        )
    return "\n".join(lines)


def tolerance_markdown() -> str:
    """The tolerance table of docs/simulator.md (between its `tolerance-table` markers): needless
    questions tolerated for each urgency x politeness x trust row and each emotion profile column."""
    ordered = _ordered_profiles()
    header = ["urgency", "politeness", "trust", "patience before emotion", *(p.label for p, _ in ordered)]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for urgency in URGENCY:
        for politeness in POLITENESS:
            for trust in TRUST:
                base = patience_budget(politeness, urgency, trust)
                cells = [
                    str(tolerated_needless_questions(politeness, urgency, trust, emotions[0]))
                    for _, emotions in ordered
                ]
                lines.append(f"| {urgency} | {politeness} | {trust} | {base:g} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
