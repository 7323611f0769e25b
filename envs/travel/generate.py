"""Deterministic travel seed data: 20 destinations with their hotels, car-rental offers and holiday
packages; 340 travellers with about 830 itineraries, 1,750 bookings, insurance policies and claims.

Everything comes from one `random.Random(seed)`; dates are placed around the simulated clock
(2025-06-02 09:00) so that every rule has records on both sides: bookings booked inside and outside
the insurance window, flexible and non-refundable rates, trips past, running and to come, drivers
under and over 25, claims of every status.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from sqlmodel import SQLModel

from taue.envs.runtime.money import cents
from taue.envs.travel.inventory import DESTINATIONS, cars, hotels, packages
from taue.envs.travel.models import (
    Booking,
    CarOffer,
    Claim,
    Customer,
    HolidayPackage,
    Hotel,
    InsurancePolicy,
    Itinerary,
)
from taue.envs.travel.rules import (
    CLAIM_LIMITS,
    CLOCK,
    COVERED,
    ROUNDING,
    TODAY,
    days_between,
    fee_share,
    non_refundable,
    premium,
    shift,
)

CUSTOMERS = 340
FIRST_TRIP_DAY, LAST_TRIP_DAY = "2025-02-01", "2025-10-31"
FIRST_NAMES = (
    "Adaeze", "Alban", "Amelie", "Anika", "Arjun", "Beatrix", "Bo", "Callum", "Carmen", "Cormac", "Dagny",
    "Darius", "Elena", "Emre", "Esther", "Farid", "Fiona", "Gael", "Hanna", "Hamza", "Ilse", "Isaac",
    "Jana", "Jorge", "Kalani", "Kiran", "Lena", "Lorenzo", "Maeve", "Malik", "Marisol", "Mateo", "Nadia",
    "Niamh", "Obi", "Odile", "Paolo", "Petra", "Rania", "Rhys", "Saoirse", "Samir", "Sigrid", "Tariq",
    "Tessa", "Ulrich", "Valeria", "Wen", "Yara", "Zoltan",
)  # fmt: skip
LAST_NAMES = (
    "Achterberg", "Bianchi", "Calloway", "Dimitriou", "Engstrom", "Fitzgerald", "Guerrero", "Halloran",
    "Ibarra", "Jaworski", "Kavanagh", "Lindgren", "Mbeki", "Nordstrom", "Oyelaran", "Pacheco", "Quigley",
    "Rossetti", "Sato", "Thorsen", "Uchida", "Valdivia", "Wojcik", "Yamamoto", "Zamora", "Abiodun",
    "Brannigan", "Castellanos", "Delgado", "Eriksen", "Falcone", "Gunawardena", "Hoffmann", "Iqbal",
    "Kowalczyk", "Laurent", "Marchand", "Novotny", "Ostrowski", "Pereira",
)  # fmt: skip
TRIP_SHAPES = (
    ("hotel",), ("hotel", "car"), ("package",), ("hotel", "car", "hotel"), ("car", "hotel"), ("car",),
    ("package", "car"), ("hotel", "hotel"), ("hotel", "car", "hotel", "car"), ("hotel", "package", "car"),
)  # fmt: skip
"""What one trip books, in order; a car is rented from the day the stay before it starts."""
TRIP_WORDS = ("trip", "getaway", "holiday", "break", "visit")
MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
    "November", "December",
)  # fmt: skip


@dataclass
class _Ids:
    rng: random.Random
    used: set[str] = field(default_factory=set)

    def new(self, prefix: str, digits: int) -> str:
        low = 10 ** (digits - 1)
        while True:  # below 9·10^(digits-1): the tools number what they create from 900000 up
            value = f"{prefix}{self.rng.randint(low, 9 * low - 1)}"
            if value not in self.used:
                self.used.add(value)
                return value


@dataclass
class _World:
    hotels: dict[str, list[Hotel]]
    cars: dict[str, list[CarOffer]]
    packages: dict[str, list[HolidayPackage]]


def generate(seed: int) -> list[SQLModel]:
    """Every seed row for `seed`; the same seed gives the same rows."""
    rng = random.Random(seed)
    ids = _Ids(rng)
    world = _World(hotels(rng), cars(rng), packages(rng))
    customers = _customers(rng, ids)
    rows: list[SQLModel] = []
    for customer in customers:
        rows.extend(_trips(rng, ids, world, customer))
    inventory = [
        row
        for group in (world.hotels, world.cars, world.packages)
        for rows_ in group.values()
        for row in rows_
    ]
    return [*inventory, *customers, *rows]


# ------------------------------------------------------------------------------------------ customers


def _payment_methods(rng: random.Random, ids: _Ids) -> dict[str, dict[str, Any]]:
    methods: dict[str, dict[str, Any]] = {}
    for _ in range(rng.choice((1, 1, 2))):
        card = ids.new("card_", 7)
        methods[card] = {
            "type": "credit_card",
            "brand": rng.choice(("visa", "mastercard", "amex")),
            "last_four": f"{rng.randint(0, 9999):04d}",
        }
    if rng.random() < 0.4:
        methods[ids.new("credit_", 7)] = {"type": "travel_credit", "balance": float(rng.randint(2, 60) * 10)}
    return methods


def _birth_date(rng: random.Random) -> str:
    year = rng.randint(2001, 2005) if rng.random() < 0.18 else rng.randint(1948, 2000)
    return f"{year}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"


def _customers(rng: random.Random, ids: _Ids) -> list[Customer]:
    customers, emails = [], set()
    for _ in range(CUSTOMERS):
        first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
        email = f"{first.lower()}.{last.lower()}{rng.randint(10, 99)}@example.com"
        customer_id = ids.new(f"{first.lower()}_{last.lower()}_", 4)
        if email in emails:
            continue
        emails.add(email)
        customers.append(
            Customer(
                customer_id=customer_id,
                first_name=first,
                last_name=last,
                email=email,
                phone=f"+1-{rng.randint(200, 989)}-555-{rng.randint(0, 9999):04d}",
                date_of_birth=_birth_date(rng),
                loyalty_tier=rng.choice(("blue", "blue", "silver", "silver", "gold")),
                member_since=f"{rng.randint(2014, 2024)}-{rng.randint(1, 12):02d}-01",
                payment_methods=_payment_methods(rng, ids),
            )
        )
    return sorted(customers, key=lambda c: c.customer_id)


# -------------------------------------------------------------------------------- trips and bookings


def _moment(rng: random.Random, first: str, last: str) -> str:
    """A random moment between two dates (both included), never after the clock."""
    last = min(last, TODAY)
    first = min(first, last)
    date = shift(first, rng.randint(0, days_between(first, last)))
    stamp = f"{date}T{rng.randint(7, 22):02d}:{rng.randint(0, 59):02d}:00"
    return min(stamp, CLOCK)


def _booked_at(rng: random.Random, start: str) -> str:
    """When the booking was made: often in the last two weeks for trips to come."""
    if start > TODAY and rng.random() < 0.4:
        return _moment(rng, shift(TODAY, -12), shift(start, -1))
    return _moment(rng, shift(start, -150), shift(start, -2))


def _trips(rng: random.Random, ids: _Ids, world: _World, customer: Customer) -> list[SQLModel]:
    rows: list[SQLModel] = []
    titles: set[str] = set()
    for _ in range(rng.choice((1, 2, 2, 2, 3, 3, 4))):
        city, _country = rng.choice(DESTINATIONS)
        start = shift(FIRST_TRIP_DAY, rng.randint(0, days_between(FIRST_TRIP_DAY, LAST_TRIP_DAY)))
        itinerary = Itinerary(
            itinerary_id=ids.new("ITN", 5),
            customer_id=customer.customer_id,
            title="",
            status="open",
            created_at=_moment(rng, shift(start, -160), shift(start, -3)),
        )
        bookings = _bookings(rng, ids, world, customer, itinerary, city, start)
        begins = bookings[0].start_date  # a package may start the trip on a later departure
        itinerary.title = f"{city} {rng.choice(TRIP_WORDS)}, {MONTHS[int(begins[5:7]) - 1]} 2025"
        if itinerary.title in titles:
            continue
        titles.add(itinerary.title)
        if all(b.end_date < TODAY for b in bookings):
            itinerary.status = "closed"
        rows.append(itinerary)
        for booking in bookings:
            rows.append(booking)
            rows.extend(_insurance(rng, ids, booking))
    return rows


def _bookings(
    rng: random.Random,
    ids: _Ids,
    world: _World,
    customer: Customer,
    itinerary: Itinerary,
    city: str,
    start: str,
) -> list[Booking]:
    kinds = rng.choice(TRIP_SHAPES)
    bookings, day = [], start
    for kind in kinds:
        length = rng.randint(2, 7)
        if kind == "package":
            package = rng.choice(world.packages[city])
            booking = _package_booking(rng, package, day)
        elif kind == "hotel":
            booking = _hotel_booking(rng, rng.choice(world.hotels[city]), day, length)
        else:
            booking = _car_booking(rng, rng.choice(world.cars[city]), day, length)
        methods = customer.payment_methods
        credits = [k for k, m in methods.items() if m["type"] == "travel_credit"]
        cards = [k for k, m in methods.items() if m["type"] == "credit_card"]
        payer = rng.choice(credits) if credits and rng.random() < 0.15 else rng.choice(cards)
        booking.booking_id, booking.customer_id = ids.new("BK", 6), customer.customer_id
        booking.itinerary_id, booking.payment_method_id = itinerary.itinerary_id, payer
        booking.booked_at = max(_booked_at(rng, booking.start_date), itinerary.created_at)
        _settle(rng, booking)
        bookings.append(booking)
        itinerary.booking_ids.append(booking.booking_id)
        if kind != "car":
            day = booking.end_date
    return bookings


def _hotel_booking(rng: random.Random, hotel: Hotel, start: str, nights: int) -> Booking:
    room_type = rng.choice(sorted(hotel.rooms))
    rate = rng.choice(("flexible", "flexible", "non_refundable"))
    nightly = hotel.rooms[room_type][rate]
    return Booking(
        booking_id="",
        customer_id="",
        itinerary_id="",
        kind="hotel",
        item_id=hotel.hotel_id,
        item_name=hotel.name,
        city=hotel.city,
        start_date=start,
        end_date=shift(start, nights),
        details={
            "room_type": room_type,
            "nightly_rate": nightly,
            "nights": nights,
            "guests": rng.randint(1, 3),
        },
        rate=rate,
        total_price=cents(nightly * nights, ROUNDING),
        payment_method_id="",
        status="confirmed",
        booked_at="",
    )


def _car_booking(rng: random.Random, car: CarOffer, start: str, days: int) -> Booking:
    rate = rng.choice(("flexible", "flexible", "non_refundable"))
    daily = car.daily_rate if rate == "flexible" else non_refundable(car.daily_rate)
    return Booking(
        booking_id="",
        customer_id="",
        itinerary_id="",
        kind="car",
        item_id=car.car_id,
        item_name=f"{car.company} {car.car_class} ({car.example_model} or similar)",
        city=car.city,
        start_date=start,
        end_date=shift(start, days),
        details={"car_class": car.car_class, "company": car.company, "daily_rate": daily, "days": days},
        rate=rate,
        total_price=cents(daily * days, ROUNDING),
        payment_method_id="",
        status="confirmed",
        booked_at="",
    )


def _package_booking(rng: random.Random, package: HolidayPackage, near: str) -> Booking:
    later = [d for d in sorted(package.departures) if d >= near]
    start = later[0] if near > TODAY and later else near  # past trips left on their own dates
    travellers = rng.randint(1, min(4, package.max_travellers))
    return Booking(
        booking_id="",
        customer_id="",
        itinerary_id="",
        kind="package",
        item_id=package.package_id,
        item_name=package.name,
        city=package.destination,
        start_date=start,
        end_date=shift(start, package.nights),
        details={
            "travellers": travellers,
            "price_per_person": package.price_per_person,
            "nights": package.nights,
        },
        rate="standard",
        total_price=cents(package.price_per_person * travellers, ROUNDING),
        payment_method_id="",
        status="confirmed",
        booked_at="",
    )


def _settle(rng: random.Random, booking: Booking) -> None:
    """Past trips are completed; some trips were cancelled (with the fee of their day)."""
    if booking.end_date < TODAY:
        booking.status = "completed"
    if booking.rate == "non_refundable" or rng.random() > 0.12:
        return
    cancelled = _moment(rng, booking.booked_at[:10], shift(booking.start_date, -1))
    if cancelled <= booking.booked_at:
        return
    fee = cents(
        booking.total_price * fee_share(booking.kind, days_between(cancelled, booking.start_date)), ROUNDING
    )
    booking.status, booking.cancelled_at = "cancelled", cancelled
    booking.cancellation_fee, booking.refund_amount = fee, cents(booking.total_price - fee, ROUNDING)


def _insurance(rng: random.Random, ids: _Ids, booking: Booking) -> list[SQLModel]:
    if rng.random() > 0.38:
        return []
    plan = rng.choice(("basic", "comprehensive", "comprehensive"))
    purchased = _moment(rng, booking.booked_at[:10], shift(booking.booked_at, 14))
    policy = InsurancePolicy(
        policy_id=ids.new("POL", 6),
        booking_id=booking.booking_id,
        customer_id=booking.customer_id,
        plan=plan,
        premium=premium(booking.to_record(), plan),
        trip_cost_covered=booking.total_price,
        purchased_at=max(purchased, booking.booked_at),
        status="active",
    )
    booking.policy_id = policy.policy_id
    claim = _claim(rng, ids, booking, policy)
    return [policy, claim] if claim is not None else [policy]


def _claim(rng: random.Random, ids: _Ids, booking: Booking, policy: InsurancePolicy) -> Claim | None:
    cancelled_at = booking.cancelled_at
    if booking.status == "cancelled" and booking.cancellation_fee and cancelled_at and rng.random() < 0.5:
        category, incident, limit = "cancellation", cancelled_at[:10], booking.cancellation_fee
    elif booking.start_date <= TODAY and rng.random() < 0.45:
        category = rng.choice(COVERED[policy.plan][1:])
        incident = shift(
            booking.start_date, rng.randint(0, days_between(booking.start_date, booking.end_date))
        )
        limit = CLAIM_LIMITS[policy.plan][category]
        if incident > TODAY:
            return None
    else:
        return None
    amount = cents(min(limit, rng.randint(4, 120) * 10.0), ROUNDING)
    status = rng.choice(("submitted", "under_review", "under_review", "approved", "paid", "denied"))
    approved = (
        cents(amount * rng.choice((1.0, 1.0, 0.8, 0.6)), ROUNDING) if status in ("approved", "paid") else None
    )
    note = {
        "denied": "The incident is not covered by the policy terms.",
        "approved": "Approved; payment is being prepared.",
        "paid": "Paid to the customer's original payment method.",
    }.get(status)
    return Claim(
        claim_id=ids.new("CLM", 6),
        policy_id=policy.policy_id,
        category=category,
        incident_date=incident,
        amount_claimed=amount,
        status=status,
        filed_at=_moment(rng, incident, shift(incident, 20)),
        approved_amount=approved,
        decision_note=note,
    )
