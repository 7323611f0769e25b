"""Restaurant seed records as the Tracer reads them (docs/tracer.md): an indexed view, the customers
(guests identified by phone or email) and the phrasing helpers the intents share."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from taue.contracts.tasks import Action
from taue.envs.restaurant.generate import TODAY, generate, seating_times
from taue.envs.restaurant.models import Guest, Location, MenuItem, Order, Reservation
from taue.envs.restaurant.rules import CLOCK, cutoff_problem, free_table, open_reservation_problem
from taue.envs.runtime.authoring import Customer, Lookups
from taue.envs.runtime.database import DomainTable

Record = dict[str, Any]
Rng = random.Random

SHORT_NAMES = {"harborview": "Harborview", "midtown": "Midtown", "riverside": "Riverside",
               "oldtown": "Oldtown", "lakeshore": "Lakeshore"}  # fmt: skip
ACTIVE = ("received", "preparing", "ready", "out_for_delivery")
PERSONAS = (
    "a nurse who orders dinner between late shifts", "a parent organising a family birthday meal",
    "a regular who knows the menu by heart", "a project manager booking a team dinner",
    "a student on a tight budget", "a retiree who dines out every Friday",
    "a guest with a serious food allergy who checks everything twice", "a busy lawyer who wants it quick",
    "a couple planning an anniversary evening", "a visitor in town for a conference",
    "a food blogger who cares about details", "a coach arranging a meal for the team",
)  # fmt: skip


@dataclass
class View:
    guests: dict[str, Record]
    locations: dict[str, Record]
    reservations: dict[str, Record]
    orders: dict[str, Record]
    menu: dict[str, Record]
    floor: dict[tuple[str, str], list[Record]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for rid in sorted(self.reservations):
            booking = self.reservations[rid]
            self.floor.setdefault((booking["location_id"], booking["date"]), []).append(booking)

    # ---- reservations

    def bookings(self, guest_id: str, *statuses: str) -> list[Record]:
        found = [self.reservations[r] for r in self.guests[guest_id]["reservations"]]
        return [r for r in found if not statuses or r["status"] in statuses]

    def changeable(self, guest_id: str) -> list[Record]:
        """Booked reservations that can still be changed, each described unambiguously."""
        return [
            r for r in self.unique_bookings(guest_id, "booked")
            if open_reservation_problem(r, CLOCK) is None and cutoff_problem(r, CLOCK) is None
        ]  # fmt: skip

    def unique_bookings(self, guest_id: str, *statuses: str) -> list[Record]:
        words = Counter(booking_words(r) for r in self.bookings(guest_id))
        return [r for r in self.bookings(guest_id, *statuses) if words[booking_words(r)] == 1]

    def booking_lookups(self, booking: Record) -> Lookups:
        """The guest's reservations in profile order (oldest first) up to the wanted one."""
        ids = self.guests[booking["guest_id"]]["reservations"]
        return Lookups(tuple(ids[: ids.index(booking["reservation_id"]) + 1]))

    def free_times(self, location_id: str, day: str, party: int, exclude: str | None = None) -> list[str]:
        """Seating times with a free table (memoised: the seed view never changes, and the
        grounders ask the same question thousands of times a build)."""
        key = (location_id, day, party, exclude)
        cache = self.__dict__.setdefault("_free_times_memo", {})
        if key not in cache:
            cache[key] = self._free_times(location_id, day, party, exclude)
        return list(cache[key])

    def _free_times(self, location_id: str, day: str, party: int, exclude: str | None) -> list[str]:
        location = self.locations[location_id]
        bookings = self.floor.get((location_id, day), [])
        row = Location(**location)
        times = seating_times(row, date.fromisoformat(day))
        return [t for t in times if free_table(location, bookings, t, party, exclude)]

    # ---- orders

    def orders_of(self, guest_id: str, *statuses: str) -> list[Record]:
        found = [self.orders[o] for o in self.guests[guest_id]["orders"]]
        return [o for o in found if not statuses or o["status"] in statuses]

    def unique_orders(self, guest_id: str, *statuses: str) -> list[Record]:
        words = Counter(order_words(o) for o in self.orders_of(guest_id))
        return [o for o in self.orders_of(guest_id, *statuses) if words[order_words(o)] == 1]

    def order_lookups(self, order: Record) -> Lookups:
        ids = self.guests[order["guest_id"]]["orders"]
        return Lookups(tuple(ids[: ids.index(order["order_id"]) + 1]))

    def allergens(self, line: Record) -> list[str]:
        return self.menu[line["item_id"]]["allergens"]

    def card(self, guest_id: str, rng: Rng) -> Record:
        return rng.choice(self.guests[guest_id]["payment_methods"])


def load(seed: int) -> View:
    rows = generate(seed)

    def records(model: type[DomainTable], key: str) -> dict[str, Record]:
        return {getattr(r, key): r.to_record() for r in rows if isinstance(r, model)}

    return View(
        guests=records(Guest, "guest_id"),
        locations=records(Location, "location_id"),
        reservations=records(Reservation, "reservation_id"),
        orders=records(Order, "order_id"),
        menu=records(MenuItem, "item_id"),
    )


def customers(view: View) -> list[Customer]:
    """Every guest; every third identifies by email, the others by phone."""
    result = []
    for index, (guest_id, guest) in enumerate(sorted(view.guests.items())):
        name = f"{guest['first_name']} {guest['last_name']}"
        known = {"email": guest["email"]} if index % 3 == 2 else {"phone": guest["phone"]}
        identity = (Action(name="find_guest", arguments=dict(known)),)
        result.append(Customer(guest_id, name, identity, known, {"guest_id": guest_id}))
    return result


# ------------------------------------------------------------------------------------------- phrasing


def long_date(day: str) -> str:
    return datetime.fromisoformat(day).strftime("%A, %B %d").replace(" 0", " ")


def shift(day: str, days: int) -> str:
    return (date.fromisoformat(day) + timedelta(days=days)).isoformat()


def upcoming_days(rng: Rng, low: int, high: int) -> list[str]:
    days = [(TODAY + timedelta(days=n)).isoformat() for n in range(low, high + 1)]
    return rng.sample(days, len(days))


def place(location_id: str) -> str:
    return f"Olive & Ember {SHORT_NAMES[location_id]}"


def party_words(size: int) -> str:
    return "just me" if size == 1 else f"{size} people"


def booking_words(booking: Record) -> str:
    return (
        f"the table for {booking['party_size']} at {SHORT_NAMES[booking['location_id']]} on "
        f"{long_date(booking['date'])} at {booking['time']}"
    )


def order_words(order: Record) -> str:
    due = datetime.fromisoformat(order["ready_at"])
    when = "today" if due.date() == TODAY else f"on {long_date(due.date().isoformat())}"
    kind = "delivery" if order["channel"] == "delivery" else "takeaway"
    return f"the {kind} order from {SHORT_NAMES[order['location_id']]} due {when} at {due.strftime('%H:%M')}"


def card_words(card: Record) -> str:
    return f"{card['brand'].title()} card ending in {card['last_four']}"


def dollars(amount: float) -> str:
    return f"${amount:,.2f}"
