"""Retail's policy numbers and the rules the write tools and the policy checker share (policy.md):
both call these functions, so a write the tools refuse is one the checker flags.

The tools keep the published retail behaviour and messages; the checker reports the same conditions
as `Rule`s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Record = dict[str, Any]

CLOCK = "2024-05-15T15:00:00"
"""The simulated "now" (no retail tool reads it: the published tools are timeless)."""
CANCEL_REASONS = ("no longer needed", "ordered by mistake")


def is_pending(status: str) -> bool:
    """Only a pending order can be cancelled or modified."""
    return status == "pending"


def is_delivered(status: str) -> bool:
    """Only a delivered order (exchange or return not yet requested counts too) can be returned or
    exchanged."""
    return status.startswith("delivered")


def refund_target_ok(payment_method_id: str, original_id: Callable[[], str]) -> bool:
    """A return is refunded to the order's original payment method or to a gift card; the original is
    looked up only for another method (the published tool fails on an order without payments then)."""
    return "gift_card" in payment_method_id or payment_method_id == original_id()


def gift_card_short(method: Record, amount: float) -> bool:
    """A gift card that does not cover `amount`."""
    return method["source"] == "gift_card" and method["balance"] < amount
