"""Restaurant tools: reservations (book, change, cancel), takeaway and delivery orders (cancel, pay
with loyalty points), the shared `calculate` and `think`, and the transfer to a human.

Every write checks the policy's hard rules (rules.py) before it changes anything, so a call that
fails changes nothing. Reads live in reads.py.
"""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from taue.envs.restaurant.models import Guest, Reservation
from taue.envs.restaurant.reads import (
    Day,
    LocationId,
    OrderId,
    PartySize,
    ReservationId,
    bookings_on,
    check_availability,
    dump,
    find_guest,
    get_order_details,
    get_reservation_details,
    location_row,
    order_row,
    reservation_row,
)
from taue.envs.restaurant.rules import (
    cutoff_problem,
    deposit_for,
    format_problem,
    free_table,
    late_cancel_fee,
    open_reservation_problem,
    opening_problem,
    order_open_problem,
    overlap_problem,
    party_problem,
    points_problem,
    points_value,
    window_problem,
)
from taue.envs.runtime.common_tools import calculate, think
from taue.envs.runtime.database import Store
from taue.envs.runtime.domain import ends_conversation, writes

Time = Annotated[
    str, Field(description="Seating time as 'HH:MM' (24-hour, on the hour or half hour), e.g. '19:30'.")
]
GuestId = Annotated[str, Field(description="The guest's id from their profile, e.g. 'G10042'.")]
CardId = Annotated[
    str, Field(description="Id of a card on the guest's profile, e.g. 'pm_482913'; it guarantees the table.")
]


def _guest(db: Store, guest_id: str) -> Guest:
    return db.require(Guest, guest_id, f"guest '{guest_id}' not found")


def _seat(
    db: Store,
    guest: Guest,
    location_id: str,
    day: str,
    time: str,
    party_size: int,
    exclude: str | None = None,
) -> str:
    """The table for a new seating, after every booking rule is checked; raises the first broken one."""
    location = location_row(db, location_id).to_record()
    problem = (
        format_problem(day, time)
        or party_problem(location, party_size)
        or window_problem(guest.tier, day, time, db.clock)
        or opening_problem(location, day, time)
        or overlap_problem(_bookings_of(db, guest), day, time, exclude)
    )
    if problem:
        raise ToolError(problem)
    table = free_table(location, bookings_on(db, location_id, day), time, party_size, exclude)
    if table is None:
        raise ToolError(f"no table for {party_size} is free at {location['name']} on {day} at {time}")
    return table


def _bookings_of(db: Store, guest: Guest) -> list[dict[str, Any]]:
    rows = db.scan(Reservation, Reservation.guest_id == guest.guest_id)
    return [row.to_record() for row in rows]


def _charge(kind: str, amount: float, card: str, at: str) -> dict[str, Any]:
    return {"kind": kind, "amount": amount, "payment_method_id": card, "at": at}


@writes
async def book_reservation(
    db: Store,
    guest_id: GuestId,
    location_id: LocationId,
    date: Day,
    time: Time,
    party_size: PartySize,
    payment_method_id: CardId,
) -> str:
    """Book a table. The time must be a free seating time within opening hours (see
    check_availability), at most 60 days ahead (90 for gold members), and must not overlap another
    booked reservation of the guest (two hours either side on the same day). A card on the guest's profile
    guarantees the booking; parties of 8 or more pay a deposit of $15 per guest on it now. Returns the
    new reservation."""
    guest = _guest(db, guest_id)
    if guest.card(payment_method_id) is None:
        raise ToolError(f"card '{payment_method_id}' is not on guest {guest_id}'s profile")
    table = _seat(db, guest, location_id, date, time, party_size)
    deposit = deposit_for(party_size)
    reservation = Reservation(
        reservation_id=db.next_id(Reservation, "R", 30001),
        guest_id=guest_id,
        location_id=location_id,
        date=date,
        time=time,
        party_size=party_size,
        table_id=table,
        status="booked",
        payment_method_id=payment_method_id,
        deposit=deposit,
        charges=[_charge("deposit", deposit, payment_method_id, db.clock)] if deposit else [],
        created_at=db.clock,
    )
    db.save(reservation)
    guest.reservations = [*guest.reservations, reservation.reservation_id]
    db.save(guest)
    return dump(reservation.to_record())


@writes
async def modify_reservation(
    db: Store,
    reservation_id: ReservationId,
    date: Annotated[str, Field(description="New date as 'YYYY-MM-DD' (repeat the current one to keep it).")],
    time: Annotated[str, Field(description="New time as 'HH:MM' (repeat the current one to keep it).")],
    party_size: Annotated[
        int, Field(description="New number of guests (repeat the current one to keep it).")
    ],
) -> str:
    """Change the date, time or party size of a booked reservation at the same location, no later than
    2 hours before it starts. The new seating must be free and within opening hours. The deposit
    follows the new party size ($15 per guest from 8 guests): the difference is charged to, or
    refunded to, the reservation's card. Returns the reservation."""
    reservation = reservation_row(db, reservation_id)
    record = reservation.to_record()
    problem = open_reservation_problem(record, db.clock) or cutoff_problem(record, db.clock)
    if problem:
        raise ToolError(problem)
    if (date, time, party_size) == (reservation.date, reservation.time, reservation.party_size):
        raise ToolError("the new date, time and party size are the same as now: nothing to change")
    guest = _guest(db, reservation.guest_id)
    table = _seat(db, guest, reservation.location_id, date, time, party_size, exclude=reservation_id)
    deposit = deposit_for(party_size)
    difference = deposit - reservation.deposit
    if difference:
        kind = "deposit" if difference > 0 else "deposit_refund"
        reservation.charges.append(_charge(kind, difference, reservation.payment_method_id, db.clock))
    reservation.date, reservation.time, reservation.party_size = date, time, party_size
    reservation.table_id, reservation.deposit = table, deposit
    db.save(reservation)
    return dump(reservation.to_record())


@writes
async def cancel_reservation(db: Store, reservation_id: ReservationId) -> str:
    """Cancel a booked reservation that has not started. Less than 24 hours before the start a
    late-cancellation fee of $10 per guest applies (gold members are exempt); it is taken from the
    deposit when there is one, and the rest of the deposit is refunded to the reservation's card.
    Returns the reservation."""
    reservation = reservation_row(db, reservation_id)
    record = reservation.to_record()
    problem = open_reservation_problem(record, db.clock)
    if problem:
        raise ToolError(problem)
    guest = _guest(db, reservation.guest_id)
    fee = late_cancel_fee(record, guest.tier, db.clock)
    card = reservation.payment_method_id
    if reservation.deposit:
        kept = min(fee, reservation.deposit)
        if reservation.deposit - kept:
            reservation.charges.append(_charge("deposit_refund", kept - reservation.deposit, card, db.clock))
        if kept:
            reservation.charges.append(_charge("late_cancel_fee_from_deposit", kept, card, db.clock))
    elif fee:
        reservation.charges.append(_charge("late_cancel_fee", fee, card, db.clock))
    reservation.status = "cancelled"
    reservation.cancelled_at = db.clock
    db.save(reservation)
    return dump(reservation.to_record())


@writes
async def cancel_order(db: Store, order_id: OrderId) -> str:
    """Cancel a takeaway or delivery order whose preparation has not started (status 'received').
    The amount paid is refunded in full to the order's card and any points redeemed on it go back to
    the guest's balance. Returns the order."""
    order = order_row(db, order_id)
    problem = order_open_problem(order.to_record())
    if problem:
        raise ToolError(problem)
    if order.points_redeemed:
        guest = _guest(db, order.guest_id)
        guest.points += order.points_redeemed
        db.save(guest)
    refund = {"amount": order.total, "payment_method_id": order.payment_method_id, "at": db.clock,
              "reason": "cancelled by guest"}  # fmt: skip
    order.refunds.append(refund)
    order.status = "cancelled"
    db.save(order)
    return dump(order.to_record())


@writes
async def redeem_points(
    db: Store,
    order_id: OrderId,
    points: Annotated[
        int, Field(description="Loyalty points to redeem: a multiple of 100 (100 points = $5).")
    ],
) -> str:
    """Pay part of an order whose preparation has not started with loyalty points: every 100 points
    take $5 off, refunded to the order's card. Once per order; not more than the guest's balance nor
    than the food subtotal. Returns the order."""
    order = order_row(db, order_id)
    guest = _guest(db, order.guest_id)
    problem = order_open_problem(order.to_record()) or points_problem(order.to_record(), guest.points, points)
    if problem:
        raise ToolError(problem)
    value = points_value(points)
    guest.points -= points
    order.points_redeemed = points
    order.discount += value
    order.total -= value
    order.refunds.append(
        {"amount": value, "payment_method_id": order.payment_method_id, "at": db.clock,
         "reason": f"{points} loyalty points redeemed"}
    )  # fmt: skip
    db.save(guest)
    db.save(order)
    return dump(order.to_record())


@ends_conversation
async def transfer_to_human_agents(
    db: Store,
    summary: Annotated[str, Field(description="Short summary of the guest's request for the human agent.")],
) -> str:
    """Hand the guest over to a human agent; the conversation ends here. Use it only when the guest asks
    for a person or the request is outside what these tools and the policy allow (events, complaints
    about a meal, refunds beyond the policy)."""
    return "Transfer successful"


TOOLS = [
    book_reservation,
    calculate,
    cancel_order,
    cancel_reservation,
    check_availability,
    find_guest,
    get_order_details,
    get_reservation_details,
    modify_reservation,
    redeem_points,
    think,
    transfer_to_human_agents,
]
