"""The balanced design of emotion conditions and the feelings written for them."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from taue.contracts.emotions import BY_ID, CONDITIONS, FAMILIES
from taue.simulator.anchors.fit import fit_table
from taue.tracer.conditions import (
    BLOCK,
    DESIGN_DOMAINS,
    chi_square,
    classified,
    design_slot,
    designed_condition,
    emotion_for,
    emotion_text,
    feeling_text,
)


@pytest.mark.parametrize("seed", [0, 1])
def test_the_design_visits_every_condition_once(seed: int) -> None:
    conditions = [designed_condition(slot, seed).id for slot in range(len(CONDITIONS))]
    assert len(set(conditions)) == len(CONDITIONS) == 594


@pytest.mark.parametrize("seed", [0, 3])
def test_every_domain_block_is_balanced(seed: int) -> None:
    for domain in DESIGN_DOMAINS:
        block = [designed_condition(design_slot(domain, p), seed) for p in range(BLOCK)]
        assert len({c.id for c in block}) == BLOCK
        families = Counter(c.family for c in block)
        assert min(families[f] for f in FAMILIES) / BLOCK >= 0.15, (domain, families)
        for a, b in (("politeness", "urgency"), ("politeness", "trust"), ("urgency", "trust")):
            statistic, p = chi_square([(getattr(c, a), getattr(c, b)) for c in block])
            assert p > 0.5, (domain, a, b, statistic)
    slots = [design_slot(domain, position) for domain in DESIGN_DOMAINS for position in range(BLOCK)]
    everything = [designed_condition(slot, seed).id for slot in slots]
    assert len(set(everything)) == len(everything) == 580


def test_the_seed_changes_the_design() -> None:
    first, other = ([designed_condition(s, seed).id for s in range(10)] for seed in (0, 1))
    assert first != other


def test_chi_square_detects_dependence() -> None:
    dependent = [("warm", "low"), ("neutral", "moderate"), ("cold", "high")] * 20
    statistic, p = chi_square(dependent)
    assert statistic == pytest.approx(120.0) and p < 0.001
    independent = [(a, b) for a in ("x", "y", "z") for b in ("u", "v", "w")] * 5
    assert chi_square(independent) == (0.0, 1.0)


def test_feelings_come_from_the_context_and_classify_back_to_their_condition() -> None:
    rng = random.Random(0)
    for condition in CONDITIONS:
        situation = fit_table().emotion_situations(condition.emotion)[0]
        text = emotion_text(condition, situation, "first", rng)
        feeling = feeling_text(["cancelling an order", "cancelling an order"], text)
        assert feeling == f"You are contacting support about cancelling an order. {text}"
        assert classified(feeling) == condition.id, feeling


def test_the_emotion_carries_its_one_text() -> None:
    condition = BY_ID["anxiety.warm.high.cautious"]
    text = emotion_text(condition, "health", "first", random.Random(2))
    emotion = emotion_for(condition, text)
    assert emotion.condition_id == condition.id and emotion.instruction == text
