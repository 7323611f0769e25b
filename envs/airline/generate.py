"""Deterministic airline seed data: 300 flights, 500 users, about 2000 reservations.

Everything comes from one `random.Random(seed)`. Shapes follow the published tables (same 20
airports, flight numbers HAT001..HAT300, per-day objects for 2024-05-01..2024-05-30 whose status
depends on the simulated clock, `rules.CLOCK`); names, ids and values are our own.
"""

from __future__ import annotations

import math
import random
import string
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlmodel import SQLModel

from taue.envs.airline import rules
from taue.envs.airline.models import Flight, Reservation, User

CLOCK = datetime.fromisoformat(rules.CLOCK)
FIRST_DAY = datetime(2024, 5, 1)
DAYS = 30
CABINS = ("basic_economy", "economy", "business")
PRICE_RANGES = {"basic_economy": (50, 100), "economy": (100, 200), "business": (200, 500)}
RESERVED_IDS = frozenset({"HATHAT", "HATHAU", "HATHAV"})
"""Ids `book_reservation` hands out; never used by seed reservations."""
RESERVED_CERTIFICATES = frozenset({"certificate_3221322", "certificate_3221323", "certificate_3221324"})
"""Ids `send_certificate` hands out; never used by seed payment methods."""

# code, city, latitude, longitude (the 20 airports `list_all_airports` names)
AIRPORTS: tuple[tuple[str, str, float, float], ...] = (
    ("SFO", "San Francisco", 37.6, -122.4),
    ("JFK", "New York", 40.6, -73.8),
    ("LAX", "Los Angeles", 33.9, -118.4),
    ("ORD", "Chicago", 42.0, -87.9),
    ("DFW", "Dallas", 32.9, -97.0),
    ("DEN", "Denver", 39.9, -104.7),
    ("SEA", "Seattle", 47.4, -122.3),
    ("ATL", "Atlanta", 33.6, -84.4),
    ("MIA", "Miami", 25.8, -80.3),
    ("BOS", "Boston", 42.4, -71.0),
    ("PHX", "Phoenix", 33.4, -112.0),
    ("IAH", "Houston", 30.0, -95.3),
    ("LAS", "Las Vegas", 36.1, -115.2),
    ("MCO", "Orlando", 28.4, -81.3),
    ("EWR", "Newark", 40.7, -74.2),
    ("CLT", "Charlotte", 35.2, -80.9),
    ("MSP", "Minneapolis", 44.9, -93.2),
    ("DTW", "Detroit", 42.2, -83.4),
    ("PHL", "Philadelphia", 39.9, -75.2),
    ("LGA", "LaGuardia", 40.8, -73.9),
)

FIRST_NAMES = (
    "Ada", "Amara", "Anders", "Ananya", "Bruno", "Camila", "Caleb", "Chloe", "Dario", "Delia",
    "Elif", "Emeka", "Esme", "Felix", "Freya", "Gideon", "Greta", "Hana", "Hugo", "Ines",
    "Ivo", "Jonas", "Julia", "Kai", "Keiko", "Lars", "Leila", "Luca", "Mabel", "Marco",
    "Mira", "Nadia", "Nico", "Noor", "Oskar", "Olga", "Pablo", "Priya", "Quinn", "Rafael",
    "Rosa", "Rohan", "Selma", "Soren", "Tamsin", "Theo", "Uma", "Viktor", "Wanda", "Yusuf",
    "Zara", "Zeno", "Beatriz", "Cyrus", "Dalia", "Emil", "Farah", "Gustav", "Imani", "Joaquin",
)  # fmt: skip
LAST_NAMES = (
    "Abernathy", "Bakshi", "Castellano", "Dubois", "Eklund", "Ferreira", "Gallagher", "Haddad",
    "Ishikawa", "Jansen", "Kowalski", "Lindqvist", "Moreau", "Nakamura", "Okafor", "Petrov",
    "Quintero", "Rasmussen", "Sandoval", "Takahashi", "Underwood", "Varga", "Whitfield", "Xavier",
    "Yilmaz", "Zielinski", "Albescu", "Brennan", "Chaudhry", "Delacroix", "Esposito", "Fontaine",
    "Grimaldi", "Holloway", "Iversen", "Jovanovic", "Kapoor", "Larsen", "Mendoza", "Novak",
    "Ortega", "Pellegrini", "Rahman", "Sorensen", "Tanaka", "Vasquez", "Weber", "Zhou",
)  # fmt: skip
STREETS = (
    "Juniper Lane", "Harbor View Road", "Maple Crest Drive", "Old Mill Road", "Quarry Street",
    "Larkspur Court", "Beacon Hill Avenue", "Cedar Hollow Way", "Orchard Row", "Foxglove Street",
    "Riverbend Drive", "Granite Avenue", "Willow Park Lane", "Summit Ridge Road", "Lantern Way",
)  # fmt: skip
CITIES = (
    ("Portland", "OR", "972"), ("Tucson", "AZ", "857"), ("Madison", "WI", "537"),
    ("Raleigh", "NC", "276"), ("Boise", "ID", "837"), ("Omaha", "NE", "681"),
    ("Savannah", "GA", "314"), ("Spokane", "WA", "992"), ("Albany", "NY", "122"),
    ("Tampa", "FL", "336"), ("Reno", "NV", "895"), ("Richmond", "VA", "232"),
    ("Austin", "TX", "787"), ("Columbus", "OH", "432"), ("Denver", "CO", "802"),
)  # fmt: skip


@dataclass
class _Ids:
    """Unique random ids of the published formats."""

    rng: random.Random
    used: set[str] = field(default_factory=set)

    def new(self, make: Any) -> str:
        while True:
            value = make()
            if value not in self.used:
                self.used.add(value)
                return value

    def payment(self, source: str) -> str:
        return self.new(lambda: f"{source}_{self.rng.randint(1000000, 9999999)}")

    def reservation(self) -> str:
        alphabet = string.ascii_uppercase + string.digits
        return self.new(lambda: "".join(self.rng.choice(alphabet) for _ in range(6)))


def generate(seed: int) -> list[SQLModel]:
    """All seed rows (flights, users, reservations) for `seed`; the same seed gives the same rows."""
    rng = random.Random(seed)
    ids = _Ids(rng, set(RESERVED_IDS) | set(RESERVED_CERTIFICATES))
    flights = _flights(rng)
    users = [_user(rng, ids) for _ in range(500)]
    _unique_user_ids(rng, users)
    reservations = _reservations(rng, ids, flights, users)
    return [*flights, *sorted(users, key=lambda u: u.user_id), *reservations]


# ---------------------------------------------------------------------------------------------
# flights


def _distance_minutes(a: str, b: str) -> int:
    (_, _, lat1, lon1), (_, _, lat2, lon2) = (next(x for x in AIRPORTS if x[0] == c) for c in (a, b))
    km = 111 * math.hypot(lat1 - lat2, (lon1 - lon2) * math.cos(math.radians((lat1 + lat2) / 2)))
    minutes = 40 + km / 12.5
    return max(60, min(360, round(minutes / 30) * 30))


def _routes(rng: random.Random) -> list[tuple[str, str]]:
    """About 55 airport pairs flown both ways, every airport on at least three of them."""
    codes = [code for code, *_ in AIRPORTS]
    pairs: set[tuple[str, str]] = set()
    for code in codes:
        while sum(code in pair for pair in pairs) < 3:
            other = rng.choice([c for c in codes if c != code])
            pairs.add((min(code, other), max(code, other)))
    while len(pairs) < 55:
        a, b = rng.sample(codes, 2)
        pairs.add((min(a, b), max(a, b)))
    return [route for a, b in sorted(pairs) for route in ((a, b), (b, a))]


def _flights(rng: random.Random) -> list[Flight]:
    routes = _routes(rng)
    plan = routes + [rng.choice(routes) for _ in range(300 - len(routes))]
    rng.shuffle(plan)
    return [
        _flight(rng, f"HAT{n:03d}", origin, destination) for n, (origin, destination) in enumerate(plan, 1)
    ]


def _clock_text(minutes: int) -> str:
    suffix = "+1" if minutes >= 24 * 60 else ""
    minutes %= 24 * 60
    return f"{minutes // 60:02d}:{minutes % 60:02d}:00{suffix}"


def _flight(rng: random.Random, number: str, origin: str, destination: str) -> Flight:
    departure = rng.randrange(24) * 60
    duration = _distance_minutes(origin, destination)
    dates = {}
    for offset in range(DAYS):
        day = FIRST_DAY + timedelta(days=offset)
        dates[day.strftime("%Y-%m-%d")] = _day(rng, day + timedelta(minutes=departure), duration)
    return Flight(
        flight_number=number,
        origin=origin,
        destination=destination,
        scheduled_departure_time_est=_clock_text(departure),
        scheduled_arrival_time_est=_clock_text(departure + duration),
        dates=dates,
    )


def _stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:00")


def _day(rng: random.Random, departure: datetime, duration: int) -> dict[str, Any]:
    """One day of a flight, by its scheduled departure relative to the clock."""
    if departure.date() > CLOCK.date():
        return {
            "status": "available",
            "available_seats": {cabin: rng.randint(0, 20) for cabin in CABINS},
            "prices": {cabin: rng.randint(*PRICE_RANGES[cabin]) for cabin in CABINS},
        }
    if departure.date() < CLOCK.date() and rng.random() < 0.09:
        return {"status": "cancelled"}
    left = departure + timedelta(minutes=rng.randint(-25, 35))
    arrives = left + timedelta(minutes=duration + rng.randint(-20, 20))
    if arrives <= CLOCK or departure.date() < CLOCK.date():
        return {
            "status": "landed",
            "actual_departure_time_est": _stamp(left),
            "actual_arrival_time_est": _stamp(arrives),
        }
    if left <= CLOCK:
        return {
            "status": "flying",
            "actual_departure_time_est": _stamp(left),
            "estimated_arrival_time_est": _stamp(arrives),
        }
    if rng.random() < 0.4:
        left = departure + timedelta(minutes=rng.randint(40, 200))
        arrives = left + timedelta(minutes=duration + rng.randint(-15, 15))
        return {
            "status": "delayed",
            "estimated_departure_time_est": _stamp(left),
            "estimated_arrival_time_est": _stamp(arrives),
        }
    if left < CLOCK + timedelta(minutes=5):
        left = CLOCK + timedelta(minutes=5)
    return {
        "status": "on time",
        "estimated_departure_time_est": _stamp(left),
        "estimated_arrival_time_est": _stamp(arrives),
    }


# ---------------------------------------------------------------------------------------------
# users


def _birthday(rng: random.Random, first_year: int, last_year: int) -> str:
    day = datetime(first_year, 1, 1) + timedelta(days=rng.randrange((last_year - first_year) * 365))
    return day.strftime("%Y-%m-%d")


def _person(rng: random.Random) -> dict[str, str]:
    return {
        "first_name": rng.choice(FIRST_NAMES),
        "last_name": rng.choice(LAST_NAMES),
        "dob": _birthday(rng, 1945, 2018),
    }


def _address(rng: random.Random) -> dict[str, str]:
    city, state, zip_prefix = rng.choice(CITIES)
    unit = rng.choice(("Suite", "Apt", "Unit"))
    return {
        "address1": f"{rng.randint(10, 9999)} {rng.choice(STREETS)}",
        "address2": f"{unit} {rng.randint(1, 999)}",
        "city": city,
        "country": "USA",
        "state": state,
        "zip": f"{zip_prefix}{rng.randint(0, 99):02d}",
    }


def _payment_methods(rng: random.Random, ids: _Ids) -> dict[str, dict[str, Any]]:
    """One to six methods; always at least one credit card or gift card."""
    methods: dict[str, dict[str, Any]] = {}
    count = rng.choice((1, 2, 2, 2, 3, 3, 3, 4, 4, 5, 6))
    sources = [rng.choice(("credit_card", "credit_card", "gift_card", "certificate")) for _ in range(count)]
    if sources[0] == "certificate":
        sources[0] = rng.choice(("credit_card", "gift_card"))
    for source in sources:
        payment_id = ids.payment(source)
        method: dict[str, Any]
        if source == "credit_card":
            method = {"source": source, "brand": rng.choice(("visa", "mastercard")),
                      "last_four": f"{rng.randint(0, 9999):04d}", "id": payment_id}  # fmt: skip
        elif source == "gift_card":
            method = {"source": source, "amount": rng.randint(0, 300), "id": payment_id}
        else:
            method = {"source": source, "amount": rng.choice((100, 150, 200, 250, 500)), "id": payment_id}
        methods[payment_id] = method
    return methods


def _user(rng: random.Random, ids: _Ids) -> User:
    first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
    return User(
        user_id=f"{first.lower()}_{last.lower()}_{rng.randint(1000, 9999)}",
        name={"first_name": first, "last_name": last},
        address=_address(rng),
        email=f"{first.lower()}.{last.lower()}{rng.randint(1000, 9999)}@example.com",
        dob=_birthday(rng, 1950, 2004),
        payment_methods=_payment_methods(rng, ids),
        saved_passengers=[_person(rng) for _ in range(rng.choice((1, 1, 2)))],
        membership=rng.choice(("regular", "silver", "silver", "gold", "gold")),
        reservations=[],
    )


def _unique_user_ids(rng: random.Random, users: list[User]) -> None:
    seen: set[str] = set()
    for user in users:
        while user.user_id in seen:
            prefix = user.user_id.rsplit("_", 1)[0]
            user.user_id = f"{prefix}_{rng.randint(1000, 9999)}"
        seen.add(user.user_id)


# ---------------------------------------------------------------------------------------------
# reservations


@dataclass
class _Network:
    """Flights by origin, for finding itineraries."""

    flights: list[Flight]
    by_origin: dict[str, list[Flight]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for flight in self.flights:
            self.by_origin.setdefault(flight.origin, []).append(flight)

    def direct(self, origin: str, destination: str) -> list[Flight]:
        return [f for f in self.by_origin.get(origin, []) if f.destination == destination]


def _minutes(text: str) -> int:
    return int(text[:2]) * 60 + int(text[3:5]) + (24 * 60 if text.endswith("+1") else 0)


def _connection(rng: random.Random, net: _Network, first: Flight) -> Flight | None:
    """A second leg from where `first` lands, leaving 1-6 hours after it arrives the same night."""
    arrives = _minutes(first.scheduled_arrival_time_est)
    options = [
        f for f in net.by_origin[first.destination]
        if f.destination != first.origin and 60 <= _minutes(f.scheduled_departure_time_est) - arrives <= 360
    ]  # fmt: skip
    return rng.choice(options) if options else None


def _itinerary(rng: random.Random, net: _Network, origin: str, day: datetime) -> list[dict[str, Any]]:
    """Segments (flight, date) of one direction: a direct flight or a one-stop connection."""
    first = rng.choice(net.by_origin[origin])
    legs = [(first, day)]
    if rng.random() < 0.45:
        second = _connection(rng, net, first)
        if second is not None:
            legs.append((second, day + timedelta(days=1 if "+1" in first.scheduled_arrival_time_est else 0)))
    return [{"flight": flight, "date": when.strftime("%Y-%m-%d")} for flight, when in legs]


def _return_trip(net: _Network, outbound: list[dict[str, Any]], rng: random.Random, day: datetime) -> list:
    start, end = outbound[-1]["flight"].destination, outbound[0]["flight"].origin
    direct = net.direct(start, end)
    if direct:
        return [{"flight": rng.choice(direct), "date": day.strftime("%Y-%m-%d")}]
    for _ in range(20):
        legs = _itinerary(rng, net, start, day)
        if legs[-1]["flight"].destination == end:
            return legs
    return []


def _segment_price(rng: random.Random, flight: Flight, date: str, cabin: str) -> int:
    day = flight.dates[date]
    return day["prices"][cabin] if day["status"] == "available" else rng.randint(*PRICE_RANGES[cabin])


def _travel_day(rng: random.Random) -> datetime:
    """First travel day, weighted towards the coming two weeks."""
    offset = rng.choice([rng.randint(0, 14), rng.randint(15, 26), rng.randint(15, 26)])
    return FIRST_DAY + timedelta(days=offset)


def _created_at(rng: random.Random, first_departure: datetime) -> str:
    latest = min(first_departure - timedelta(hours=3), CLOCK - timedelta(minutes=30))
    earliest = min(latest, max(datetime(2024, 4, 28), first_departure - timedelta(days=14)))
    seconds = int((latest - earliest).total_seconds())
    return (earliest + timedelta(seconds=rng.randint(0, max(seconds, 0)))).strftime("%Y-%m-%dT%H:%M:%S")


def _passengers(rng: random.Random, user: User) -> list[dict[str, str]]:
    count = rng.choice((1, 1, 1, 1, 2, 2, 2, 3, 3, 4))
    people = []
    if rng.random() < 0.8:
        people.append({**user.name, "dob": user.dob})
    pool = list(user.saved_passengers)
    while len(people) < count:
        people.append(pool.pop(0) if pool and rng.random() < 0.6 else _person(rng))
    return [dict(person) for person in people]


def _reservation(rng: random.Random, ids: _Ids, net: _Network, user: User) -> Reservation | None:
    day = _travel_day(rng)
    origin = rng.choice(sorted(net.by_origin))
    outbound = _itinerary(rng, net, origin, day)
    legs = list(outbound)
    round_trip = rng.random() < 0.48
    if round_trip:
        back = day + timedelta(days=rng.randint(1, 5))
        if back >= FIRST_DAY + timedelta(days=DAYS - 1):
            return None
        legs += _return_trip(net, outbound, rng, back)
        if len(legs) == len(outbound):
            return None
    if any(leg["date"] not in leg["flight"].dates for leg in legs):
        return None
    cabin = rng.choice(CABINS)
    passengers = _passengers(rng, user)
    insurance = rng.choice(("yes", "no"))
    segments = [
        {"origin": leg["flight"].origin, "destination": leg["flight"].destination,
         "flight_number": leg["flight"].flight_number, "date": leg["date"],
         "price": _segment_price(rng, leg["flight"], leg["date"], cabin)}
        for leg in legs
    ]  # fmt: skip
    total = sum(s["price"] for s in segments) * len(passengers) + (
        30 * len(passengers) if insurance == "yes" else 0
    )
    payers = [m["id"] for m in user.payment_methods.values() if m["source"] != "certificate"]
    departure = datetime.fromisoformat(
        legs[0]["date"] + "T" + legs[0]["flight"].scheduled_departure_time_est[:8]
    )
    return Reservation(
        reservation_id=ids.reservation(),
        user_id=user.user_id,
        origin=origin,
        destination=outbound[-1]["flight"].destination,
        flight_type="round_trip" if round_trip else "one_way",
        cabin=cabin,
        flights=segments,
        passengers=passengers,
        payment_history=[{"payment_id": rng.choice(payers), "amount": total}],
        created_at=_created_at(rng, departure),
        total_baggages=rng.choice((0, 0, 0, 0, 1, 1, 1, 2, 2, 3, 4, 5)),
        nonfree_baggages=0,
        insurance=insurance,
    )


def _reservations(
    rng: random.Random, ids: _Ids, flights: list[Flight], users: list[User]
) -> list[Reservation]:
    net = _Network(flights)
    reservations: list[Reservation] = []
    for user in users:
        wanted = rng.choice((0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5, 5, 6, 6, 7, 8))
        while len(user.reservations) < wanted:
            reservation = _reservation(rng, ids, net, user)
            if reservation is not None:
                reservations.append(reservation)
                user.reservations.append(reservation.reservation_id)
    return reservations
