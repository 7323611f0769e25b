"""Planned mixes: how many intents each position of a split composes and how long each workflow is.

Drawing the shape of every candidate at random and keeping whatever passes the filters skews a set
towards simple tasks, because complex candidates are rejected more often. So the shapes are planned
instead: the declared shares of `TracerSpec.intent_counts` and `TracerSpec.walk_lengths` become exact
counts per block of positions (largest remainders), shuffled by the seed, and every candidate for a
position tries that position's shape. A block is `PLAN_BLOCK` positions long, so a short split is a
prefix of a long one and every block holds the declared mix.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

PLAN_BLOCK = 58
"""An evaluation set is one block, so it holds the declared mix exactly."""


@dataclass(frozen=True)
class Shape:
    """A position's plan: one workflow length per intent (so the number of intents is its length)."""

    lengths: tuple[int, ...]

    @property
    def intents(self) -> int:
        return len(self.lengths)


def apportion(shares: Mapping[int, float], total: int) -> list[int]:
    """`total` values in the declared shares (largest remainders; ties to the smaller value)."""
    weight = sum(shares.values())
    exact = {value: total * share / weight for value, share in shares.items()}
    counts = {value: int(amount) for value, amount in exact.items()}
    left = total - sum(counts.values())
    by_remainder = sorted(exact, key=lambda value: (-(exact[value] - counts[value]), value))
    for value in by_remainder[:left]:
        counts[value] += 1
    return [value for value in sorted(counts) for _ in range(counts[value])]


@cache
def _block(
    intent_counts: tuple[tuple[int, float], ...],
    walk_lengths: tuple[tuple[int, float], ...],
    key: str,
) -> tuple[Shape, ...]:
    rng = random.Random(f"tracer-mix:{key}")
    counts = apportion(dict(intent_counts), PLAN_BLOCK)
    rng.shuffle(counts)
    lengths = apportion(dict(walk_lengths), sum(counts))
    rng.shuffle(lengths)
    shapes, start = [], 0
    for count in counts:
        shapes.append(Shape(tuple(lengths[start : start + count])))
        start += count
    return tuple(shapes)


def planned_shape(
    intent_counts: Mapping[int, float],
    walk_lengths: Mapping[int, float],
    domain: str,
    seed: int,
    split: str,
    position: int,
) -> Shape:
    """The shape of `position` in the split: its block's plan, drawn once per (domain, seed, split)."""
    block, offset = divmod(position, PLAN_BLOCK)
    plan = _block(
        tuple(sorted(intent_counts.items())),
        tuple(sorted(walk_lengths.items())),
        f"{domain}:{seed}:{split}:{block}",
    )
    return plan[offset]


def mix_gap(declared: Mapping[int, float], realised: Mapping[int, int]) -> float:
    """The largest difference, in percentage points, between declared and realised shares."""
    weight, total = sum(declared.values()), sum(realised.values()) or 1
    values = set(declared) | set(realised)
    return round(
        max(abs(100 * declared.get(v, 0) / weight - 100 * realised.get(v, 0) / total) for v in values), 1
    )
