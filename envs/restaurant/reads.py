"""Restaurant read tools: find a guest, read a reservation or an order, check a location's tables."""

from __future__ import annotations

import json
from datetime import date
from typing import Annotated, Any

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from taue.envs.restaurant.generate import seating_times
from taue.envs.restaurant.models import WEEKDAYS, Guest, Location, MenuItem, Order, Reservation
from taue.envs.restaurant.rules import (
    DEPOSIT_PARTY,
    DEPOSIT_PER_GUEST,
    LAST_SEATING_MINUTES,
    format_problem,
    free_table,
    party_problem,
)
from taue.envs.runtime.database import Store

ReservationId = Annotated[str, Field(description="Reservation number, e.g. 'R30412'.")]
OrderId = Annotated[str, Field(description="Order number, e.g. 'O70233'.")]
LocationId = Annotated[
    str,
    Field(description="Location id: 'harborview', 'midtown', 'riverside', 'oldtown' or 'lakeshore'."),
]
Day = Annotated[str, Field(description="Date as 'YYYY-MM-DD', e.g. '2025-06-20'.")]
PartySize = Annotated[int, Field(description="Number of guests at the table, the booker included.")]


def dump(value: Any) -> str:
    return json.dumps(value)


def normalised_phone(phone: str) -> str:
    digits = "".join(c for c in phone if c.isdigit())
    if len(digits) == 11 and digits.startswith("1"):
        digits = digits[1:]
    if len(digits) != 10:
        raise ToolError(f"invalid phone number '{phone}': give the 10-digit number")
    return f"{digits[:3]}-{digits[3:6]}-{digits[6:]}"


def location_row(db: Store, location_id: str) -> Location:
    return db.require(Location, location_id, f"location '{location_id}' not found")


def reservation_row(db: Store, reservation_id: str) -> Reservation:
    return db.require(Reservation, reservation_id, f"reservation '{reservation_id}' not found")


def order_row(db: Store, order_id: str) -> Order:
    return db.require(Order, order_id, f"order '{order_id}' not found")


def bookings_on(db: Store, location_id: str, day: str) -> list[dict[str, Any]]:
    rows = db.scan(Reservation, Reservation.location_id == location_id, Reservation.date == day)
    return [row.to_record() for row in rows]


async def find_guest(
    db: Store,
    phone: Annotated[str | None, Field(description="The guest's phone number, e.g. '207-555-0123'.")] = None,
    email: Annotated[str | None, Field(description="The guest's email address.")] = None,
) -> str:
    """Find a guest's profile by phone number or email (give at least one; if both are given they must
    belong to the same guest). Returns the profile: guest id, name, contact details, loyalty tier and
    points balance, cards on file, dietary notes, and the guest's reservation and order numbers
    (oldest first)."""
    if not phone and not email:
        raise ToolError("give the guest's phone number or email")
    found: Guest | None = None
    if phone:
        matches = db.scan(Guest, Guest.phone == normalised_phone(phone))
        found = matches[0] if matches else None
    if email:
        matches = db.scan(Guest, Guest.email == email.strip().lower())
        by_email = matches[0] if matches else None
        if found is not None and by_email is not None and by_email.guest_id != found.guest_id:
            raise ToolError("the phone number and the email belong to different guests")
        found = found or by_email
    if found is None:
        raise ToolError("no guest found with that phone number or email")
    return dump(found.to_record())


async def get_reservation_details(db: Store, reservation_id: ReservationId) -> str:
    """Get a reservation: location, date, time, party size, table, status, guarantee card, deposit and
    the charges made (deposits, refunds, fees)."""
    reservation = reservation_row(db, reservation_id)
    location = location_row(db, reservation.location_id)
    return dump({**reservation.to_record(), "location_name": location.name})


async def get_order_details(db: Store, order_id: OrderId) -> str:
    """Get a takeaway or delivery order: location, items with their allergens, amounts, status (received,
    preparing, ready, out_for_delivery, completed, cancelled), due time, card, points redeemed and
    refunds."""
    order = order_row(db, order_id)
    record = order.to_record()
    lines = []
    for line in record["items"]:
        item = db.get(MenuItem, line["item_id"])
        lines.append({**line, "allergens": item.allergens if item else []})
    location = location_row(db, order.location_id)
    return dump({**record, "items": lines, "location_name": location.name})


async def check_availability(db: Store, location_id: LocationId, date: Day, party_size: PartySize) -> str:
    """Check a location's opening hours on a date and the seating times with a free table for a party of
    this size. Seatings start on the hour or half hour until 90 minutes before closing and hold the
    table for two hours. Also gives the largest party the location seats and the deposit rule."""
    location = location_row(db, location_id)
    problem = format_problem(date) or party_problem(location.to_record(), party_size)
    if problem:
        raise ToolError(problem)
    day = _as_day(date)
    weekday = WEEKDAYS[day.weekday()]
    record = location.to_record()
    bookings = bookings_on(db, location_id, date)
    times = [t for t in seating_times(location, day) if free_table(record, bookings, t, party_size)]
    if date == db.clock[:10]:
        times = [t for t in times if t > db.clock[11:16]]
    return dump({
        "location_id": location_id,
        "name": location.name,
        "date": date,
        "weekday": weekday,
        "hours": location.hours[weekday] or "closed",
        "last_seating_minutes_before_close": LAST_SEATING_MINUTES,
        "party_size": party_size,
        "largest_party": location.max_party(),
        "deposit": f"parties of {DEPOSIT_PARTY} or more pay a deposit of ${DEPOSIT_PER_GUEST:.2f} per guest",
        "available_times": times,
    })  # fmt: skip


def _as_day(text: str) -> date:
    return date.fromisoformat(text)
