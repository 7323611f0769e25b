"""Deterministic movie seed data: 5 theatres, 16 films, about 2000 showtimes, 400 guest accounts and
about 2400 ticket orders of the Lumen Cinemas chain.

Everything comes from one `random.Random(seed)`; nothing reads the machine's clock. Showtimes run
from 2025-03-03 to 2025-03-26 around the simulated clock (`rules.CLOCK`, a Friday noon), so orders are
completed, upcoming, inside the two-hour cut-off or refunded, and memberships are old or new.
"""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta
from typing import Any

from sqlmodel import SQLModel

from taue.envs.movie.models import (
    ROWS,
    SEATS_PER_ROW,
    Account,
    Film,
    Order,
    Showtime,
    Theatre,
    all_seats,
    seat_type,
)
from taue.envs.movie.rules import BOOKING_FEE, CLOCK, TIERS, refund_fee
from taue.envs.runtime.money import cents

NOW = datetime.fromisoformat(CLOCK)
FIRST_DAY = date(2025, 3, 3)
DAYS = 24
ACCOUNT_COUNT = 400
FORMAT_SURCHARGE = {"standard": 0.0, "3d": 3.0, "imax": 5.0}
PREMIUM_SURCHARGE = 4.0

# theatre id, name, address, city, phone, auditoriums, imax
THEATRES = (
    ("harborview", "Lumen Harborview", "210 Pier Street", "Portland", "(503) 555-0142", 6, True),
    ("maplewood", "Lumen Maplewood", "88 Maplewood Plaza", "Beaverton", "(503) 555-0177", 5, False),
    ("foundry", "Lumen Foundry", "14 Foundry Lane", "Portland", "(503) 555-0119", 4, False),
    ("riverside", "Lumen Riverside", "1200 River Road", "Vancouver", "(360) 555-0163", 6, True),
    ("summit", "Lumen Summit", "5 Summit Crossing", "Gresham", "(503) 555-0188", 5, False),
)
# film id, title, rating, runtime, genre, release date
FILMS = (
    ("F101", "The Lantern Keeper", "PG-13", 128, "fantasy", "2025-02-14"),
    ("F102", "Salt and Static", "R", 114, "thriller", "2025-02-21"),
    ("F103", "Paper Comets", "PG", 96, "animation", "2025-02-28"),
    ("F104", "Northbound Nine", "PG-13", 142, "action", "2025-02-28"),
    ("F105", "A Quiet Harvest", "PG", 109, "drama", "2025-01-31"),
    ("F106", "Midnight at the Aurora", "R", 121, "horror", "2025-03-07"),
    ("F107", "The Cartographer's Daughter", "PG-13", 136, "adventure", "2025-03-07"),
    ("F108", "Velvet Circuit", "PG-13", 118, "sci-fi", "2025-03-07"),
    ("F109", "Fielding Season", "PG", 104, "comedy", "2025-02-07"),
    ("F110", "Ironwood", "R", 131, "war", "2025-03-14"),
    ("F111", "Mossy and the Moon", "G", 88, "animation", "2025-03-14"),
    ("F112", "Second Verse", "PG-13", 112, "musical", "2025-03-14"),
    ("F113", "Glasshouse", "R", 99, "thriller", "2025-03-21"),
    ("F114", "Tidewater", "PG-13", 125, "drama", "2025-03-21"),
    ("F115", "Starling Road", "PG", 101, "family", "2025-03-21"),
    ("F116", "Orbit of Ashes", "PG-13", 158, "sci-fi", "2025-02-21"),
)  # fmt: skip
BIG_SCREEN = ("F104", "F107", "F108", "F110", "F116")
"""Films that get the IMAX and 3D screens."""

FIRST_NAMES = (
    "Maya", "Theo", "Ines", "Jonah", "Priya", "Lucas", "Amara", "Felix", "Hana", "Diego",
    "Clara", "Omar", "Freya", "Mateo", "Leila", "Ravi", "Sofia", "Emil", "Nadia", "Kenji",
    "Zoe", "Arlo", "Yara", "Milo", "Elena", "Tariq", "Greta", "Idris", "Lena", "Caleb",
    "Noor", "Vera", "Bruno", "Aisha", "Hugo", "Mei", "Oscar", "Rosa", "Silas", "Tova",
)  # fmt: skip
LAST_NAMES = (
    "Okafor", "Lindgren", "Moreau", "Castillo", "Nakamura", "Brennan", "Haddad", "Kowalski",
    "Fairbanks", "Iyer", "Delgado", "Whitlock", "Sorensen", "Abara", "Quinlan", "Petrova",
    "Vance", "Takeda", "Marchetti", "Holt", "Ferreira", "Ashworth", "Ruiz", "Novak",
    "Osei", "Larsen", "Mendez", "Calloway", "Yilmaz", "Duarte", "Kimura", "Beaumont",
)  # fmt: skip


def generate(seed: int) -> list[SQLModel]:
    """All seed rows for `seed`; the same seed gives the same rows."""
    rng = random.Random(seed)
    theatres = [Theatre(theatre_id=t[0], name=t[1], address=t[2], city=t[3], phone=t[4], auditoriums=t[5],
                        imax=t[6]) for t in THEATRES]  # fmt: skip
    films = [Film(film_id=f[0], title=f[1], rating=f[2], runtime_minutes=f[3], genre=f[4], release_date=f[5])
             for f in FILMS]  # fmt: skip
    showtimes = _showtimes(rng, theatres)
    accounts = [_account(rng, index) for index in range(ACCOUNT_COUNT)]
    _unique_contacts(rng, accounts)
    orders = _orders(rng, accounts, showtimes)
    _fill_houses(rng, showtimes)
    return [*theatres, *films, *showtimes, *sorted(accounts, key=lambda a: a.account_id), *orders]


# ---------------------------------------------------------------------------------------- showtimes


def _playing(day: date) -> list[str]:
    """Films released by `day` and at most seven weeks old."""
    return [f[0] for f in FILMS if date.fromisoformat(f[5]) <= day < date.fromisoformat(f[5]) + timedelta(49)]


def _week_programme(rng: random.Random, theatre: Theatre, week_start: date) -> list[tuple[str, str]]:
    """(film id, format) per auditorium for one Friday-to-Thursday week."""
    films = _playing(week_start)
    big = [f for f in films if f in BIG_SCREEN] or films
    programme = []
    for auditorium in range(1, theatre.auditoriums + 1):
        if auditorium == 1 and theatre.imax:
            programme.append((rng.choice(big), "imax"))
        elif auditorium == 2:
            programme.append((rng.choice(big), "3d"))
        else:
            programme.append((rng.choice(films), "standard"))
    return programme


def price_list(start: datetime, show_format: str) -> dict[str, float]:
    """Ticket prices by seat type: Tuesday value day, matinee before 16:00, evening after."""
    base = 8.5 if start.weekday() == 1 else 11.5 if start.hour < 16 else 14.5
    standard = base + FORMAT_SURCHARGE[show_format]
    return {"standard": standard, "premium": standard + PREMIUM_SURCHARGE, "accessible": standard}


def _showtimes(rng: random.Random, theatres: list[Theatre]) -> list[Showtime]:
    showtimes: list[Showtime] = []
    runtimes = {f[0]: f[3] for f in FILMS}
    for theatre in theatres:
        programme: list[tuple[str, str]] = []
        for offset in range(DAYS):
            day = FIRST_DAY + timedelta(days=offset)
            if not programme or day.weekday() == 4:  # the programme changes on Fridays
                programme = _week_programme(rng, theatre, day)
            for auditorium, (film_id, show_format) in enumerate(programme, 1):
                start = datetime.combine(day, datetime.min.time()) + timedelta(
                    minutes=rng.choice((690, 705, 720, 750, 780, 810, 840, 870))
                )
                last = datetime.combine(day, datetime.min.time()) + timedelta(hours=22, minutes=30)
                for _ in range(rng.choice((3, 4, 4))):
                    if start > last:
                        break
                    showtimes.append(Showtime(
                        showtime_id=f"ST{10001 + len(showtimes)}", film_id=film_id,
                        theatre_id=theatre.theatre_id, auditorium=auditorium,
                        starts_at=start.strftime("%Y-%m-%dT%H:%M:00"), format=show_format,
                        prices=price_list(start, show_format), sold_seats=[],
                    ))  # fmt: skip
                    gap = runtimes[film_id] + rng.choice((40, 50, 60, 75))
                    start += timedelta(minutes=(gap + 4) // 5 * 5)
    return showtimes


def _fill_houses(rng: random.Random, showtimes: list[Showtime]) -> None:
    """Other guests' seats: from empty houses to sold-out ones."""
    seats = all_seats()
    for show in showtimes:
        share = rng.choice((0.0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.75, 0.9, 1.0))
        free = [s for s in seats if s not in show.sold_seats]
        wanted = round(share * len(seats)) - len(show.sold_seats)
        if wanted > 0:
            show.sold_seats += rng.sample(free, min(wanted, len(free)))
        show.sold_seats = sorted(show.sold_seats, key=seat_order)


def seat_order(seat: str) -> tuple[int, int]:
    return ROWS.index(seat[0]), int(seat[1:])


# ----------------------------------------------------------------------------------------- accounts


def _day(rng: random.Random, first: date, last: date) -> str:
    return (first + timedelta(days=rng.randint(0, (last - first).days))).isoformat()


def _payment_methods(rng: random.Random, number: int) -> dict[str, dict[str, Any]]:
    methods: dict[str, dict[str, Any]] = {}
    for index in range(rng.choice((1, 1, 2, 2, 2, 3))):
        key = f"card_{number:04d}{index}"
        brand = rng.choice(("visa", "mastercard", "amex", "visa"))
        methods[key] = {"type": "credit_card", "brand": brand, "last_four": f"{rng.randint(0, 9999):04d}"}
    if rng.random() < 0.45:
        key = f"gift_{number:04d}{len(methods)}"
        methods[key] = {
            "type": "gift_card",
            "balance": rng.choice((0.0, 5.0, 12.5, 20.0, 25.0, 40.0, 50.0, 75.0)),
        }
    return methods


def _membership(rng: random.Random) -> dict[str, Any]:
    draw = rng.random()
    if draw < 0.42:
        return {}
    tier = "plus" if draw < 0.78 else "premiere"
    status = rng.choice(("active",) * 8 + ("past_due", "cancelled"))
    recent = rng.random() < 0.35
    since = (
        _day(rng, date(2024, 12, 16), date(2025, 3, 10))
        if recent
        else _day(rng, date(2022, 1, 10), date(2024, 12, 1))
    )
    changed = since
    if rng.random() < 0.45:  # a tier change, often a recent one
        start = max(date.fromisoformat(since), date(2025, 2, 1) if rng.random() < 0.6 else date(2022, 1, 10))
        changed = _day(rng, start, date(2025, 3, 12))
    allowance = int(TIERS[tier]["credits"])
    membership = {
        "tier": tier, "status": status, "member_since": since, "tier_changed_on": changed,
        "credits": 0 if status == "cancelled" else rng.randint(0, 2 * allowance),
        "monthly_fee": TIERS[tier]["monthly_fee"], "cancelled_on": None,
    }  # fmt: skip
    if status == "cancelled":
        membership["cancelled_on"] = _day(
            rng, max(date.fromisoformat(changed), date(2024, 6, 1)), date(2025, 3, 12)
        )
    return membership


def _account(rng: random.Random, index: int) -> Account:
    first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
    return Account(
        account_id=f"LM{rng.randint(100000, 999999)}",
        first_name=first,
        last_name=last,
        email=f"{first.lower()}.{last.lower()}{rng.randint(10, 99)}@example.com",
        phone=f"(503) 555-{rng.randint(1000, 9999)}",
        birth_date=_day(rng, date(1950, 1, 1), date(2006, 12, 31)),
        home_theatre_id=rng.choice(THEATRES)[0],
        payment_methods=_payment_methods(rng, index),
        membership=_membership(rng),
        orders=[],
    )


def _unique_contacts(rng: random.Random, accounts: list[Account]) -> None:
    ids, emails, phones = set(), set(), set()
    for account in accounts:
        while account.account_id in ids:
            account.account_id = f"LM{rng.randint(100000, 999999)}"
        while account.email in emails:
            account.email = (
                f"{account.first_name.lower()}.{account.last_name.lower()}{rng.randint(100, 999)}@example.com"
            )
        while account.phone in phones:
            account.phone = f"(503) 555-{rng.randint(1000, 9999)}"
        ids.add(account.account_id)
        emails.add(account.email)
        phones.add(account.phone)


# ------------------------------------------------------------------------------------------- orders


def _block(rng: random.Random, show: Showtime, count: int) -> list[str] | None:
    """`count` free seats side by side in one row, or None."""
    rows = list(ROWS)
    rng.shuffle(rows)
    for row in rows:
        starts = list(range(1, SEATS_PER_ROW - count + 2))
        rng.shuffle(starts)
        for first in starts:
            seats = [f"{row}{n}" for n in range(first, first + count)]
            if not set(seats) & set(show.sold_seats):
                return seats
    return None


def _order(rng: random.Random, number: int, account: Account, show: Showtime) -> Order | None:
    count = rng.choice((1, 2, 2, 2, 2, 3, 4, 4, 5, 6))
    seats = _block(rng, show, count)
    if seats is None:
        return None
    start = datetime.fromisoformat(show.starts_at)
    member = account.membership.get("status") == "active"
    credits = min(count, rng.choice((1, 2))) if member and rng.random() < 0.4 else 0
    lines: list[dict[str, Any]] = [
        {"seat": s, "type": seat_type(s), "price": show.prices[seat_type(s)]} for s in seats
    ]
    fee = 0.0 if member else cents(BOOKING_FEE * count)
    charged = cents(sum(line["price"] for line in lines) - credits * show.prices["standard"] + fee)
    created = min(start - timedelta(hours=rng.randint(3, 240)), NOW - timedelta(hours=rng.randint(1, 30)))
    order = Order(
        order_id=f"LO-{number}", account_id=account.account_id, showtime_id=show.showtime_id, seats=lines,
        credits_used=credits, booking_fee=fee, amount_charged=charged,
        payment_id=rng.choice(sorted(account.payment_methods)),
        status="completed" if start <= NOW else "confirmed", created_at=created.strftime("%Y-%m-%dT%H:%M:00"),
        history=[{"event": "purchased", "at": created.strftime("%Y-%m-%dT%H:%M:00"), "amount": charged}],
    )  # fmt: skip
    if rng.random() < 0.08 and start > created + timedelta(hours=3):
        amount = cents(max(0.0, charged - fee - refund_fee(account.membership) * count))
        order.status, order.refund_amount = "refunded", amount
        order.history.append({"event": "refunded", "at": order.created_at, "amount": amount})
    else:
        show.sold_seats += seats
    return order


def _orders(rng: random.Random, accounts: list[Account], showtimes: list[Showtime]) -> list[Order]:
    orders: list[Order] = []
    for account in accounts:
        wanted = rng.choice((0, 1, 2, 3, 4, 5, 6, 6, 7, 8, 9, 10, 12))
        mine: list[Order] = []
        while len(mine) < wanted:
            show = rng.choice(showtimes)
            order = _order(rng, 500001 + len(orders), account, show)
            if order is not None:
                mine.append(order)
                orders.append(order)
        account.orders = [o.order_id for o in sorted(mine, key=lambda o: (o.created_at, o.order_id))]
    return orders
