"""Airline's policy numbers and the rules the write tools and the policy checker share (policy.md):
both call these functions, so a payment the tools refuse is one the checker flags.

The tools keep the published airline behaviour, which enforces few of the policy's rules itself;
what they do enforce is here.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

Record = dict[str, Any]

CLOCK = "2024-05-15T15:00:00"
"""The simulated "now"; a new reservation is created at this moment."""
TODAY = CLOCK[:10]
RECENT = (datetime.fromisoformat(CLOCK) - timedelta(days=1)).isoformat()
"""Booked at or after this moment: less than 24 hours before the clock."""
BAG_FEE = 50
"""Per checked bag beyond the free allowance."""
INSURANCE_FEE = 30
"""Per passenger, for travel insurance."""


def bag_cost(old_nonfree: int, new_nonfree: int) -> int:
    """What raising the non-free bag count from `old_nonfree` to `new_nonfree` costs."""
    return BAG_FEE * max(0, new_nonfree - old_nonfree)


def update_payment_problem(method: Record | None, cost: float) -> str | None:
    """A change to a reservation is paid by a credit card, or a gift card that covers `cost`."""
    if method is None:
        return "payment method not found"
    if method["source"] == "certificate":
        return "certificate cannot be used to update reservation"
    if method["source"] == "gift_card" and method["amount"] < cost:
        return "gift card balance is not enough"
    return None
