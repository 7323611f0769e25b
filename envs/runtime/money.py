"""Money, rounded to the cent in one place.

Amounts are floats of dollars. A domain's tools, rules and policy check round through `cents`, never
with a `round()` or a helper of their own (tests/envs/test_domain_shape.py checks), so the tools and
the checker agree to the cent and a new domain picks a rule instead of writing one.

The rules give different results, so each domain keeps the one its committed tasks were built with:

- `"nearest"` (the default): the float rounded as it is, always a float, `-0.0` given is `0.0`;
  `cents(2.675)` is 2.67, because the float nearest 2.675 lies just below it.
- `"half_up"`: a sum a float's error below a half cent rounds up, as a person rounds it:
  `cents(2.675, rule="half_up")` is 2.68 (movie, travel).
- `"published"`: Python's `round(value, 2)` unchanged, an int stays an int: the published
  τ-Emotion-Bench tools (retail, telecom), whose stored states keep `0` and `0.0` apart.
"""

from __future__ import annotations

from typing import Literal

Rounding = Literal["nearest", "half_up", "published"]
HALF_UP_NUDGE = 1e-9
"""Added before rounding `"half_up"`: far below a cent, above a float's error on a price sum."""


def cents(value: float, rule: Rounding = "nearest") -> float:
    """`value` rounded to the cent by `rule` (the module's docstring says how each differs)."""
    if rule == "published":
        return round(value, 2)
    return round(float(value) + (HALF_UP_NUDGE if rule == "half_up" else 0.0), 2)


def whole(value: float) -> float:
    """`value` rounded to whole dollars, as a float (halves to even, as Python rounds)."""
    return float(round(value))
