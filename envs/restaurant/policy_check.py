"""Restaurant's policy as code: the hard rules of policy.md that the Tracer checks writes against
(docs/tracer.md). A gold write must break none; a policy challenge's asked-for write must break at
least one, and the broken rules' `reasons` are the phrases a refusal is accepted with. The rules
themselves live in rules.py, which the tools enforce too."""

from __future__ import annotations

from taue.contracts.tasks import Action
from taue.envs.restaurant.rules import (
    CLOCK,
    cutoff_problem,
    format_problem,
    free_table,
    open_reservation_problem,
    opening_problem,
    order_open_problem,
    overlap_problem,
    party_problem,
    points_problem,
    window_problem,
)
from taue.envs.restaurant.seed_view import Record, View
from taue.envs.runtime.authoring import Rule

GUEST_CARD = Rule(
    "guest-card", "Only a card on the guest's own profile guarantees a booking.", ("card on your profile",)
)
PARTY_SIZE = Rule(
    "party-size",
    "A party must fit the location's largest table; larger groups go to the events team.",
    ("largest table", "events team", "too large"),
)
BOOKING_WINDOW = Rule(
    "booking-window",
    "Bookings start after now and at most 60 days ahead (90 for gold members).",
    ("booking window", "60 days", "in the past"),
)
OPENING_HOURS = Rule(
    "opening-hours",
    "Seatings start on the half hour within opening hours, the last 90 minutes before closing.",
    ("last seating", "closed", "opening hours"),
)
NO_OVERLAP = Rule(
    "no-overlap",
    "A guest holds at most one table at a time (no bookings within two hours of each other).",
    ("overlap", "already hold", "already have a reservation"),
)
TABLE_FREE = Rule("table-free", "A booking needs a free table at that time.", ("no table", "fully booked"))
RESERVATION_OPEN = Rule(
    "reservation-open",
    "Only booked reservations that have not started can be changed or cancelled.",
    ("no-show", "no show", "already completed", "cannot be cancelled", "only booked"),
)
CHANGE_CUTOFF = Rule(
    "change-cutoff",
    "A reservation can be changed until 2 hours before it starts.",
    ("2 hours", "two hours"),
)
ORDER_OPEN = Rule(
    "order-not-started",
    "An order can be cancelled or paid with points only before its preparation starts.",
    (
        "preparation",
        "being prepared",
        "kitchen has started",
        "already started",
        "out for delivery",
        "already ready",
        "ready for pickup",
        "cannot be cancelled",
    ),
)
POINTS = Rule(
    "points-rules",
    "Points: multiples of 100, worth $5 each, once per order, within the balance and the food subtotal.",
    ("points balance", "only has", "only have", "enough points", "multiples of 100"),
)


def check_policy(view: View, action: Action) -> list[Rule]:
    """The rules of policy.md that the write `action` breaks, judged on the seed records."""
    args, name = action.arguments, action.name
    if name == "book_reservation":
        return _booking_rules(view, args)
    if name == "modify_reservation":
        return _change_rules(view, args)
    if name == "cancel_reservation":
        booking = view.reservations[args["reservation_id"]]
        return [RESERVATION_OPEN] if open_reservation_problem(booking, CLOCK) else []
    order = view.orders[args["order_id"]]
    broken = [ORDER_OPEN] if order_open_problem(order) else []
    if name == "redeem_points":
        balance = view.guests[order["guest_id"]]["points"]
        broken += [POINTS] if points_problem(order, balance, args["points"]) else []
    return broken


def _booking_rules(view: View, args: Record) -> list[Rule]:
    guest = view.guests[args["guest_id"]]
    cards = {card["payment_method_id"] for card in guest["payment_methods"]}
    broken = [] if args["payment_method_id"] in cards else [GUEST_CARD]
    return broken + _seating_rules(view, guest["guest_id"], args)


def _change_rules(view: View, args: Record) -> list[Rule]:
    booking = view.reservations[args["reservation_id"]]
    if open_reservation_problem(booking, CLOCK):
        return [RESERVATION_OPEN]
    broken = [CHANGE_CUTOFF] if cutoff_problem(booking, CLOCK) else []
    seating = {**args, "location_id": booking["location_id"]}
    return broken + _seating_rules(view, booking["guest_id"], seating, exclude=booking["reservation_id"])


def _seating_rules(view: View, guest_id: str, args: Record, exclude: str | None = None) -> list[Rule]:
    """The rules a new seating (location, date, time, party size) must meet, in the tools' order."""
    location, tier = view.locations[args["location_id"]], view.guests[guest_id]["tier"]
    day, time, party = args["date"], args["time"], args["party_size"]
    if format_problem(day, time):
        return [OPENING_HOURS]
    if party_problem(location, party):
        return [PARTY_SIZE]
    if window_problem(tier, day, time, CLOCK):
        return [BOOKING_WINDOW]
    if opening_problem(location, day, time):
        return [OPENING_HOURS]
    if overlap_problem(view.bookings(guest_id), day, time, exclude):
        return [NO_OVERLAP]
    bookings = view.floor.get((args["location_id"], day), [])
    return [] if free_table(location, bookings, time, party, exclude) else [TABLE_FREE]
