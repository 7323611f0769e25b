"""Movie's policy numbers and the rules the write tools and the policy checker share (policy.md):
both call these functions, so a write the tools refuse is one the checker flags.

Checks take plain records (`to_record()` dicts, or the seed view's) and return the message a tool
fails with, or None when the rule holds.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from taue.envs.movie.models import all_seats

Record = dict[str, Any]

CLOCK = "2025-03-14T12:00:00"
"""The simulated "now": a Friday noon, with showtimes on both sides of it."""
MAX_SEATS = 8
CUTOFF = timedelta(hours=2)
"""Exchanges and refunds close this long before the show."""
BOOKING_FEE = 1.5
"""Per ticket, for guests without an active membership."""
EXCHANGE_FEE = 1.5
"""Per ticket, for guests without an active membership."""
MINIMUM_TERM_DAYS = 90
TIER_CHANGE_DAYS = 30
TIERS = {"plus": {"monthly_fee": 11.99, "credits": 2}, "premiere": {"monthly_fee": 21.99, "credits": 4}}
SEAT_MAP = frozenset(all_seats())


def is_member(membership: Record) -> bool:
    return membership.get("status") == "active"


def refund_fee(membership: Record) -> float:
    """Per ticket: 2.00 without an active membership, 1.00 for Plus, nothing for Premiere."""
    if membership.get("status") != "active":
        return 2.0
    return 0.0 if membership["tier"] == "premiere" else 1.0


def days_between(earlier: str, later: str) -> int:
    return (date.fromisoformat(later[:10]) - date.fromisoformat(earlier[:10])).days


def shift_days(day: str, days: int) -> str:
    return (date.fromisoformat(day) + timedelta(days=days)).isoformat()


def seat_problem(showtime_id: str, sold: list[str], seats: list[str]) -> str | None:
    """Every seat exists, is listed once and is still open."""
    for seat in seats:
        if seat not in SEAT_MAP:
            return f"seat {seat} does not exist; seats are rows A-H, numbers 1-12"
        if seats.count(seat) > 1:
            return f"seat {seat} is listed twice"
        if seat in sold:
            return f"seat {seat} is already sold for showtime {showtime_id}"
    return None


def payment_problem(methods: Record, account_id: str, payment_id: str, amount: float) -> str | None:
    """The method is one of the account's `methods`, and a gift card covers `amount`."""
    method = methods.get(payment_id)
    if method is None:
        return f"payment method {payment_id} is not on account {account_id}"
    if method["type"] == "gift_card" and method["balance"] < amount:
        return f"gift card {payment_id} has {method['balance']:.2f} left, not enough for {amount:.2f}"
    return None
