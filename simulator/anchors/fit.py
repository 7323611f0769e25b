"""Which emotions, feelings and anchor instructions fit which situations: the table `fit.toml` as types.

Every intent declares its situation and whether it follows up an earlier contact; every emotion the
situations it fits (explicit rows, docs/emotions.md). A phrase of the anchor phrase bank fits what its
emotion fits, unless the table narrows it (`phrases.situations`) or keeps it for follow-ups
(`phrases.follow_up_only`). Two rules are derived from the semantic lints' word lists rather than
listed: a phrase with patience words does not fit high urgency, one with hurry words not low urgency;
one with trusting words does not fit skepticism, one with suspicious words not trust. An anchor fits
when each of its clauses fits.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, field_validator

from taue.contracts.emotions import FAMILIES, Condition

FIT_PATH = Path(__file__).resolve().parent / "fit.toml"
Contact = Literal["first", "follow-up"]
FOLLOW_UP = " follow-up"


class IntentFit(BaseModel):
    model_config = ConfigDict(frozen=True)

    situation: str
    contact: Contact


class FitTable(BaseModel):
    """The table as read: situations weightiest first, emotion rows by family, phrases, intents."""

    model_config = ConfigDict(frozen=True)

    situations: dict[str, str]
    emotions: dict[str, dict[str, tuple[str, ...]]]
    phrase_situations: dict[str, tuple[str, ...]]
    follow_up_only: frozenset[str]
    intents: dict[str, dict[str, IntentFit]]

    @field_validator("emotions")
    @classmethod
    def _families_as_the_taxonomy(cls, rows: dict[str, dict[str, tuple[str, ...]]]) -> dict:
        named = {family: set(emotions) for family, emotions in rows.items()}
        expected = {family: set(emotions) for family, emotions in FAMILIES.items()}
        if named != expected:
            raise ValueError(f"emotion rows must follow the taxonomy's families: {named} vs {expected}")
        return rows

    @property
    def order(self) -> tuple[str, ...]:
        return tuple(self.situations)

    def emotion_situations(self, emotion: str) -> tuple[str, ...]:
        return next(rows[emotion] for rows in self.emotions.values() if emotion in rows)


def _intent(text: str) -> IntentFit:
    if text.endswith(FOLLOW_UP):
        return IntentFit(situation=text.removesuffix(FOLLOW_UP), contact="follow-up")
    return IntentFit(situation=text, contact="first")


@cache
def fit_table(path: Path = FIT_PATH) -> FitTable:
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    phrases = raw["phrases"]
    table = FitTable(
        situations=raw["situations"],
        emotions=raw["emotions"],
        phrase_situations=phrases.get("situations", {}),
        follow_up_only=frozenset(phrases.get("follow_up_only", ())),
        intents={d: {n: _intent(t) for n, t in rows.items()} for d, rows in raw["intents"].items()},
    )
    _check_situations(table)
    return table


def _check_situations(table: FitTable) -> None:
    named = [s for rows in table.emotions.values() for row in rows.values() for s in row]
    named += [s for row in table.phrase_situations.values() for s in row]
    named += [f.situation for rows in table.intents.values() for f in rows.values()]
    unknown = sorted(set(named) - set(table.situations))
    if unknown:
        raise ValueError(f"fit.toml names situations it does not define: {unknown}")


def intent_fit(domain: str, intent: str) -> IntentFit:
    """The situation an intent puts the customer in; `KeyError` when the table lacks it."""
    try:
        return fit_table().intents[domain][intent]
    except KeyError:
        raise KeyError(f"simulator/anchors/fit.toml has no row for intent {intent!r} of {domain!r}") from None


def emotion_fits(emotion: str, situation: str) -> bool:
    return situation in fit_table().emotion_situations(emotion)


def weight(situation: str) -> int:
    """0 for the weightiest situation; higher is lighter."""
    return fit_table().order.index(situation)


def task_situation(situations: Iterable[str]) -> str:
    """The situation of a task: the weightiest of its needs'."""
    return min(situations, key=weight)


def task_contact(contacts: Iterable[Contact]) -> Contact:
    """A follow-up only when every need follows up an earlier contact: new needs have no history."""
    return "follow-up" if all(c == "follow-up" for c in contacts) else "first"


# ------------------------------------------------------------------------------------ phrases


def _urgency_fits(phrase: str, urgency: str) -> bool:
    from taue.simulator.anchors.clashes import PATIENT, URGENT

    return not (urgency == "high" and PATIENT.search(phrase)) and not (
        urgency == "low" and URGENT.search(phrase)
    )


def _trust_fits(phrase: str, trust: str) -> bool:
    from taue.simulator.anchors.clashes import SUSPICIOUS, TRUSTING

    return not (trust == "skeptical" and TRUSTING.search(phrase)) and not (
        trust == "trusting" and SUSPICIOUS.search(phrase)
    )


@cache
def phrase_fits(phrase: str, condition: Condition, situation: str, contact: Contact) -> bool:
    """Whether one phrase of the bank may speak for `condition` in `situation` and `contact`."""
    table = fit_table()
    situations = table.phrase_situations.get(phrase) or table.emotion_situations(condition.emotion)
    return (
        situation in situations
        and (contact == "follow-up" or phrase not in table.follow_up_only)
        and _urgency_fits(phrase, condition.urgency)
        and _trust_fits(phrase, condition.trust)
    )


def clauses_fit(clauses: Sequence[str], condition: Condition, situation: str, contact: Contact) -> bool:
    return all(phrase_fits(c, condition, situation, contact) for c in clauses)


def fitting_feelings(condition: Condition, situation: str, contact: Contact) -> list[str]:
    from taue.simulator.anchors.phrases import FEELINGS

    return [f for f in FEELINGS[condition.emotion] if phrase_fits(f, condition, situation, contact)]


def fitting_anchors(condition: Condition, situation: str, contact: Contact) -> list[str]:
    """The anchors of the condition's stream (`ANCHOR_POOL`) whose every clause fits."""
    from taue.simulator.anchors.compose import anchor_stream

    return [a.text for a in anchor_stream(condition) if clauses_fit(a.clauses, condition, situation, contact)]


def recorded_situation(domain: str, stages: Mapping[str, Any]) -> tuple[str | None, Contact]:
    """A task's situation and contact: as the build recorded them, else from its intents (None when
    neither is known)."""
    contact: Contact = "follow-up" if stages.get("contact") == "follow-up" else "first"
    situation = stages.get("situation")
    if isinstance(situation, str):
        return situation, contact
    try:
        fits = [intent_fit(domain, name) for name in stages.get("intents", [])]
    except KeyError:
        return None, contact
    if not fits:
        return None, contact
    return task_situation(f.situation for f in fits), task_contact(f.contact for f in fits)


def text_under(condition: Condition, domain: str, stages: Mapping[str, Any]) -> str:
    """The emotion text of a task played under another condition (`--condition`): the first anchor of
    that condition fitting the task's situation and contact (a situation the emotion does not fit, or
    none known, gives way to the first one it fits)."""
    situation, contact = recorded_situation(domain, stages)
    if situation is None or not emotion_fits(condition.emotion, situation):
        situation = fit_table().emotion_situations(condition.emotion)[0]
    return fitting_anchors(condition, situation, contact)[0]


def emotion_grid() -> str:
    """The family x situation table as markdown (docs/emotions.md holds it; a test compares)."""
    table = fit_table()
    order = table.order
    lines = ["| family | emotion | " + " | ".join(order) + " |", "|---|---|" + "---|" * len(order)]
    for family, rows in table.emotions.items():
        for emotion, situations in rows.items():
            marks = " | ".join("✓" if s in situations else "" for s in order)
            lines.append(f"| {family} | {emotion} | {marks} |")
    return "\n".join(lines)
