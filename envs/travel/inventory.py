"""The bookable inventory of the travel seed: 20 destinations, each with six hotels, the car-rental
offers of three companies and four holiday packages with five departures each."""

from __future__ import annotations

import random

from taue.envs.runtime.money import whole
from taue.envs.travel.models import CarOffer, HolidayPackage, Hotel
from taue.envs.travel.rules import TODAY, days_between, non_refundable, shift

DESTINATIONS: tuple[tuple[str, str], ...] = (
    ("Lisbon", "Portugal"), ("Porto", "Portugal"), ("Barcelona", "Spain"), ("Seville", "Spain"),
    ("Rome", "Italy"), ("Florence", "Italy"), ("Naples", "Italy"), ("Nice", "France"), ("Paris", "France"),
    ("Amsterdam", "Netherlands"), ("Dublin", "Ireland"), ("Edinburgh", "United Kingdom"),
    ("Reykjavik", "Iceland"), ("Vienna", "Austria"), ("Prague", "Czechia"), ("Athens", "Greece"),
    ("Dubrovnik", "Croatia"), ("Marrakech", "Morocco"), ("Cancun", "Mexico"), ("Kyoto", "Japan"),
)  # fmt: skip
HOTEL_PREFIXES = (
    "Harbour", "Lantern", "Olive", "Cobalt", "Juniper", "Meridian", "Saffron", "Linden", "Azure", "Granite",
    "Orchard", "Palisade", "Cypress", "Beacon", "Verbena", "Marble",
)  # fmt: skip
HOTEL_SUFFIXES = ("House", "Hotel", "Suites", "Residence", "Inn", "Palace", "Lodge", "Boutique Hotel")
STREETS = (
    "Rua das Flores", "Market Street", "Old Town Square", "Riverside Walk", "Station Road",
    "Cathedral Lane", "Seafront Avenue", "Garden Row",
)  # fmt: skip
ROOM_FACTORS = {"standard": 1.0, "deluxe": 1.35, "family": 1.6, "suite": 2.1}
STAR_RATES = {3: (85, 140), 4: (140, 225), 5: (230, 420)}
CAR_CLASSES: dict[str, tuple[int, int, int, str, int]] = {
    # class: (min driver age, lowest and highest daily rate, example model, seats)
    "economy": (21, 29, 44, "Fiat Panda", 4),
    "compact": (21, 38, 55, "VW Golf", 5),
    "midsize": (21, 49, 68, "Toyota Corolla", 5),
    "suv": (25, 69, 96, "Nissan Qashqai", 5),
    "van": (25, 84, 118, "Ford Transit Custom", 8),
    "premium": (25, 96, 145, "BMW 5 Series", 5),
}
COMPANIES = ("Avelo Rent", "Brightway Cars", "Coastline Car Hire")
BREAKFAST, FLIGHTS = "hotel with breakfast", "return flights"
PACKAGE_STYLES = (
    ("City Break", 4, (FLIGHTS, BREAKFAST, "airport transfers")),
    ("Food & Wine Week", 7, (FLIGHTS, BREAKFAST, "two cooking classes", "wine tasting")),
    ("Coast & Culture", 7, (FLIGHTS, "hotel with half board", "guided walking tour", "boat day trip")),
    ("Grand Discovery", 10, (FLIGHTS, "hotels with breakfast", "rail pass", "three guided tours")),
    ("Long Weekend", 3, (FLIGHTS, "hotel room only")),
)


def hotels(rng: random.Random) -> dict[str, list[Hotel]]:
    hotels: dict[str, list[Hotel]] = {}
    number = 1
    for city, country in DESTINATIONS:
        names: set[str] = set()
        while len(names) < 6:
            names.add(f"{rng.choice(HOTEL_PREFIXES)} {rng.choice(HOTEL_SUFFIXES)} {city}")
        for name in sorted(names):
            stars = rng.choice((3, 3, 4, 4, 4, 5))
            base = rng.randint(*STAR_RATES[stars])
            kinds = ["standard", *sorted(rng.sample(("deluxe", "family", "suite"), rng.randint(1, 3)))]
            rooms = {}
            for kind in kinds:
                flexible = whole(base * ROOM_FACTORS[kind])
                rooms[kind] = {
                    "flexible": flexible,
                    "non_refundable": non_refundable(flexible),
                    "rooms_left": rng.choice((0, 1, 2, 3, 4, 5, 6, 8, 10)),
                }
            hotels.setdefault(city, []).append(
                Hotel(
                    hotel_id=f"HTL{number:04d}",
                    name=name,
                    city=city,
                    country=country,
                    stars=stars,
                    address=f"{rng.randint(1, 240)} {rng.choice(STREETS)}, {city}",
                    rooms=rooms,
                )
            )
            number += 1
    return hotels


def cars(rng: random.Random) -> dict[str, list[CarOffer]]:
    offers: dict[str, list[CarOffer]] = {}
    number = 1
    for city, _ in DESTINATIONS:
        for company in COMPANIES:
            for car_class, (age, low, high, model, seats) in CAR_CLASSES.items():
                if rng.random() < 0.2:
                    continue
                offers.setdefault(city, []).append(
                    CarOffer(
                        car_id=f"CAR{number:04d}",
                        city=city,
                        company=company,
                        car_class=car_class,
                        example_model=model,
                        seats=seats,
                        transmission=rng.choice(("manual", "automatic")),
                        daily_rate=float(rng.randint(low, high)),
                        min_driver_age=age,
                        cars_left=rng.choice((0, 1, 2, 3, 4, 6)),
                    )
                )
                number += 1
    return offers


def departures(rng: random.Random, soon: bool) -> dict[str, int]:
    """Five departures until the end of October; with `soon`, the first leaves within the week."""
    days = sorted(rng.sample(range(days_between(TODAY, "2025-06-09"), days_between(TODAY, "2025-10-30")), 5))
    if soon:
        days[0] = rng.randint(2, 6)
    return {shift(TODAY, d): rng.choice((0, 2, 4, 6, 8, 10, 12, 16, 20)) for d in days}


def packages(rng: random.Random) -> dict[str, list[HolidayPackage]]:
    packages: dict[str, list[HolidayPackage]] = {}
    number = 1
    for city, country in DESTINATIONS:
        for style, nights, includes in rng.sample(PACKAGE_STYLES, 4):
            packages.setdefault(city, []).append(
                HolidayPackage(
                    package_id=f"PKG{number:03d}",
                    name=f"{city} {style}",
                    destination=city,
                    country=country,
                    nights=nights,
                    price_per_person=float(rng.randint(110, 260) * nights // 10 * 10),
                    max_travellers=rng.choice((4, 4, 6, 6, 8)),
                    includes=list(includes),
                    departures=departures(rng, soon=number % 3 == 1),
                )
            )
            number += 1
    return packages
