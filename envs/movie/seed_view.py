"""Movie's seed records as the Tracer reads them (docs/tracer.md): an indexed view, the customers
and the phrasing helpers its intents and policy check share."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, datetime
from functools import cached_property
from typing import Any

from taue.contracts.tasks import Action
from taue.envs.movie import models as m
from taue.envs.movie.generate import generate
from taue.envs.movie.rules import (
    BOOKING_FEE,
    CLOCK,
    EXCHANGE_FEE,
    refund_fee,
)
from taue.envs.movie.rules import CUTOFF as CUTOFF_BEFORE_SHOW
from taue.envs.runtime.authoring import Customer, Lookups
from taue.envs.runtime.database import primary_key
from taue.envs.runtime.money import cents

Record = dict[str, Any]
Rng = random.Random

NOW = datetime.fromisoformat(CLOCK)
TODAY = date.fromisoformat(CLOCK[:10])
CUTOFF = (NOW + CUTOFF_BEFORE_SHOW).strftime("%Y-%m-%dT%H:%M:00")
"""Exchanges and refunds are possible for shows starting at or after this moment."""
TIER_WORDS = {"plus": "Lumen Plus", "premiere": "Lumen Premiere", "cancel": "cancel the membership"}
FORMAT_WORDS = {"standard": "", "3d": "3D ", "imax": "IMAX "}

PERSONAS = (
    "a film student who sees every new release on opening weekend",
    "a parent organising a birthday outing for the kids",
    "a retired teacher who goes to the Tuesday matinees",
    "a night-shift nurse who catches late shows on days off",
    "a couple planning a date night",
    "a horror fan who always sits in the back row",
    "a busy lawyer booking between meetings",
    "a grandparent taking the grandchildren to a cartoon",
    "a wheelchair user who plans every outing carefully",
    "a college student on a tight budget",
    "a movie club organiser booking for friends",
    "a sci-fi enthusiast who only watches in IMAX",
)


@dataclass
class View:
    accounts: dict[str, Record]
    orders: dict[str, Record]
    showtimes: dict[str, Record]
    films: dict[str, Record]
    theatres: dict[str, Record]

    @cached_property
    def on_sale(self) -> list[Record]:
        """Showtimes still on sale at the clock, in id order."""
        return [s for _, s in sorted(self.showtimes.items()) if s["starts_at"] > CLOCK]

    @cached_property
    def by_film(self) -> dict[str, list[Record]]:
        found: dict[str, list[Record]] = {}
        for show in self.on_sale:
            found.setdefault(show["film_id"], []).append(show)
        return found

    def day_shows(self, theatre_id: str, day: str, film_id: str | None = None) -> list[Record]:
        """What search_showtimes lists for a theatre and day (optionally one film), in its order."""
        shows = [
            s
            for s in self.showtimes.values()
            if s["theatre_id"] == theatre_id and s["starts_at"].startswith(day)
            and (film_id is None or s["film_id"] == film_id)
        ]  # fmt: skip
        return sorted(shows, key=lambda s: (s["starts_at"], s["auditorium"]))

    def orders_of(self, account_id: str, *statuses: str) -> list[Record]:
        return [
            self.orders[o]
            for o in self.accounts[account_id]["orders"]
            if not statuses or self.orders[o]["status"] in statuses
        ]

    def order_lookups(self, order: Record) -> Lookups:
        ids = self.accounts[order["account_id"]]["orders"]
        return Lookups(tuple(ids[: ids.index(order["order_id"]) + 1]))

    def show_of(self, order: Record) -> Record:
        return self.showtimes[order["showtime_id"]]

    def distinct_orders(self, account_id: str, *statuses: str) -> list[Record]:
        """Orders the guest can describe unambiguously (film, theatre and start), newest show first."""
        mine = self.orders_of(account_id)
        words = [order_key(self, o) for o in mine]
        return [o for o in self.orders_of(account_id, *statuses) if words.count(order_key(self, o)) == 1]

    def member(self, account_id: str) -> bool:
        return self.accounts[account_id]["membership"].get("status") == "active"


def load(seed: int) -> View:
    rows = generate(seed)
    by_type: dict[type, dict[str, Record]] = {}
    for row in rows:
        if isinstance(row, m.MovieTable):
            by_type.setdefault(type(row), {})[getattr(row, primary_key(type(row)))] = row.to_record()
    return View(
        accounts=by_type[m.Account],
        orders=by_type[m.Order],
        showtimes=by_type[m.Showtime],
        films=by_type[m.Film],
        theatres=by_type[m.Theatre],
    )


def customers(view: View) -> list[Customer]:
    result = []
    for index, (account_id, account) in enumerate(sorted(view.accounts.items())):
        name = f"{account['first_name']} {account['last_name']}"
        details = Action(name="get_account_details", arguments={"account_id": account_id})
        if index % 3 == 2:
            known = {"lumen_account": account_id}
            identity: tuple[Action, ...] = (details,)
        else:
            known = {"email": account["email"], "phone": account["phone"]}
            identity = (Action(name="find_account_by_email_phone", arguments=known), details)
        result.append(Customer(account_id, name, identity, known, {"account_id": account_id}))
    return result


# ------------------------------------------------------------------------------------------- phrasing


def long_day(day: str) -> str:
    moment = date.fromisoformat(day[:10])
    return f"{moment.strftime('%A')} {day[:10]}"


def clock_time(starts_at: str) -> str:
    return starts_at[11:16]


def show_words(view: View, show: Record) -> str:
    film = view.films[show["film_id"]]["title"]
    theatre = view.theatres[show["theatre_id"]]["name"]
    kind = FORMAT_WORDS[show["format"]]
    when = long_day(show["starts_at"])
    return f"the {clock_time(show['starts_at'])} {kind}showing of {film} at {theatre} on {when}"


def order_key(view: View, order: Record) -> tuple[str, str, str]:
    show = view.show_of(order)
    return show["film_id"], show["theatre_id"], show["starts_at"]


def order_words(view: View, order: Record) -> str:
    count = len(order["seats"])
    tickets = "ticket" if count == 1 else f"{count} tickets"
    return f"your {tickets} for {show_words(view, view.show_of(order))}"


def seat_words(seats: list[str]) -> str:
    return seats[0] if len(seats) == 1 else ", ".join(seats[:-1]) + f" and {seats[-1]}"


def card_words(method: Record) -> str:
    if method["type"] == "credit_card":
        return f"{method['brand'].title()} card ending in {method['last_four']}"
    return "gift card"


def open_block(show: Record, count: int, kind: str, rng: Rng) -> list[str] | None:
    """`count` open seats side by side in one row of the seat type `kind`, or None."""
    rows = [r for r in m.ROWS if (r in m.PREMIUM_ROWS) == (kind == "premium")]
    rng.shuffle(rows)
    for row in rows:
        firsts = list(range(1, m.SEATS_PER_ROW - count + 2))
        rng.shuffle(firsts)
        for first in firsts:
            seats = [f"{row}{n}" for n in range(first, first + count)]
            if all(m.seat_type(s) == kind and s not in show["sold_seats"] for s in seats):
                return seats
    return None


def seat_total(show: Record, seats: list[str]) -> float:
    return sum(show["prices"][m.seat_type(s)] for s in seats)


def purchase_amount(view: View, account_id: str, show: Record, seats: list[str], credits: int) -> float:
    fee = 0.0 if view.member(account_id) else BOOKING_FEE * len(seats)
    return cents(seat_total(show, seats) - credits * show["prices"]["standard"] + fee, rule="half_up")


def exchange_charge(view: View, order: Record, show: Record, seats: list[str]) -> float:
    difference = seat_total(show, seats) - sum(line["price"] for line in order["seats"])
    fee = 0.0 if view.member(order["account_id"]) else EXCHANGE_FEE * len(seats)
    return cents(max(0.0, difference) + fee, rule="half_up")


def refund_amount(view: View, order: Record) -> float:
    fee = refund_fee(view.accounts[order["account_id"]]["membership"]) * len(order["seats"])
    return cents(max(0.0, order["amount_charged"] - order["booking_fee"] - fee), rule="half_up")


def days_since(day: str) -> int:
    return (TODAY - date.fromisoformat(day)).days
