"""Feeling -> emotion condition: a multi-head classifier trained on the anchor instructions.

Two feature routes, both offline: `onnx` (all-MiniLM-L6-v2 int8 on ONNX Runtime, no torch) and
`tfidf` (numpy only). `auto` takes `onnx` when it is installed, else `tfidf`. Without numpy neither
route runs and `ClassifierUnavailable` says what to install (`pip install -e '.[emotion]'`).

    classify("I'm scared my refund will never come and I need it today").condition
"""

from __future__ import annotations

import importlib.util
import json
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from taue.contracts.emotions import FAMILY_OF, condition_id
from taue.simulator.classifier.errors import ClassifierUnavailable

ROUTES = ("auto", "onnx", "tfidf")
FEELINGS_PATH = Path(__file__).resolve().parent / "feelings.json"

__all__ = [
    "FEELINGS_PATH",
    "ROUTES",
    "Classification",
    "ClassifierUnavailable",
    "Feeling",
    "classify",
    "load_feelings",
    "resolve_route",
]


class Classification(BaseModel):
    """The condition a feeling maps to, with every head's probabilities."""

    condition: str
    family: str
    emotion: str
    politeness: str
    urgency: str
    trust: str
    route: str
    probabilities: dict[str, dict[str, float]]


class Feeling(BaseModel):
    """A hand-written free-text feeling with its labels (the held-out set in feelings.json).

    `direct` feelings name the emotion in plain words; `indirect` ones only describe a situation
    and behaviour, avoiding the emotion words of the phrase bank.
    """

    model_config = ConfigDict(frozen=True)

    text: str
    emotion: str
    politeness: str
    urgency: str
    trust: str
    style: Literal["direct", "indirect"]


def load_feelings() -> list[Feeling]:
    return [Feeling.model_validate(row) for row in json.loads(FEELINGS_PATH.read_text(encoding="utf-8"))]


def resolve_route(route: str = "auto") -> str:
    """`onnx` or `tfidf`; `ClassifierUnavailable` when the requested route is not installed."""
    if route not in ROUTES:
        raise ValueError(f"unknown route {route!r}; expected one of {', '.join(ROUTES)}")
    if importlib.util.find_spec("numpy") is None:
        raise ClassifierUnavailable(
            "the feeling classifier needs the emotion extra: pip install -e '.[emotion]'"
        )
    from taue.simulator.classifier.embedders import minilm_files

    if route == "tfidf":
        return route
    try:
        minilm_files()
    except ClassifierUnavailable:
        if route == "onnx":
            raise
        return "tfidf"
    return "onnx"


@cache
def _classifier(route: str):  # -> FeelingClassifier (typed loosely: numpy loads lazily)
    from taue.simulator.classifier.model import trained_classifier

    return trained_classifier(route)


def classify(text: str, route: str = "auto") -> Classification:
    """The most likely condition of a free-text feeling, head by head."""
    if not text.strip():
        raise ValueError("the feeling text is empty")
    chosen = resolve_route(route)
    probabilities = _classifier(chosen).probabilities([text])[0]
    best = {head: max(probs, key=probs.__getitem__) for head, probs in probabilities.items()}
    return Classification(
        condition=condition_id(best["emotion"], best["politeness"], best["urgency"], best["trust"]),
        family=FAMILY_OF[best["emotion"]],
        route=chosen,
        probabilities=probabilities,
        **best,
    )
