"""Held-out accuracy per head: train on anchors 0-7, test on anchors 8-9 and on the hand-written feelings."""

from __future__ import annotations

import numpy as np
from pydantic import BaseModel

from taue.simulator.anchors import load_anchors
from taue.simulator.classifier import load_feelings
from taue.simulator.classifier.model import HEAD_LABELS, anchor_labels, cached_features, train_on_anchors

TRAIN_INDICES = range(8)


class HeadScore(BaseModel):
    head: str
    classes: int
    chance: float
    anchors_8_9: float
    feelings: float
    feelings_indirect: float


class Evaluation(BaseModel):
    route: str
    train_anchors: int
    test_anchors: int
    feelings: int
    feelings_indirect: int
    heads: list[HeadScore]

    def score(self, head: str) -> HeadScore:
        return next(s for s in self.heads if s.head == head)


def _accuracy(predicted: list[str], expected: list[str]) -> float:
    return float(np.mean([p == e for p, e in zip(predicted, expected, strict=True)]))


def evaluate(route: str) -> Evaluation:
    """Scores of the `route` classifier trained on anchors 0-7 only."""
    anchors = list(load_anchors())
    train = [a for a in anchors if a.index in TRAIN_INDICES]
    test = [a for a in anchors if a.index not in TRAIN_INDICES]
    feelings = load_feelings()
    model = train_on_anchors(route, train)
    on_test = model.predict_features(cached_features(model.embedder, [a.text for a in test]))
    on_feelings = model.predict_features(model.embedder.encode([f.text for f in feelings]))
    indirect = [i for i, f in enumerate(feelings) if f.style == "indirect"]
    test_labels = anchor_labels(test)
    heads = [
        HeadScore(
            head=head,
            classes=len(labels),
            chance=1 / len(labels),
            anchors_8_9=_accuracy(on_test[head], test_labels[head]),
            feelings=_accuracy(on_feelings[head], [getattr(f, head) for f in feelings]),
            feelings_indirect=_accuracy(
                [on_feelings[head][i] for i in indirect], [getattr(feelings[i], head) for i in indirect]
            ),
        )
        for head, labels in HEAD_LABELS.items()
    ]
    return Evaluation(
        route=route,
        train_anchors=len(train),
        test_anchors=len(test),
        feelings=len(feelings),
        feelings_indirect=len(indirect),
        heads=heads,
    )
