"""Airline's seed records as the Tracer reads them (docs/tracer.md): an indexed view, the
customers and the phrasing helpers its intents and policy check share."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from taue.contracts.tasks import Action
from taue.envs.airline.generate import generate
from taue.envs.airline.models import Flight, Reservation, User
from taue.envs.airline.rules import RECENT, TODAY
from taue.envs.airline.tools import AIRPORTS
from taue.envs.runtime.authoring import Customer, Grounded, Lookups, write

Record = dict[str, Any]

LAST_DAY = "2024-05-30"
FREE_BAGS = {
    "regular": {"basic_economy": 0, "economy": 1, "business": 2},
    "silver": {"basic_economy": 1, "economy": 2, "business": 3},
    "gold": {"basic_economy": 2, "economy": 3, "business": 4},
}
CABIN_WORDS = {"basic_economy": "basic economy", "economy": "economy", "business": "business"}
UPGRADES = {"basic_economy": ("economy", "business"), "economy": ("business",)}
FLOWN = ("landed", "flying")
NEWCOMERS = tuple(
    {"first_name": first, "last_name": last, "dob": dob}
    for first, last, dob in (("Wren", "Halvorsen", "1991-08-30"), ("Idris", "Okonkwo", "1984-02-11"),
                             ("Solveig", "Marchetti", "1977-11-03"), ("Tobias", "Adeyemi", "2001-06-19"),
                             ("Noemi", "Brandt", "1969-04-27"))
)  # fmt: skip
PERSONAS = (
    "a consultant who flies most weeks for work", "a retired engineer visiting grandchildren",
    "a nurse juggling shifts around a trip", "a student flying home for the holidays",
    "a parent planning a family trip on a budget", "a touring musician with a lot of gear",
    "a first-time flyer who double-checks everything", "a sales manager who wants things done quickly",
    "a wedding guest travelling with relatives", "a researcher on the way to a conference",
    "a small-business owner visiting suppliers", "a frequent flyer who knows the rules well",
)  # fmt: skip

# ------------------------------------------------------------------------------------------ seed view


@dataclass
class AirlineView:
    users: dict[str, Record]
    reservations: dict[str, Record]
    flights: dict[str, Record]
    routes: dict[tuple[str, str], list[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for number in sorted(self.flights):
            flight = self.flights[number]
            self.routes.setdefault((flight["origin"], flight["destination"]), []).append(number)

    def trips(self, user_id: str) -> list[Record]:
        return [self.reservations[r] for r in self.users[user_id]["reservations"]]

    def status(self, segment: Record) -> str:
        return self.flights[segment["flight_number"]]["dates"].get(segment["date"], {}).get("status", "")

    def flown(self, trip: Record) -> bool:
        return any(self.status(s) in FLOWN for s in trip["flights"])

    def future(self, user_id: str) -> list[Record]:
        """Reservations not cancelled whose flights are all after today, described unambiguously."""
        words = [trip_words(r) for r in self.trips(user_id)]
        return [
            r
            for r in self.trips(user_id)
            if "status" not in r
            and all(s["date"] > TODAY for s in r["flights"])
            and words.count(trip_words(r)) == 1
        ]

    def fare(self, number: str, date: str, cabin: str, seats: int) -> int | None:
        day = self.flights[number]["dates"].get(date, {})
        if day.get("status") != "available" or day["available_seats"][cabin] < seats:
            return None
        return day["prices"][cabin]

    def ordered(self, trips: list[Record], rng: random.Random) -> list[Record]:
        """The trips in random order, those later in the profile first more often: a careful agent
        reads more reservations before it finds them."""
        keys = []
        for trip in trips:
            rank = self.users[trip["user_id"]]["reservations"].index(trip["reservation_id"]) + 1
            keys.append(rng.random() ** (1 / rank))
        return [trip for _, trip in sorted(zip(keys, trips, strict=True), key=lambda pair: -pair[0])]

    def goal(self, trip: Record, **fields: Any) -> Grounded:
        """An intent about one reservation: read up to it, touching it, naming it."""
        paid = fields["write"].arguments.get("payment_id") if fields.get("write") else None
        found = {"reservation_id": trip["reservation_id"], **({"payment_id": paid} if paid else {})}
        fields["bindings"] = {"reservation_id": self.lookups(trip), **fields.get("bindings", {})}
        fields.setdefault("entities", frozenset({trip["reservation_id"]}))
        fields.setdefault("discoverable", found)
        fields.setdefault("evidence", (trip["reservation_id"],))
        return Grounded(**fields)

    def lookups(self, trip: Record) -> Lookups:
        """The owner's reservations, in their profile's order, up to the wanted one."""
        ids = self.users[trip["user_id"]]["reservations"]
        return Lookups(tuple(ids[: ids.index(trip["reservation_id"]) + 1]))

    def methods(self, user_id: str, *sources: str) -> list[Record]:
        methods = self.users[user_id]["payment_methods"]
        return [methods[k] for k in sorted(methods) if methods[k]["source"] in sources]

    def payer(self, user_id: str, cost: float, rng: random.Random) -> Record | None:
        """A credit card, or a gift card that covers `cost` with room to spare."""
        cards = self.methods(user_id, "credit_card")
        gifts = [m for m in self.methods(user_id, "gift_card") if m["amount"] >= max(cost, 0) + 100]
        return rng.choice(cards + gifts) if cards or gifts else None


def load(seed: int) -> AirlineView:
    rows = generate(seed)
    return AirlineView(
        users={r.user_id: r.to_record() for r in rows if isinstance(r, User)},
        reservations={r.reservation_id: r.to_record() for r in rows if isinstance(r, Reservation)},
        flights={r.flight_number: r.to_record() for r in rows if isinstance(r, Flight)},
    )


def customers(view: AirlineView) -> list[Customer]:
    result = []
    for user_id, user in sorted(view.users.items()):
        name = f"{user['name']['first_name']} {user['name']['last_name']}"
        identity = (Action(name="get_user_details", arguments={"user_id": user_id}),)
        result.append(Customer(user_id, name, identity, {"user_id": user_id}, {}))
    return result


# ------------------------------------------------------------------------------------------- phrasing


def shift(date: str, days: int) -> str:
    return (datetime.fromisoformat(date) + timedelta(days=days)).strftime("%Y-%m-%d")


def long_date(date: str) -> str:
    return datetime.fromisoformat(date).strftime("%B %d").replace(" 0", " ")


def trip_words(trip: Record) -> str:
    kind = "round trip" if trip["flight_type"] == "round_trip" else "one-way trip"
    return (
        f"the {CABIN_WORDS[trip['cabin']]} {kind} from {AIRPORTS[trip['origin']]} to "
        f"{AIRPORTS[trip['destination']]} starting {long_date(trip['flights'][0]['date'])}"
    )


def card_words(method: Record) -> str:
    if method["source"] == "credit_card":
        return f"{method['brand'].title()} credit card ending in {method['last_four']}"
    return "gift card"


def bag_words(count: int) -> str:
    return "no checked bags" if count == 0 else f"{count} checked bag{'s' * (count > 1)}"


def person(p: Record) -> str:
    return f"{p['first_name']} {p['last_name']}"


def plain(segments: list[Record]) -> list[dict[str, str]]:
    return [{"flight_number": s["flight_number"], "date": s["date"]} for s in segments]


def new_flights(trip: Record, cabin: str, segments: list[Record], method: Record) -> Action:
    return write("update_reservation_flights", reservation_id=trip["reservation_id"], cabin=cabin,
                 flights=plain(segments), payment_id=method["id"])  # fmt: skip


def free_bags(view: AirlineView, trip: Record) -> int:
    membership = view.users[trip["user_id"]]["membership"]
    return FREE_BAGS[membership][trip["cabin"]] * len(trip["passengers"])


def cancellable(view: AirlineView, trip: Record) -> str | None:
    """Why the policy lets the reservation be cancelled (a key of CANCEL_REASONS), or None."""
    if trip.get("status") == "cancelled" or view.flown(trip):
        return None
    if trip["created_at"] >= RECENT:
        return "recent"
    if any(view.status(s) == "cancelled" for s in trip["flights"]):
        return "airline"
    if trip["cabin"] == "business":
        return "business"
    return "insured" if trip["insurance"] == "yes" else None


def compensable(user: Record, trip: Record) -> bool:
    return user["membership"] != "regular" or trip["insurance"] == "yes" or trip["cabin"] == "business"
