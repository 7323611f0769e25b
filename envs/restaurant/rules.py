"""The policy's hard rules over plain records, shared by the tools (which refuse a write that breaks
one) and the Tracer's policy check (which judges a gold write on the seed), so the two always agree.

Each `*_problem` function returns the refusal message, or None when the rule holds.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from taue.envs.restaurant.models import WEEKDAYS

Record = dict[str, Any]

CLOCK = "2025-06-12T15:00:00"
"""The simulated "now", a Thursday afternoon."""
SEATING_MINUTES = 120
"""How long a reservation holds its table."""
LAST_SEATING_MINUTES = 90
"""The last reservation starts this long before closing."""
DEPOSIT_PARTY = 8
DEPOSIT_PER_GUEST = 15.0

BOOKING_WINDOW_DAYS = {"member": 60, "silver": 60, "gold": 90}
CHANGE_CUTOFF_HOURS = 2
LATE_CANCEL_HOURS = 24
LATE_CANCEL_FEE_PER_GUEST = 10.0
POINTS_STEP = 100
DOLLARS_PER_STEP = 5.0
OPEN_ORDER = "received"


def minutes(clock: str) -> int:
    hours, mins = clock.split(":")
    return int(hours) * 60 + int(mins)


def deposit_for(party_size: int) -> float:
    return DEPOSIT_PER_GUEST * party_size if party_size >= DEPOSIT_PARTY else 0.0


def start_of(day: str, time: str) -> datetime:
    return datetime.fromisoformat(f"{day}T{time}:00")


def _parse_day(day: str) -> date | None:
    try:
        return date.fromisoformat(day) if len(day) == 10 else None
    except ValueError:
        return None


def _parse_time(time: str) -> int | None:
    try:
        return minutes(time) if len(time) == 5 and time[2] == ":" else None
    except ValueError:
        return None


def format_problem(day: str, time: str | None = None) -> str | None:
    if _parse_day(day) is None:
        return f"invalid date '{day}': use YYYY-MM-DD"
    if time is not None and _parse_time(time) is None:
        return f"invalid time '{time}': use HH:MM on the hour or half hour"
    return None


def window_problem(tier: str, day: str, time: str, now: str) -> str | None:
    """Bookings start after now and at most 60 days ahead (90 for gold members)."""
    current = datetime.fromisoformat(now)
    if start_of(day, time) <= current:
        return f"{day} {time} is in the past"
    days = BOOKING_WINDOW_DAYS.get(tier, 60)
    if date.fromisoformat(day) > current.date() + timedelta(days=days):
        return f"{day} is beyond the {days}-day booking window for {tier} guests"
    return None


def opening_problem(location: Record, day: str, time: str) -> str | None:
    """Seatings start on the hour or half hour, from opening until 90 minutes before closing."""
    weekday = WEEKDAYS[date.fromisoformat(day).weekday()]
    hours = location["hours"].get(weekday)
    name = location["name"]
    if hours is None:
        return f"{name} is closed on {weekday.title()}s"
    start = minutes(time)
    last = minutes(hours["close"]) - LAST_SEATING_MINUTES
    if start % 30:
        return "seatings start on the hour or half hour"
    if not minutes(hours["open"]) <= start <= last:
        last_text = f"{last // 60:02d}:{last % 60:02d}"
        return f"{name} seats guests from {hours['open']} to {last_text} on {weekday.title()}s (last seating)"
    return None


def party_problem(location: Record, party_size: int) -> str | None:
    largest = max(table["seats"] for table in location["tables"])
    if party_size < 1:
        return "party size must be at least 1"
    if party_size > largest:
        return (
            f"a party of {party_size} exceeds the largest table at {location['name']} ({largest} seats); "
            "larger groups are arranged by the events team"
        )
    return None


def free_table(
    location: Record, day_bookings: list[Record], time: str, party_size: int, exclude: str | None = None
) -> str | None:
    """The smallest table that seats the party and no other seating holds within two hours."""
    start = minutes(time)
    busy = [
        (b["table_id"], minutes(b["time"]))
        for b in day_bookings
        if b["status"] in ("booked", "completed") and b["reservation_id"] != exclude
    ]
    for table in location["tables"]:
        clash = any(t == table["table_id"] and abs(s - start) < SEATING_MINUTES for t, s in busy)
        if table["seats"] >= party_size and not clash:
            return table["table_id"]
    return None


def overlap_problem(
    guest_bookings: list[Record], day: str, time: str, exclude: str | None = None
) -> str | None:
    """A guest holds at most one table at a time: no two booked seatings within two hours of each other."""
    for booking in guest_bookings:
        if booking["status"] != "booked" or booking["reservation_id"] == exclude or booking["date"] != day:
            continue
        if abs(minutes(booking["time"]) - minutes(time)) < SEATING_MINUTES:
            held = f"reservation {booking['reservation_id']} at {booking['time']}"
            return f"the guest already holds {held} that day; bookings may not overlap"
    return None


def open_reservation_problem(reservation: Record, now: str) -> str | None:
    """Only booked reservations that have not started can be changed or cancelled."""
    if reservation["status"] != "booked":
        return (
            f"reservation {reservation['reservation_id']} is {reservation['status'].replace('_', '-')}; "
            "only upcoming booked reservations can be changed or cancelled"
        )
    if start_of(reservation["date"], reservation["time"]) <= datetime.fromisoformat(now):
        return f"reservation {reservation['reservation_id']} has already started"
    return None


def cutoff_problem(reservation: Record, now: str) -> str | None:
    start = start_of(reservation["date"], reservation["time"])
    if start - datetime.fromisoformat(now) < timedelta(hours=CHANGE_CUTOFF_HOURS):
        return (
            f"reservation {reservation['reservation_id']} starts within {CHANGE_CUTOFF_HOURS} hours; "
            "it can no longer be changed, only cancelled"
        )
    return None


def late_cancel_fee(reservation: Record, tier: str, now: str) -> float:
    """$10 per guest when cancelled less than 24 hours before the start; gold members are exempt."""
    start = start_of(reservation["date"], reservation["time"])
    late = start - datetime.fromisoformat(now) < timedelta(hours=LATE_CANCEL_HOURS)
    return LATE_CANCEL_FEE_PER_GUEST * reservation["party_size"] if late and tier != "gold" else 0.0


def order_open_problem(order: Record) -> str | None:
    if order["status"] != OPEN_ORDER:
        return (
            f"order {order['order_id']} is {order['status'].replace('_', ' ')}; "
            "only orders whose preparation has not started can be changed"
        )
    return None


def points_problem(order: Record, balance: int, points: int) -> str | None:
    """Points go in steps of 100 (worth $5 each), once per order, within the balance and the subtotal."""
    if points < POINTS_STEP or points % POINTS_STEP:
        return f"points are redeemed in multiples of {POINTS_STEP}"
    if order["points_redeemed"]:
        return f"points were already redeemed on order {order['order_id']}"
    if points > balance:
        return f"the guest has only {balance} points"
    if points_value(points) > order["subtotal"] - order["discount"]:
        return f"${points_value(points):.2f} exceeds the food subtotal of order {order['order_id']}"
    return None


def points_value(points: int) -> float:
    return points // POINTS_STEP * DOLLARS_PER_STEP
