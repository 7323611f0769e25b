"""Planned mixes: every block of positions holds the declared intent-count and walk-length mixes."""

from __future__ import annotations

from collections import Counter

from taue.tracer.mixes import PLAN_BLOCK, apportion, mix_gap, planned_shape

COUNTS = {2: 0.3, 3: 0.45, 4: 0.25}
LENGTHS = {2: 0.2, 3: 0.45, 4: 0.35}


def test_apportion_gives_exact_counts_by_largest_remainder() -> None:
    values = apportion(COUNTS, 50)
    assert Counter(values) == {2: 15, 3: 23, 4: 12}  # 22.5 and 12.5 tie: the smaller value gets it
    assert len(apportion({1: 1, 2: 1, 3: 1}, 7)) == 7


def test_a_block_of_positions_holds_the_declared_mixes() -> None:
    shapes = [planned_shape(COUNTS, LENGTHS, "retail", 0, "eval", p) for p in range(PLAN_BLOCK)]
    counts = Counter(s.intents for s in shapes)
    lengths = Counter(n for s in shapes for n in s.lengths)
    assert mix_gap(COUNTS, counts) <= 1.0
    assert mix_gap(LENGTHS, lengths) <= 1.0
    assert all(2 <= s.intents <= 4 for s in shapes)


def test_plans_depend_on_domain_seed_and_split_and_repeat_exactly() -> None:
    def plan(domain: str, seed: int, split: str) -> list[tuple[int, ...]]:
        return [planned_shape(COUNTS, LENGTHS, domain, seed, split, p).lengths for p in range(60)]

    assert plan("retail", 0, "eval") == plan("retail", 0, "eval")
    assert plan("retail", 0, "eval") != plan("retail", 1, "eval")
    assert plan("retail", 0, "eval") != plan("retail", 0, "train")
    assert plan("retail", 0, "eval") != plan("airline", 0, "eval")


def test_mix_gap_is_the_largest_difference_in_points() -> None:
    assert mix_gap({1: 0.5, 2: 0.5}, Counter({1: 3, 2: 1})) == 25.0
    assert mix_gap({1: 1.0}, Counter({1: 4})) == 0.0
    assert mix_gap({1: 1.0}, Counter({2: 1})) == 100.0
