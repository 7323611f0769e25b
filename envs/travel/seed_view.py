"""Travel's seed records as the Tracer reads them (docs/tracer.md): an indexed view, the customers
and the phrasing helpers its intents and policy check share."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date
from typing import Any, TypeVar

from sqlmodel import SQLModel

from taue.contracts.tasks import Action
from taue.envs.runtime.authoring import Customer, Grounded, Lookups
from taue.envs.travel.generate import generate
from taue.envs.travel.models import (
    Booking,
    CarOffer,
    Claim,
    HolidayPackage,
    Hotel,
    InsurancePolicy,
    Itinerary,
    TravelTable,
)
from taue.envs.travel.models import Customer as CustomerRow
from taue.envs.travel.rules import TODAY, Record, days_between, shift

T = TypeVar("T")

PERSONAS = (
    "a teacher planning the summer break around school dates",
    "a freelance photographer who travels for assignments",
    "a retired couple's organiser who books for both of them",
    "a software engineer who wants things settled in one call",
    "a parent arranging a family holiday on a budget",
    "a nurse fitting a trip between rotating shifts",
    "a university student on a first trip abroad",
    "a small-business owner combining work and a holiday",
    "a frequent traveller who knows the booking terms well",
    "a wedding guest coordinating travel with relatives",
    "a cautious first-time customer who double-checks details",
    "a food writer researching restaurants abroad",
)
CAR_WORDS = {"suv": "SUV", "van": "van", "premium": "premium car", "economy": "economy car",
             "compact": "compact car", "midsize": "midsize car"}  # fmt: skip
KIND_WORDS = {"hotel": "hotel stay", "car": "car rental", "package": "holiday package"}


@dataclass
class TravelView:
    customers: dict[str, Record]
    itineraries: dict[str, Record]
    bookings: dict[str, Record]
    policies: dict[str, Record]
    claims: dict[str, Record]
    hotels: dict[str, Record]
    cars: dict[str, Record]
    packages: dict[str, Record]
    trips_of: dict[str, list[str]] = field(default_factory=dict)
    """Customer id -> itinerary ids, in the order the profile lists them (by id)."""
    policies_of: dict[str, list[str]] = field(default_factory=dict)
    claims_of: dict[str, list[Record]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for itinerary_id in sorted(self.itineraries):
            self.trips_of.setdefault(self.itineraries[itinerary_id]["customer_id"], []).append(itinerary_id)
        for policy_id in sorted(self.policies):
            self.policies_of.setdefault(self.policies[policy_id]["customer_id"], []).append(policy_id)
        for claim_id in sorted(self.claims):
            self.claims_of.setdefault(self.claims[claim_id]["policy_id"], []).append(self.claims[claim_id])

    def bookings_of(self, customer_id: str) -> list[Record]:
        """The customer's bookings that can be named unambiguously, in profile order."""
        found = [
            self.bookings[b]
            for i in self.trips_of.get(customer_id, [])
            for b in self.itineraries[i]["booking_ids"]
        ]
        words = [booking_words(b) for b in found]
        return [b for b in found if words.count(booking_words(b)) == 1]

    def open_trips(self, customer_id: str) -> list[Record]:
        return [
            self.itineraries[i]
            for i in self.trips_of.get(customer_id, [])
            if self.itineraries[i]["status"] == "open"
        ]

    def city_of(self, itinerary: Record) -> str:
        return self.bookings[itinerary["booking_ids"][0]]["city"]

    def window(self, itinerary: Record) -> tuple[str, str]:
        """The first and last day of an itinerary's bookings."""
        booked = [self.bookings[b] for b in itinerary["booking_ids"]]
        return min(b["start_date"] for b in booked), max(b["end_date"] for b in booked)

    def new_dates(self, itinerary: Record, rng: random.Random, longest: int) -> tuple[str, str]:
        """Dates for one more booking of the trip: inside its window, from three days ahead on."""
        begins, ends = self.window(itinerary)
        first = max(begins, shift(TODAY, 3))
        last = max(first, shift(ends, -1))
        start = shift(first, rng.randint(0, days_between(first, last)))
        return start, shift(start, rng.randint(2, longest))

    def ordered(self, records: list[T], rng: random.Random) -> list[T]:
        """The records in random order, those later in the customer's profile first more often: a
        careful agent reads more itineraries and bookings before it finds them."""
        keys = [rng.random() ** (1 / (position + 1)) for position in range(len(records))]
        return [r for _, r in sorted(zip(keys, records, strict=True), key=lambda pair: -pair[0])]

    def booking_lookups(self, booking: Record) -> dict[str, Lookups]:
        """The reads up to a booking: the customer's itineraries up to its own, its bookings up to it."""
        trips = self.trips_of[booking["customer_id"]]
        ids = self.itineraries[booking["itinerary_id"]]["booking_ids"]
        return {
            "itinerary_id": Lookups(tuple(trips[: trips.index(booking["itinerary_id"]) + 1])),
            "booking_id": Lookups(tuple(ids[: ids.index(booking["booking_id"]) + 1])),
        }

    def policy_lookups(self, policy: Record) -> Lookups:
        ids = self.policies_of[policy["customer_id"]]
        return Lookups(tuple(ids[: ids.index(policy["policy_id"]) + 1]))

    def trip_lookups(self, itinerary: Record) -> Lookups:
        trips = self.trips_of[itinerary["customer_id"]]
        return Lookups(tuple(trips[: trips.index(itinerary["itinerary_id"]) + 1]))

    def about(self, booking: Record, **fields: Any) -> Grounded:
        """An intent about one existing booking: read up to it, touching it, naming it."""
        fields["bindings"] = {**self.booking_lookups(booking), **fields.get("bindings", {})}
        fields.setdefault("entities", frozenset({booking["booking_id"]}))
        fields.setdefault("discoverable", {"booking_id": booking["booking_id"]})
        fields.setdefault("evidence", (booking["booking_id"],))
        return Grounded(**fields)

    def cards(self, customer_id: str) -> list[tuple[str, Record]]:
        methods = self.customers[customer_id]["payment_methods"]
        return [(k, methods[k]) for k in sorted(methods) if methods[k]["type"] == "credit_card"]

    def card(self, customer_id: str, rng: random.Random) -> tuple[str, Record] | None:
        """A credit card the customer can name without ambiguity."""
        cards = self.cards(customer_id)
        named = [
            card for card in cards if [method_words(m) for _, m in cards].count(method_words(card[1])) == 1
        ]
        return rng.choice(named) if named else None

    def later_trip(self, customer_id: str, rng: random.Random) -> Record | None:
        """One of the customer's open itineraries, later ones in the profile more often."""
        trips = self.ordered(self.open_trips(customer_id), rng)
        return trips[0] if trips else None


def load(seed: int) -> TravelView:
    return view_of(generate(seed))


def view_of(rows: list[SQLModel]) -> TravelView:
    """The indexed view of seed rows (records as the read tools return them)."""
    tables: dict[type, dict[str, Record]] = {}
    keys = {
        CustomerRow: "customer_id",
        Itinerary: "itinerary_id",
        Booking: "booking_id",
        InsurancePolicy: "policy_id",
        Claim: "claim_id",
        Hotel: "hotel_id",
        CarOffer: "car_id",
        HolidayPackage: "package_id",
    }
    for row in rows:
        if isinstance(row, TravelTable):
            data = row.to_record()
            tables.setdefault(type(row), {})[data[keys[type(row)]]] = data
    return TravelView(
        customers=tables[CustomerRow],
        itineraries=tables[Itinerary],
        bookings=tables[Booking],
        policies=tables[InsurancePolicy],
        claims=tables[Claim],
        hotels=tables[Hotel],
        cars=tables[CarOffer],
        packages=tables[HolidayPackage],
    )


def customers(view: TravelView) -> list[Customer]:
    """Two in three identify with email and last name, the others with their customer id."""
    result = []
    for index, (customer_id, record) in enumerate(sorted(view.customers.items())):
        name = f"{record['first_name']} {record['last_name']}"
        details = Action(name="get_customer_details", arguments={"customer_id": customer_id})
        if index % 3:
            known = {"email": record["email"], "last_name": record["last_name"]}
            identity: tuple[Action, ...] = (Action(name="find_customer_id", arguments=known), details)
            found = {"customer_id": customer_id}
        else:  # the customer states the id: nothing left to discover
            known, identity, found = {"customer_id": customer_id}, (details,), {}
        result.append(Customer(customer_id, name, identity, known, found))
    return result


# ------------------------------------------------------------------------------------------- phrasing


def long_date(text: str) -> str:
    when = date.fromisoformat(text)
    return f"{when.strftime('%B')} {when.day}"


def span_words(start: str, end: str) -> str:
    return f"{long_date(start)} to {long_date(end)} ({start} to {end})"


def booking_words(booking: Record) -> str:
    """How a customer names one of their bookings."""
    if booking["kind"] == "hotel":
        return f"stay at {booking['item_name']} from {long_date(booking['start_date'])}"
    if booking["kind"] == "car":
        details = booking["details"]
        return (
            f"{CAR_WORDS[details['car_class']]} rental from {details['company']} in {booking['city']} "
            f"from {long_date(booking['start_date'])}"
        )
    return f"{booking['item_name']} package departing {long_date(booking['start_date'])}"


def method_words(method: Record) -> str:
    if method["type"] == "credit_card":
        return f"{method['brand'].title()} card ending in {method['last_four']}"
    return "travel credit"


def upcoming(booking: Record) -> bool:
    return booking["status"] == "confirmed" and booking["start_date"] > TODAY
