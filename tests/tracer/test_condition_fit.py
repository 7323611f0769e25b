"""Emotions fit the situation: enjoyment stays off policy challenges, no feeling implies a history."""

from __future__ import annotations

from collections import Counter

from taue.contracts.emotions import CONDITIONS
from taue.simulator.anchors import anchors_for
from taue.tracer.build import is_challenge_position
from taue.tracer.conditions import (
    BLOCK,
    DESIGN_DOMAINS,
    block_conditions,
    design_slot,
    designed_condition,
    fits_situation,
)


def test_enjoyment_never_meets_a_policy_challenge_and_the_block_keeps_its_conditions() -> None:
    for domain in DESIGN_DOMAINS:
        conditions = block_conditions(domain, 0, BLOCK, is_challenge_position)
        design = [designed_condition(design_slot(domain, p), 0) for p in range(BLOCK)]
        assert Counter(c.id for c in conditions) == Counter(c.id for c in design)
        challenged = [conditions[p] for p in range(BLOCK) if is_challenge_position(p)]
        assert challenged and all(c.family != "enjoyment" for c in challenged), domain


def test_history_and_time_clashes_do_not_fit() -> None:
    assert not fits_situation("You are sour after being burned before.")
    assert not fits_situation("This keeps happening again and again.")
    assert not fits_situation("You are in no rush but want it over with quickly.")
    assert fits_situation("You are worried about the trip and want it sorted today.")


def test_every_condition_keeps_anchors_that_fit() -> None:
    fitting = [sum(map(fits_situation, anchors_for(c.id))) for c in CONDITIONS]
    assert min(fitting) >= 1
