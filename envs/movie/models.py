"""Movie tables: theatres, films, showtimes, guest accounts and ticket orders of Lumen Cinemas.

Nested values (seat lists, payment methods, membership) and every money amount live in JSON text
columns, so list order and `12.5` vs `12` survive exactly. `to_record()` gives the JSON record a
tool shows for a row.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import registry
from sqlmodel import Field

from taue.envs.runtime.database import DomainTable, JSONText

ROWS = "ABCDEFGH"
SEATS_PER_ROW = 12
PREMIUM_ROWS = "GH"
"""Recliner rows at the back of every auditorium."""
ACCESSIBLE_SEATS = ("A1", "A2", "A11", "A12")
"""Wheelchair spaces with a companion seat, priced as standard seats."""


def seat_type(seat: str) -> str:
    """'standard', 'premium' or 'accessible' for a seat label such as 'G7'."""
    if seat in ACCESSIBLE_SEATS:
        return "accessible"
    return "premium" if seat[0] in PREMIUM_ROWS else "standard"


def all_seats() -> list[str]:
    return [f"{row}{number}" for row in ROWS for number in range(1, SEATS_PER_ROW + 1)]


class MovieTable(DomainTable, registry=registry()):
    """Base of the movie tables (a record is every column, in declared order)."""


class Theatre(MovieTable, table=True):
    """One cinema of the chain."""

    __tablename__ = "theatres"

    theatre_id: str = Field(primary_key=True)
    name: str
    address: str
    city: str
    phone: str
    auditoriums: int
    imax: bool


class Film(MovieTable, table=True):
    """A film now showing."""

    __tablename__ = "films"

    film_id: str = Field(primary_key=True)
    title: str
    rating: str
    runtime_minutes: int
    genre: str
    release_date: str


class Showtime(MovieTable, table=True):
    """One screening: film, theatre, auditorium, start, format, seat prices and sold seats."""

    __tablename__ = "showtimes"

    showtime_id: str = Field(primary_key=True)
    film_id: str = Field(index=True)
    theatre_id: str = Field(index=True)
    auditorium: int
    starts_at: str = Field(index=True)
    """Local time, 'YYYY-MM-DDTHH:MM:00'."""
    format: str
    prices: dict[str, float] = Field(sa_type=JSONText)
    """Seat type -> price of one ticket."""
    sold_seats: list[str] = Field(default_factory=list, sa_type=JSONText)


class Account(MovieTable, table=True):
    """A guest account: contact details, payment methods, membership and order ids."""

    __tablename__ = "accounts"

    account_id: str = Field(primary_key=True)
    first_name: str
    last_name: str
    email: str = Field(index=True)
    phone: str
    birth_date: str
    home_theatre_id: str
    payment_methods: dict[str, dict[str, Any]] = Field(default_factory=dict, sa_type=JSONText)
    """Payment id -> {type: credit_card, brand, last_four} or {type: gift_card, balance}."""
    membership: dict[str, Any] = Field(default_factory=dict, sa_type=JSONText)
    """{tier, status, member_since, tier_changed_on, credits, monthly_fee, cancelled_on}; {} for a guest
    who was never a member."""
    orders: list[str] = Field(default_factory=list, sa_type=JSONText)


class Order(MovieTable, table=True):
    """A ticket order for one showtime; exchanges change it in place and are kept in `history`."""

    __tablename__ = "orders"

    order_id: str = Field(primary_key=True)
    account_id: str = Field(index=True)
    showtime_id: str
    seats: list[dict[str, Any]] = Field(sa_type=JSONText)
    """[{seat, type, price}] in the order the guest chose them."""
    credits_used: int
    booking_fee: float = Field(sa_type=JSONText)
    amount_charged: float = Field(sa_type=JSONText)
    """What the payment method paid in all (purchase and any exchange charges)."""
    payment_id: str
    status: str
    """'confirmed' (upcoming), 'completed' (the show has run) or 'refunded'."""
    created_at: str
    refund_amount: float | None = Field(default=None, sa_type=JSONText)
    history: list[dict[str, Any]] = Field(default_factory=list, sa_type=JSONText)


TABLES = (Account, Film, Order, Showtime, Theatre)
