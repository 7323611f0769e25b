"""Deterministic seed data for the Olive & Ember restaurant group: five locations, one menu, guests
with their table reservations and takeaway or delivery orders.

`generate(seed)` draws everything from one `random.Random(seed)` and never reads the machine clock.
Dates are placed around the simulated clock (`rules.CLOCK`, a Thursday afternoon): earlier reservations
were completed, cancelled or missed (no-show), later ones are booked; past orders are completed or
cancelled, today's are in the kitchen's pipeline (received, preparing, ready, out for delivery).
No two booked reservations share a table at overlapping times.
"""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta
from typing import Any

from sqlmodel import SQLModel

from taue.envs.restaurant.models import WEEKDAYS, Guest, Location, MenuItem, Order, Reservation
from taue.envs.restaurant.rules import (
    CLOCK,
    LAST_SEATING_MINUTES,
    SEATING_MINUTES,
    deposit_for,
    minutes,
)

NOW = datetime.fromisoformat(CLOCK)
TODAY = NOW.date()
GUEST_COUNT = 420
NO_SHOW_FEE_PER_GUEST = 20.0
DELIVERY_FEE = 4.5


def _hours(open_: str, close: str, closed: tuple[str, ...] = (), late: dict[str, str] | None = None) -> dict:
    late = late or {}
    return {
        day: None if day in closed else {"open": open_, "close": late.get(day, close)} for day in WEEKDAYS
    }


def _tables(*sizes: tuple[int, int]) -> list[dict[str, Any]]:
    seats = [size for size, count in sizes for _ in range(count)]
    return [{"table_id": f"T{i}", "seats": size} for i, size in enumerate(sorted(seats), 1)]


LOCATIONS = (
    Location(
        location_id="harborview", name="Olive & Ember Harborview", address="12 Pier Road, Portland, ME 04101",
        phone="207-555-0140", hours=_hours("11:30", "22:00", closed=("monday",)),
        tables=_tables((2, 4), (4, 4), (6, 2), (8, 1), (10, 1)), delivery=True,
    ),
    Location(
        location_id="midtown", name="Olive & Ember Midtown", address="480 Congress St, Portland, ME 04101",
        phone="207-555-0162", hours=_hours("11:00", "23:00"),
        tables=_tables((2, 6), (4, 6), (6, 2), (8, 1)), delivery=True,
    ),
    Location(
        location_id="riverside", name="Olive & Ember Riverside", address="7 Mill Lane, Westbrook, ME 04092",
        phone="207-555-0188", hours=_hours("17:00", "22:30", closed=("tuesday",)),
        tables=_tables((2, 4), (4, 4), (6, 1), (12, 1)), delivery=True,
    ),
    Location(
        location_id="oldtown", name="Olive & Ember Oldtown", address="31 Exchange Street, Portland, ME 04101",
        phone="207-555-0115", hours=_hours("12:00", "21:30", closed=("sunday",)),
        tables=_tables((2, 3), (4, 3), (6, 1)), delivery=False,
    ),
    Location(
        location_id="lakeshore", name="Olive & Ember Lakeshore", address="220 Shore Drive, Windham, ME 04062",
        phone="207-555-0193", hours=_hours("16:00", "22:00", late={"friday": "23:00", "saturday": "23:00"}),
        tables=_tables((2, 4), (4, 4), (6, 2), (10, 1)), delivery=True,
    ),
)  # fmt: skip

ALL = tuple(loc.location_id for loc in LOCATIONS)
MID_LAKE, HARBOR_RIVER = ("midtown", "lakeshore"), ("harborview", "riverside")
MENU = (
    ("Charred Octopus", "starter", 16.5, ("shellfish",), False, ALL),
    ("Burrata with Peaches", "starter", 14.0, ("dairy",), True, ALL),
    ("Crispy Calamari", "starter", 13.5, ("shellfish", "gluten", "egg"), False, ALL),
    ("Smoked Trout Rillettes", "starter", 12.5, ("fish", "dairy"), False, ("harborview", "riverside")),
    ("Sesame Cucumber Salad", "starter", 9.5, ("sesame", "soy"), True, ALL),
    ("Whipped Feta Dip", "starter", 10.0, ("dairy", "sesame"), True, ALL),
    ("Grilled Halloumi", "starter", 11.5, ("dairy",), True, ("midtown", "oldtown", "lakeshore")),
    ("Chicken Liver Pate", "starter", 12.0, ("dairy", "gluten"), False, ("oldtown", "harborview")),
    ("Ember Flatbread", "pizza", 15.0, ("gluten", "dairy"), True, ALL),
    ("Spicy Salami Pizza", "pizza", 18.0, ("gluten", "dairy"), False, ALL),
    ("Wild Mushroom Pizza", "pizza", 17.5, ("gluten", "dairy"), True, ALL),
    ("Pesto Chicken Pizza", "pizza", 18.5, ("gluten", "dairy", "tree_nut"), False, ("midtown", "lakeshore")),
    ("Lobster Linguine", "pasta", 29.0, ("shellfish", "gluten", "dairy"), False, ("harborview", "riverside")),
    ("Cacio e Pepe", "pasta", 19.0, ("gluten", "dairy"), True, ALL),
    ("Lamb Ragu Pappardelle", "pasta", 24.5, ("gluten", "egg", "dairy"), False, ALL),
    ("Pistachio Pesto Gnocchi", "pasta", 21.0, ("gluten", "dairy", "tree_nut"), True, ALL),
    ("Peanut Noodle Bowl", "bowl", 16.0, ("peanut", "soy", "gluten", "sesame"), True, MID_LAKE),
    ("Miso Salmon Bowl", "bowl", 22.5, ("fish", "soy", "sesame"), False, ALL),
    ("Harissa Chickpea Bowl", "bowl", 15.5, ("sesame",), True, ALL),
    ("Wood-Fired Half Chicken", "main", 26.0, ("dairy",), False, ALL),
    ("Seared Scallops", "main", 32.0, ("shellfish", "dairy"), False, (*HARBOR_RIVER, "lakeshore")),
    ("Ember Burger", "main", 19.5, ("gluten", "dairy", "egg", "sesame"), False, ALL),
    ("Crispy Tofu Steak", "main", 18.0, ("soy", "sesame"), True, ALL),
    ("Grilled Swordfish", "main", 30.5, ("fish",), False, ("harborview", "riverside")),
    ("Braised Short Rib", "main", 34.0, ("dairy",), False, ALL),
    ("Fish & Chips", "main", 21.5, ("fish", "gluten", "egg"), False, ("harborview", "oldtown", "lakeshore")),
    ("Truffle Fries", "side", 8.5, ("dairy",), True, ALL),
    ("Charred Broccolini", "side", 7.5, ("tree_nut",), True, ALL),
    ("Garlic Focaccia", "side", 6.0, ("gluten",), True, ALL),
    ("Green Salad", "side", 6.5, (), True, ALL),
    ("Tiramisu", "dessert", 10.0, ("dairy", "egg", "gluten"), True, ALL),
    ("Olive Oil Cake", "dessert", 9.0, ("egg", "gluten", "tree_nut"), True, ALL),
    ("Dark Chocolate Torte", "dessert", 11.0, ("dairy", "egg"), True, ALL),
    ("Lemon Sorbet", "dessert", 7.0, (), True, ALL),
    ("Peanut Butter Pie", "dessert", 9.5, ("peanut", "dairy", "gluten"), True, MID_LAKE),
    ("House Lemonade", "drink", 5.0, (), True, ALL),
    ("Sparkling Water", "drink", 3.5, (), True, ALL),
    ("Iced Hibiscus Tea", "drink", 4.5, (), True, ALL),
    ("Cold Brew Tonic", "drink", 5.5, (), True, ("midtown", "oldtown")),
    ("Kids Pasta Butter", "kids", 9.0, ("gluten", "dairy"), True, ALL),
)  # fmt: skip

FIRST_NAMES = (
    "Amara", "Bennett", "Calla", "Desmond", "Elodie", "Fitz", "Greer", "Hollis", "Ines", "Jasper",
    "Kenji", "Lorna", "Milo", "Nadia", "Orson", "Pia", "Quentin", "Rosalind", "Silas", "Talia",
    "Umberto", "Vera", "Wendell", "Xiomara", "Yusuf", "Zelda", "Anouk", "Brooks", "Cosima", "Dario",
    "Esme", "Florence", "Gavin", "Hattie", "Ivo", "Juniper", "Kai", "Leona", "Marek", "Nell",
    "Otis", "Phoebe", "Rafael", "Sabine", "Tobin", "Uma", "Viggo", "Willa", "Yara", "Zane",
)  # fmt: skip
LAST_NAMES = (
    "Ashworth", "Baptiste", "Carrow", "Dunmore", "Ellery", "Falkner", "Gage", "Hartigan", "Imbert",
    "Jessup", "Kincaid", "Lowther", "Maddox", "Nakagawa", "Oakes", "Penhallow", "Quarles", "Rourke",
    "Sandoval", "Thackeray", "Underhill", "Vance", "Whitlock", "Yardley", "Zamora", "Abello", "Brightwell",
    "Castellan", "Drummond", "Eastwick", "Fontaine", "Greaves", "Holm", "Iwata", "Joubert", "Kowal",
    "Lindell", "Merriweather", "Northcott", "Okonjo",
)  # fmt: skip
EMAIL_DOMAINS = ("mail.example", "inbox.example", "post.example")
BRANDS = ("visa", "mastercard", "amex", "discover")
STREETS = ("Brackett Street", "Deering Avenue", "Forest Avenue", "High Street", "Pine Street",
           "Spring Street", "State Street", "Vaughan Street", "Winter Street", "Fore Street")  # fmt: skip
DIETARY = ("", "", "", "", "vegetarian", "no shellfish", "peanut allergy", "gluten-free", "dairy-free",
           "sesame allergy", "prefers a quiet table")  # fmt: skip
OCCASIONS = ("", "", "", "", "birthday", "anniversary", "business dinner", "date night", "graduation")


def weekday(day: date) -> str:
    return WEEKDAYS[day.weekday()]


def clock_text(total: int) -> str:
    return f"{total // 60:02d}:{total % 60:02d}"


def seating_times(location: Location, day: date) -> list[str]:
    """Every half-hour start time on `day`, from opening to the last seating; empty when closed."""
    hours = location.hours[weekday(day)]
    if hours is None:
        return []
    last = minutes(hours["close"]) - LAST_SEATING_MINUTES
    return [clock_text(t) for t in range(minutes(hours["open"]), last + 1, 30)]


class _Floor:
    """Which tables are taken when, per (location, date): booked and completed seatings never overlap,
    and no guest holds two seatings within two hours of each other."""

    def __init__(self) -> None:
        self.taken: dict[tuple[str, str], list[tuple[str, int]]] = {}
        self.guests: dict[tuple[str, str], list[int]] = {}

    def guest_busy(self, guest_id: str, day: str, time: str) -> bool:
        return any(abs(s - minutes(time)) < SEATING_MINUTES for s in self.guests.get((guest_id, day), []))

    def table_for(self, location: Location, day: str, time: str, party: int) -> str | None:
        start, busy = minutes(time), self.taken.get((location.location_id, day), [])
        for table in location.tables:
            if table["seats"] < party:
                continue
            if all(t != table["table_id"] or abs(s - start) >= SEATING_MINUTES for t, s in busy):
                return table["table_id"]
        return None

    def hold(self, location: Location, day: str, time: str, table_id: str) -> None:
        self.taken.setdefault((location.location_id, day), []).append((table_id, minutes(time)))


def _guest(rng: random.Random, number: int, used_phones: set[str]) -> Guest:
    first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
    phone = ""
    while not phone or phone in used_phones:
        phone = f"207-{rng.randint(200, 989)}-{rng.randint(1000, 9999)}"
    used_phones.add(phone)
    tier = rng.choices(("member", "silver", "gold"), weights=(60, 28, 12))[0]
    cards = []
    for _ in range(rng.choice((1, 1, 2, 2, 3))):
        last_four = f"{rng.randint(0, 9999):04d}"
        cards.append({"payment_method_id": f"pm_{rng.randint(100000, 999999)}", "brand": rng.choice(BRANDS),
                      "last_four": last_four})  # fmt: skip
    since = TODAY - timedelta(days=rng.randint(30, 2200))
    return Guest(
        guest_id=f"G{10000 + number}",
        first_name=first,
        last_name=last,
        phone=phone,
        email=f"{first.lower()}.{last.lower()}{number}@{rng.choice(EMAIL_DOMAINS)}",
        tier=tier,
        points=rng.randint(0, 26) * 100 + rng.choice((0, 0, 20, 40, 50, 70, 80)),
        member_since=since.isoformat(),
        payment_methods=cards,
        dietary_notes=rng.choice(DIETARY),
    )


def _reservation_day(rng: random.Random) -> date:
    roll = rng.random()
    if roll < 0.12:
        return TODAY
    if roll < 0.6:
        return TODAY + timedelta(days=rng.randint(1, 40))
    return TODAY - timedelta(days=rng.randint(1, 100))


def _reservation(
    rng: random.Random, guest: Guest, number: int, floor: _Floor, locations: list[Location]
) -> Reservation | None:
    location = rng.choice(locations)
    day = _reservation_day(rng)
    times = seating_times(location, day)
    if not times:
        return None
    time = rng.choice(times)
    party = rng.choices((1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12), weights=(2, 30, 10, 20, 6, 8, 3, 4, 2, 2, 1))[0]
    if party > location.max_party():
        party = rng.choice((2, 4))
    table_id = floor.table_for(location, day.isoformat(), time, party)
    if table_id is None or floor.guest_busy(guest.guest_id, day.isoformat(), time):
        return None
    floor.guests.setdefault((guest.guest_id, day.isoformat()), []).append(minutes(time))
    start = datetime.combine(day, datetime.strptime(time, "%H:%M").time())
    created = start - timedelta(days=rng.randint(1, 30), hours=rng.randint(0, 9))
    created = min(created, NOW - timedelta(hours=rng.randint(1, 48)))
    card = rng.choice(guest.payment_methods)["payment_method_id"]
    deposit = deposit_for(party)
    charges = [{"kind": "deposit", "amount": deposit, "payment_method_id": card, "at": created.isoformat()}]
    charges = charges if deposit else []
    status, cancelled_at = _reservation_status(rng, start)
    if status == "cancelled" and deposit:
        charges.append({"kind": "deposit_refund", "amount": -deposit, "payment_method_id": card,
                        "at": cancelled_at})  # fmt: skip
    if status == "no_show":
        fee = NO_SHOW_FEE_PER_GUEST * party
        charges.append({"kind": "no_show_fee", "amount": max(fee - deposit, 0.0), "payment_method_id": card,
                        "at": (start + timedelta(hours=1)).isoformat()})  # fmt: skip
    if status in ("booked", "completed"):
        floor.hold(location, day.isoformat(), time, table_id)
    return Reservation(
        reservation_id=f"R{30000 + number}",
        guest_id=guest.guest_id,
        location_id=location.location_id,
        date=day.isoformat(),
        time=time,
        party_size=party,
        table_id=table_id,
        status=status,
        payment_method_id=card,
        deposit=deposit,
        charges=charges,
        occasion=rng.choice(OCCASIONS),
        created_at=created.isoformat(),
        cancelled_at=cancelled_at,
    )


def _reservation_status(rng: random.Random, start: datetime) -> tuple[str, str | None]:
    if start > NOW:
        if rng.random() < 0.08:
            return "cancelled", (NOW - timedelta(hours=rng.randint(2, 100))).isoformat()
        return "booked", None
    roll = rng.random()
    if roll < 0.08:
        return "cancelled", (start - timedelta(days=rng.randint(2, 9))).isoformat()
    return ("no_show", None) if roll < 0.26 else ("completed", None)


def _order_lines(rng: random.Random, location: Location, menu: list[MenuItem]) -> list[dict[str, Any]]:
    served = [item for item in menu if location.location_id in item.locations]
    lines = []
    for item in rng.sample(served, rng.randint(1, 5)):
        lines.append({"item_id": item.item_id, "name": item.name, "quantity": rng.choice((1, 1, 1, 2, 2, 3)),
                      "unit_price": item.price})  # fmt: skip
    return lines


def _order_timing(rng: random.Random, active: bool) -> tuple[datetime, datetime, str]:
    """(placed, due, status) of an order: a past one, or one of today's still in the kitchen's pipeline."""
    if not active:
        day = NOW.replace(hour=0, minute=0) - timedelta(days=rng.randint(1, 120))
        due = day + timedelta(minutes=rng.randrange(11 * 60 + 30, 21 * 60 + 31, 15))
        placed = due - timedelta(minutes=rng.choice((30, 45, 60, 90)))
        return placed, due, "cancelled" if rng.random() < 0.08 else "completed"
    status = rng.choices(("received", "preparing", "ready", "out_for_delivery"), weights=(60, 18, 10, 12))[0]
    if status == "received":
        due = NOW + timedelta(minutes=rng.choice((90, 120, 150, 180, 210, 240, 300, 1440 + 180)))
    else:
        due = NOW + timedelta(minutes=rng.choice((-10, 0, 15, 20, 30, 40)))
    placed = min(due - timedelta(minutes=rng.choice((45, 60, 120, 240))), NOW - timedelta(minutes=5))
    return placed, due, status


def _order(rng: random.Random, guest: Guest, number: int, active: bool, menu: list[MenuItem]) -> Order:
    placed, due, status = _order_timing(rng, active)
    delivering = [loc for loc in LOCATIONS if loc.delivery]
    channel = rng.choice(("takeaway", "takeaway", "delivery"))
    location = rng.choice(delivering if channel == "delivery" else LOCATIONS)
    if status == "out_for_delivery":
        channel, location = "delivery", rng.choice(delivering)
    if status == "ready":
        channel = "takeaway"
    lines = _order_lines(rng, location, menu)
    subtotal = sum(line["unit_price"] * line["quantity"] for line in lines)
    fee = DELIVERY_FEE if channel == "delivery" else 0.0
    redeemed = rng.choice((100, 200)) if not active and rng.random() < 0.1 and subtotal >= 10 else 0
    discount = redeemed / 20
    card = rng.choice(guest.payment_methods)["payment_method_id"]
    refunds = []
    if status == "cancelled":
        at = (placed + timedelta(minutes=10)).isoformat()
        refunds.append(
            {
                "amount": subtotal + fee - discount,
                "payment_method_id": card,
                "at": at,
                "reason": "cancelled by guest",
            }
        )
    address = f"{rng.randint(3, 480)} {rng.choice(STREETS)}, Portland, ME" if channel == "delivery" else None
    return Order(
        order_id=f"O{70000 + number}",
        guest_id=guest.guest_id,
        location_id=location.location_id,
        channel=channel,
        items=lines,
        subtotal=subtotal,
        delivery_fee=fee,
        discount=discount,
        total=subtotal + fee - discount,
        status=status,
        placed_at=placed.replace(second=0, microsecond=0).isoformat(),
        ready_at=due.replace(second=0, microsecond=0).isoformat(),
        payment_method_id=card,
        points_redeemed=redeemed,
        delivery_address=address,
        refunds=refunds,
    )


def _menu() -> list[MenuItem]:
    return [
        MenuItem(
            item_id=f"M{101 + i}",
            name=name,
            category=category,
            price=price,
            allergens=list(allergens),
            vegetarian=vegetarian,
            locations=list(locations),
        )
        for i, (name, category, price, allergens, vegetarian, locations) in enumerate(MENU)
    ]


def generate(seed: int = 0) -> list[SQLModel]:
    rng = random.Random(seed)
    menu = _menu()
    locations = [loc.model_copy(deep=True) for loc in LOCATIONS]
    phones: set[str] = set()
    guests = [_guest(rng, number, phones) for number in range(1, GUEST_COUNT + 1)]
    floor = _Floor()
    reservations: list[Reservation] = []
    orders: list[Order] = []
    for guest in guests:
        for _ in range(rng.choice((1, 2, 3, 4, 4, 5, 5, 6, 7, 8))):
            found = _reservation(rng, guest, len(reservations) + 1, floor, locations)
            if found is not None:
                reservations.append(found)
        active = rng.choice((0, 1, 1, 1, 2, 2))
        for index in range(rng.choice((2, 3, 4, 4, 5, 6, 7, 8))):
            orders.append(_order(rng, guest, len(orders) + 1, index < active, menu))
    _link(guests, reservations, orders)
    return [*locations, *menu, *guests, *reservations, *orders]


def _link(guests: list[Guest], reservations: list[Reservation], orders: list[Order]) -> None:
    """Each profile lists its reservations and orders oldest first."""
    by_guest = {guest.guest_id: guest for guest in guests}
    for reservation in sorted(reservations, key=lambda r: (r.date, r.time, r.reservation_id)):
        by_guest[reservation.guest_id].reservations.append(reservation.reservation_id)
    for order in sorted(orders, key=lambda o: (o.ready_at, o.order_id)):
        by_guest[order.guest_id].orders.append(order.order_id)
