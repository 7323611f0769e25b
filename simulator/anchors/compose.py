"""Composing anchor instructions from the phrase bank, deterministically.

Each anchor is one feeling clause, sometimes a behaviour clause, and one clause per dimension
(politeness, urgency, trust) in a shuffled order, grouped into 2-4 sentences. The random choices of a
condition come from an RNG seeded with the condition id alone, so every condition's anchors are
reproducible on their own and independent of the others.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from taue.contracts.emotions import CONDITIONS, Condition
from taue.simulator.anchors.phrases import (
    BEHAVIOURS,
    FEELINGS,
    POLITENESS_PHRASES,
    TRUST_PHRASES,
    URGENCY_PHRASES,
)

ANCHORS_PER_CONDITION = 10
ANCHOR_POOL = 40
SEED_PREFIX = "taue-anchors-v1"
BEHAVIOUR_RATE = 0.6
MAX_CLAUSES_PER_SENTENCE = 3
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


class Anchor(BaseModel):
    """One anchor instruction: how the user of `condition` feels and behaves."""

    model_config = ConfigDict(frozen=True)

    condition: str
    index: int
    text: str


def sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE_END.split(text.strip()) if s]


def _lower_first(clause: str) -> str:
    return clause[0].lower() + clause[1:]


def _join(group: list[str], rng: random.Random) -> str:
    head, *rest = group
    if not rest:
        return f"{head}."
    if len(rest) == 1:
        return f"{head}{rng.choice((', and ', '; '))}{_lower_first(rest[0])}."
    return f"{head}, {_lower_first(rest[0])}, and {_lower_first(rest[1])}."


def _partitions(n_clauses: int) -> list[tuple[int, ...]]:
    """Every way to cut `n_clauses` into 2-4 runs of at most `MAX_CLAUSES_PER_SENTENCE` clauses."""
    found: list[tuple[int, ...]] = []

    def extend(prefix: tuple[int, ...], left: int) -> None:
        if left == 0:
            if 2 <= len(prefix) <= 4:
                found.append(prefix)
            return
        for size in range(1, min(MAX_CLAUSES_PER_SENTENCE, left) + 1):
            extend((*prefix, size), left - size)

    extend((), n_clauses)
    return found


class StreamAnchor(BaseModel):
    """An anchor of a condition's stream with the phrases it was composed of."""

    model_config = ConfigDict(frozen=True)

    text: str
    clauses: tuple[str, ...]


def compose(condition: Condition, rng: random.Random) -> str:
    """One anchor text for `condition`, drawn with `rng`."""
    return compose_parts(condition, rng).text


def compose_parts(condition: Condition, rng: random.Random) -> StreamAnchor:
    """One anchor for `condition` and its clauses, drawn with `rng`."""
    clauses = [rng.choice(FEELINGS[condition.emotion])]
    if rng.random() < BEHAVIOUR_RATE:
        clauses.append(rng.choice(BEHAVIOURS[condition.emotion]))
    dimensions = [
        rng.choice(POLITENESS_PHRASES[condition.politeness]),
        rng.choice(URGENCY_PHRASES[condition.urgency]),
        rng.choice(TRUST_PHRASES[condition.trust]),
    ]
    rng.shuffle(dimensions)
    clauses += dimensions
    groups, start = [], 0
    for size in rng.choice(_partitions(len(clauses))):
        groups.append(_join(clauses[start : start + size], rng))
        start += size
    return StreamAnchor(text=" ".join(groups), clauses=tuple(clauses))


def _stream(condition: Condition, count: int) -> list[StreamAnchor]:
    rng = random.Random(f"{SEED_PREFIX}:{condition.id}")
    found: dict[str, StreamAnchor] = {}
    while len(found) < count:
        drawn = compose_parts(condition, rng)
        found.setdefault(drawn.text, drawn)
    return list(found.values())


@cache
def anchor_stream(condition: Condition) -> tuple[StreamAnchor, ...]:
    """The first `ANCHOR_POOL` distinct anchors of the condition's seeded stream; the committed
    anchors are its first `ANCHORS_PER_CONDITION`. The Tracer picks a task's emotion text among those
    that fit its situation (`taue.simulator.anchors.fit`)."""
    return tuple(_stream(condition, ANCHOR_POOL))


def anchors_of(condition: Condition) -> list[Anchor]:
    """The `ANCHORS_PER_CONDITION` distinct anchors of one condition."""
    texts = [a.text for a in _stream(condition, ANCHORS_PER_CONDITION)]
    return [Anchor(condition=condition.id, index=i, text=t) for i, t in enumerate(texts)]


def generate_anchors(conditions: Iterable[Condition] = CONDITIONS) -> list[Anchor]:
    """All anchors of `conditions`, in taxonomy order then index order."""
    return [a for c in conditions for a in anchors_of(c)]


def dumps_anchors(anchors: Iterable[Anchor]) -> str:
    """The data-file format: a JSON list with one entry per line (readable diffs)."""
    lines = [json.dumps(a.model_dump(), ensure_ascii=False) for a in anchors]
    return "[\n" + ",\n".join(lines) + "\n]\n"


def write_anchors(anchors: Iterable[Anchor], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(dumps_anchors(anchors), encoding="utf-8")
    tmp.replace(path)
